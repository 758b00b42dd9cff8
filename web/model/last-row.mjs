// Chapter 4's h: the output of the model's last layer (after its final LayerNorm) at one row,
// the vector the unembedding W_U turns into logits. The worker's forward pass gives only the
// logits, so h is read from a copy of the model in this thread whose unembedding is the
// identity: with W_U = I its "logits" are h itself, exactly as the model computes it (float32).
//
// Names: V characters in the vocabulary, D the width of a row (dModel), T the sentence's
// characters; W = max(V, D) the copy's vocabulary (room for the D × D identity).
//   parameters: { name: { data, dims } } of the model, embedding.tokens [V, D], unembedding [D, V]
//   tokens Int32Array [T]  ->  h Float64Array [D] (row t), and z = h · W_U, Float64Array [V]

/**
 * The model's h at row `t` of `tokens` and the logits h · W_U computed from it (float64),
 * with `attn` (the module's API) and the model's `config` (vocabSize aside) and `parameters`;
 * `headMask` switches heads off as in the worker's forward pass.
 */
export function lastRowOutput(attn, config, parameters, tokens, t, headMask) {
  const [D, V] = parameters.unembedding.dims;
  const W = Math.max(V, D);
  const copy = { ...parameters };
  const embedding = new Float32Array(W * D); // rows V..W-1 stay 0: no token reaches them
  embedding.set(parameters['embedding.tokens'].data);
  copy['embedding.tokens'] = { data: embedding, dims: [W, D] };
  const identity = new Float32Array(D * W); // [D, W]: column d of the first D is e_d
  for (let d = 0; d < D; d++) identity[d * W + d] = 1;
  copy.unembedding = { data: identity, dims: [D, W] };

  const model = attn.createTinyTransformer({ ...config, vocabSize: W });
  let h;
  try {
    model.loadParameters(copy);
    h = Float64Array.from(
      model
        .forward({ tokens, batch: 1, ...(headMask ? { headMask } : {}) })
        .logits.data.subarray(t * W, t * W + D),
    );
  } finally {
    model.free();
  }
  return { h, z: unembed(h, parameters.unembedding) };
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
