// onnxAttention's shape rules (phases 1 to 3 of read-once.mjs): the call read once (inputs,
// attributes, the outputs list), every tensor measured, and the snapshot validated against
// the ONNX Attention spec (opsets 23 to 25), each error naming the ONNX input or attribute.
// The result, a plan, is what onnx-attention.mjs copies into wasm memory and what the pool
// posts to its workers.
//
// Names: B batch, Hq / Hkv query / key-value heads, S query length, L new keys, P past keys,
// T = P + L every key, D query/key head size, Dv value head size.
//   Q  (B, Hq, S, D)  or 3-D (B, S, Hq*D)       K  (B, Hkv, L, D)  or 3-D (B, L, Hkv*D)
//   V  (B, Hkv, L, Dv) or 3-D (B, L, Hkv*Dv)    past_key (B, Hkv, P, D), past_value (B, Hkv, P, Dv)
//   attn_mask: bool or Q's float type, right-aligned against (B, Hq, S, T); its last dim may
//     be shorter than T (the missing keys are hidden)     nonpad_kv_seqlen (B,) int64
//   Y (B, Hq, S, Dv) or 3-D (B, S, Hq*Dv), Q's type    present_key (B, Hkv, T, D), K's type
//   present_value (B, Hkv, T, Dv), V's type              qk_matmul_output (B, Hq, S, T), Q's type
import { checkAttentionOptions } from '../attention/attention-options.mjs';
import { checkPositiveInteger, describe, isOptionBag } from '../shared/checks.mjs';
import {
  measureTypedArray,
  measuredBytes,
  readArray,
  readOwnOptions,
} from '../shared/read-once.mjs';

const INPUT_NAMES = new Set([
  'Q',
  'K',
  'V',
  'attn_mask',
  'past_key',
  'past_value',
  'nonpad_kv_seqlen',
]);
const ATTRIBUTE_NAMES = new Set([
  'is_causal',
  'scale',
  'softcap',
  'q_num_heads',
  'kv_num_heads',
  'qk_matmul_output_mode',
  'softmax_precision',
  'left_window_size',
  'right_window_size',
]);
const OUTPUT_NAMES = ['Y', 'present_key', 'present_value', 'qk_matmul_output'];
// ONNX TensorProto data types the softmax may be asked to run in: FLOAT, FLOAT16, DOUBLE,
// BFLOAT16. The kernel always runs it in float32, which is at least as precise as asked for
// all but DOUBLE (where float32 is what every other part of the operator computes in anyway).
const SOFTMAX_PRECISIONS = [1, 10, 11, 16];
// The options record's fields by their ONNX attribute names.
const RECORD_NAMES = {
  isCausal: 'is_causal',
  leftWindow: 'left_window_size',
  rightWindow: 'right_window_size',
};

// Element types, the typed arrays that may hold them, and their size in bytes.
const ARRAYS_OF = {
  float32: ['Float32Array'],
  float16: ['Uint16Array', 'Float16Array'],
  bool: ['Uint8Array'],
  int64: ['BigInt64Array'],
};
const TYPE_OF_ARRAY = {
  Float32Array: 'float32',
  Uint16Array: 'float16',
  Float16Array: 'float16',
  Uint8Array: 'bool',
  BigInt64Array: 'int64',
};
/** Bytes per element of each ONNX element type. */
export const BYTES_PER = { float32: 4, float16: 2, bool: 1, int64: 8 };
const FLOATS = ['float32', 'float16'];
const MAX_RANK = 8;
const INT32_MAX = 0x7fffffff;

const product = (dims) => dims.reduce((a, b) => a * b, 1);
const show = (dims) => `[${dims.join(', ')}]`;

// ---------------------------------------------------------------------------------------------
// Phase 1: read. Tensors are read field by field with ordinary property access (so an
// onnxruntime-web Tensor's `data` getter works); bags of inputs and attributes own keys only.

