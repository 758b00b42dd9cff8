// onnxRotaryEmbedding() against ONNX's reference (ported to float64 in rotary-reference64.mjs):
// the 8 backend cases of ONNX's rotaryembedding.py with their shapes, attributes and kinds of
// random data; random shapes and attributes; float16 in and out; and rotaryCaches(), whose
// caches must turn a query and a key so that their dot product depends only on their distance.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { floatToHalf, halfToFloat } from '../../src/js/shared/float16.mjs';
import {
  ONNX_ROTARY_CASES,
  floatTensor,
  onnxRotaryCall,
  positionIds,
  randomRotaryCall,
} from './rotary-cases.mjs';
import { rotaryEmbedding64 } from './rotary-reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

let attn;
before(async () => {
  attn = await createAttention();
});

const count = (dims) => dims.reduce((a, b) => a * b, 1);

/** Our output within `bound` of the float64 reference, element by element. */
function assertClose(actual, expected, bound, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    assert.ok(
      d <= bound * Math.max(1, Math.abs(expected[i])),
      `${label}[${i}]: got ${actual[i]}, expected ${expected[i]}`,
    );
  }
}

describe("ONNX's backend cases (np.random.rand data, as rotaryembedding.py draws it)", () => {
  ONNX_ROTARY_CASES.forEach((spec, index) => {
    const [name, inputDims] = spec;
    test(name, () => {
      const { inputs, attributes } = onnxRotaryCall(spec, seededRandom(0x0e0e0000 + index));
      const { input, cos_cache, sin_cache } = inputs;
      const { output } = attn.onnxRotaryEmbedding(inputs, attributes);
      assert.equal(output.type, 'float32');
      assert.deepEqual(output.dims, inputDims);
      const expected = rotaryEmbedding64(
        input,
        cos_cache,
        sin_cache,
        inputs.position_ids,
        attributes,
      );
      assertClose(output.data, expected, 1e-6, name);
      // The caller's tensors are left as they were.
      assert.deepEqual(input.dims, inputDims);
    });
  });
});

test('200 random shapes and attributes match the float64 reference', () => {
  const random = seededRandom(0x0e0e1000);
  for (let n = 0; n < 200; n++) {
    const { inputs, attributes } = randomRotaryCall(random);
    const { output } = attn.onnxRotaryEmbedding(inputs, attributes);
    const { input, cos_cache, sin_cache, position_ids } = inputs;
    const expected = rotaryEmbedding64(input, cos_cache, sin_cache, position_ids, attributes);
    // |x|, |cos|, |sin| <= 3: each output is two products of float32s summed, within 1e-5.
    assertClose(output.data, expected, 1e-5, `call ${n} ${JSON.stringify(attributes)}`);
  }
});

test('the 3-D layout gives the 4-D result, rearranged', () => {
  const random = seededRandom(0x0e0e2000);
  const [B, H, S, D] = [2, 3, 5, 6];
  const four = floatTensor([B, H, S, D], random);
  const three = { type: 'float32', data: new Float32Array(B * H * S * D), dims: [B, S, H * D] };
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let s = 0; s < S; s++)
        for (let d = 0; d < D; d++)
          three.data[((b * S + s) * H + h) * D + d] = four.data[((b * H + h) * S + s) * D + d];
  const caches = attn.rotaryCaches({ length: 8, rotaryDim: 4 });
  const position_ids = positionIds(B, S, 8, random);
  const run = (input, attributes) =>
    attn.onnxRotaryEmbedding({ input, ...caches, position_ids }, attributes).output.data;
  const y4 = run(four, { rotary_embedding_dim: 4 });
  const y3 = run(three, { rotary_embedding_dim: 4, num_heads: H });
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let s = 0; s < S; s++)
        for (let d = 0; d < D; d++)
          assert.equal(y3[((b * S + s) * H + h) * D + d], y4[((b * H + h) * S + s) * D + d]);
});

