// Hostile input for the JS API: thousands of seeded random calls to trace() and attention(),
// each a valid call with one to three things broken (wrong types, null, BigInt, strings, sparse
// and ragged arrays, typed arrays of the wrong kind or length, negative / fractional / enormous
// dims, mismatched heads, bad masks, unknown keys, requests past the 2 GiB wasm memory).
//
// The oracle is an independent reading of the contract (README.md, "Errors"): `judge*`
// below decides whether a call is valid. Then:
//   valid            -> the call returns, and the result matches the float64 reference;
//   valid, too big   -> RangeError that says how much was asked;
//   invalid          -> TypeError or RangeError whose message names a broken argument.
// After every call malloc's in-use bytes are back where they were, and after the suite the
// same instance still computes the article's example.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import vm from 'node:vm';

import { readFileSync } from 'node:fs';

import createAttentionModule from '../../build/wasm/attention.mjs';
import createAttention from '../../dist/attention.mjs';
import { createAttentionWith } from '../../src/js/api.mjs';
import * as article from './article.mjs';
import { attention64, maxAbsDiff, multiHeadTrace64, trace64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const CALLS_PER_API = 3000;
const WASM_MEMORY_LIMIT = 2 ** 31; // the contract's "size beyond what memory allows"
const TRACE_LIMIT = 16 * 1024 * 1024; // attention.d.ts: at most this many numbers per trace
const TRACE_MAX_HEADS = 256; // attention.d.ts: at most this many heads per trace
const FLOAT32_MAX = 3.4028234663852886e38;

function tools(random) {
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const floats = (length, amplitude = 2) =>
    Float32Array.from({ length }, () => (random() * 2 - 1) * amplitude);
  return { random, int, pick, floats };
}

// ---------------------------------------------------------------------------------------------
// Junk: values of every wrong type, and numbers that are wrong as dims.

const JUNK = [
  null,
  undefined,
  '',
  '2',
  'q',
  2n,
  -1n,
  true,
  false,
  {},
  [],
  [2],
  Symbol('junk'),
  () => 2,
  new Number(2),
  new Date(0),
  new Map(),
  NaN,
];
const BAD_DIMS = [0, -0, -1, -7, 1.5, 0.999, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32 + 1];
const BAD_DIMS_HUGE = [2 ** 53, 1e300, Number.MAX_VALUE, 2 ** 31 - 1, 1e9];
// A number the module passes on as a float32 (scale, softcap) must mean the same there: finite,
// and not a nonzero that rounds to 0.
const isFloat32 = (x) =>
  typeof x === 'number' && Number.isFinite(Math.fround(x)) && (Math.fround(x) !== 0 || x === 0);
const isDim = (x) => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x < 2 ** 31;
const isObject = (x) => (typeof x === 'object' && x !== null) || typeof x === 'function';
// Sets a key even where an earlier mutation left a getter or a null prototype.
const setKey = (object, key, value) =>
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
const SKIPPED = { names: [], what: 'skipped (an earlier mutation removed its target)' };

/** Typed arrays and array-likes that are not a Float32Array of `length`, or are, oddly. */
function wrongArrays(length, t) {
  return [
    () => Array.from({ length }, () => t.random()), // a plain array of numbers
    () => new Float64Array(length),
    () => new Int32Array(length),
    () => new Uint8Array(length),
    () => new Uint8ClampedArray(length),
    () => new Float32Array(length + 1),
    () => new Float32Array(Math.max(0, length - 1)),
    () => new Float32Array(0),
    () => new Float32Array(length * 2 + 3),
    () => new DataView(new ArrayBuffer(length * 4)),
    () => new ArrayBuffer(length * 4),
    () => ({ length, 0: 1 }),
    () => new Array(length), // sparse
    () => new BigInt64Array(length),
  ];
}

/** Valid Float32Arrays that are not a plain fresh one: views, subclasses, shared memory. */
function oddButValidArrays(values) {
  class Tensor32 extends Float32Array {}
  return [
    () => {
      // A view in the middle of a larger buffer: byteOffset must be honoured.
      const backing = new Float32Array(values.length + 7);
      backing.set(values, 3);
      return backing.subarray(3, 3 + values.length);
    },
    () => Tensor32.from(values),
    () => {
      const shared = new Float32Array(new SharedArrayBuffer(values.length * 4));
      shared.set(values);
      return shared;
    },
    () => {
      const resizable = new Float32Array(
        new ArrayBuffer(values.length * 4, { maxByteLength: values.length * 8 + 8 }),
      );
      resizable.set(values);
      return resizable;
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// attention(): valid calls, mutations, and the oracle.

const ATTENTION_KEYS = [
  'batch',
  'qNumHeads',
  'kvNumHeads',
  'qSeqLen',
  'kvSeqLen',
  'headSize',
  'vHeadSize',
  'scale',
  'isCausal',
  'softcap',
  'attnMask',
];
const DIMS = ['batch', 'qNumHeads', 'kvNumHeads', 'qSeqLen', 'kvSeqLen', 'headSize', 'vHeadSize'];
// Which other arguments an error about a dim may rightly name (its length no longer matches,
// or a dim inferred from it cannot be inferred).
const DIM_RELATIVES = {
  batch: ['q', 'k', 'v', 'attnMask', 'qSeqLen', 'kvSeqLen'],
  qNumHeads: ['q', 'kvNumHeads', 'attnMask', 'qSeqLen'],
  kvNumHeads: ['k', 'v', 'qNumHeads', 'kvSeqLen'],
  qSeqLen: ['q', 'attnMask'],
  kvSeqLen: ['k', 'v', 'attnMask'],
  headSize: ['q', 'k', 'v', 'qSeqLen', 'kvSeqLen'],
  vHeadSize: ['v'],
};

function randomMask(t, target) {
  const rank = t.int(1, 4);
  const shape = target.slice(4 - rank).map((d) => (t.random() < 0.4 ? 1 : d));
  const count = shape.reduce((a, b) => a * b, 1);
  const data =
    t.random() < 0.5
      ? Uint8Array.from({ length: count }, () => (t.random() < 0.7 ? 1 : 0))
      : Float32Array.from({ length: count }, () =>
          t.random() < 0.1 ? -Infinity : (t.random() * 2 - 1) * 2,
        );
  return { data, shape };
}

function validAttentionCall(t) {
  const qNumHeads = t.pick([1, 2, 3, 4, 6]);
  const kvNumHeads = t.pick([1, 2, 3, 4, 6].filter((h) => qNumHeads % h === 0));
  const shape = {
    batch: t.int(1, 3),
    qNumHeads,
    kvNumHeads,
    qSeqLen: t.int(1, 9),
    kvSeqLen: t.int(1, 9),
    headSize: t.int(1, 9),
    vHeadSize: t.int(1, 9),
  };
  // Optional keys are left out at random when their default (or inference) gives the same.
  const options = { qNumHeads, headSize: shape.headSize };
  for (const name of ['batch', 'kvNumHeads', 'qSeqLen', 'kvSeqLen', 'vHeadSize']) {
    const implied = { batch: 1, kvNumHeads: qNumHeads, vHeadSize: shape.headSize }[name];
    const inferable = name === 'qSeqLen' || name === 'kvSeqLen';
    if ((implied !== shape[name] && !inferable) || t.random() < 0.5) options[name] = shape[name];
  }
  if (t.random() < 0.3) options.scale = t.pick([0, -0.5, 0.1, 1, 2.5, 1e-30, -1e-44]);
  if (t.random() < 0.3) options.isCausal = t.random() < 0.5;
  if (t.random() < 0.3) options.softcap = t.pick([0, 0.5, 3, 1e-30, 1e30]);
  const target = [shape.batch, shape.qNumHeads, shape.qSeqLen, shape.kvSeqLen];
  if (t.random() < 0.4) options.attnMask = randomMask(t, target);
  const { batch, kvSeqLen, qSeqLen, headSize, vHeadSize } = shape;
  const q = t.floats(batch * qNumHeads * qSeqLen * headSize);
  const k = t.floats(batch * kvNumHeads * kvSeqLen * headSize);
  const v = t.floats(batch * kvNumHeads * kvSeqLen * vHeadSize);
  return { args: [q, k, v, options], shape, target };
}

// Each mutation breaks (or oddly keeps) one thing and returns the argument names an error
// about it may name, and a short description for failure messages.
const ATTENTION_MUTATIONS = [
  function junkArray(call, t) {
    const index = t.int(0, 2);
    const name = 'qkv'[index];
    const current = call.args[index] instanceof Float32Array ? call.args[index] : t.floats(4);
    const candidates = [
      ...JUNK.map((j) => () => j),
      ...wrongArrays(current.length, t),
      ...oddButValidArrays(current),
    ];
    call.args[index] = t.pick(candidates)();
    return { names: [name, `${name}SeqLen`, 'qSeqLen', 'kvSeqLen'], what: `${name} replaced` };
  },
  function specialValues(call, t) {
    // NaN and infinities in q or k are data, not errors: they must propagate as IEEE does.
    // (Not in v: see the note on hidden keys in the dedicated test below.)
    const index = t.int(0, 1);
    if (!(call.args[index] instanceof Float32Array) || call.args[index].length === 0)
      return SKIPPED;
    const array = Float32Array.from(call.args[index]);
    const count = t.int(1, 3);
    for (let n = 0; n < count; n++) {
      array[t.int(0, array.length - 1)] = t.pick([NaN, Infinity, -Infinity, -0, 1e-40]);
    }
    call.args[index] = array;
    return { names: [], what: `special values in ${'qk'[index]}` };
  },
  function badDim(call, t) {
    const name = t.pick(DIMS);
    const value = t.pick([...JUNK, ...BAD_DIMS, ...BAD_DIMS_HUGE, t.int(1, 8)]);
    if (!isObject(call.args[3])) return SKIPPED;
    setKey(call.args[3], name, value);
    return { names: [name, ...DIM_RELATIVES[name]], what: `${name} = ${show(value)}` };
  },
  function dropDim(call, t) {
    const name = t.pick(DIMS);
    if (!isObject(call.args[3])) return SKIPPED;
    delete call.args[3][name];
    return { names: [name, ...DIM_RELATIVES[name]], what: `${name} deleted` };
  },
  function oddButValidArray(call, t) {
    const index = t.int(0, 2);
    if (!(call.args[index] instanceof Float32Array)) return SKIPPED;
    call.args[index] = t.pick(oddButValidArrays(call.args[index]))();
    return { names: [], what: `${'qkv'[index]} as a view / subclass / shared / resizable` };
  },
  function mismatchedHeads(call, t) {
    const { qNumHeads } = call.shape;
    const kvNumHeads = t.pick([qNumHeads + 1, 5, 4, 7, qNumHeads * 2].filter((h) => h > 0));
    if (!isObject(call.args[3])) return SKIPPED;
    setKey(call.args[3], 'kvNumHeads', kvNumHeads);
    return {
      names: ['kvNumHeads', 'qNumHeads', 'k', 'v', 'kvSeqLen'],
      what: `kvNumHeads = ${kvNumHeads}`,
    };
  },
  function badScalar(call, t) {
    const name = t.pick(['scale', 'softcap', 'isCausal']);
    const values = {
      scale: [...JUNK, Infinity, -Infinity, 3, -3, 0, Number.MIN_VALUE, 1e-300, 1e39, 1e-45],
      softcap: [...JUNK, Infinity, -1, -Number.MIN_VALUE, 2, 1e-20, 1e-46, 1e-45],
      isCausal: [...JUNK, 0, 1, 'true', true, false],
    }[name];
    const value = t.pick(values);
    if (!isObject(call.args[3])) return SKIPPED;
    setKey(call.args[3], name, value);
    return { names: [name], what: `${name} = ${show(value)}` };
  },
  function badMask(call, t) {
    const target = call.target;
    const good = randomMask(t, target);
    const count = good.data.length;
    const bad = t.pick([
      () => t.pick(JUNK.filter((j) => j !== undefined)),
      () => good.data, // the data alone, not { data, shape }
      () => ({ data: good.data }),
      () => ({ shape: good.shape }),
      () => ({ ...good, extra: 1 }),
      () => ({ ...good, data: t.pick(wrongArrays(count, t))() }),
      () => ({ ...good, data: new Int8Array(count) }),
      () => ({ ...good, data: Array.from(good.data) }),
      () => ({ ...good, shape: t.pick(JUNK) }),
      () => ({ ...good, shape: [] }),
      () => ({ data: good.data, shape: [1, ...good.shape.slice(0, 3), 1].slice(0, 5) }),
      () => ({ data: new Uint8Array(count), shape: [1, 1, 1, 1, count] }),
      () => ({ ...good, shape: good.shape.map((d, i) => (i === 0 ? t.pick(BAD_DIMS) : d)) }),
      () => ({ ...good, shape: good.shape.map((d, i) => (i === 0 ? t.pick(JUNK) : d)) }),
      () => {
        // One dim that is neither 1 nor the target's: does not broadcast.
        const shape = good.shape.slice();
        const axis = t.int(0, shape.length - 1);
        shape[axis] = target[4 - shape.length + axis] + 1;
        const size = shape.reduce((a, b) => a * b, 1);
        return { data: new Uint8Array(size).fill(1), shape };
      },
      () => {
        const shape = good.shape.slice(); // a sparse shape array
        delete shape[0];
        return { data: good.data, shape };
      },
      () => ({ ...good, data: good.data.subarray(0, Math.max(0, count - 1)) }),
      () => ({
        data: good.data instanceof Uint8Array ? new Float32Array(count) : new Uint8Array(count),
        shape: good.shape,
      }),
      () => good, // a fine mask after all
    ])();
    if (!isObject(call.args[3])) return SKIPPED;
    setKey(call.args[3], 'attnMask', bad);
    return { names: ['attnMask'], what: `attnMask = ${show(bad)}` };
  },
  function unknownKey(call, t) {
    const key = t.pick([
      'qnumHeads',
      'seqLen',
      'causal',
      'mask',
      'numHeads',
      'head_size',
      '__proto__',
    ]);
    if (!isObject(call.args[3])) return SKIPPED;
    setKey(call.args[3], key, 1);
    return { names: [key], what: `unknown key ${key}` };
  },
  function badOptionsObject(call, t) {
    const value = t.pick([null, undefined, 'options', 42, [], [call.args[3]], () => call.args[3]]);
    call.args[3] = value;
    return { names: ['options', 'qNumHeads', 'headSize'], what: `options = ${show(value)}` };
  },
  function oddButValidOptions(call, t) {
    const options = call.args[3];
    if (!isObject(options) || Array.isArray(options)) return SKIPPED;
    call.args[3] = t.pick([
      () => new Proxy({ ...options }, {}),
      () => Object.assign(Object.create(null), options),
      () => {
        const withGetters = {};
        for (const [key, value] of Object.entries(options)) {
          Object.defineProperty(withGetters, key, {
            get: () => value,
            enumerable: true,
            configurable: true,
          });
        }
        return withGetters;
      },
    ])();
    return { names: [], what: 'options as a proxy / null-prototype / getters' };
  },
  function wrongArity(call, t) {
    const count = t.int(0, 3);
    call.args = call.args.slice(0, count);
    return { names: ['q', 'k', 'v', 'options'], what: `${count} arguments` };
  },
  function sizeBomb(call, t) {
    // Tiny inputs whose output alone is 2 to 64 GiB: 8 query heads share one kv head of one key,
    // and vHeadSize is wide. The request must fail with a RangeError saying how much it needs.
    const qSeqLen = 2 ** t.int(12, 14);
    const vHeadSize = 2 ** t.int(14, 17);
    const options = { qNumHeads: 8, kvNumHeads: 1, headSize: 1, vHeadSize, qSeqLen, kvSeqLen: 1 };
    call.args = [
      new Float32Array(8 * qSeqLen),
      new Float32Array(1),
      new Float32Array(vHeadSize),
      options,
    ];
    call.shape = {
      batch: 1,
      qNumHeads: 8,
      kvNumHeads: 1,
      qSeqLen,
      kvSeqLen: 1,
      headSize: 1,
      vHeadSize,
    };
    call.target = [1, 8, qSeqLen, 1];
    return {
      names: ['q', 'k', 'v', 'output', 'vHeadSize', 'qSeqLen'],
      what: `size bomb ${qSeqLen} x ${vHeadSize}`,
    };
  },
];

/**
 * The contract, restated independently: is attention(...args) valid? Returns
 * { valid: true, options } with every option resolved, { tooBig: bytes }, or { valid: false }.
 */
function judgeAttention(args) {
  const [q, k, v, options] = args;
  const invalid = { valid: false };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return invalid;
  if (Object.keys(options).some((key) => !ATTENTION_KEYS.includes(key))) return invalid;
  if (![q, k, v].every((a) => a instanceof Float32Array)) return invalid;
  if (options.qNumHeads === undefined || options.headSize === undefined) return invalid;
  const dim = (name, fallback) => {
    const value = options[name] === undefined ? fallback : options[name];
    return isDim(value) ? value : NaN;
  };
  const batch = dim('batch', 1);
  const qNumHeads = dim('qNumHeads');
  const kvNumHeads = dim('kvNumHeads', qNumHeads);
  const headSize = dim('headSize');
  const vHeadSize = dim('vHeadSize', headSize);
  const infer = (length, per) => (length > 0 && length % per === 0 ? length / per : NaN);
  const qSeqLen = dim('qSeqLen', infer(q.length, batch * qNumHeads * headSize));
  const kvSeqLen = dim('kvSeqLen', infer(k.length, batch * kvNumHeads * headSize));
  const dims = [batch, qNumHeads, kvNumHeads, headSize, vHeadSize, qSeqLen, kvSeqLen];
  if (dims.some(Number.isNaN)) return invalid;
  if (qNumHeads % kvNumHeads !== 0) return invalid;
  const qLength = batch * qNumHeads * qSeqLen * headSize;
  const kLength = batch * kvNumHeads * kvSeqLen * headSize;
  const vLength = batch * kvNumHeads * kvSeqLen * vHeadSize;
  const yLength = batch * qNumHeads * qSeqLen * vHeadSize;
  if (q.length !== qLength || k.length !== kLength || v.length !== vLength) return invalid;
  const { scale, isCausal, softcap, attnMask } = options;
  if (scale !== undefined && !isFloat32(scale)) return invalid;
  if (isCausal !== undefined && typeof isCausal !== 'boolean') return invalid;
  if (softcap !== undefined && !(isFloat32(softcap) && softcap >= 0)) return invalid;
  let maskBytes = 0;
  if (attnMask !== undefined) {
    if (attnMask === null || typeof attnMask !== 'object' || Array.isArray(attnMask))
      return invalid;
    if (Object.keys(attnMask).some((key) => key !== 'data' && key !== 'shape')) return invalid;
    const { data, shape } = attnMask;
    if (!(data instanceof Uint8Array || data instanceof Float32Array)) return invalid;
    if (!Array.isArray(shape) || shape.length < 1 || shape.length > 4) return invalid;
    const target = [batch, qNumHeads, qSeqLen, kvSeqLen];
    for (let i = 0; i < shape.length; i++) {
      if (!(i in shape) || !isDim(shape[i])) return invalid;
      if (shape[i] !== 1 && shape[i] !== target[4 - shape.length + i]) return invalid;
    }
    if (data.length !== shape.reduce((a, b) => a * b, 1)) return invalid;
    maskBytes = data.byteLength;
  }
  const bytes = (qLength + kLength + vLength + yLength) * 4 + maskBytes;
  if (bytes > WASM_MEMORY_LIMIT) return { valid: true, tooBig: bytes };
  const resolved = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize };
  Object.assign(resolved, { scale, isCausal, softcap, attnMask });
  return { valid: true, options: resolved, inputs: [q, k, v] };
}

// ---------------------------------------------------------------------------------------------
// trace(): valid calls, mutations, and the oracle.

const TRACE_ARGS = ['x', 'wQuery', 'wKey', 'wValue'];
const TRACE_RELATIVES = {
  x: ['wQuery', 'wKey', 'wValue'],
  wQuery: ['wKey', 'x'],
  wKey: ['wQuery', 'x'],
  wValue: ['x'],
};

function nested(rows, cols, t) {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => (t.random() * 2 - 1) * 2),
  );
}
const asMatrix = (rows) => ({
  rows: rows.length,
  cols: rows[0].length,
  data: Float32Array.from(rows.flat()),
});

function validTraceCall(t) {
  const n = t.int(1, 7);
  const dIn = t.int(1, 6);
  const form = (rows) => (t.random() < 0.5 ? rows : asMatrix(rows));
  // One head as in the article, or a layer of 1 to 4 heads (kvHeads dividing) and maybe W_O.
  const layer = t.random() < 0.4;
  const heads = layer ? t.int(1, 4) : 1;
  const kvHeads = layer ? t.pick([1, 2, 3, 4].filter((k) => heads % k === 0)) : 1;
  const dKHead = t.int(1, layer ? 3 : 6);
  const dVHead = t.int(1, layer ? 3 : 6);
  const args = {
    x: form(nested(n, dIn, t)),
    wQuery: form(nested(dIn, heads * dKHead, t)),
    wKey: form(nested(dIn, kvHeads * dKHead, t)),
    wValue: form(nested(dIn, kvHeads * dVHead, t)),
  };
  if (layer) {
    args.heads = heads;
    if (t.random() < 0.7) args.kvHeads = kvHeads;
    else args.wKey = args.wQuery; // kvHeads defaults to heads: MHA, wKey as wide as wQuery
    if (args.kvHeads === undefined) args.wValue = form(nested(dIn, heads * dVHead, t));
    if (t.random() < 0.5) args.wOut = form(nested(heads * dVHead, t.int(1, 5), t));
  }
  if (t.random() < 0.3) args.scale = t.pick([1, 0.5, -2, 0, 1 / Math.sqrt(dKHead)]);
  if (t.random() < 0.3) args.isCausal = t.random() < 0.5;
  return { args: [args] };
}

// `rows`: the fine matrix (nested arrays) to break.
function wrongMatrices(rows, t) {
  const cols = rows[0].length;
  const withCell = (value) => {
    const copy = rows.map((r) => r.slice());
    copy[t.int(0, copy.length - 1)][t.int(0, cols - 1)] = value;
    return copy;
  };
  return [
    ...JUNK.map((j) => () => j),
    () => [], // no rows
    () => [[]], // no columns
    () => rows.flat(), // flat, not nested
    () => [...rows, [...rows[0], 1]], // ragged: one row too long
    () => [...rows.map((r) => r.slice()), rows[0].slice(1)], // ragged, maybe empty last row
    () => {
      const sparse = rows.map((r) => r.slice()); // a hole in the outer array
      sparse.length += 1;
      sparse.push(rows[0].slice());
      return sparse;
    },
    () => {
      const copy = rows.map((r) => r.slice()); // a hole inside a row
      delete copy[0][t.int(0, cols - 1)];
      return copy;
    },
    () => withCell(String(t.random())),
    () => withCell(null),
    () => withCell(undefined),
    () => withCell(1n),
    () => withCell([1]),
    () => withCell(new Number(1)),
    () => withCell(true),
    () => withCell(t.pick([NaN, Infinity, -Infinity, -0, 1e-40])), // data: valid
    () => rows.map((r) => Float32Array.from(r)), // typed-array rows: not number[][]
    () => ({ ...asMatrix(rows), data: Float64Array.from(rows.flat()) }),
    () => ({ ...asMatrix(rows), data: rows.flat() }),
    () => ({ ...asMatrix(rows), data: new Float32Array(rows.length * cols + 1) }),
    () => ({ ...asMatrix(rows), rows: t.pick([...BAD_DIMS, ...JUNK]) }),
    () => ({ ...asMatrix(rows), cols: t.pick([...BAD_DIMS, ...JUNK]) }),
    () => ({ rows: rows.length, cols }), // no data
    () => ({ ...asMatrix(rows), rows: cols, cols: rows.length }), // transposed dims
    () => new Proxy(rows, {}), // a proxy of a fine array: valid
    () => asMatrix(rows), // a fine matrix: valid
    () => nested(t.int(1, 4), t.int(1, 4), t), // another size: often mismatched
  ];
}

const TRACE_MUTATIONS = [
  function oddButValid(call, t) {
    // The same numbers in another accepted form, or special values (data, not errors).
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    const current = readMatrix(call.args[0][name]);
    if (!current) return SKIPPED;
    const rows = current.values.map((row) => row.slice());
    const value = t.pick([
      () => asMatrix(rows),
      () => rows,
      () => new Proxy(rows, {}),
      () => {
        const matrix = asMatrix(rows); // data as a view into a larger buffer
        const backing = new Float32Array(matrix.data.length + 5);
        backing.set(matrix.data, 5);
        return { ...matrix, data: backing.subarray(5) };
      },
      () => {
        rows[t.int(0, rows.length - 1)][t.int(0, rows[0].length - 1)] = t.pick([
          NaN,
          Infinity,
          -Infinity,
          -0,
          1e-40,
        ]);
        return rows;
      },
    ])();
    setKey(call.args[0], name, value);
    return { names: [], what: `${name} = ${show(value)}` };
  },
  function badMatrix(call, t) {
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    // Break a fine matrix: the current one, or a fresh 2 x 3 if an earlier mutation broke it.
    const current = readMatrix(call.args[0][name])?.values ?? nested(2, 3, t);
    const value = t.pick(wrongMatrices(current, t))();
    setKey(call.args[0], name, value);
    return { names: [name, ...TRACE_RELATIVES[name]], what: `${name} = ${show(value)}` };
  },
  function dropArgument(call, t) {
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    delete call.args[0][name];
    return { names: [name], what: `${name} deleted` };
  },
  function badScalar(call, t) {
    const name = t.pick(['scale', 'isCausal']);
    const values = {
      scale: [...JUNK, Infinity, -Infinity, 2, -1, 0, 1e-300, 1e39],
      isCausal: [...JUNK, 0, 1, 'false', true, false],
    }[name];
    const value = t.pick(values);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], name, value);
    return { names: [name], what: `${name} = ${show(value)}` };
  },
  function badHeadCount(call, t) {
    // Junk, a count past the limit, or a fine integer that may not divide what it must.
    const name = t.pick(['heads', 'kvHeads']);
    const value = t.pick([...JUNK, ...BAD_DIMS, TRACE_MAX_HEADS + 1, 1, 2, 3, 4, 6]);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], name, value);
    return {
      names: ['heads', 'kvHeads', 'wQuery', 'wKey', 'wValue', 'wOut'],
      what: `${name} = ${show(value)}`,
    };
  },
  function badWOut(call, t) {
    if (!isObject(call.args[0])) return SKIPPED;
    const current = readMatrix(call.args[0].wOut)?.values ?? nested(2, 3, t);
    const value = t.pick(wrongMatrices(current, t))();
    setKey(call.args[0], 'wOut', value);
    return { names: ['wOut', 'heads', 'wValue'], what: `wOut = ${show(value)}` };
  },
  function unknownKey(call, t) {
    const key = t.pick(['X', 'wq', 'w_query', 'scaled', 'causal', 'softcap', 'attnMask']);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], key, call.args[0].x);
    return { names: [key], what: `unknown key ${key}` };
  },
  function badArgumentObject(call, t) {
    call.args = t.pick([[], [null], ['x'], [42], [call.args[0]?.x], [undefined, call.args[0]]]);
    return { names: ['trace', 'argument', 'x'], what: `arguments ${show(call.args)}` };
  },
  function sizeBomb(call, t) {
    // Small inputs whose intermediates (n x n x d_v for `weighted`) pass the trace limit.
    const n = t.int(1500, 5000);
    const dV = Math.ceil(TRACE_LIMIT / (n * n)) + t.int(0, 3);
    call.args = [
      {
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: [[1]],
        wKey: [[1]],
        wValue: [Array.from({ length: dV }, () => 1)],
      },
    ];
    return { names: ['x', 'wValue'], what: `size bomb n = ${n}, d_v = ${dV}` };
  },
];

