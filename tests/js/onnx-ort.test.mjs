// onnxAttention() against onnxruntime-web 1.30 on every ONNX case it can run: the ones that use
// only opset 23 (no nonpad_kv_seqlen, no windows), each as a one-node model built with
// onnx-proto, fed the same seeded data; and on the random configurations of onnx-random.test
// that it can run (also: masks whose last two dims are (S, T)). Ours must match onnxruntime-web within 1e-4 (float16:
// within float16's precision), and both the float64 reference.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttention from '../../dist/attention.mjs';
import { halfToFloat } from '../../src/js/shared/float16.mjs';
import { ONNX_CASES } from './onnx-cases.mjs';
import { caseInputs, compare, outputNames, randomCase } from './onnx-data.mjs';
import { valueInfo } from './onnx-model.mjs';
import { seededRandom } from './seeded-random.mjs';
import { onnxAttention64 } from './reference64.mjs';

const { onnx } = onnxProto;
const FLOAT32_MAX = 3.4028234663852886e38;
const INPUT_ORDER = ['Q', 'K', 'V', 'attn_mask', 'past_key', 'past_value'];
const OUTPUT_ORDER = ['Y', 'present_key', 'present_value', 'qk_matmul_output'];

const usesOnlyOpset23 = (spec) =>
  !('nonpad_kv_seqlen' in spec.inputs) &&
  spec.attributes.left_window_size === undefined &&
  spec.attributes.right_window_size === undefined;

/**
 * A one-node opset-23 model of the case; optional inputs and outputs left out are ''.
 * `outputDims` gives each output's dims by name.
 */
function caseModel(spec, outputDims) {
  const { FLOAT, INT } = onnx.AttributeProto.AttributeType;
  const attribute = Object.entries(spec.attributes).map(([name, value]) =>
    name === 'scale' || name === 'softcap'
      ? { name, type: FLOAT, f: value }
      : { name, type: INT, i: value },
  );
  const last = (order, present) => order.findLastIndex((n) => present.includes(n));
  const inputNames = Object.keys(spec.inputs);
  const nodeInputs = INPUT_ORDER.slice(0, last(INPUT_ORDER, inputNames) + 1).map((n) =>
    inputNames.includes(n) ? n : '',
  );
  const wanted = outputNames(spec);
  const nodeOutputs = OUTPUT_ORDER.slice(0, last(OUTPUT_ORDER, wanted) + 1).map((n) =>
    wanted.includes(n) ? n : '',
  );
  const q = spec.inputs.Q;
  const outputType = (name) => (name === 'present_value' ? spec.inputs.V.type : q.type);
  const graph = {
    name: spec.name,
    node: [{ opType: 'Attention', input: nodeInputs, output: nodeOutputs, attribute }],
    input: inputNames.map((n) => valueInfo(n, spec.inputs[n].type, spec.inputs[n].dims)),
    output: wanted.map((name) => valueInfo(name, outputType(name), outputDims[name])),
  };
  const model = onnx.ModelProto.create({
    irVersion: 10,
    opsetImport: [{ domain: '', version: 23 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

async function runOrt(spec, inputs, outputDims) {
  const session = await ort.InferenceSession.create(caseModel(spec, outputDims), {
    executionProviders: ['wasm'],
  });
  try {
    const feeds = {};
    for (const [name, t] of Object.entries(inputs))
      feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    return await session.run(feeds);
  } finally {
    await session.release();
  }
}

let attn;
const worst = { float32: 0, float16: 0, where: '' };
const ran = [];

before(async () => {
  ort.env.wasm.numThreads = 1;
  attn = await createAttention();
});

after(() => {
  console.log(
    `onnxruntime-web ran ${ran.length} ONNX cases and random configurations; worst |ours - onnxruntime-web| float32 ${worst.float32.toExponential(2)} (${worst.where}), float16 (relative) ${worst.float16.toExponential(2)}`,
  );
});

/** Runs one case three ways and compares every output; returns nothing, records the worst. */
async function crossCheck(spec, data, label) {
  const { inputs, inputs64 } = data;
  const names = outputNames(spec);
  const ours = attn.onnxAttention(inputs, spec.attributes, names);
  const expected = onnxAttention64(inputs64, spec.attributes);
  const dims = Object.fromEntries(names.map((name) => [name, expected[name].dims]));
  const theirs = await runOrt(spec, inputs, dims);
  for (const name of names) {
    assert.deepEqual(Array.from(theirs[name].dims), dims[name], `onnxruntime-web ${name} dims`);
    const widen = ours[name].type === 'float16' ? halfToFloat : Number;
    const theirsAsExpected = Array.from(theirs[name].data, (x) => {
      // Where a causal mask hides a key, onnxruntime-web writes the lowest float32 into
      // qk_matmul_output mode 2 (biased scores); the spec's bias, ONNX's reference and
      // ours write -Infinity. Any other value must match.
      const value = widen(x);
      return name === 'qk_matmul_output' && value === -FLOAT32_MAX ? -Infinity : value;
    });
    const d = compare(ours[name], theirsAsExpected, `${label}: ${name} vs onnxruntime-web`);
    compare(ours[name], expected[name].data, `${label}: ${name} vs float64`);
    if (d > worst[ours[name].type]) {
      worst[ours[name].type] = d;
      if (ours[name].type === 'float32') worst.where = `${label} ${name}`;
    }
  }
  ran.push(label);
}

describe('onnxAttention() vs onnxruntime-web 1.30 on the ONNX cases it implements (opset 23)', () => {
  const runnable = ONNX_CASES.filter(usesOnlyOpset23);
  test('69 of the 87 cases use only opset 23 (18 need nonpad_kv_seqlen or windows)', () => {
    assert.equal(runnable.length, 69);
  });
  for (const spec of runnable) {
    test(spec.name, () => crossCheck(spec, caseInputs(spec), spec.name));
  }
});

// onnxruntime-web 1.30 takes only masks of rank 2 to 4 whose last two dims are (S, T).
function ortTakesMask({ inputs }) {
  if (!inputs.attn_mask) return true;
  const { dims } = inputs.attn_mask;
  const seqAxis = (t) => (t.dims.length === 4 ? 2 : 1);
  const S = inputs.Q.dims[seqAxis(inputs.Q)];
  const T = inputs.K.dims[seqAxis(inputs.K)] + (inputs.past_key ? inputs.past_key.dims[2] : 0);
  return dims.length >= 2 && dims[dims.length - 2] === S && dims[dims.length - 1] === T;
}

describe('onnxAttention() vs onnxruntime-web 1.30 on the random configurations it implements', () => {
  const runnable = Array.from({ length: 120 }, (_, i) => randomCase(i)).filter(
    (spec) => usesOnlyOpset23(spec) && ortTakesMask(spec),
  );
  test('enough random configurations qualify', () =>
    assert.ok(runnable.length >= 25, `${runnable.length}`));
  for (const spec of runnable) {
    test(spec.name, () =>
      crossCheck(spec, caseInputs(spec, seededRandom(spec.seed)), spec.name.split(' ')[0]),
    );
  }
});
