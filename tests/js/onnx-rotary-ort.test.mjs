// onnxRotaryEmbedding() against onnxruntime-web's own RotaryEmbedding (opset 23, its wasm CPU
// kernel): ONNX's 8 backend cases and the random calls it runs (of 60), each as a one-node model built with
// onnx-proto and fed the same data. Ours must match onnxruntime-web within 1e-5 and the float64
// reference within 1e-5 too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttention from '../../dist/attention.mjs';
import { valueInfo } from './onnx-model.mjs';
import { ONNX_ROTARY_CASES, onnxRotaryCall, randomRotaryCall } from './rotary-cases.mjs';
import { rotaryEmbedding64 } from './rotary-reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const { onnx } = onnxProto;
const INPUT_ORDER = ['input', 'cos_cache', 'sin_cache', 'position_ids'];

/** A one-node opset-23 RotaryEmbedding model for these inputs and attributes. */
function rotaryModel(inputs, attributes) {
  const { INT } = onnx.AttributeProto.AttributeType;
  const names = INPUT_ORDER.filter((name) => inputs[name]);
  const graph = {
    name: 'rotary',
    node: [
      {
        opType: 'RotaryEmbedding',
        input: names,
        output: ['output'],
        attribute: Object.entries(attributes).map(([name, i]) => ({ name, type: INT, i })),
      },
    ],
    input: names.map((name) => valueInfo(name, inputs[name].type, inputs[name].dims)),
    output: [valueInfo('output', inputs.input.type, inputs.input.dims)],
  };
  const model = onnx.ModelProto.create({
    irVersion: 10,
    opsetImport: [{ domain: '', version: 23 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

async function runOrt(inputs, attributes) {
  const session = await ort.InferenceSession.create(rotaryModel(inputs, attributes), {
    executionProviders: ['wasm'],
  });
  try {
    const feeds = {};
    for (const [name, t] of Object.entries(inputs))
      feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    return (await session.run(feeds)).output;
  } finally {
    await session.release();
  }
}

let attn;
let worst = 0;
let ran = 0;

before(async () => {
  ort.env.wasm.numThreads = 1;
  attn = await createAttention();
});

after(() => {
  console.log(
    `onnxruntime-web ran ${ran} RotaryEmbedding calls; worst |ours - onnxruntime-web| ${worst.toExponential(2)}`,
  );
});

async function crossCheck({ inputs, attributes }, label) {
  const ours = attn.onnxRotaryEmbedding(inputs, attributes).output;
  const theirs = await runOrt(inputs, attributes);
  assert.deepEqual(Array.from(theirs.dims), inputs.input.dims, `${label}: dims`);
  const { input, cos_cache, sin_cache, position_ids } = inputs;
  const expected = rotaryEmbedding64(input, cos_cache, sin_cache, position_ids, attributes);
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(ours.data[i] - theirs.data[i]);
    assert.ok(d <= 1e-5, `${label}[${i}]: ours ${ours.data[i]}, onnxruntime-web ${theirs.data[i]}`);
    assert.ok(Math.abs(ours.data[i] - expected[i]) <= 1e-5, `${label}[${i}] vs float64`);
    worst = Math.max(worst, d);
  }
  ran++;
}

describe('onnxRotaryEmbedding() vs onnxruntime-web on ONNX backend cases', () => {
  ONNX_ROTARY_CASES.forEach((spec, index) => {
    test(spec[0], () =>
      crossCheck(onnxRotaryCall(spec, seededRandom(0x0e0f0000 + index)), spec[0]),
    );
  });
});

// onnxruntime-web refuses caches with fewer rows than the sequence has tokens ("Updating
// cos_cache and sin_cache in RotaryEmbedding is not currently supported"), which the spec
// allows as long as every position id is a row.
function ortRuns({ inputs }) {
  const { input, cos_cache } = inputs;
  const S = input.dims.length === 4 ? input.dims[2] : input.dims[1];
  return !inputs.position_ids || cos_cache.dims[0] >= S;
}

describe('onnxRotaryEmbedding() vs onnxruntime-web on random calls', () => {
  const random = seededRandom(0x0e0f1000);
  const calls = Array.from({ length: 60 }, () => randomRotaryCall(random)).filter(ortRuns);
  test('enough random calls qualify', () => assert.ok(calls.length >= 50, `${calls.length}`));
  for (const [n, call] of calls.entries()) {
    test(`random call ${n}: ${JSON.stringify(call.attributes)} input ${call.inputs.input.dims}`, () =>
      crossCheck(call, `random call ${n}`));
  }
});