export function readTensor(value, name) {
  if (!isOptionBag(value)) {
    throw new TypeError(
      `${name} must be a tensor { type, data, dims } (an onnxruntime-web Tensor will do), got ${describe(value)}`,
    );
  }
  const type = value.type;
  const data = value.data;
  const rawDims = value.dims;
  const dims = readArray(rawDims, `${name}.dims`, MAX_RANK);
  if (dims === null) {
    throw new TypeError(`${name}.dims must be an array of dims, got ${describe(rawDims)}`);
  }
  return { name, type, data, dims };
}

/**
 * Phase 1 of an ONNX operator's call `op` (onnxAttention, onnxRotaryEmbedding): its inputs,
 * own keys of `names.inputs`, each tensor read once (an absent optional one left out, or given
 * as undefined or null), and its attributes, own keys of `names.attributes`.
 * `names.shape` shows the inputs object in messages.
 */
export function readInputsAndAttributes(op, inputs, attributes, names) {
  if (!isOptionBag(inputs)) {
    throw new TypeError(`${op}: inputs must be an object ${names.shape}, got ${describe(inputs)}`);
  }
  const given = readOwnOptions(inputs, names.inputs, op, 'inputs');
  // Null prototypes: an input or attribute left out reads as undefined, never as a polluted
  // Object.prototype.scale or .attn_mask (omitted attributes are not an object of the caller's).
  const tensors = { __proto__: null };
  for (const name of names.inputs) {
    const value = given[name];
    if (value !== undefined && value !== null) tensors[name] = readTensor(value, name);
  }
  let attrs = { __proto__: null };
  if (attributes !== undefined) {
    if (!isOptionBag(attributes)) {
      throw new TypeError(`${op}: attributes must be an object, got ${describe(attributes)}`);
    }
    attrs = readOwnOptions(attributes, names.attributes, op, 'attributes');
  }
  return { tensors, attrs };
}

export function readCall(inputs, attributes, outputs) {
  const { tensors, attrs } = readInputsAndAttributes('onnxAttention', inputs, attributes, {
    inputs: INPUT_NAMES,
    attributes: ATTRIBUTE_NAMES,
    shape: '{ Q, K, V, ... }',
  });
  let wanted;
  if (outputs !== undefined) {
    wanted = readArray(outputs, 'outputs', OUTPUT_NAMES.length);
    if (wanted === null) {
      throw new TypeError(
        `onnxAttention: outputs must be an array of output names (${OUTPUT_NAMES.join(', ')}), got ${describe(outputs)}`,
      );
    }
  }
  return { tensors, attrs, wanted };
}

// ---------------------------------------------------------------------------------------------
// Phases 2 and 3: measure every tensor, then validate the snapshot against the spec.

function checkDim(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a non-negative integer, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < 0 || value > INT32_MAX) {
    throw new RangeError(`${name} must be an integer from 0 to 2^31 - 1, got ${value}`);
  }
  return value;
}

/** A measured tensor { name, type, view, dims, count, float16Array }, checked against `types`. */
export function measureTensor(read, types) {
  const { name } = read;
  const view = measureTypedArray(read.data, `${name}.data`);
  const arrays = types.flatMap((t) => ARRAYS_OF[t]).join(', ');
  if (view === null) {
    throw new TypeError(
      `${name}.data must be a typed array (${arrays}), got ${describe(read.data)}`,
    );
  }
  let type = read.type;
  if (type === undefined) {
    type = TYPE_OF_ARRAY[view.type];
    if (type === undefined || !types.includes(type)) {
      throw new TypeError(`${name}.data must be a ${arrays}, got a ${view.type}`);
    }
  } else if (typeof type !== 'string' || !Object.hasOwn(ARRAYS_OF, type)) {
    throw new TypeError(
      `${name}.type must be one of ${types.map((t) => `'${t}'`).join(', ')}, got ${describe(type)}`,
    );
  }
  if (!types.includes(type)) {
    throw new TypeError(
      `${name} must be of type ${types.map((t) => `'${t}'`).join(' or ')}, got '${type}'`,
    );
  }
  if (!ARRAYS_OF[type].includes(view.type)) {
    throw new TypeError(
      `${name}.type is '${type}', so ${name}.data must be a ${ARRAYS_OF[type].join(' or ')}, got a ${view.type}`,
    );
  }
  const dims = read.dims.map((d, i) => checkDim(d, `${name}.dims[${i}]`));
  const count = product(dims);
  if (view.length !== count) {
    throw new RangeError(
      `${name}.data must hold ${dims.join(' * ') || '1'} = ${count} values for dims ${show(dims)}, got ${view.length}`,
    );
  }
  return { name, type, view, dims, count, float16Array: view.type === 'Float16Array' };
}

