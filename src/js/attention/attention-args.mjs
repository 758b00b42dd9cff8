// attention()'s arguments, read once (read-once.mjs phases 1 to 3: read, measure, validate).
// Shared by attention() (api.mjs), which then copies the snapshot into wasm memory, and by the
// pool (pool.mjs), which slices the snapshot for its workers: both throw the same TypeError /
// RangeError for the same bad argument, and neither reads the caller's objects twice.
import { checkAttentionOptions, optionNames } from './attention-options.mjs';
import { checkPositiveInteger, describe, isOptionBag } from '../shared/checks.mjs';
import { checkOut } from '../shared/out-array.mjs';
import { measureTypedArray, readArray, readOwnOptions } from '../shared/read-once.mjs';

/** The fields of the options record (attention-options.mjs) that attention() takes. */
const RECORD_KEYS = optionNames('attention');
/** attention()'s dims, named as the core's shape (AttentionCall) names them. */
export const DIM_KEYS = [
  'batch',
  'qNumHeads',
  'kvNumHeads',
  'qSeqLen',
  'kvSeqLen',
  'headSize',
  'vHeadSize',
];
const ATTENTION_KEYS = new Set([...DIM_KEYS, ...RECORD_KEYS, 'attnMask', 'out']);
const MASK_KEYS = new Set(['data', 'shape']);

/**
 * attention()'s options for the fields of a validated record that attention() takes: what
 * the pool forwards to its workers, which read them again as attention() options.
 */
export function recordAsOptions(record) {
  const options = {};
  for (let i = 0; i < RECORD_KEYS.length; i++) options[RECORD_KEYS[i]] = record[RECORD_KEYS[i]];
  return options;
}

/** A measured Float32Array argument (q, k, v), or a TypeError naming it. */
function measureFloat32Array(value, name) {
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  return measured;
}

/** Phase 1 of attention()'s attnMask: its own `data` and `shape`, and shape's items, once. */
function readMask(mask) {
  if (!isOptionBag(mask)) {
    throw new TypeError(`attnMask must be an object { data, shape }, got ${describe(mask)}`);
  }
  const { data, shape } = readOwnOptions(mask, MASK_KEYS, 'attnMask', 'attnMask');
  const dims = readArray(shape, 'attnMask.shape', 64);
  if (dims === null) {
    throw new TypeError(`attnMask.shape must be an array of 1 to 4 dims, got ${describe(shape)}`);
  }
  return { data, dims };
}

/** Phases 2 and 3 of attnMask: its kind, measured data and dims, checked against `target`. */
function checkMask(read, target) {
  const data = measureTypedArray(read.data, 'attnMask.data');
  let kind;
  if (data !== null && data.type === 'Uint8Array') kind = 'boolean';
  else if (data !== null && data.type === 'Float32Array') kind = 'additive';
  else {
    throw new TypeError(
      `attnMask.data must be a Uint8Array (1 = may attend) or a Float32Array (added to the scores), got ${describe(read.data)}`,
    );
  }
  if (read.dims.length < 1 || read.dims.length > 4) {
    throw new RangeError(`attnMask.shape must have 1 to 4 dims, got ${read.dims.length}`);
  }
  const dims = read.dims.map((d, i) => checkPositiveInteger(d, `attnMask.shape[${i}]`));
  const count = dims.reduce((a, b) => a * b, 1);
  if (data.length !== count) {
    throw new RangeError(
      `attnMask.data must hold ${count} values for shape [${dims.join(', ')}], got ${data.length}`,
    );
  }
  for (let i = 0; i < dims.length; i++) {
    const want = target[4 - dims.length + i];
    if (dims[i] !== 1 && dims[i] !== want) {
      throw new RangeError(
        `attnMask.shape [${dims.join(', ')}] does not broadcast to [batch, qNumHeads, qSeqLen, kvSeqLen] = [${target.join(', ')}]: dim ${i} is ${dims[i]}, expected 1 or ${want}`,
      );
    }
  }
  return { kind, data, dims, bytes: count * (kind === 'boolean' ? 1 : 4) };
}

/** A sequence length left out of the options, from an array's length. */
function derive(length, name, per, option) {
  if (length === 0 || length % per !== 0) {
    throw new RangeError(
      `${name} has ${length} numbers, not a positive multiple of ${per}: cannot infer ${option}; pass it`,
    );
  }
  return length / per;
}