function readMatrix(m) {
  if (Array.isArray(m)) {
    // Index loops, not every()/some(): those skip the holes of a sparse array.
    if (m.length === 0) return null;
    for (let i = 0; i < m.length; i++) if (!Array.isArray(m[i])) return null;
    const cols = m[0].length;
    if (cols === 0) return null;
    for (let i = 0; i < m.length; i++) {
      if (m[i].length !== cols) return null;
      for (let j = 0; j < cols; j++) if (typeof m[i][j] !== 'number') return null;
    }
    return { rows: m.length, cols, values: m.map((row) => row.map(Math.fround)) };
  }
  if (m === null || typeof m !== 'object') return null;
  if (!isDim(m.rows) || !isDim(m.cols) || !(m.data instanceof Float32Array)) return null;
  if (m.data.length !== m.rows * m.cols) return null;
  const values = Array.from({ length: m.rows }, (_, i) =>
    Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)),
  );
  return { rows: m.rows, cols: m.cols, values };
}

/** The contract for trace(args), restated: { valid, args64 } | { tooBig } | { valid: false }. */
function judgeTrace(callArgs) {
  const invalid = { valid: false };
  const [args] = callArgs;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return invalid;
  const allowed = [...TRACE_ARGS, 'wOut', 'heads', 'kvHeads', 'scale', 'isCausal'];
  if (Object.keys(args).some((key) => !allowed.includes(key))) return invalid;
  const m = {};
  for (const name of TRACE_ARGS) {
    m[name] = readMatrix(args[name]);
    if (!m[name]) return invalid;
  }
  if (args.wOut !== undefined) {
    m.wOut = readMatrix(args.wOut);
    if (!m.wOut) return invalid;
  }
  const { scale, isCausal, heads = 1 } = args;
  const { kvHeads = heads } = args;
  const isHeadCount = (x) => isDim(x) && x <= TRACE_MAX_HEADS;
  if (!isHeadCount(heads) || !isHeadCount(kvHeads) || heads % kvHeads !== 0) return invalid;
  const dIn = m.x.cols;
  if (m.wQuery.rows !== dIn || m.wKey.rows !== dIn || m.wValue.rows !== dIn) return invalid;
  // wQuery: heads blocks of d_k_head columns; wKey: kvHeads such blocks; wValue: kvHeads
  // blocks of d_v_head; wOut: one row per column of the heads' outputs side by side.
  if (m.wQuery.cols % heads !== 0) return invalid;
  const dKHead = m.wQuery.cols / heads;
  if (m.wKey.cols !== kvHeads * dKHead) return invalid;
  if (m.wValue.cols % kvHeads !== 0) return invalid;
  const dVHead = m.wValue.cols / kvHeads;
  if (m.wOut && m.wOut.rows !== heads * dVHead) return invalid;
  if (scale !== undefined && !isFloat32(scale)) return invalid;
  if (isCausal !== undefined && typeof isCausal !== 'boolean') return invalid;
  const n = m.x.rows;
  // Per head: queries, keys, values, outputs; scores, exponentials, weights, mask; rowMax,
  // rowSums; weighted. A layer adds concat and outputs.
  const perHead = 2 * n * dKHead + 2 * n * dVHead + 4 * n * n + 2 * n + n * n * dVHead;
  const single = heads === 1 && !m.wOut;
  const layer = single ? 0 : n * heads * dVHead + n * (m.wOut ? m.wOut.cols : heads * dVHead);
  const total = heads * perHead + layer;
  if (total > TRACE_LIMIT) return { valid: true, tooBig: total * 4 };
  const args64 = { scale, isCausal, heads, kvHeads };
  for (const name of [...TRACE_ARGS, 'wOut']) args64[name] = m[name]?.values;
  return { valid: true, args64, dims: { n, dKHead, dVHead, heads, single } };
}