function checkAttributes(attrs) {
  const integer = (name, fallback, lo, hi) => {
    const value = attrs[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'number') {
      throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
    }
    if (!Number.isInteger(value) || value < lo || value > hi) {
      throw new RangeError(`${name} must be an integer from ${lo} to ${hi}, got ${value}`);
    }
    return value;
  };
  // ONNX spells a boolean as an int; the record (attention-options.mjs) takes a boolean.
  let isCausal = attrs.is_causal === undefined ? 0 : attrs.is_causal;
  if (typeof isCausal === 'boolean') isCausal = isCausal ? 1 : 0;
  if (isCausal !== 0 && isCausal !== 1) {
    throw new (typeof isCausal === 'number' ? RangeError : TypeError)(
      `is_causal must be 0 or 1 (or a boolean), got ${describe(isCausal)}`,
    );
  }
  const options = checkAttentionOptions(
    {
      scale: attrs.scale,
      isCausal: isCausal === 1,
      softcap: attrs.softcap,
      leftWindow: attrs.left_window_size,
      rightWindow: attrs.right_window_size,
    },
    { names: RECORD_NAMES },
  );
  const qNumHeads =
    attrs.q_num_heads === undefined
      ? undefined
      : checkPositiveInteger(attrs.q_num_heads, 'q_num_heads');
  const kvNumHeads =
    attrs.kv_num_heads === undefined
      ? undefined
      : checkPositiveInteger(attrs.kv_num_heads, 'kv_num_heads');
  const mode = integer('qk_matmul_output_mode', 0, 0, 3);
  const precision = attrs.softmax_precision;
  if (precision !== undefined && !SOFTMAX_PRECISIONS.includes(precision)) {
    throw new (typeof precision === 'number' ? RangeError : TypeError)(
      `softmax_precision must be one of ${SOFTMAX_PRECISIONS.join(', ')} (float, float16, double, bfloat16), got ${describe(precision)}`,
    );
  }
  return { options, qNumHeads, kvNumHeads, mode };
}

function checkWanted(wanted, hasPast) {
  if (wanted === undefined) {
    return new Set(hasPast ? ['Y', 'present_key', 'present_value'] : ['Y']);
  }
  const set = new Set();
  wanted.forEach((name, i) => {
    if (typeof name !== 'string' || !OUTPUT_NAMES.includes(name)) {
      throw new TypeError(
        `outputs[${i}] must be one of ${OUTPUT_NAMES.map((n) => `'${n}'`).join(', ')}, got ${describe(name)}`,
      );
    }
    if (set.has(name)) throw new RangeError(`outputs names '${name}' twice`);
    set.add(name);
  });
  if (set.has('present_key') !== set.has('present_value')) {
    throw new RangeError(
      'outputs must ask for present_key and present_value together (the cache is one pair)',
    );
  }
  return set;
}

/**
 * Heads, lengths and head size of Q, K or V from its dims: 4-D (B, H, seq, size) or 3-D
 * (B, seq, H * size) with H from the attribute `headsName`.
 */
function splitHeads(t, heads, headsName) {
  const { name, dims } = t;
  if (dims.length === 4) {
    if (heads !== undefined && heads !== dims[1]) {
      throw new RangeError(
        `${headsName} is ${heads} but ${name} is 4-D with ${dims[1]} heads (dims ${show(dims)}); leave ${headsName} out for 4-D inputs`,
      );
    }
    return { layout: 'bhsd', batch: dims[0], heads: dims[1], seq: dims[2], size: dims[3] };
  }
  if (dims.length === 3) {
    if (heads === undefined) {
      throw new TypeError(
        `${headsName} is required when ${name} is 3-D (batch, seq, heads * head_size), got dims ${show(dims)}`,
      );
    }
    if (dims[2] % heads !== 0) {
      throw new RangeError(
        `${name}'s last dim ${dims[2]} must be ${headsName} * head_size, but ${headsName} = ${heads} does not divide it`,
      );
    }
    return { layout: 'bshd', batch: dims[0], heads, seq: dims[1], size: dims[2] / heads };
  }
  throw new RangeError(
    `${name} must be 3-D (batch, seq, heads * head_size) or 4-D (batch, heads, seq, head_size), got ${dims.length}-D ${show(dims)}`,
  );
}

