// onnxAttention() on seeded random configurations beyond ONNX's own cases: odd sizes, long
// caches, decoding (one query), batches whose sequences have different valid lengths, 3-D and
// 4-D layouts, masks of every rank (shorter than the keys too), windows, softcap, every
// qk_matmul_output mode, float16. Every output against the float64 reference.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { caseInputs, compare, randomCase } from './onnx-data.mjs';
import { onnxAttention64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const CONFIG_COUNT = 120;

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
  test('float16 Q and K (T1) with float32 V (T2): Y in float16, present_value in float32', () => {
    const spec = {
      name: 'mixed T1 and T2',
      inputs: {
        Q: { dims: [2, 4, 3, 8], type: 'float16' },
        K: { dims: [2, 2, 5, 8], type: 'float16' },
        V: { dims: [2, 2, 5, 6], type: 'float32' },
        attn_mask: { dims: [3, 9], type: 'float16' },
        past_key: { dims: [2, 2, 4, 8], type: 'float16' },
        past_value: { dims: [2, 2, 4, 6], type: 'float32' },
      },
    };
    const attributes = { is_causal: 1, qk_matmul_output_mode: 2 };
    const { inputs, inputs64 } = caseInputs(spec);
    const names = ['Y', 'present_key', 'present_value', 'qk_matmul_output'];
    const out = attn.onnxAttention(inputs, attributes, names);
    const expected = onnxAttention64(inputs64, attributes);
    assert.deepEqual(
      names.map((name) => out[name].type),
      ['float16', 'float16', 'float32', 'float16'],
    );
    for (const name of names) compare(out[name], expected[name].data, name);
  });

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