// ---------------------------------------------------------------------------------------------
// Checking one call.

function show(value) {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return String(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.length})`;
  try {
    const text = JSON.stringify(value, (key, v) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
      return v;
    });
    return text === undefined ? String(value) : text.slice(0, 80);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

// An argument is named when it appears as a whole identifier: `q` in "q must hold" but not in
// "qSeqLen"; `attnMask` in "attnMask.shape[0]".
// The list of allowed keys in an "unknown option" message does not count as naming them.
function namesOneOf(message, names) {
  const text = message.replace(/\(expected one of [^)]*\)/, '');
  return names.some((name) =>
    new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[$]/g, '\\$')}([^A-Za-z0-9_]|$)`).test(text),
  );
}
const SAYS_SIZE = /\d(\.\d+)? ?(bytes|KiB|MiB|GiB|TiB)/;

/** Results equal where both are numbers; the same NaN / infinity pattern elsewhere. */
function assertMatches(actual, expected, tolerance, label, { finiteOnly = false } = {}) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i];
    if (Number.isFinite(e)) {
      assert.ok(Math.abs(a - e) <= tolerance, `${label}[${i}]: got ${a}, expected ${e}`);
    } else if (!finiteOnly) {
      assert.ok(
        Object.is(a, e) || (Number.isNaN(a) && Number.isNaN(e)),
        `${label}[${i}]: got ${a}, expected ${e}`,
      );
    }
  }
}

