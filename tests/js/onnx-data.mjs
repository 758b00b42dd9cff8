// Seeded inputs for one ONNX Attention case: floats uniform in [0, 1) as ONNX's own cases draw
// them, float16 tensors as the half bits of such floats, bool masks, and the structured masks
// and cache lengths that some cases exist to probe (fully masked rows, -Infinity under
// softcap, negative offsets). Shared by the case suite, the onnxruntime-web cross-check and
// the random configurations.
import assert from 'node:assert/strict';

import { floatToHalf, halfToFloat } from '../../src/js/shared/float16.mjs';
import { seededRandom } from './seeded-random.mjs';

/** A 32-bit seed from a case name, so each case has its own stable data. */
export function seedOf(name) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Builds { inputs, inputs64 } for a case { name, inputs: { NAME: { dims, type } }, nonpad? }
 * (nonpad: the values of nonpad_kv_seqlen, valid keys per batch):
 * `inputs` as onnxAttention takes them ({ type, data, dims }), `inputs64` the same values
 * widened to numbers for onnxAttention64.
 */
export function caseInputs(spec, random = seededRandom(seedOf(spec.name))) {
  const inputs = {};
  const inputs64 = {};
  for (const [name, { dims, type }] of Object.entries(spec.inputs)) {
    const count = dims.reduce((a, b) => a * b, 1);
    let data;
    let values;
    if (name === 'nonpad_kv_seqlen') {
      const lengths = spec.nonpad;
      data = BigInt64Array.from(lengths, BigInt);
      values = lengths;
    } else if (type === 'bool') {
      values = boolMask(spec.name, dims, random);
      data = Uint8Array.from(values);
    } else {
      const floats = name === 'attn_mask' ? floatMask(spec.name, dims, random) : null;
      values = floats ?? Array.from({ length: count }, () => random());
      if (type === 'float16') {
        data = Uint16Array.from(values, floatToHalf);
        values = Array.from(data, halfToFloat);
      } else {
        data = Float32Array.from(values);
        values = Array.from(data);
      }
    }
    inputs[name] = { type, data, dims };
    inputs64[name] = { type, data: values, dims };
  }
  return { inputs, inputs64 };
}

function boolMask(name, dims, random) {
  const count = dims.reduce((a, b) => a * b, 1);
  const cols = dims[dims.length - 1];
  if (name.includes('fullymasked')) {
    // Row 0 hides every key; the other rows see some.
    return Array.from({ length: count }, (_, i) =>
      i < cols ? 0 : random() < 0.6 || i % cols === 0 ? 1 : 0,
    );
  }
  if (name === 'causal_boolmask_nan_robustness') return [0, 1, 1, 0]; // row 0: causal + mask hide all
  return Array.from({ length: count }, () => (random() < 0.7 ? 1 : 0));
}

function floatMask(name, dims, random) {
  const count = dims.reduce((a, b) => a * b, 1);
  const cols = dims[dims.length - 1];
  if (name === '4d_softcap_neginf_mask') {
    return Array.from({ length: count }, (_, i) =>
      i % cols === 1 || random() < 0.2 ? -Infinity : random(),
    );
  }
  if (name === '4d_softcap_neginf_mask_poison') {
    // Row 2 is -Infinity everywhere (sees nothing: zeros); others have -Infinity cells too.
    return Array.from({ length: count }, (_, i) =>
      Math.floor(i / cols) === 2 || random() < 0.3 ? -Infinity : random() * 4 - 2,
    );
  }
  return null;
}

