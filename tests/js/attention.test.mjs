// The wasm module through its public entry (dist/attention.mjs): the article's numbers, the
// SIMD build, and every class of bad input, each followed by proof the instance still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import createAttention from '../../dist/attention.mjs';
import * as article from './article.mjs';

const attn = await createAttention();
const articleArgs = article.args;

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tolerance,
      `${what}[${i}]: got ${actual[i]}, expected ${expected[i]}`,
    );
  }
}

function assertStillWorks() {
  const t = attn.trace(articleArgs);
  assertClose(t.outputs.data, article.outputs, 1e-5, 'outputs after an error');
}

/** call() throws an ErrorType whose message matches, leaks nothing, and the instance works. */
function assertRefuses(call, ErrorType, message) {
  const before = attn.memoryStats().allocatedBytes;
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, message);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, before, 'nothing leaked');
  assertStillWorks();
}

test('trace reproduces every number of the article', () => {
  const t = attn.trace(articleArgs);
  assertClose(t.keys.data, article.keys, 1e-6, 'keys');
  assertClose(t.values.data, article.values, 1e-6, 'values');
  assertClose(t.queries.data, article.queries, 1e-6, 'queries');
  assertClose(t.scores.data, article.scores, 1e-6, 'scores');
  assertClose(t.weights.data, article.weights, 1e-5, 'weights');
  assertClose(t.outputs.data, article.outputs, 1e-5, 'outputs');
  assert.deepEqual([t.outputs.rows, t.outputs.cols], [3, 3]);
  assert.deepEqual(t.weighted.dims, [3, 3, 3]);
  // weighted[0][1] = weights[0][1] * values[1]
  assertClose(t.weighted.data.slice(3, 6), [0.936622, 3.746488, 0], 1e-5, 'weighted[0][1]');
  for (const m of [t.queries, t.keys, t.values, t.scores, t.weights, t.outputs]) {
    assert.ok(m.data instanceof Float32Array);
  }
});

test('trace accepts { rows, cols, data } matrices as well as nested arrays', () => {
  const flat = (m) => ({ rows: m.length, cols: m[0].length, data: new Float32Array(m.flat()) });
  const t = attn.trace({
    x: flat(article.x),
    wQuery: flat(article.wQuery),
    wKey: flat(article.wKey),
    wValue: flat(article.wValue),
  });
  assertClose(t.outputs.data, article.outputs, 1e-5, 'outputs');
});

test('scale 1/sqrt(d_k) gives the Transformer numbers', () => {
  const t = attn.trace({ ...articleArgs, scale: 1 / Math.sqrt(3) });
  assertClose(t.weights.data, article.scaledWeights, 1e-5, 'weights');
  assertClose(t.outputs.data, article.scaledOutputs, 1e-5, 'outputs');
});

test('causal: scores are -Infinity above the diagonal, token 1 sees only itself', () => {
  const t = attn.trace({ ...articleArgs, isCausal: true });
  assert.equal(t.scores.data[1], -Infinity);
  assert.equal(t.scores.data[2], -Infinity);
  assert.equal(t.scores.data[5], -Infinity);
  assertClose(t.outputs.data.slice(0, 3), [1, 2, 3], 1e-6, 'output 1');
  assert.equal(t.weights.data[5], 0);
});

test('trace returns the softmax at work: row maxima, exponentials, their sums, the mask', () => {
  const plain = attn.trace(articleArgs);
  // Query 1: scores [2, 4, 4], max 4, exponentials [e^-2, 1, 1], sum 2 + e^-2.
  assert.equal(plain.rowMax[0], 4);
  assertClose(plain.exponentials.data.slice(0, 3), [Math.exp(-2), 1, 1], 1e-7, 'exponentials');
  assertClose([plain.rowSums[0]], [2 + Math.exp(-2)], 1e-6, 'row sum');
  assert.deepEqual([...plain.mask.data], [0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.ok(plain.mask.data instanceof Uint8Array);
  assert.ok(plain.rowMax instanceof Float32Array && plain.rowSums instanceof Float32Array);
  const causal = attn.trace({ ...articleArgs, isCausal: true });
  assert.deepEqual([...causal.mask.data], [0, 1, 1, 0, 0, 1, 0, 0, 0]);
  assert.deepEqual([causal.mask.rows, causal.mask.cols], [3, 3]);
  assert.equal(causal.rowMax[1], 16); // query 2 sees scores 4 and 16 only
  assert.equal(causal.exponentials.data[5], 0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      const k = i * 3 + j;
      assertClose(
        [causal.weights.data[k]],
        [causal.exponentials.data[k] / causal.rowSums[i]],
        1e-7,
        `weights[${i}][${j}]`,
      );
    }
});

test('attention() agrees with trace() on the article as one head', () => {
  const t = attn.trace(articleArgs);
  const y = attn.attention(t.queries.data, t.keys.data, t.values.data, {
    qNumHeads: 1,
    headSize: 3,
    scale: 1,
  });
  assertClose(y, article.outputs, 1e-5, 'attention outputs');
});

test('the loaded module uses SIMD128 and reports the package version', () => {
  assert.equal(attn.simd, true);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url)));
  assert.equal(attn.version, pkg.version);
});

test('NaN in the data propagates instead of throwing', () => {
  const x = article.x.map((row) => row.slice());
  x[0][0] = NaN;
  const t = attn.trace({ ...articleArgs, x });
  assert.ok(Number.isNaN(t.outputs.data[0]));
  assert.ok(!Number.isNaN(t.keys.data[3]), 'row 2 of keys does not depend on x[0]');
});