function checkOutcome({ verdict, run, touched, label, checkResult }) {
  let result;
  let error;
  try {
    result = run();
  } catch (e) {
    error = e;
  }
  if (verdict.valid && !verdict.tooBig) {
    assert.equal(error, undefined, `${label}: a valid call threw ${error}`);
    checkResult(result);
    return 'returned';
  }
  assert.ok(error !== undefined, `${label}: an invalid call returned`);
  assert.ok(
    error instanceof TypeError || error instanceof RangeError,
    `${label}: threw ${error?.constructor?.name}: ${error?.message}`,
  );
  assert.ok(
    namesOneOf(error.message, touched),
    `${label}: "${error.message}" names none of ${touched.join(', ')}`,
  );
  if (verdict.tooBig) {
    assert.ok(error instanceof RangeError, `${label}: too big but ${error.constructor.name}`);
    assert.ok(SAYS_SIZE.test(error.message), `${label}: "${error.message}" does not say how much`);
    return 'too big';
  }
  return error.constructor.name;
}

// ---------------------------------------------------------------------------------------------

let attn;
let baseline;

function assertComputesTheArticle() {
  const t = attn.trace(article.args);
  assert.ok(maxAbsDiff(t.outputs.data.subarray(0, 3), article.outputs.slice(0, 3)) < 1e-5);
}

