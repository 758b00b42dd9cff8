// Every case of ONNX's own test file for the Attention operator (onnx-cases.mjs: the shapes,
// types, attributes and outputs of each), rebuilt with this project's seeded data and checked
// output by output against the float64 reference: within 1e-4 for float32, within float16's
// precision for float16. Nothing is left out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { caseInputs, compare, outputNames } from './onnx-data.mjs';
import { ONNX_CASES } from './onnx-cases.mjs';
import { onnxAttention64 } from './reference64.mjs';

let attn;
const worst = { float32: 0, float16: 0 };

before(async () => {
  attn = await createAttention();
});

after(() => {
  console.log(
    `ONNX cases: ${ONNX_CASES.length}; worst |ours - float64| float32 ${worst.float32.toExponential(2)}, float16 (relative) ${worst.float16.toExponential(2)}`,
  );
});

describe("ONNX's Attention cases, our data, the float64 reference", () => {
  test('the list has all 87 cases', () => assert.equal(ONNX_CASES.length, 87));

  for (const spec of ONNX_CASES) {
    test(`${spec.name} (opset ${spec.opset})`, () => {
      const { inputs, inputs64 } = caseInputs(spec);
      const before = attn.memoryStats().allocatedBytes;
      const out = attn.onnxAttention(inputs, spec.attributes, outputNames(spec));
      assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
      const expected = onnxAttention64(inputs64, spec.attributes);
      assert.deepEqual(Object.keys(out).sort(), outputNames(spec).sort());
      for (const { name, dims } of spec.outputs) {
        const tensor = out[name];
        assert.deepEqual(tensor.dims, dims, `${name} dims`);
        const type = name === 'present_value' ? inputs.V.type : inputs.Q.type;
        assert.equal(tensor.type, type, `${name} type`);
        assert.ok(tensor.data instanceof (type === 'float16' ? Uint16Array : Float32Array));
        const d = compare(tensor, expected[name].data, `${spec.name}: ${name}`);
        worst[tensor.type] = Math.max(worst[tensor.type], d);
      }
    });
  }
});