/** A random case in the form of onnx-cases.mjs, plus its nonpad lengths when it has them. */
export function randomCase(index) {
  const random = seededRandom(0x0a770000 + index);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const B = int(1, 3);
  const Hkv = pick([1, 2, 3]);
  const Hq = Hkv * pick([1, 1, 2, 4]);
  const decode = index % 4 === 0;
  const S = decode ? 1 : pick([1, 2, 3, 5, 7, 13, 17]);
  const D = pick([1, 3, 4, 8, 15, 16, 17, 33]);
  const Dv = random() < 0.5 ? D : pick([1, 5, 8, 19]);
  const threeD = index % 3 === 1;
  const type = index % 7 === 5 ? 'float16' : 'float32';
  // The cache: a past inside the operator (long every 5th), an external one with per-batch
  // valid lengths, or none.
  const cache = ['past', 'nonpad', 'none'][index % 3 === 2 ? 1 : index % 2 ? 0 : 2];
  const L = cache === 'nonpad' ? int(S, S + 40) : decode ? 1 : int(1, 20);
  const P = cache === 'past' ? (index % 5 === 0 ? int(200, 400) : int(0, 30)) : 0;
  const T = P + L;
  const inputs = {
    Q: { dims: threeD ? [B, S, Hq * D] : [B, Hq, S, D], type },
    K: { dims: threeD ? [B, L, Hkv * D] : [B, Hkv, L, D], type },
    V: { dims: threeD ? [B, L, Hkv * Dv] : [B, Hkv, L, Dv], type },
  };
  if (cache === 'past') {
    inputs.past_key = { dims: [B, Hkv, P, D], type };
    inputs.past_value = { dims: [B, Hkv, P, Dv], type };
  }
  let nonpad;
  if (cache === 'nonpad') {
    inputs.nonpad_kv_seqlen = { dims: [B], type: 'int64' };
    // Different valid lengths per sequence; sometimes fewer than S (leading rows see nothing).
    nonpad = Array.from({ length: B }, () => int(random() < 0.2 ? 0 : S, L));
  }
  if (random() < 0.6) {
    const rank = int(1, 4);
    const target = [B, Hq, S, T];
    const dims = target.slice(4 - rank).map((d, i) => (i < rank - 1 && random() < 0.4 ? 1 : d));
    if (random() < 0.3) dims[rank - 1] = int(1, T); // shorter than T: the rest hidden
    inputs.attn_mask = { dims, type: random() < 0.5 ? 'bool' : type };
  }
  const attributes = {};
  if (threeD) Object.assign(attributes, { q_num_heads: Hq, kv_num_heads: Hkv });
  if (random() < 0.5) attributes.is_causal = 1;
  if (random() < 0.3) attributes.scale = pick([0.01, 0.3, 1, 2]);
  if (random() < 0.3) attributes.softcap = pick([0.5, 2, 10]);
  if (random() < 0.3) attributes.left_window_size = int(0, 6);
  if (random() < 0.2) attributes.right_window_size = int(0, 4);
  if (random() < 0.3) attributes.softmax_precision = pick([1, 10, 11, 16]);
  const outputs = [{ name: 'Y' }];
  if (cache === 'past' || random() < 0.2)
    outputs.push({ name: 'present_key' }, { name: 'present_value' });
  if (random() < 0.4) {
    attributes.qk_matmul_output_mode = int(0, 3);
    outputs.push({ name: 'qk_matmul_output' });
  }
  const name = `#${index} B=${B} Hq=${Hq} Hkv=${Hkv} S=${S} L=${L} P=${P} D=${D} Dv=${Dv} ${threeD ? '3-D' : '4-D'} ${type} ${cache}${inputs.attn_mask ? ` mask ${inputs.attn_mask.type}[${inputs.attn_mask.dims}]` : ''} ${JSON.stringify(attributes)}`;
  return { name, inputs, attributes, outputs, nonpad, seed: 0x0b770000 + index };
}

/** The output names a case asks for, in ONNX's order. */
export const outputNames = (spec) => spec.outputs.map((o) => o.name);

/**
 * Asserts a tensor { type, data } equals `expected` (numbers): within 1e-4 for float32, within
 * float16's precision for float16; infinities and NaN exactly. Returns the worst difference
 * (relative for float16).
 */
export function compare(tensor, expected, label) {
  const values = tensor.type === 'float16' ? Array.from(tensor.data, halfToFloat) : tensor.data;
  assert.equal(values.length, expected.length, `${label}: length`);
  let worstSeen = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = values[i];
    if (!Number.isFinite(e) || !Number.isFinite(a)) {
      assert.ok(
        Object.is(a, e) || (Number.isNaN(a) && Number.isNaN(e)),
        `${label}[${i}]: ${a} vs ${e}`,
      );
      continue;
    }
    const d = Math.abs(a - e);
    // float16 keeps 11 significant bits: a result is right within 2^-10 relative (about one
    // unit in the last place of the rounded output, plus the float32 arithmetic before it).
    const bound = tensor.type === 'float16' ? 2 ** -10 * Math.max(1, Math.abs(e)) : 1e-4;
    assert.ok(d <= bound, `${label}[${i}]: got ${a}, expected ${e} (|diff| ${d} > ${bound})`);
    worstSeen = Math.max(worstSeen, tensor.type === 'float16' ? d / Math.max(1, Math.abs(e)) : d);
  }
  return worstSeen;
}