function mutateAndCheck(api, index, makeCall, mutations, judge, checkResult) {
  const seed = (api === 'attention' ? 0xa7700000 : 0x7ace0000) + index;
  const t = tools(seededRandom(seed));
  const call = makeCall(t);
  const applied = [];
  const count = t.pick([1, 1, 1, 2, 2, 3]);
  for (let m = 0; m < count; m++) applied.push(t.pick(mutations)(call, t));
  const touched = applied.flatMap((a) => a.names);
  const label = `${api} #${index} (seed 0x${seed.toString(16)}; ${applied.map((a) => a.what).join('; ')})`;
  const verdict = judge(call.args);
  if (process.env.HOSTILE_DEBUG === `${api}:${index}`)
    console.dir({ args: call.args, verdict }, { depth: 5 });
  const outcome = checkOutcome({
    verdict,
    run: () => attn[api](...call.args),
    touched,
    label,
    checkResult: (result) => checkResult(result, verdict, label),
  });
  assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes, `${label}: leaked`);
  return outcome;
}

before(async () => {
  attn = await createAttention();
  assertComputesTheArticle(); // warm-up: whatever the first call allocates for good
  baseline = attn.memoryStats();
});

after(() => {
  // The same instance, after everything above, still computes the article's example and holds
  // no more memory than before.
  assertComputesTheArticle();
  const now = attn.memoryStats();
  assert.equal(now.allocatedBytes, baseline.allocatedBytes, 'allocatedBytes after the suite');
  assert.equal(now.wasmMemoryBytes, baseline.wasmMemoryBytes, 'the heap did not grow');
});

