// attention(): seeded valid calls, the mutations that break them, and the oracle (judgeAttention),
// an independent reading of the contract that decides whether a call is valid.
import { after } from 'node:test';

import {
  BAD_DIMS,
  BAD_DIMS_HUGE,
  JUNK,
  SKIPPED,
  WASM_MEMORY_LIMIT,
  isDim,
  isFloat32,
  isObject,
  oddButValidArrays,
  setKey,
  wrongArrays,
  BAD_OPTION_VALUES,
} from './inputs.mjs';
import { resizable, show } from './checks.mjs';
import { optionNames } from '../../../src/js/attention/attention-options.mjs';

const DIMS = ['batch', 'qNumHeads', 'kvNumHeads', 'qSeqLen', 'kvSeqLen', 'headSize', 'vHeadSize'];
// The options attention() takes, from the options record's one list: a new option is
// attacked here as soon as it exists, and must bring its bad values (BAD_OPTION_VALUES,
// inputs.mjs).
const OPTIONS = optionNames('attention');
const ATTENTION_KEYS = [...DIMS, ...OPTIONS, 'attnMask'];
for (const name of OPTIONS) {
  if (!BAD_OPTION_VALUES[name]) throw new Error(`the hostile suite has no bad values for ${name}`);
}
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

export function validAttentionCall(t) {
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
export const ATTENTION_MUTATIONS = [
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
    const name = t.pick(OPTIONS);
    const values = BAD_OPTION_VALUES[name];
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
export function judgeAttention(args) {
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
  const { scale, isCausal, softcap, alibi, attnMask } = options;
  if (scale !== undefined && !isFloat32(scale)) return invalid;
  if (alibi !== undefined && alibi !== false) {
    const slopes = alibi instanceof Float32Array && alibi.length === qNumHeads;
    if (alibi !== true && !(slopes && alibi.every(Number.isFinite))) return invalid;
  }
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