/**
 * attention(q, k, v, options) read and validated: the dims with their defaults filled in,
 * `options`, the options record (attention-options.mjs) for the core, the mask ({ kind: 'boolean' | 'additive', data, dims, bytes } or
 * null), the caller's `out` ({ array, measured }, or null when not given), q, k, v as measured typed
 * arrays (read-once.mjs) and the element counts of q, k, v and the output y. Throws a TypeError / RangeError naming the bad argument.
 */
export function readAttentionArgs(q, k, v, options) {
  if (!isOptionBag(options)) {
    throw new TypeError(`attention: options must be an object, got ${describe(options)}`);
  }
  // Phase 1, read: each own option once, and the mask's fields once.
  const o = readOwnOptions(options, ATTENTION_KEYS, 'attention', 'options');
  const readMaskArgs = o.attnMask === undefined ? null : readMask(o.attnMask);
  // Phase 2, measure: no caller code runs from here on.
  const qm = measureFloat32Array(q, 'q');
  const km = measureFloat32Array(k, 'k');
  const vm = measureFloat32Array(v, 'v');
  const outm = o.out === undefined ? null : measureTypedArray(o.out, 'out');
  // Phase 3, validate the snapshot.
  const opt = (name, fallback) => (o[name] === undefined ? fallback : o[name]);
  const batch = checkPositiveInteger(opt('batch', 1), 'batch');
  if (o.qNumHeads === undefined) throw new TypeError('qNumHeads is missing');
  if (o.headSize === undefined) throw new TypeError('headSize is missing');
  const qNumHeads = checkPositiveInteger(o.qNumHeads, 'qNumHeads');
  const kvNumHeads = checkPositiveInteger(opt('kvNumHeads', qNumHeads), 'kvNumHeads');
  if (qNumHeads % kvNumHeads !== 0) {
    throw new RangeError(
      `kvNumHeads must divide qNumHeads (each kv head serves a whole group of query heads): ${kvNumHeads} does not divide ${qNumHeads}`,
    );
  }
  const headSize = checkPositiveInteger(o.headSize, 'headSize');
  const vHeadSize = checkPositiveInteger(opt('vHeadSize', headSize), 'vHeadSize');
  // Sequence lengths may be left out: then they follow from the array lengths.
  const qSeqLen =
    o.qSeqLen === undefined
      ? derive(qm.length, 'q', batch * qNumHeads * headSize, 'qSeqLen')
      : checkPositiveInteger(o.qSeqLen, 'qSeqLen');
  const kvSeqLen =
    o.kvSeqLen === undefined
      ? derive(km.length, 'k', batch * kvNumHeads * headSize, 'kvSeqLen')
      : checkPositiveInteger(o.kvSeqLen, 'kvSeqLen');
  const qLength = batch * qNumHeads * qSeqLen * headSize;
  const kLength = batch * kvNumHeads * kvSeqLen * headSize;
  const vLength = batch * kvNumHeads * kvSeqLen * vHeadSize;
  const yLength = batch * qNumHeads * qSeqLen * vHeadSize;
  if (qm.length !== qLength) {
    throw new RangeError(
      `q must hold batch * qNumHeads * qSeqLen * headSize = ${batch}*${qNumHeads}*${qSeqLen}*${headSize} = ${qLength} numbers, got ${qm.length}`,
    );
  }
  if (km.length !== kLength) {
    throw new RangeError(
      `k must hold batch * kvNumHeads * kvSeqLen * headSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${headSize} = ${kLength} numbers, got ${km.length}`,
    );
  }
  if (vm.length !== vLength) {
    throw new RangeError(
      `v must hold batch * kvNumHeads * kvSeqLen * vHeadSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${vHeadSize} = ${vLength} numbers, got ${vm.length}`,
    );
  }
  const record = checkAttentionOptions(o, { headSize, qNumHeads });
  const target = [batch, qNumHeads, qSeqLen, kvSeqLen];
  const mask = readMaskArgs === null ? null : checkMask(readMaskArgs, target);
  const out =
    o.out === undefined
      ? null
      : checkOut(outm, o.out, yLength, [
          ['q', qm],
          ['k', km],
          ['v', vm],
          ['attnMask.data', mask && mask.data],
        ]);
  return {
    batch,
    qNumHeads,
    kvNumHeads,
    qSeqLen,
    kvSeqLen,
    headSize,
    vHeadSize,
    options: record,
    mask,
    out,
    q: qm,
    k: km,
    v: vm,
    lengths: { q: qLength, k: kLength, v: vLength, y: yLength },
  };
}
