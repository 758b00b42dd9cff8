// trace() measures a number[][] matrix before it reads it: its row count, then its first row's
// length, against the trace's limit. A Proxy claiming 16M rows of 16M numbers is refused at
// once with a RangeError naming the matrix, instead of being read for seconds and failing in
// V8 ("Invalid typed array length").
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';

const attn = await createAttention();
const identity = [
  [1, 0],
  [0, 1],
];

/** An array Proxy claiming `length` items, each `item()`, counting the items read. */
function claiming(length, item, reads) {
  return new Proxy([], {
    get(target, key) {
      if (key === 'length') return length;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads.count += 1;
        return item();
      }
      return target[key];
    },
  });
}

for (const name of ['x', 'wQuery', 'wKey', 'wValue', 'gradOutputs']) {
  test(`${name}: 16M rows of 16M numbers are refused at once, by name`, () => {
    const reads = { count: 0 };
    const row = claiming(2 ** 24, () => 1, reads);
    const huge = claiming(2 ** 24, () => row, reads);
    const args = { x: identity, wQuery: identity, wKey: identity, wValue: identity };
    args[name] = huge;
    const before = attn.memoryStats().allocatedBytes;
    assert.throws(
      () => attn.trace(args),
      (error) => {
        assert.equal(error.name, 'RangeError', `${error.name}: ${error.message}`);
        assert.match(error.message, new RegExp(`^${name} `));
        assert.match(error.message, /16777216 x 16777216/);
        return true;
      },
    );
    // The first row is looked at (its length), no numbers.
    assert.ok(reads.count <= 1, `${reads.count} items read`);
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });
}

test('a matrix just within the limit in cells, but whose later row is longer, is refused by that row', () => {
  const reads = { count: 0 };
  const rows = [[1, 2], claiming(2 ** 30, () => 1, reads)];
  assert.throws(() => attn.trace({ x: rows, wQuery: identity, wKey: identity, wValue: identity }), {
    name: 'RangeError',
    message: /x is ragged: row 0 has 2 numbers but row 1 has 1073741824/,
  });
  assert.equal(reads.count, 0);
});

test('many short rows past the limit are refused before they are read', () => {
  const reads = { count: 0 };
  const rows = claiming(2 ** 25, () => [1], reads);
  assert.throws(() => attn.trace({ x: rows, wQuery: [[1]], wKey: [[1]], wValue: [[1]] }), {
    name: 'RangeError',
    message: /^x /,
  });
  assert.ok(reads.count <= 1, `${reads.count} rows read`);
});
