// trace() takes attention()'s options record: the options OPTION_FIELDS gives to 'trace', read
// and checked by the same rules and passed through the same score step as attention()'s. The
// softcap (which trace() did not take before it shared the record): each head's scores, outputs
// and gradients against the float64 references given the same softcap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { OPTION_FIELDS, optionNames } from '../../src/js/attention/attention-options.mjs';
import { attention64, attentionBackward64, maxAbsDiff } from './reference64.mjs';
import { randomMatrix } from './random-trace.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

const n = 6;
const heads = 2;
const headSize = 4;
const random = seededRandom(77);
const layer = {
  x: randomMatrix(random, n, 5),
  wQuery: randomMatrix(random, 5, heads * headSize),
  wKey: randomMatrix(random, 5, heads * headSize),
  wValue: randomMatrix(random, 5, heads * headSize),
  heads,
  scale: 2,
};
const gradOutputs = randomMatrix(random, n, heads * headSize);

/** Head h's columns of an n x (heads * headSize) matrix's data. */
const headColumns = (data, h) =>
  data.filter((_, i) => Math.floor((i % (heads * headSize)) / headSize) === h);

describe("trace() takes attention()'s options record", () => {
  test('the options OPTION_FIELDS gives to trace are the score options and the scale', () => {
    assert.deepEqual(optionNames('trace'), ['scale', 'isCausal', 'softcap', 'alibi']);
    for (const field of OPTION_FIELDS) {
      if (field.takenBy.includes('trace')) continue;
      const value = field.fallback({});
      assert.throws(
        () => attn.trace({ ...layer, [field.name]: value }),
        { name: 'TypeError', message: new RegExp(field.name) },
        `${field.name} is not trace()'s`,
      );
    }
  });

  for (const isCausal of [false, true]) {
    test(`softcap${isCausal ? ', causal' : ''}: each head's scores, outputs and gradients are the float64 references'`, () => {
      const softcap = 1.5;
      const t = attn.trace({ ...layer, isCausal, softcap, gradOutputs });
      const plain = attn.trace({ ...layer, isCausal });
      const shape = {
        qNumHeads: 1,
        qSeqLen: n,
        kvSeqLen: n,
        headSize,
        scale: 2,
        isCausal,
        softcap,
      };
      for (let h = 0; h < heads; h++) {
        const { queries, keys, values, scores, outputs, grad } = t.heads[h];
        const want = attention64(queries.data, keys.data, values.data, shape);
        assert.ok(
          maxAbsDiff(outputs.data, want) < 2e-6,
          `head ${h}: ${maxAbsDiff(outputs.data, want)}`,
        );
        assert.ok(maxAbsDiff(outputs.data, plain.heads[h].outputs.data) > 1e-3, 'the softcap acts');
        for (let i = 0; i < n * n; i++) {
          const raw = plain.heads[h].scores.data[i];
          const capped = raw === -Infinity ? -Infinity : softcap * Math.tanh(raw / softcap);
          assert.ok(
            Math.abs(scores.data[i] - capped) < 1e-5 || scores.data[i] === capped,
            `score ${i}`,
          );
        }
        const gradY = headColumns(gradOutputs.data, h);
        const wantGrad = attentionBackward64(queries.data, keys.data, values.data, gradY, shape);
        assert.ok(maxAbsDiff(grad.queries.data, wantGrad.gradQ) < 1e-5, `head ${h} dq`);
        assert.ok(maxAbsDiff(grad.keys.data, wantGrad.gradK) < 1e-5, `head ${h} dk`);
        assert.ok(maxAbsDiff(grad.values.data, wantGrad.gradV) < 1e-5, `head ${h} dv`);
      }
    });
  }

  test('a bad softcap is refused as attention() refuses it, naming softcap', () => {
    assert.throws(() => attn.trace({ ...layer, softcap: -1 }), {
      name: 'RangeError',
      message: /softcap must be 0 \(off\) or positive, got -1/,
    });
    assert.throws(() => attn.trace({ ...layer, softcap: '1' }), {
      name: 'TypeError',
      message: /softcap/,
    });
  });
});
