// Every case of ONNX's own test file for the Attention operator (onnx-cases.mjs: the shapes,
// types, attributes and outputs of each), rebuilt with this project's seeded data and checked
// output by output against the float64 reference: within 1e-4 for float32, within float16's
// precision for float16. Nothing is left out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { halfToFloat } from '../../src/js/float16.mjs';
import { caseInputs, outputNames } from './onnx-data.mjs';
import { ONNX_CASES } from './onnx-cases.mjs';
import { onnxAttention64 } from './reference64.mjs';

let attn;
const worst = { float32: 0, float16: 0 };

/** The largest difference of `actual` (a tensor's data) from `expected`, in float16 ulps' terms. */
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
