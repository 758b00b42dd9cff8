// Chapter 4's h: the output of the model's last layer (after its final LayerNorm) at one row,
// the vector the unembedding W_U turns into logits. The worker's forward pass gives only the
// logits, so h is read from a copy of the model in this thread whose unembedding is W_U with
// the identity beside it: those extra "logits" are h itself, exactly as the model computes it
// (float32), and the first V are the logits, from the same parameters.
//
// Names: V characters in the vocabulary, D the width of a row (dModel), T the sentence's
// characters; W = V + D the copy's vocabulary (W_U, then the D × D identity).
//   parameters: { name: { data, dims } } of the model, embedding.tokens [V, D], unembedding [D, V]
//   tokens Int32Array [T]  ->  logits [1, T, V], h Float64Array [D] (row t), z = h · W_U [V]

/**
 * The model's logits at every row of `tokens`, its h at row `t` and the logits h · W_U
 * computed from it (float64), all from one copy of `parameters` (the one source: a scene that
 * prints h, the logits and the loss from them shows one model, never two steps of a training
 * run), with `attn` (the module's API) and the model's `config` (vocabSize aside); `headMask`
 * switches heads off as in the worker's forward pass. The copy's unembedding is [W_U | I]:
 * its first V logits are the model's, its last D are h.
 *   -> { logits: { data: Float32Array [T·V], dims: [1, T, V] }, h: Float64Array [D],
 *        z: Float64Array [V] }
 */
export function lastRowOutput(attn, config, parameters, tokens, t, headMask) {
  const [D, V] = parameters.unembedding.dims;
  const W = V + D;
  const copy = { ...parameters };
  const embedding = new Float32Array(W * D); // rows V..W-1 stay 0: no token reaches them
  embedding.set(parameters['embedding.tokens'].data);
  copy['embedding.tokens'] = { data: embedding, dims: [W, D] };
  const unembedding = new Float32Array(D * W); // [D, W]: W_U, then the D × D identity
  const wU = parameters.unembedding.data;
  for (let d = 0; d < D; d++) {
    unembedding.set(wU.subarray(d * V, (d + 1) * V), d * W);
    unembedding[d * W + V + d] = 1;
  }
  copy.unembedding = { data: unembedding, dims: [D, W] };

  const T = tokens.length;
  const model = attn.createTinyTransformer({ ...config, vocabSize: W });
  const logits = new Float32Array(T * V);
  let h;
  try {
    model.loadParameters(copy);
    const all = model.forward({ tokens, batch: 1, ...(headMask ? { headMask } : {}) }).logits.data;
    for (let r = 0; r < T; r++) logits.set(all.subarray(r * W, r * W + V), r * V);
    h = Float64Array.from(all.subarray(t * W + V, t * W + W));
  } finally {
    model.free();
  }
  return { logits: { data: logits, dims: [1, T, V] }, h, z: unembed(h, parameters.unembedding) };
}

/** z = h · W_U: h [D], W_U [D, V] (row-major) -> z [V], in float64. */
export function unembed(h, { data, dims: [D, V] }) {
  const z = new Float64Array(V);
  for (let d = 0; d < D; d++) {
    const hd = h[d];
    for (let v = 0; v < V; v++) z[v] += hd * data[d * V + v];
  }
  return z;
}
