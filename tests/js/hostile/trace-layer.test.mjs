// trace()'s layer arguments (heads, kvHeads, wOut): each bad one refused by name, with what was
// expected and what was given.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import * as article from '../article.mjs';
import { multiHeadTrace64 } from '../reference64.mjs';
import { assertComputesTheArticle, assertMatches, attn, useInstance } from './checks.mjs';

useInstance();

describe('trace(): bad heads, kvHeads and wOut, each refused by name', () => {
  // Two heads of d_k_head = 2 over one kv head (GQA/MQA), d_v_head = 1, W_O 2 x 3.
  const w4 = [
    [1, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 0, 1, 1],
    [0, 1, 1, 0],
  ];
  const layer = {
    x: article.x,
    wQuery: w4,
    wKey: w4.map((row) => row.slice(0, 2)),
    wValue: w4.map((row) => row.slice(0, 1)),
    heads: 2,
    kvHeads: 1,
    wOut: [
      [1, 0, 1],
      [0, 1, 1],
    ],
  };
  const cases = [
    ['heads 0', { heads: 0 }, RangeError, /^heads must be a positive integer, got 0/],
    ['heads 1.5', { heads: 1.5 }, RangeError, /^heads must be a positive integer, got 1\.5/],
    ['heads "2"', { heads: '2' }, TypeError, /^heads must be a positive integer, got/],
    ['heads 2n', { heads: 2n }, TypeError, /^heads must be a positive integer/],
    ['heads NaN', { heads: NaN }, RangeError, /^heads must be a positive integer/],
    ['heads past the limit', { heads: 257 }, RangeError, /^heads must be at most 256, got 257/],
    ['kvHeads null', { kvHeads: null }, TypeError, /^kvHeads must be a positive integer/],
    ['kvHeads -1', { kvHeads: -1 }, RangeError, /^kvHeads must be a positive integer/],
    [
      'kvHeads not dividing',
      { kvHeads: 3 },
      RangeError,
      /^kvHeads must divide heads.*heads is 2, kvHeads 3/,
    ],
    [
      'kvHeads above heads',
      { heads: 1, kvHeads: 2, wOut: undefined },
      RangeError,
      /^kvHeads must divide heads/,
    ],
    [
      'heads not dividing d_k',
      { heads: 3, kvHeads: 1 },
      RangeError,
      /^wQuery must have a multiple of heads = 3 columns .* got 4/,
    ],
    [
      'wKey of the wrong width',
      { wKey: w4 },
      RangeError,
      /^wKey must have kvHeads \* d_k_head = 1 \* 2 = 2 columns .* got 4/,
    ],
    [
      'kvHeads not dividing d_v',
      { kvHeads: 2, wKey: w4 },
      RangeError,
      /^wValue must have a multiple of kvHeads = 2 columns .* got 1/,
    ],
    [
      'wOut with too few rows',
      { wOut: [[1, 2, 3]] },
      RangeError,
      /^wOut must have heads \* d_v_head = 2 \* 1 = 2 rows .* got 1/,
    ],
    ['wOut ragged', { wOut: [[1, 2], [3]] }, RangeError, /^wOut is ragged/],
    ['wOut not a matrix', { wOut: 5 }, TypeError, /^wOut must be number\[\]\[\] or/],
    [
      'wOut with a string cell',
      { wOut: [[1], ['2']] },
      TypeError,
      /^wOut\[1\]\[0\] must be a number/,
    ],
    [
      'wOut.data too short',
      { wOut: { rows: 2, cols: 3, data: new Float32Array(5) } },
      RangeError,
      /^wOut\.data must hold rows \* cols = 6/,
    ],
    [
      'wOut.cols 0',
      { wOut: { rows: 2, cols: 0, data: new Float32Array(0) } },
      RangeError,
      /^wOut\.cols must be a positive integer/,
    ],
  ];
  for (const [what, change, ErrorType, message] of cases) {
    test(`${what}: ${ErrorType.name}`, () => {
      const before = attn.memoryStats();
      assert.throws(
        () => attn.trace({ ...layer, ...change }),
        (error) => error instanceof ErrorType && message.test(error.message),
      );
      assert.deepEqual(attn.memoryStats(), before);
      assertComputesTheArticle();
    });
  }

  test('the valid layer itself: two query heads share one kv head, W_O gives 3 columns', () => {
    const t = attn.trace(layer);
    assert.equal(t.heads.length, 2);
    assert.deepEqual(t.heads[0].keys, t.heads[1].keys);
    assert.deepEqual([t.outputs.rows, t.outputs.cols], [3, 3]);
    assertMatches(t.outputs.data, multiHeadTrace64(layer).outputs.flat(), 1e-5, 'outputs');
  });

  test('an inherited heads (a polluted prototype) is refused, never used', () => {
    const args = { __proto__: { heads: 2 }, ...article.args };
    assert.throws(
      () => attn.trace(args),
      (error) => error instanceof TypeError && /'heads' is inherited/.test(error.message),
    );
  });
});