describe('seeded random hostile calls', () => {
  test(`${CALLS_PER_API} attention() calls`, () => {
    const outcomes = {};
    for (let index = 0; index < CALLS_PER_API; index++) {
      const outcome = mutateAndCheck(
        'attention',
        index,
        validAttentionCall,
        ATTENTION_MUTATIONS,
        judgeAttention,
        (result, verdict, label) => {
          assert.ok(result instanceof Float32Array, `${label}: result type`);
          assertMatches(result, attention64(...verdict.inputs, verdict.options), 1e-4, label);
        },
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log('attention() outcomes:', outcomes);
    // The mix must exercise every branch of the oracle, or the suite proves little.
    for (const kind of ['returned', 'TypeError', 'RangeError', 'too big']) {
      assert.ok(outcomes[kind] >= 20, `only ${outcomes[kind] ?? 0} calls ${kind}`);
    }
  });

  test(`${CALLS_PER_API} trace() calls`, () => {
    const outcomes = {};
    let layersReturned = 0; // calls with several heads or W_O whose every number was checked
    for (let index = 0; index < CALLS_PER_API; index++) {
      const outcome = mutateAndCheck(
        'trace',
        index,
        validTraceCall,
        TRACE_MUTATIONS,
        judgeTrace,
        (result, verdict, label) => {
          const expected = multiHeadTrace64(verdict.args64);
          const { n, dKHead, dVHead, heads, single } = verdict.dims;
          assert.equal(result.heads === undefined, single, `${label}: the single-head form`);
          const headResults = single ? [result] : result.heads;
          assert.equal(headResults.length, heads, `${label}: heads`);
          headResults.forEach((head, h) => {
            const where = `${label}: head ${h}`;
            for (const [name, rows, cols] of [
              ['queries', n, dKHead],
              ['keys', n, dKHead],
              ['values', n, dVHead],
              ['scores', n, n],
              ['weights', n, n],
              ['outputs', n, dVHead],
            ]) {
              assert.deepEqual(
                [head[name].rows, head[name].cols],
                [rows, cols],
                `${where} ${name}`,
              );
              const want = expected.heads[h][name].flat();
              assertMatches(head[name].data, want, 1e-4, `${where} ${name}`);
            }
            assert.deepEqual(head.weighted.dims, [n, n, dVHead]);
            const weighted = expected.heads[h].weighted.flat(2);
            assertMatches(head.weighted.data, weighted, 1e-4, `${where} weighted`);
          });
          if (!single) {
            layersReturned += 1;
            assertMatches(result.concat.data, expected.concat.flat(), 1e-4, `${label}: concat`);
            // W_O sums heads * d_v_head products of numbers up to a few units each.
            const tolerance = 1e-4 * heads * dVHead;
            assertMatches(result.outputs.data, expected.outputs.flat(), tolerance, `${label}: out`);
          }
        },
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log('trace() outcomes:', outcomes, 'layers returned:', layersReturned);
    assert.ok(layersReturned >= 20, `only ${layersReturned} multi-head calls returned`);
    for (const kind of ['returned', 'TypeError', 'RangeError', 'too big']) {
      assert.ok(outcomes[kind] >= 20, `only ${outcomes[kind] ?? 0} calls ${kind}`);
    }
  });
});

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

describe('requests past the wasm memory limit', () => {
  test('attention() whose output alone is 4 GiB: RangeError saying so, nothing allocated', () => {
    // 32,768 query rows x 32,768 value columns = 2^30 floats, from inputs of 128 KiB each.
    const before = attn.memoryStats();
    const call = () =>
      attn.attention(new Float32Array(32768), new Float32Array(1), new Float32Array(32768), {
        qNumHeads: 1,
        headSize: 1,
        vHeadSize: 32768,
      });
    assert.throws(
      call,
      (error) => error instanceof RangeError && /4(\.0)? GiB/.test(error.message),
    );
    assert.deepEqual(attn.memoryStats(), before);
  });

  test('trace() past its intermediate limit: RangeError saying how much', () => {
    const n = 4096;
    const call = () =>
      attn.trace({
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: [[1]],
        wKey: [[1]],
        wValue: [[1]],
      });
    // n^2 (weighted) alone is 16 Mi numbers (64 MiB), past the limit.
    assert.throws(call, (error) => error instanceof RangeError && /MiB/.test(error.message));
  });

  test('trace() whose heads together pass the limit: RangeError saying how much', () => {
    // 256 heads of 300 x 300 scores: 23 Mi numbers for the scores alone, from 1 KiB of weights.
    const n = 300;
    const wide = { rows: 1, cols: 256, data: new Float32Array(256) };
    const before = attn.memoryStats();
    const call = () =>
      attn.trace({
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: wide,
        wKey: wide,
        wValue: wide,
        heads: 256,
      });
    assert.throws(
      call,
      (error) =>
        error instanceof RangeError &&
        /256 head\(s\)/.test(error.message) &&
        SAYS_SIZE.test(error.message),
    );
    assert.deepEqual(attn.memoryStats(), before);
  });
});

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

// Defects this suite found in the module, each kept as a minimal repro guarding its fix.
describe('regressions found by this suite', () => {
  const q = Float32Array.from([0.3, -0.2, 0.5, 0.1]);
  const k = Float32Array.from([0.1, 0.2, -0.3, 0.4, 0.5, -0.6]);
  const v = Float32Array.from([1, 2, 3, 4, 5, 6]);
  const base = { qNumHeads: 1, headSize: 2, vHeadSize: 2 };

  test('scale and softcap: huge float32 values compute, values past float32 are refused', () => {
    // Representable in float32 (< 3.4028e38), so valid ONNX attributes: must compute.
    for (const extra of [{ scale: 3e38 }, { softcap: 3e38 }, { softcap: 1e38 }]) {
      const options = { ...base, ...extra };
      const y = attn.attention(q, k, v, options);
      assertMatches(y, attention64(q, k, v, options), 1e-4, JSON.stringify(extra));
    }
    // Not representable: the contract's "a number beyond what is allowed" -> RangeError.
    for (const [name, value] of [
      ['scale', 1e39],
      ['softcap', 1e39],
    ]) {
      assert.ok(Math.fround(value) === Infinity && value <= Number.MAX_VALUE);
      assert.throws(
        () => attn.attention(q, k, v, { ...base, [name]: value }),
        (error) => error instanceof RangeError && error.message.includes(name),
      );
    }
  });

  test('trace() lets NaN and +Infinity propagate through softmax, as attention() does', () => {
    const args = {
      x: [
        [1, 2],
        [Infinity, 1],
        [0.5, -1],
      ],
      wQuery: [
        [1, 0.5],
        [0.3, 1],
      ],
      wKey: [
        [1, -0.5],
        [0.2, 1],
      ],
      wValue: [[1], [2]],
    };
    const t = attn.trace(args);
    const expected = trace64(args);
    assertMatches(t.weights.data, expected.weights.flat(), 1e-6, 'weights');
    // The same numbers through attention(): a row with a NaN score is NaN there.
    const y = attn.attention(t.queries.data, t.keys.data, t.values.data, {
      qNumHeads: 1,
      headSize: 2,
      vHeadSize: 1,
      scale: 1,
    });
    assertMatches(t.outputs.data, y, 1e-6, 'trace vs attention');
  });

  test('options given as a typed array: TypeError naming options', () => {
    assert.throws(
      () => attn.attention(q, k, v, new Float32Array(2)),
      (error) => error instanceof TypeError && namesOneOf(error.message, ['options']),
    );
  });

  test('a Proxy of a Float32Array: TypeError naming the argument', () => {
    assert.throws(
      () => attn.attention(new Proxy(q.slice(), {}), k, v, base),
      (error) => error instanceof TypeError && namesOneOf(error.message, ['q']),
    );
  });

  test('a Float32Array from another realm (iframe, vm context) is a Float32Array', () => {
    const foreign = vm.runInNewContext('new Float32Array([0.3, -0.2, 0.5, 0.1])');
    const y = attn.attention(foreign, k, v, base);
    assertMatches(y, attention64(q, k, v, base), 1e-6, 'cross-realm q');
  });

  test('a request under 2 GiB on paper that does not fit: RangeError saying how much', async () => {
    // A fresh instance: this grows its wasm memory to the 2 GiB maximum for good.
    const own = await createAttention();
    // Not 0: Embind's registrations (e.g. trace's value_object) keep a few bytes for good.
    const before = own.memoryStats().allocatedBytes;
    const rows = 32768;
    const vHeadSize = (2 ** 29 - 2 ** 20) / rows; // the output is 2 GiB - 4 MiB
    assert.throws(
      () =>
        own.attention(new Float32Array(rows), new Float32Array(1), new Float32Array(vHeadSize), {
          qNumHeads: 1,
          headSize: 1,
          vHeadSize,
        }),
      (error) =>
        error instanceof RangeError &&
        SAYS_SIZE.test(error.message) &&
        namesOneOf(error.message, ['q', 'v', 'vHeadSize', 'output']),
    );
    assert.equal(own.memoryStats().allocatedBytes, before);
  });
});

// ---------------------------------------------------------------------------------------------
// Every argument is read exactly once: a value checked is the value used. Each test below is a
// reproduction of a defect of an earlier version (first block) or a getter, Proxy or overridden
// intrinsic aimed at one read (second block). After each, nothing leaked.

/** call() throws ErrorType naming `name` (a whole identifier) and leaks nothing. */
function assertRefusesNaming(call, ErrorType, name, pattern = /./) {
  const before = attn.memoryStats().allocatedBytes;
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.ok(namesOneOf(error.message, [name]), `"${error.message}" does not name ${name}`);
    assert.match(error.message, pattern);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
}

/** call() returns what the float64 reference says, reading its inputs as `expected`, no leak. */
function assertComputes(call, expected, label) {
  const before = attn.memoryStats().allocatedBytes;
  const y = call();
  assertMatches(y, expected, 1e-5, label);
  assert.equal(attn.memoryStats().allocatedBytes, before, `${label}: leaked`);
}

// A Float32Array over a resizable buffer, and a function that shrinks that buffer to `bytes`.
function resizable(values, { lengthTracking = true } = {}) {
  const buffer = new ArrayBuffer(values.length * 4, { maxByteLength: values.length * 4 });
  const array = lengthTracking
    ? new Float32Array(buffer)
    : new Float32Array(buffer, 0, values.length);
  array.set(values);
  return { array, shrink: (bytes) => buffer.resize(bytes) };
}

describe('read once: reproductions of earlier defects', () => {
  const t = tools(seededRandom(0x0cce0001));
  const base = { qNumHeads: 2, kvNumHeads: 1, headSize: 4, vHeadSize: 3 };
  const q = t.floats(2 * 3 * 4);
  const k = t.floats(5 * 4);
  const v = t.floats(5 * 3);

  for (const option of ['scale', 'isCausal', 'softcap', 'attnMask']) {
    const fallback = { scale: 0.5, isCausal: true, softcap: 2, attnMask: undefined }[option];
    for (const victim of ['q', 'k']) {
      test(`a ${option} getter that shrinks ${victim}'s resizable buffer: RangeError naming ${victim}`, () => {
        for (const lengthTracking of [true, false]) {
          const target = resizable(victim === 'q' ? q : k, { lengthTracking });
          const options = { ...base };
          Object.defineProperty(options, option, {
            enumerable: true,
            get() {
              target.shrink(4);
              return fallback;
            },
          });
          const args = victim === 'q' ? [target.array, k, v] : [q, target.array, v];
          assertRefusesNaming(() => attn.attention(...args, options), RangeError, victim);
        }
      });
    }
  }

  test('a large k shrunk by a scale getter, 200 times: RangeError each time, nothing leaks', () => {
    const kvSeqLen = 4096;
    const bigK = t.floats(kvSeqLen * 4);
    const bigV = t.floats(kvSeqLen * 3);
    for (let i = 0; i < 200; i++) {
      const target = resizable(bigK);
      const options = {
        ...base,
        kvSeqLen,
        get scale() {
          target.shrink(16);
          return 1;
        },
      };
      assertRefusesNaming(() => attn.attention(q, target.array, bigV, options), RangeError, 'k');
    }
  });

  test('Symbol.toStringTag = "Float32Array" on a Uint8Array or Float64Array: TypeError', () => {
    for (const Type of [Uint8Array, Float64Array, Int32Array]) {
      const spoof = new Type(q.length);
      Object.defineProperty(spoof, Symbol.toStringTag, { value: 'Float32Array' });
      assertRefusesNaming(() => attn.attention(spoof, k, v, base), TypeError, 'q');
      const mask = { data: new Float64Array(5), shape: [5] };
      Object.defineProperty(mask.data, Symbol.toStringTag, { value: 'Float32Array' });
      assertRefusesNaming(
        () => attn.attention(q, k, v, { ...base, attnMask: mask }),
        TypeError,
        'attnMask',
      );
    }
  });

  test('an own length on a real Float32Array changes nothing', () => {
    const short = q.slice(0, 8);
    Object.defineProperty(short, 'length', { value: q.length });
    assertRefusesNaming(
      () => attn.attention(short, k, v, { ...base, qSeqLen: 3 }),
      RangeError,
      'q',
      /got 8/,
    );
    const right = q.slice();
    Object.defineProperty(right, 'length', { value: 3 });
    assertComputes(() => attn.attention(right, k, v, base), attention64(q, k, v, base), 'q');
  });

  test('a byteLength getter answering 32 then 65536: ignored, correct result, heap intact', () => {
    let calls = 0;
    const lying = k.slice();
    Object.defineProperty(lying, 'byteLength', { get: () => (calls++ ? 65536 : 32) });
    Object.defineProperty(lying, 'byteOffset', { get: () => 1 << 20 });
    Object.defineProperty(lying, 'buffer', { get: () => new ArrayBuffer(65536) });
    assertComputes(() => attn.attention(q, lying, v, base), attention64(q, k, v, base), 'k');
    assert.equal(calls, 0, 'the own byteLength getter was never called');
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  test('trace() reads x.data once: a getter that changes its answer cannot split check and copy', () => {
    const first = Float32Array.from([1, 0, 1, 0, 2, 0]);
    let reads = 0;
    const x = {
      rows: 3,
      cols: 2,
      get data() {
        reads += 1;
        return reads === 1 ? first : new Float32Array(2);
      },
    };
    const w = [
      [1, 0.5],
      [0.25, 1],
    ];
    const before = attn.memoryStats().allocatedBytes;
    const result = attn.trace({ x, wQuery: w, wKey: w, wValue: w });
    assert.equal(reads, 1);
    const expected = trace64({
      x: { rows: 3, cols: 2, data: first },
      wQuery: w,
      wKey: w,
      wValue: w,
    });
    assertMatches(result.outputs.data, expected.outputs.flat(), 1e-5, 'outputs');
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });

  test('a detached buffer: TypeError naming the argument', () => {
    const detach = (array) => {
      structuredClone(array.buffer, { transfer: [array.buffer] });
      return array;
    };
    assertRefusesNaming(
      () => attn.attention(detach(q.slice()), k, v, base),
      TypeError,
      'q',
      /detached/,
    );
    assertRefusesNaming(
      () => attn.attention(q, detach(k.slice()), v, base),
      TypeError,
      'k',
      /detached/,
    );
    const mask = { data: detach(new Uint8Array(5)), shape: [5] };
    assertRefusesNaming(
      () => attn.attention(q, k, v, { ...base, attnMask: mask }),
      TypeError,
      'attnMask',
      /detached/,
    );
    const x = { rows: 1, cols: 2, data: detach(new Float32Array(2)) };
    assertRefusesNaming(
      () => attn.trace({ x, wQuery: [[1], [1]], wKey: [[1], [1]], wValue: [[1], [1]] }),
      TypeError,
      'x',
      /detached/,
    );
  });

  test('inherited options are refused by name', () => {
    assertRefusesNaming(
      () => attn.attention(q, k, v, { __proto__: { isCausal: true }, ...base }),
      TypeError,
      'isCausal',
      /inherited/,
    );
    class Options {
      get scale() {
        return 2;
      }
    }
    assertRefusesNaming(
      () => attn.attention(q, k, v, Object.assign(new Options(), base)),
      TypeError,
      'scale',
      /inherited/,
    );
    const w = [[1]];
    assertRefusesNaming(
      () => attn.trace({ __proto__: { isCausal: true }, x: w, wQuery: w, wKey: w, wValue: w }),
      TypeError,
      'isCausal',
    );
  });

  test('a polluted Object.prototype.scale is refused, not used', () => {
    Object.prototype.scale = 1e6; // eslint-disable-line no-extend-native
    try {
      assertRefusesNaming(() => attn.attention(q, k, v, { ...base }), TypeError, 'scale');
      const w = [[1]];
      assertRefusesNaming(
        () => attn.trace({ x: w, wQuery: w, wKey: w, wValue: w }),
        TypeError,
        'scale',
      );
    } finally {
      delete Object.prototype.scale;
    }
    assertComputes(() => attn.attention(q, k, v, base), attention64(q, k, v, base), 'clean');
  });

  test('softcap 1e-46 (0 in float32) and scales that vanish in float32: RangeError', () => {
    for (const [name, value] of [
      ['softcap', 1e-46],
      ['softcap', Number.MIN_VALUE],
      ['scale', 1e-300],
      ['scale', -1e-46],
    ]) {
      assertRefusesNaming(
        () => attn.attention(q, k, v, { ...base, [name]: value }),
        RangeError,
        name,
        /float32/,
      );
    }
    const w = [[1]];
    assertRefusesNaming(
      () => attn.trace({ x: w, wQuery: w, wKey: w, wValue: w, scale: 1e-50 }),
      RangeError,
      'scale',
    );
    // The smallest float32 subnormal is a real softcap.
    const tiny = { ...base, softcap: 1.5e-45 };
    assertComputes(() => attn.attention(q, k, v, tiny), attention64(q, k, v, tiny), 'softcap');
  });
});

/**
 * A deep Proxy that counts every read of every property (by path) of `value` and of the
 * objects and arrays reached through it. Typed arrays are handed out as they are (a Proxy of
 * one is rightly refused).
 */
function countingProxy(value, counts, path = '') {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const where = `${path}.${String(key)}`;
      counts.set(where, (counts.get(where) ?? 0) + 1);
      return countingProxy(Reflect.get(target, key, receiver), counts, where);
    },
  });
}

function assertEachReadOnce(counts, label) {
  const twice = [...counts].filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], `${label}: read more than once`);
  assert.ok(counts.size > 0, `${label}: nothing was read through the proxy`);
}

describe('read once: getters, Proxies and overridden intrinsics aimed at each read', () => {
  const t = tools(seededRandom(0x0cce0002));
  const shape = { batch: 2, qNumHeads: 2, kvNumHeads: 1, headSize: 3, vHeadSize: 2 };
  const q = t.floats(2 * 2 * 3 * 3);
  const k = t.floats(2 * 4 * 3);
  const v = t.floats(2 * 4 * 2);
  const mask = { data: Uint8Array.from([1, 0, 1, 1, 1, 1, 0, 1]), shape: [2, 1, 1, 4] };
  const full = { ...shape, scale: 0.7, isCausal: true, softcap: 3, attnMask: mask };
  const expected = attention64(q, k, v, full);

  test('attention(): every option, the mask and each of its dims read once', () => {
    const counts = new Map();
    assertComputes(() => attn.attention(q, k, v, countingProxy(full, counts)), expected, 'y');
    assertEachReadOnce(counts, 'options');
    for (const key of ['.scale', '.attnMask', '.attnMask.data', '.attnMask.shape.1']) {
      assert.equal(counts.get(key), 1, key);
    }
  });

  test('trace(): the argument, every matrix field, row and cell read once', () => {
    const nested = [
      [1, 0.5],
      [0.25, -1],
      [2, 1],
    ];
    const w = [
      [1, 0.5],
      [0.25, 1],
    ];
    const args = {
      x: nested,
      wQuery: { rows: 2, cols: 2, data: Float32Array.from(w.flat()) },
      wKey: w,
      wValue: { rows: 2, cols: 2, data: Float32Array.from(w.flat()) },
      scale: 0.5,
      isCausal: true,
    };
    const counts = new Map();
    const before = attn.memoryStats().allocatedBytes;
    const result = attn.trace(countingProxy(args, counts));
    assertEachReadOnce(counts, 'trace');
    for (const key of ['.x', '.x.0', '.x.0.1', '.x.length', '.x.2.length', '.wQuery.data']) {
      assert.equal(counts.get(key), 1, key);
    }
    assertMatches(result.outputs.data, trace64(args).outputs.flat(), 1e-5, 'outputs');
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });

  test('trace(): heads, kvHeads and wOut (its rows, cells, or fields) read once too', () => {
    const w = [
      [1, 0.5, -1, 2],
      [0.25, 1, 0.5, -0.5],
    ];
    const wOut = [
      [1, 0, 2],
      [0, 1, 1],
      [-1, 0.5, 0],
      [2, 1, 0.25],
    ];
    for (const form of [wOut, { rows: 4, cols: 3, data: Float32Array.from(wOut.flat()) }]) {
      const args = {
        x: [
          [1, 0.5],
          [2, -1],
          [0, 1],
        ],
        wQuery: w,
        wKey: w.map((row) => row.slice(0, 2)),
        wValue: w.map((row) => row.slice(0, 2)),
        wOut: form,
        heads: 2,
        kvHeads: 1,
      };
      const counts = new Map();
      const before = attn.memoryStats().allocatedBytes;
      const result = attn.trace(countingProxy(args, counts));
      assertEachReadOnce(counts, 'trace');
      for (const key of ['.heads', '.kvHeads', '.wOut']) assert.equal(counts.get(key), 1, key);
      const expected = multiHeadTrace64({ ...args, wOut });
      assertMatches(result.outputs.data, expected.outputs.flat(), 1e-5, 'outputs');
      assert.equal(attn.memoryStats().allocatedBytes, before);
    }
  });

  test('getters that answer differently on every read are read once: the first answer counts', () => {
    // Each getter's first answer is the valid one; a second read would get junk.
    const flaky = {};
    for (const [key, value] of Object.entries(full)) {
      let reads = 0;
      Object.defineProperty(flaky, key, {
        enumerable: true,
        get: () => (reads++ === 0 ? value : ({ batch: 7, attnMask: 'junk' }[key] ?? -1)),
      });
    }
    assertComputes(() => attn.attention(q, k, v, flaky), expected, 'y');
    let shapeReads = 0;
    const flakyMask = {
      data: mask.data,
      get shape() {
        return shapeReads++ === 0 ? mask.shape : [9, 9, 9, 9];
      },
    };
    assertComputes(
      () => attn.attention(q, k, v, { ...full, attnMask: flakyMask }),
      expected,
      'flaky mask',
    );
  });

  test('a Proxy whose ownKeys and get disagree cannot slip in an unchecked option', () => {
    const sneaky = new Proxy(
      { ...shape },
      {
        ownKeys: (target) => Reflect.ownKeys(target),
        get: (target, key) => (key === 'scale' ? 'not a number' : target[key]),
      },
    );
    // 'scale' is not an own key: never read, the default applies.
    assertComputes(
      () => attn.attention(q, k, v, sneaky),
      attention64(q, k, v, shape),
      'default scale',
    );
    const lying = new Proxy(
      { ...shape },
      { ownKeys: (target) => [...Reflect.ownKeys(target), 'sneaky'] },
    );
    assertRefusesNaming(() => attn.attention(q, k, v, lying), TypeError, 'sneaky');
  });

  test('a subclass of Float32Array overriding length, byteLength, byteOffset and buffer', () => {
    class Liar extends Float32Array {
      get length() {
        return 1;
      }
      get byteLength() {
        return 1 << 30;
      }
      get byteOffset() {
        return 12;
      }
      get buffer() {
        return new ArrayBuffer(8);
      }
    }
    assertComputes(() => attn.attention(Liar.from(q), k, v, full), expected, 'Liar q');
    assertRefusesNaming(
      () => attn.attention(q, Liar.from(k.subarray(4)), v, full),
      RangeError,
      'k',
    );
  });

  test('overridden %TypedArray%.prototype getters and set, Array.isArray, ArrayBuffer.isView', () => {
    const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
    const saved = new Map();
    const override = (object, key, descriptor) => {
      saved.set([object, key], Object.getOwnPropertyDescriptor(object, key));
      Object.defineProperty(object, key, { configurable: true, ...descriptor });
    };
    let y;
    let refused;
    try {
      override(TypedArrayPrototype, 'length', { get: () => 4 });
      override(TypedArrayPrototype, 'byteLength', { get: () => 1 << 20 });
      override(TypedArrayPrototype, 'byteOffset', { get: () => 8 });
      override(TypedArrayPrototype, 'buffer', { get: () => new ArrayBuffer(16) });
      override(TypedArrayPrototype, Symbol.toStringTag, { get: () => 'Float32Array' });
      override(TypedArrayPrototype, 'set', { value: () => {} });
      override(TypedArrayPrototype, 'subarray', { value: () => new Uint8Array(0) });
      override(Array, 'isArray', { value: () => false });
      override(ArrayBuffer, 'isView', { value: () => false });
      override(Number, 'isInteger', { value: () => true });
      override(Math, 'fround', { value: (x) => x });
      y = attn.attention(q, k, v, full);
      try {
        attn.attention(new Float64Array(q.length), k, v, { ...full, softcap: 1e-46 });
      } catch (error) {
        refused = error;
      }
    } finally {
      for (const [[object, key], descriptor] of saved)
        Object.defineProperty(object, key, descriptor);
    }
    assertMatches(y, expected, 1e-5, 'y');
    assert.ok(refused instanceof TypeError && /\bq\b/.test(refused.message), String(refused));
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  // (Not Array#push: Emscripten's own glue relies on it to pass the call to the core, which
  // then refuses the garbled call with a RangeError instead of computing.)
  test('a replaced Array iterator, Set#has and Set#forEach: options still checked, memory still freed', () => {
    const saved = [
      [Array.prototype, Symbol.iterator],
      [Set.prototype, 'has'],
      [Set.prototype, 'forEach'],
    ].map(([object, key]) => ({
      object,
      key,
      descriptor: Object.getOwnPropertyDescriptor(object, key),
    }));
    const calls = [full, { ...full, causal: true }, { __proto__: { scale: 9 }, ...shape }];
    const outcomes = [];
    try {
      // Until restored, this test itself must not iterate arrays (no for-of, no destructuring).
      Array.prototype[Symbol.iterator] = function* () {}; // eslint-disable-line no-extend-native
      Set.prototype.has = () => true;
      Set.prototype.forEach = () => {};
      for (let i = 0; i < calls.length; i++) {
        try {
          outcomes[i] = attn.attention(q, k, v, calls[i]);
        } catch (error) {
          outcomes[i] = error;
        }
      }
    } finally {
      for (let i = 0; i < saved.length; i++) {
        Object.defineProperty(saved[i].object, saved[i].key, saved[i].descriptor);
      }
    }
    assertMatches(outcomes[0], expected, 1e-5, 'y');
    assert.ok(
      outcomes[1] instanceof TypeError && /causal/.test(outcomes[1].message),
      String(outcomes[1]),
    );
    assert.ok(
      outcomes[2] instanceof TypeError && /scale/.test(outcomes[2].message),
      String(outcomes[2]),
    );
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes, 'leaked');
  });

  test('a getter that detaches q: TypeError naming q, nothing leaks', () => {
    const victim = q.slice();
    const options = {
      ...shape,
      get isCausal() {
        structuredClone(victim.buffer, { transfer: [victim.buffer] });
        return false;
      },
    };
    assertRefusesNaming(() => attn.attention(victim, k, v, options), TypeError, 'q', /detached/);
  });

  test('a getter that grows q before it is measured: the grown q is checked and used', () => {
    const buffer = new ArrayBuffer(q.byteLength, { maxByteLength: q.byteLength * 2 });
    const grown = new Float32Array(buffer); // length-tracking: qSeqLen is inferred from it
    grown.set(q);
    const options = {
      ...full,
      get softcap() {
        buffer.resize(q.byteLength * 2);
        grown.fill(0.25, q.length);
        return 3;
      },
    };
    const y = attn.attention(grown, k, v, options);
    assertMatches(y, attention64(Float32Array.from(grown), k, v, full), 1e-5, 'y');
    assert.equal(y.length, expected.length * 2);
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  test('a trace() matrix getter that shrinks another matrix buffer: RangeError naming it', () => {
    const target = resizable(Float32Array.from([1, 0, 0, 1]));
    const rows = [[1, 2]];
    const x = new Proxy(rows, {
      get(object, key) {
        if (key === '0') target.shrink(4);
        return object[key];
      },
    });
    const wQuery = { rows: 2, cols: 2, data: target.array };
    assertRefusesNaming(
      () => attn.trace({ wQuery, x, wKey: [[1], [1]], wValue: [[1], [1]] }),
      RangeError,
      'wQuery',
    );
  });
});

describe("the core's own errors", () => {
  // The JS layer validates first, so the core refusing a shape cannot be provoked through the
  // API; a module whose core answers with a given message shows how each kind is reported.
  async function withCoreAnswer(message) {
    const wasmBinary = readFileSync(new URL('../../dist/attention.wasm', import.meta.url));
    return createAttentionWith(
      async (options) => {
        const Module = await createAttentionModule(options);
        return Object.create(Module, { runAttention: { value: () => message } });
      },
      { wasmBinary },
    );
  }
  const q = new Float32Array(4);
  const options = { qNumHeads: 1, headSize: 4 };

  test('a shape error is reported as it is, without a note about working memory', async () => {
    const own = await withCoreAnswer('attnMask.shape must have 1 to 4 dimensions');
    assert.throws(
      () => own.attention(q, q, q, options),
      (error) =>
        error instanceof RangeError &&
        error.message === 'attention: attnMask.shape must have 1 to 4 dimensions',
    );
    assert.equal(own.memoryStats().allocatedBytes, 0);
  });

  test('out of memory says how much working memory did not fit', async () => {
    const own = await withCoreAnswer("out of memory for the kernel's scratch");
    assert.throws(
      () => own.attention(q, q, q, options),
      (error) =>
        error instanceof RangeError && /KiB of working memory did not fit/.test(error.message),
    );
    assert.equal(own.memoryStats().allocatedBytes, 0);
  });
});