const badTraceCalls = [
  [
    'missing x',
    { wQuery: article.wQuery, wKey: article.wKey, wValue: article.wValue },
    TypeError,
    /x is missing/,
  ],
  [
    'ragged x',
    {
      ...articleArgs,
      x: [
        [1, 0, 1, 0],
        [0, 2, 0],
      ],
    },
    RangeError,
    /x is ragged/,
  ],
  [
    'non-numeric cell',
    {
      ...articleArgs,
      x: [
        [1, 0, 1, 0],
        [0, '2', 0, 2],
        [1, 1, 1, 1],
      ],
    },
    TypeError,
    /x\[1\]\[1\] must be a number/,
  ],
  ['empty matrix', { ...articleArgs, x: [] }, RangeError, /x must have at least one row/],
  ['empty row', { ...articleArgs, x: [[]] }, RangeError, /x must have at least one column/],
  [
    'wrong inner dimension',
    {
      ...articleArgs,
      wKey: [
        [0, 0, 1],
        [1, 1, 0],
        [0, 1, 0],
      ],
    },
    RangeError,
    /wKey must have 4 rows/,
  ],
  [
    'query and key dims differ',
    { ...articleArgs, wKey: article.wValue.map((r) => [...r, 1]) },
    RangeError,
    /wKey must have as many columns as wQuery/,
  ],
  [
    'data length mismatch',
    { ...articleArgs, x: { rows: 3, cols: 4, data: new Float32Array(11) } },
    RangeError,
    /x\.data must hold rows \* cols = 12/,
  ],
  [
    'data of the wrong type',
    { ...articleArgs, x: { rows: 3, cols: 4, data: new Float64Array(12) } },
    TypeError,
    /x\.data must be a Float32Array/,
  ],
  ['not an object', null, TypeError, /trace: the argument must be an object/],
  ['bad scale', { ...articleArgs, scale: '2' }, TypeError, /scale must be a number/],
  ['bad isCausal', { ...articleArgs, isCausal: 1 }, TypeError, /isCausal must be a boolean/],
  ['unknown option', { ...articleArgs, causal: true }, TypeError, /unknown option 'causal'/],
  [
    'past the size limit',
    { ...articleArgs, x: { rows: 5000, cols: 4, data: new Float32Array(20000) } },
    RangeError,
    /more than the limit/,
  ],
];

for (const [what, args, ErrorType, message] of badTraceCalls) {
  test(`trace refuses ${what} with a ${ErrorType.name} naming the argument`, () => {
    assertRefuses(() => attn.trace(args), ErrorType, message);
  });
}

const q = new Float32Array(2 * 4 * 5 * 8);
const k = new Float32Array(2 * 2 * 6 * 8);
const v = new Float32Array(2 * 2 * 6 * 3);
const good = {
  batch: 2,
  qNumHeads: 4,
  kvNumHeads: 2,
  qSeqLen: 5,
  kvSeqLen: 6,
  headSize: 8,
  vHeadSize: 3,
};

test('attention infers sequence lengths and returns [batch, qNumHeads, qSeqLen, vHeadSize]', () => {
  const y = attn.attention(q, k, v, {
    batch: 2,
    qNumHeads: 4,
    kvNumHeads: 2,
    headSize: 8,
    vHeadSize: 3,
  });
  assert.equal(y.length, 2 * 4 * 5 * 3);
});

const badAttentionCalls = [
  [
    'q of the wrong type',
    [new Float64Array(q.length), k, v, good],
    TypeError,
    /q must be a Float32Array/,
  ],
  [
    'k of the wrong length',
    [q, new Float32Array(7), v, good],
    RangeError,
    /k must hold .* = 192 numbers, got 7/,
  ],
  [
    'heads that do not divide',
    [q, k, v, { ...good, kvNumHeads: 3 }],
    RangeError,
    /kvNumHeads must divide qNumHeads/,
  ],
  [
    'a fractional dim',
    [q, k, v, { ...good, headSize: 2.5 }],
    RangeError,
    /headSize must be a positive integer, got 2.5/,
  ],
  [
    'a negative dim',
    [q, k, v, { ...good, batch: -1 }],
    RangeError,
    /batch must be a positive integer/,
  ],
  ['a missing head count', [q, k, v, { headSize: 8 }], TypeError, /qNumHeads is missing/],
  [
    'a mask of the wrong shape',
    [q, k, v, { ...good, attnMask: { data: new Uint8Array(7), shape: [7] } }],
    RangeError,
    /attnMask\.shape \[7\] does not broadcast/,
  ],
  [
    'a mask of the wrong type',
    [q, k, v, { ...good, attnMask: { data: new Int32Array(6), shape: [6] } }],
    TypeError,
    /attnMask\.data must be a Uint8Array/,
  ],
  [
    'a mask whose data does not match its shape',
    [q, k, v, { ...good, attnMask: { data: new Uint8Array(5), shape: [6] } }],
    RangeError,
    /attnMask\.data must hold 6 values/,
  ],
  ['an unknown option', [q, k, v, { ...good, causal: true }], TypeError, /unknown option 'causal'/],
  ['a negative softcap', [q, k, v, { ...good, softcap: -1 }], RangeError, /softcap must be 0/],
  ['an enormous size', [q, k, v, { ...good, qSeqLen: 1e9 }], RangeError, /q must hold/],
];

for (const [what, args, ErrorType, message] of badAttentionCalls) {
  test(`attention refuses ${what} with a ${ErrorType.name} naming the argument`, () => {
    assertRefuses(() => attn.attention(...args), ErrorType, message);
  });
}
