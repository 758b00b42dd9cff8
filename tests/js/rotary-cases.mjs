// RotaryEmbedding calls shared by the tests: ONNX's own 8 backend cases (rotaryembedding.py:
// their shapes, attributes and kinds of random data) and seeded random shapes and attributes.

const count = (dims) => dims.reduce((a, b) => a * b, 1);

/** A float32 tensor of `dims` filled by `draw()`. */
export const floatTensor = (dims, draw) => ({
  type: 'float32',
  data: Float32Array.from({ length: count(dims) }, draw),
  dims,
});

/** position_ids (B, S) as ONNX's cases draw them: uniform(0, rows) cast to int64. */
export const positionIds = (B, S, rows, random) => ({
  type: 'int64',
  data: BigInt64Array.from({ length: B * S }, () => BigInt(Math.floor(random() * rows))),
  dims: [B, S],
});

// rotaryembedding.py's cases: name, input dims, cache dims, attributes, with position_ids.
export const ONNX_ROTARY_CASES = [
  ['test_rotary_embedding', [2, 4, 3, 8], [50, 4], {}, true],
  ['test_rotary_embedding_3d_input', [2, 3, 32], [50, 4], { num_heads: 4 }, true],
  ['test_rotary_embedding_interleaved', [2, 4, 3, 8], [50, 4], { interleaved: 1 }, true],
  [
    'test_rotary_embedding_with_rotary_dim',
    [2, 4, 3, 8],
    [50, 2],
    { rotary_embedding_dim: 4 },
    true,
  ],
  [
    'test_rotary_embedding_with_interleaved_rotary_dim',
    [2, 4, 3, 8],
    [50, 2],
    { rotary_embedding_dim: 4, interleaved: 1 },
    true,
  ],
  ['test_rotary_embedding_no_position_ids', [2, 4, 3, 8], [2, 3, 4], {}, false],
  [
    'test_rotary_embedding_no_position_ids_interleaved',
    [2, 4, 3, 8],
    [2, 3, 4],
    { interleaved: 1 },
    false,
  ],
  [
    'test_rotary_embedding_no_position_ids_rotary_dim',
    [2, 4, 3, 8],
    [2, 3, 2],
    { rotary_embedding_dim: 4 },
    false,
  ],
];

/** One of ONNX_ROTARY_CASES as { inputs, attributes }, its data uniform in [0, 1) (np.random.rand). */
export function onnxRotaryCall([, inputDims, cacheDims, attributes, withPositions], random) {
  const inputs = {
    input: floatTensor(inputDims, random),
    cos_cache: floatTensor(cacheDims, random),
    sin_cache: floatTensor(cacheDims, random),
  };
  const [B, S] = inputDims.length === 4 ? [inputDims[0], inputDims[2]] : inputDims;
  if (withPositions) inputs.position_ids = positionIds(B, S, cacheDims[0], random);
  return { inputs, attributes };
}

/**
 * A random valid call: B 1-3, H 1-4, S 1-6, D even up to 40, every rotary_embedding_dim form,
 * interleaved or not, 3-D or 4-D, with position_ids (caches of 1-64 rows) or without; data in
 * [-3, 3).
 */
export function randomRotaryCall(random) {
  const pick = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const [B, H, S] = [pick(1, 3), pick(1, 4), pick(1, 6)];
  const D = 2 * pick(1, 20);
  const rotary = random() < 0.4 ? 0 : 2 * pick(1, D / 2);
  const attributes = { interleaved: pick(0, 1), rotary_embedding_dim: rotary };
  const threeD = random() < 0.5;
  if (threeD) attributes.num_heads = H;
  const inputDims = threeD ? [B, S, H * D] : [B, H, S, D];
  const half = (rotary || D) / 2;
  const rows = pick(1, 64);
  const withPositions = random() < 0.6;
  const cacheDims = withPositions ? [rows, half] : [B, S, half];
  const spread = () => random() * 6 - 3;
  const inputs = {
    input: floatTensor(inputDims, spread),
    cos_cache: floatTensor(cacheDims, spread),
    sin_cache: floatTensor(cacheDims, spread),
  };
  if (withPositions) inputs.position_ids = positionIds(B, S, rows, random);
  return { inputs, attributes };
}
