// NaN and Infinity in the data propagate as IEEE arithmetic does; they are not errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { attention64, maxAbsDiff } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { tools } from './inputs.mjs';
import { attn, useInstance } from './checks.mjs';

useInstance();

describe('NaN and Infinity in the data propagate; they are not errors', () => {
  const shape = { qNumHeads: 2, kvNumHeads: 1, headSize: 3, vHeadSize: 2 };
  const t = tools(seededRandom(42));
  const q = t.floats(2 * 4 * 3);
  const k = t.floats(5 * 3);
  const v = t.floats(5 * 2);

  test('a NaN in one query row makes exactly that output row NaN', () => {
    const reference = attn.attention(q, k, v, shape);
    const poisoned = q.slice();
    poisoned[1 * 3 + 1] = NaN; // head 0, query row 1
    const y = attn.attention(poisoned, k, v, shape);
    for (let row = 0; row < 8; row++) {
      const out = Array.from(y.subarray(row * 2, row * 2 + 2));
      if (row === 1) assert.ok(out.every(Number.isNaN), `row ${row}: ${out}`);
      else assert.deepEqual(out, Array.from(reference.subarray(row * 2, row * 2 + 2)));
    }
  });

  test('+Infinity in an attended value makes that column infinite, not an error', () => {
    const infinite = v.slice();
    infinite[2 * 2 + 1] = Infinity; // key 2, value column 1
    const y = attn.attention(q, k, infinite, shape);
    for (let row = 0; row < 8; row++) {
      assert.ok(Number.isFinite(y[row * 2]), `row ${row}, column 0 stays finite`);
      assert.equal(y[row * 2 + 1], Infinity, `row ${row}, column 1`);
    }
  });

  test('-Infinity in an additive mask hides a key exactly like a boolean 0', () => {
    const additive = { data: new Float32Array([0, -Infinity, 0, 0, -Infinity]), shape: [5] };
    const boolean = { data: new Uint8Array([1, 0, 1, 1, 0]), shape: [5] };
    const a = attn.attention(q, k, v, { ...shape, attnMask: additive });
    const b = attn.attention(q, k, v, { ...shape, attnMask: boolean });
    assert.ok(maxAbsDiff(a, b) <= 1e-6);
    assert.ok(maxAbsDiff(a, attention64(q, k, v, { ...shape, attnMask: additive })) <= 1e-5);
  });
});
