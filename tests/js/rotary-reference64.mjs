// ONNX's reference RotaryEmbedding (onnx/reference/ops/op_rotary_embedding.py) ported to JS
// float64, step for step: the input viewed as (batch, seq, heads, head_size), the caches'
// rows picked by position_ids (or taken as (batch, seq, R/2)), x1/x2 split in halves or by
// even/odd index, real = cos x1 - sin x2, imag = sin x1 + cos x2, put back, the numbers past
// R copied, and the input's layout restored. The tests' yardstick for onnxRotaryEmbedding.

/**
 * `input`, `cosCache`, `sinCache`: { data (numbers), dims }; `positionIds`: { data (bigints
 * or numbers), dims } or undefined. Returns the output's numbers (a Float64Array), in input's
 * layout.
 */
export function rotaryEmbedding64(input, cosCache, sinCache, positionIds, attributes = {}) {
  const { interleaved = 0, rotary_embedding_dim: rotary = 0, num_heads: numHeads } = attributes;
  const four = input.dims.length === 4;
  const [B, S, H, D] = four
    ? [input.dims[0], input.dims[2], input.dims[1], input.dims[3]]
    : [input.dims[0], input.dims[1], numHeads, input.dims[2] / numHeads];
  // Element (b, s, h, d) of the (batch, seq, heads, head_size) view.
  const at = four
    ? (b, s, h, d) => ((b * H + h) * S + s) * D + d
    : (b, s, h, d) => ((b * S + s) * H + h) * D + d;
  const R = rotary === 0 ? D : rotary;
  const half = R / 2;
  const out = Float64Array.from(input.data, Number); // the dims past R stay as they are
  for (let b = 0; b < B; b++) {
    for (let s = 0; s < S; s++) {
      const row = positionIds ? Number(positionIds.data[b * S + s]) : b * S + s;
      const cos = (i) => Number(cosCache.data[row * half + i]);
      const sin = (i) => Number(sinCache.data[row * half + i]);
      for (let h = 0; h < H; h++) {
        for (let i = 0; i < half; i++) {
          const [d1, d2] = interleaved ? [2 * i, 2 * i + 1] : [i, i + half];
          const x1 = Number(input.data[at(b, s, h, d1)]);
          const x2 = Number(input.data[at(b, s, h, d2)]);
          out[at(b, s, h, d1)] = cos(i) * x1 - sin(i) * x2; // real
          out[at(b, s, h, d2)] = sin(i) * x1 + cos(i) * x2; // imag
        }
      }
    }
  }
  return out;
}
