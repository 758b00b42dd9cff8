// onnxAttention() on seeded random configurations beyond ONNX's own cases: odd sizes, long
// caches, decoding (one query), batches whose sequences have different valid lengths, 3-D and
// 4-D layouts, masks of every rank (shorter than the keys too), windows, softcap, every
// qk_matmul_output mode, float16. Every output against the float64 reference.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { caseInputs, compare } from './onnx-data.mjs';
import { onnxAttention64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const CONFIG_COUNT = 120;

/** A random case in the form of onnx-cases.mjs, plus its nonpad lengths when it has them. */
function randomCase(index) {
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

let attn;
let worst = 0;
const coverage = new Set();

before(async () => {
  attn = await createAttention();
});

after(() =>
  console.log(`random configurations: worst |ours - float64| (float32) ${worst.toExponential(2)}`),
);

describe('onnxAttention() on seeded random configurations, against float64', () => {
  for (let index = 0; index < CONFIG_COUNT; index++) {
    const spec = randomCase(index);
    test(spec.name, () => {
      const { inputs, inputs64 } = caseInputs(spec, seededRandom(spec.seed));
      if (spec.nonpad) {
        inputs.nonpad_kv_seqlen.data = BigInt64Array.from(spec.nonpad, BigInt);
        inputs64.nonpad_kv_seqlen.data = spec.nonpad;
      }
      const names = spec.outputs.map((o) => o.name);
      const before = attn.memoryStats().allocatedBytes;
      const out = attn.onnxAttention(inputs, spec.attributes, names);
      assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
      const expected = onnxAttention64(inputs64, spec.attributes);
      for (const name of names) {
        assert.deepEqual(out[name].dims, expected[name].dims, `${name} dims`);
        const d = compare(out[name], expected[name].data, `${name}`);
        if (out[name].type === 'float32') worst = Math.max(worst, d);
      }
      const { dims } = inputs.Q;
      if (dims.length === 3) coverage.add('3-D');
      if (dims[dims.length - 2] === 1 && dims.length === 4) coverage.add('decode');
      if (inputs.past_key && inputs.past_key.dims[2] >= 200) coverage.add('long cache');
      if (spec.nonpad && new Set(spec.nonpad).size > 1) coverage.add('different valid lengths');
      if (inputs.Q.type === 'float16') coverage.add('float16');
      if (spec.attributes.qk_matmul_output_mode === 3) coverage.add('mode 3');
      if (spec.attributes.left_window_size !== undefined) coverage.add('window');
    });
  }
  test('the configurations covered what they are for', () => {
    for (const item of [
      '3-D',
      'decode',
      'long cache',
      'different valid lengths',
      'float16',
      'mode 3',
      'window',
    ]) {
      assert.ok(coverage.has(item), `no configuration covered ${item}`);
    }
  });
});
