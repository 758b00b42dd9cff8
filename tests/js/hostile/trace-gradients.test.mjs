// Bad gradOutputs for trace(): each throws a named TypeError or RangeError naming gradOutputs
// with what was expected and what was given, leaks nothing and leaves the module working;
// NaN and Infinity propagate; every field, row and cell is read once; the size limit counts
// the gradients.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import createAttention from '../../../dist/attention.mjs';
import * as article from '../article.mjs';
import { assertEachReadOnce, countingProxy } from '../counting-proxy.mjs';

const attn = await createAttention();
const TRACE_LIMIT = 16 * 1024 * 1024; // attention.d.ts: at most this many numbers per trace

const goodGrad = [
  [0.5, -1, 2],
  [0, 0.25, 0],
  [1, 1, -1],
];
// Three heads of one column each, sharing one kv head: concat is 3 x 3; with wOut 3 x 2.
const layer = {
  x: article.x,
  wQuery: article.wQuery,
  wKey: [[0], [1], [0], [1]],
  wValue: [[0], [0], [1], [1]],
  heads: 3,
  kvHeads: 1,
};
const wOut = [
  [1, 0],
  [0, 1],
  [1, 1],
];
const reference = attn.trace({ ...article.args, gradOutputs: goodGrad });

/** Runs `call`, expecting `ErrorType` with a message matching `pattern`, nothing leaked. */
function assertRefused(call, ErrorType, pattern) {
  const before = attn.memoryStats().allocatedBytes;
  assert.throws(call, (error) => {
    assert.equal(error.constructor, ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
  // The same module still computes the same gradients.
  assert.deepEqual(attn.trace({ ...article.args, gradOutputs: goodGrad }), reference);
}

describe('gradOutputs of the wrong shape or kind', () => {
  const cases = [
    [
      'one row too few',
      article.args,
      goodGrad.slice(1),
      RangeError,
      /gradOutputs.*3 x 3.*got 2 x 3/,
    ],
    [
      'a column too many',
      article.args,
      goodGrad.map((r) => [...r, 0]),
      RangeError,
      /3 x 3.*got 3 x 4/,
    ],
    [
      'd_v columns where wOut gives 2',
      { ...layer, wOut },
      goodGrad,
      RangeError,
      /gradOutputs.*3 x 2.*wOut's columns.*got 3 x 3/,
    ],
    [
      "one head's columns where the heads give 3",
      layer,
      goodGrad.map((r) => [r[0]]),
      RangeError,
      /gradOutputs.*3 x 3.*heads \* d_v_head.*got 3 x 1/,
    ],
    [
      'ragged',
      article.args,
      [
        [1, 2, 3],
        [1, 2],
        [1, 2, 3],
      ],
      RangeError,
      /gradOutputs is ragged: row 0 has 3 numbers but row 1 has 2/,
    ],
    ['no rows', article.args, [], RangeError, /gradOutputs must have at least one row/],
    [
      'an empty row',
      article.args,
      [[], [], []],
      RangeError,
      /gradOutputs must have at least one column/,
    ],
    [
      'a string cell',
      article.args,
      [
        [1, 2, 3],
        [1, '2', 3],
        [1, 2, 3],
      ],
      TypeError,
      /gradOutputs\[1\]\[1\] must be a number, got the string "2"/,
    ],
    [
      'a bigint cell',
      article.args,
      [
        [1, 2, 3n],
        [1, 2, 3],
        [1, 2, 3],
      ],
      TypeError,
      /gradOutputs\[0\]\[2\] must be a number/,
    ],
    [
      'a row that is a number',
      article.args,
      [[1, 2, 3], 5, [1, 2, 3]],
      TypeError,
      /gradOutputs\[1\] must be an array of numbers/,
    ],
    [
      'a string',
      article.args,
      'gradients',
      TypeError,
      /gradOutputs must be number\[\]\[\] or \{ rows, cols, data: Float32Array \}, got the string/,
    ],
    ['null', article.args, null, TypeError, /gradOutputs must be number\[\]\[\].*got null/],
    [
      'Float64Array data',
      article.args,
      { rows: 3, cols: 3, data: new Float64Array(9) },
      TypeError,
      /gradOutputs.data must be a Float32Array, got a Float64Array/,
    ],
    [
      'data one short',
      article.args,
      { rows: 3, cols: 3, data: new Float32Array(8) },
      RangeError,
      /gradOutputs.data must hold rows \* cols = 9 numbers, got 8/,
    ],
    [
      'rows not an integer',
      article.args,
      { rows: 1.5, cols: 3, data: new Float32Array(9) },
      RangeError,
      /gradOutputs.rows/,
    ],
    [
      'cols missing',
      article.args,
      { rows: 3, data: new Float32Array(9) },
      TypeError,
      /gradOutputs.cols/,
    ],
  ];
  for (const [what, args, gradOutputs, ErrorType, pattern] of cases) {
    test(`${what}: ${ErrorType.name}`, () => {
      assertRefused(() => attn.trace({ ...args, gradOutputs }), ErrorType, pattern);
    });
  }

  test('a misspelt gradOutputs is an unknown option, not silently no gradients', () => {
    assertRefused(
      () => attn.trace({ ...article.args, gradOutput: goodGrad }),
      TypeError,
      /unknown option 'gradOutput'.*gradOutputs/,
    );
  });

  test('a getter that throws, and a row Proxy that throws: the error passes, nothing leaks', () => {
    const throwing = { ...article.args };
    Object.defineProperty(throwing, 'gradOutputs', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    assertRefused(() => attn.trace(throwing), Error, /boom/);
    const row = new Proxy([1, 2, 3], {
      get(target, key) {
        if (key === '1') throw new Error('cell');
        return Reflect.get(target, key);
      },
    });
    assertRefused(
      () => attn.trace({ ...article.args, gradOutputs: [row, [0, 0, 0], [0, 0, 0]] }),
      Error,
      /cell/,
    );
  });
});

describe('NaN and Infinity propagate', () => {
  test('a NaN in row 1 reaches the gradients, masked scores stay 0, the values are untouched', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const gradOutputs = [
        [bad, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ];
      const t = attn.trace({ ...article.args, isCausal: true, gradOutputs });
      const plain = attn.trace({ ...article.args, isCausal: true });
      assert.deepEqual(t.outputs, plain.outputs);
      assert.ok(Object.is(t.grad.outputs.data[0], Math.fround(bad)), `grad.outputs holds ${bad}`);
      assert.ok(
        t.grad.wValue.data.some((x) => !Number.isFinite(x)),
        `${bad} reaches grad.wValue`,
      );
      for (const [i, j] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ]) {
        assert.equal(t.grad.scores.data[i * 3 + j], 0, `masked score ${i},${j}`);
      }
    }
  });

  test('NaN in x propagates through the gradients as through the values', () => {
    const x = article.x.map((row) => row.slice());
    x[1][2] = NaN;
    const t = attn.trace({ ...article.args, x, gradOutputs: goodGrad });
    assert.ok(t.grad.x.data.some(Number.isNaN));
    assert.ok(t.outputs.data.some(Number.isNaN));
  });
});

describe('read once', () => {
  test('gradOutputs, each row and cell (or each field) read once', () => {
    const forms = [goodGrad, { rows: 3, cols: 3, data: Float32Array.from(goodGrad.flat()) }];
    for (const gradOutputs of forms) {
      const counts = new Map();
      const before = attn.memoryStats().allocatedBytes;
      const t = attn.trace(countingProxy({ ...article.args, gradOutputs }, counts));
      assertEachReadOnce(counts, 'trace');
      assert.equal(counts.get('.gradOutputs'), 1);
      const keys = Array.isArray(gradOutputs)
        ? ['.gradOutputs.2', '.gradOutputs.1.2']
        : ['.gradOutputs.data', '.gradOutputs.rows'];
      for (const key of keys) assert.equal(counts.get(key), 1, key);
      assert.deepEqual(t.grad, reference.grad);
      assert.equal(attn.memoryStats().allocatedBytes, before);
    }
  });

  test('a getter answering differently on each read: its first answer is used', () => {
    const answers = [goodGrad, [[1]]];
    let reads = 0;
    const args = { ...article.args };
    Object.defineProperty(args, 'gradOutputs', {
      enumerable: true,
      get: () => answers[reads++] ?? 'junk',
    });
    assert.deepEqual(attn.trace(args).grad, reference.grad);
    assert.equal(reads, 1);
  });

  test('a cell getter that changes a row already read: the numbers first read are used', () => {
    const rows = goodGrad.map((r) => r.slice());
    const last = [...rows[2]];
    Object.defineProperty(last, 2, {
      enumerable: true,
      get() {
        rows[0][0] = 1000; // would change the gradients if row 0 were read again
        return goodGrad[2][2];
      },
    });
    rows[2] = last;
    assert.deepEqual(attn.trace({ ...article.args, gradOutputs: rows }).grad, reference.grad);
    assert.equal(rows[0][0], 1000, 'the getter ran');
  });
});

describe('memory limits', () => {
  test('gradients count toward the limit: refused before any allocation, the message says so', () => {
    // Alone, its intermediates stay under the limit; with their gradients they exceed it.
    const n = 1024;
    const args = {
      x: { rows: n, cols: 1, data: new Float32Array(n) },
      wQuery: [[1]],
      wKey: [[1]],
      wValue: [[1, 1, 1, 1, 1, 1, 1, 1]],
      gradOutputs: { rows: n, cols: 8, data: new Float32Array(n * 8) },
    };
    assertRefused(
      () => attn.trace(args),
      RangeError,
      new RegExp(
        `n = ${n} tokens.*intermediates and their gradients, more than the limit of ${TRACE_LIMIT}`,
      ),
    );
  });

  test('weights whose gradients alone exceed the limit: refused by the first estimate', () => {
    const dIn = 4100;
    const wide = { rows: dIn, cols: 4100, data: new Float32Array(dIn * 4100) };
    assertRefused(
      () =>
        attn.trace({
          x: { rows: 1, cols: dIn, data: new Float32Array(dIn) },
          wQuery: wide,
          wKey: wide,
          wValue: { rows: dIn, cols: 1, data: new Float32Array(dIn) },
          gradOutputs: [[1]],
        }),
      RangeError,
      /more than the limit/,
    );
  });
});