function expectDims(t, expected, meaning) {
  const same = t.dims.length === expected.length && t.dims.every((d, i) => d === expected[i]);
  if (!same) {
    throw new RangeError(
      `${t.name} must have dims ${meaning} = ${show(expected)}, got ${show(t.dims)}`,
    );
  }
}

function atLeastOne(value, what) {
  if (value < 1) throw new RangeError(`${what} must be at least 1, got 0`);
}

/** past_key (B, Hkv, P, D) and past_value (B, Hkv, P, Dv): both or neither. */
function checkPast(tensors, Q, V, { B, Hkv, D, Dv }) {
  if (!tensors.past_key && !tensors.past_value) return { pastKey: null, pastValue: null, P: 0 };
  if (!tensors.past_key) throw new TypeError('past_key is missing: past_value needs it');
  if (!tensors.past_value) throw new TypeError('past_value is missing: past_key needs it');
  const pastKey = measureTensor(tensors.past_key, [Q.type]);
  const pastValue = measureTensor(tensors.past_value, [V.type]);
  if (pastKey.dims.length !== 4) {
    throw new RangeError(
      `past_key must be 4-D (batch, kv_num_heads, past_seq, head_size), got ${show(pastKey.dims)}`,
    );
  }
  const P = pastKey.dims[2];
  expectDims(pastKey, [B, Hkv, P, D], '(batch, kv heads, past length, head_size)');
  expectDims(pastValue, [B, Hkv, P, Dv], '(batch, kv heads, past length, v_head_size)');
  return { pastKey, pastValue, P };
}

/**
 * nonpad_kv_seqlen (B,) int64, each from 0 to T: an Int32Array for the core. The values are
 * data the rules depend on, so they are read once, here, from the measured bytes.
 */
function checkNonpad(read, pastKey, B, T) {
  if (pastKey) {
    throw new RangeError(
      'nonpad_kv_seqlen (an external cache) cannot be combined with past_key / past_value (a cache inside the operator)',
    );
  }
  const t = measureTensor(read, ['int64']);
  expectDims(t, [B], '(batch)');
  measuredBytes(t.view, B * 8, 'nonpad_kv_seqlen.data');
  const values = new BigInt64Array(t.view.buffer, t.view.byteOffset, B);
  const lengths = new Int32Array(B);
  for (let b = 0; b < B; b++) {
    const n = values[b];
    if (n < 0n || n > BigInt(T)) {
      throw new RangeError(`nonpad_kv_seqlen[${b}] must be from 0 to the ${T} keys of K, got ${n}`);
    }
    lengths[b] = Number(n);
  }
  return lengths;
}

/** attn_mask: bool or Q's type, 1 to 4 dims right-aligned to `target`, last dim 1 to T. */
function checkMask(read, qType, target) {
  const t = measureTensor(read, ['bool', qType]);
  const rank = t.dims.length;
  if (rank < 1 || rank > 4) {
    throw new RangeError(`attn_mask must have 1 to 4 dims, got ${rank} ${show(t.dims)}`);
  }
  const T = target[3];
  const last = t.dims[rank - 1];
  if (last < 1 || last > T) {
    throw new RangeError(
      `attn_mask's last dim must be from 1 to the ${T} keys (past + new; shorter hides the rest), got ${last}`,
    );
  }
  for (let i = 0; i < rank - 1; i++) {
    const want = target[4 - rank + i];
    if (t.dims[i] !== 1 && t.dims[i] !== want) {
      throw new RangeError(
        `attn_mask dims ${show(t.dims)} do not broadcast to (batch, q heads, q length, keys) = ${show(target)}: dim ${i} is ${t.dims[i]}, expected 1 or ${want}`,
      );
    }
  }
  return t;
}