describe('float16 in, float16 out', () => {
  const halves = (dims, draw) => ({
    type: 'float16',
    data: Uint16Array.from({ length: count(dims) }, () => floatToHalf(draw())),
    dims,
  });
  const widened = (t) => ({ data: Array.from(t.data, halfToFloat), dims: t.dims });

  test('Uint16Array halves: the reference on the widened halves, rounded to half', () => {
    const random = seededRandom(0x0e0e3000);
    const spread = () => random() * 4 - 2;
    for (const interleaved of [0, 1]) {
      const input = halves([2, 3, 4, 16], spread);
      const cos_cache = halves([20, 6], spread);
      const sin_cache = halves([20, 6], spread);
      const position_ids = positionIds(2, 4, 20, random);
      const attributes = { interleaved, rotary_embedding_dim: 12 };
      const { output } = attn.onnxRotaryEmbedding(
        { input, cos_cache, sin_cache, position_ids },
        attributes,
      );
      assert.equal(output.type, 'float16');
      assert.ok(output.data instanceof Uint16Array);
      assert.deepEqual(output.dims, [2, 3, 4, 16]);
      const expected = rotaryEmbedding64(
        widened(input),
        widened(cos_cache),
        widened(sin_cache),
        position_ids,
        attributes,
      );
      // One rounding to half (2^-11 relative) after float32 arithmetic.
      assertClose(Array.from(output.data, halfToFloat), expected, 2 ** -10, 'float16');
      // The copied dims are the input's halves, bit for bit.
      for (let row = 0; row < 2 * 3 * 4; row++)
        for (let d = 12; d < 16; d++)
          assert.equal(output.data[row * 16 + d], input.data[row * 16 + d]);
    }
  });

  test('float16 caches from rotaryCaches({ type: "float16" }) rotate float16 input', () => {
    const caches = attn.rotaryCaches({ length: 6, rotaryDim: 8, type: 'float16' });
    assert.equal(caches.cos_cache.type, 'float16');
    assert.ok(caches.cos_cache.data instanceof Uint16Array);
    const wide = attn.rotaryCaches({ length: 6, rotaryDim: 8 });
    for (let i = 0; i < 24; i++) {
      assert.equal(caches.cos_cache.data[i], floatToHalf(wide.cos_cache.data[i]));
      assert.equal(caches.sin_cache.data[i], floatToHalf(wide.sin_cache.data[i]));
    }
    const random = seededRandom(0x0e0e3100);
    const input = halves([1, 1, 6, 8], () => random() * 2 - 1);
    const position_ids = { data: BigInt64Array.from([0n, 1n, 2n, 3n, 4n, 5n]), dims: [1, 6] };
    const { output } = attn.onnxRotaryEmbedding({ input, ...caches, position_ids });
    const expected = rotaryEmbedding64(
      widened(input),
      widened(caches.cos_cache),
      widened(caches.sin_cache),
      position_ids,
    );
    assertClose(Array.from(output.data, halfToFloat), expected, 2 ** -10, 'float16 caches');
  });
});

describe('rotaryCaches', () => {
  test('row p holds cos and sin of p * base^(-2i / rotaryDim)', () => {
    for (const base of [10000, 500000, 2.5]) {
      const { cos_cache, sin_cache } = attn.rotaryCaches({ length: 300, rotaryDim: 10, base });
      assert.deepEqual(cos_cache.dims, [300, 5]);
      assert.deepEqual(sin_cache.dims, [300, 5]);
      for (let p = 0; p < 300; p++) {
        for (let i = 0; i < 5; i++) {
          const theta = p * base ** ((-2 * i) / 10);
          assert.equal(cos_cache.data[p * 5 + i], Math.fround(Math.cos(theta)), `cos ${p} ${i}`);
          assert.equal(sin_cache.data[p * 5 + i], Math.fround(Math.sin(theta)), `sin ${p} ${i}`);
        }
      }
    }
  });

  test('the default base is 10000', () => {
    const a = attn.rotaryCaches({ length: 5, rotaryDim: 4 });
    const b = attn.rotaryCaches({ length: 5, rotaryDim: 4, base: 10000 });
    assert.deepEqual(a, b);
  });

  test('with them, a query and a key score the same at every position the same distance apart', () => {
    const D = 16;
    const caches = attn.rotaryCaches({ length: 64, rotaryDim: D });
    const random = seededRandom(0x0e0e4000);
    const q = floatTensor([1, 1, 1, D], () => random() * 2 - 1);
    const k = floatTensor([1, 1, 1, D], () => random() * 2 - 1);
    const at = (t, p) =>
      attn.onnxRotaryEmbedding({
        input: t,
        ...caches,
        position_ids: { data: BigInt64Array.of(BigInt(p)), dims: [1, 1] },
      }).output.data;
    const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
    const first = dot(at(q, 0), at(k, 5));
    for (const p of [7, 20, 58]) assert.ok(Math.abs(dot(at(q, p), at(k, p + 5)) - first) < 1e-4);
    // and not the same at another distance
    assert.ok(Math.abs(dot(at(q, 0), at(k, 9)) - first) > 1e-3);
  });
});

test('empty batch or sequence: an empty output of the input dims', () => {
  const caches = attn.rotaryCaches({ length: 4, rotaryDim: 4 });
  for (const dims of [
    [0, 2, 3, 4],
    [2, 2, 0, 4],
  ]) {
    const B = dims[0];
    const S = dims[2];
    const { output } = attn.onnxRotaryEmbedding({
      input: { data: new Float32Array(0), dims },
      ...caches,
      position_ids: { data: new BigInt64Array(B * S), dims: [B, S] },
    });
    assert.deepEqual(output.dims, dims);
    assert.equal(output.data.length, 0);
  }
});