/** Validates the snapshot: every shape rule of the spec, naming the ONNX input or attribute. */
export function plan(read) {
  const { tensors } = read;
  for (const name of ['Q', 'K', 'V']) {
    if (!tensors[name]) throw new TypeError(`onnxAttention: input ${name} is missing`);
  }
  const attrs = checkAttributes(read.attrs);
  const Q = measureTensor(tensors.Q, FLOATS);
  const K = measureTensor(tensors.K, FLOATS);
  const V = measureTensor(tensors.V, FLOATS);
  if (K.type !== Q.type) {
    throw new TypeError(`K must have Q's type '${Q.type}' (both are T1), got '${K.type}'`);
  }
  const q = splitHeads(Q, attrs.qNumHeads, 'q_num_heads');
  // Q, K and V are all 4-D or all 3-D (ONNX's reference asserts one rank for the three).
  for (const t of [K, V]) {
    if (t.dims.length !== Q.dims.length) {
      throw new RangeError(
        `${t.name} must have Q's rank ${Q.dims.length} (all 4-D or all 3-D), got ${t.dims.length}-D ${show(t.dims)}`,
      );
    }
  }
  const k = splitHeads(K, attrs.kvNumHeads, 'kv_num_heads');
  const v = splitHeads(V, attrs.kvNumHeads, 'kv_num_heads');
  const B = q.batch;
  const [Hq, S, D] = [q.heads, q.seq, q.size];
  const [Hkv, L, Dv] = [k.heads, k.seq, v.size];
  atLeastOne(B, 'Q.dims[0] (batch)');
  atLeastOne(Hq, 'the number of query heads');
  atLeastOne(S, "Q's sequence length");
  atLeastOne(D, "Q's head size");
  atLeastOne(Hkv, 'the number of key/value heads');
  atLeastOne(L, "K's sequence length");
  atLeastOne(Dv, "V's head size");
  if (k.batch !== B)
    throw new RangeError(`K's batch must be Q's ${B}, got ${k.batch} (dims ${show(K.dims)})`);
  if (v.batch !== B)
    throw new RangeError(`V's batch must be Q's ${B}, got ${v.batch} (dims ${show(V.dims)})`);
  if (k.size !== D) {
    throw new RangeError(
      `K's head size must be Q's head size ${D}, got ${k.size} (dims ${show(K.dims)})`,
    );
  }
  if (v.heads !== Hkv || v.seq !== L) {
    throw new RangeError(
      `V must have K's ${Hkv} heads and ${L} keys, got ${v.heads} heads and ${v.seq} keys (dims ${show(V.dims)})`,
    );
  }
  if (Hq % Hkv !== 0) {
    throw new RangeError(
      `the number of key/value heads (${Hkv}, from K${attrs.kvNumHeads === undefined ? '' : ' and kv_num_heads'}) must divide the number of query heads (${Hq}): each kv head serves a whole group`,
    );
  }

  const { pastKey, pastValue, P } = checkPast(tensors, Q, V, { B, Hkv, D, Dv });
  const T = P + L;
  if (T > INT32_MAX) {
    throw new RangeError(`past_key and K together hold ${T} keys, more than 2^31 - 1`);
  }
  const nonpad = tensors.nonpad_kv_seqlen
    ? checkNonpad(tensors.nonpad_kv_seqlen, pastKey, B, T)
    : null;
  const mask = tensors.attn_mask ? checkMask(tensors.attn_mask, Q.type, [B, Hq, S, T]) : null;

  const wanted = checkWanted(read.wanted, pastKey !== null);
  const y3d = q.layout === 'bshd';
  return {
    Q,
    K,
    V,
    pastKey,
    pastValue,
    mask,
    nonpad,
    attrs,
    wanted,
    layouts: { q: q.layout, kv: k.layout },
    sizes: { B, Hq, Hkv, S, L, P, T, D, Dv },
    yDims: y3d ? [B, S, Hq * Dv] : [B, Hq, S, Dv],
    // The concatenated cache is needed for a past, and to hand back present_* at all.
    buildsPresent: pastKey !== null || wanted.has('present_key'),
  };
}
