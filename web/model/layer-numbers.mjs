// Chapter 2's numbers: the layer of heads through trace() (every head's intermediates, the
// concatenation and W_O), and decoding token by token through onnxAttention's KV-cache path
// (past_key / past_value in, present_key / present_value out). Built once per edit or switch.
// The page does no attention arithmetic here either: what it computes are counts (multiply-
// adds, numbers in the cache) to display, never a score, weight or output.
import { kvHeadOf, layerDimsOf } from './layer.mjs';
import { fromRows, rowSlice } from './matrix.mjs';

/**
 * Multiply-adds of one decoding step, for the token at position t (0-based): the new token
 * alone with a KV cache, or the whole prefix of t + 1 tokens recomputed without one.
 * Projections (x·W_Q, x·W_K, x·W_V), scores (q·k), weighted sums (Σ a·v) and W_O.
 * @returns {{ withCache: object, withoutCache: object }} each { projections, scores, sums,
 *   output, total }
 */
export function multiplyAdds(dims, t) {
  const { dModel, heads, kvHeads, dHead } = dims;
  const tokens = t + 1;
  const perToken = dModel * (heads + 2 * kvHeads) * dHead;
  const outputPerToken = heads * dHead * dModel;
  const parts = (projectedTokens, scorePairs) => {
    const counts = {
      projections: projectedTokens * perToken,
      scores: heads * scorePairs * dHead,
      sums: heads * scorePairs * dHead,
      output: projectedTokens * outputPerToken,
    };
    counts.total = counts.projections + counts.scores + counts.sums + counts.output;
    return counts;
  };
  // With the cache: one new row of scores (t + 1 keys). Without: the causal triangle of the
  // whole prefix again, 1 + 2 + … + (t + 1) scores per head.
  return {
    withCache: parts(1, tokens),
    withoutCache: parts(tokens, (tokens * (tokens + 1)) / 2),
  };
}

/**
 * Numbers a KV cache holds: keys and values (2) for every token, kv head and head column.
 * Multiply by layers and bytes per number for a model's memory.
 */
export const cacheNumbers = ({ tokens, kvHeads, dHead, layers = 1 }) =>
  2 * layers * tokens * kvHeads * dHead;

/**
 * What a sequence of n tokens costs a model (stage 12's length slider): attention's multiply-
 * adds, the scores q·k and weighted sums Σ a·v of the causal triangle, 1 + 2 + … + n pairs
 * per head in every layer (the same counts as decoding without a cache), which grow with n²;
 * and the KV cache that holds the n tokens' keys and values, which grows with n.
 * @param {{ layers?, dModel, heads, kvHeads, dHead, bytes }} model
 * @returns {{ attention: number, cacheBytes: number }}
 */
export function lengthCost(model, n) {
  const { layers = 1, bytes } = model;
  const { scores, sums } = multiplyAdds(model, n - 1).withoutCache;
  return {
    attention: layers * (scores + sums),
    cacheBytes: cacheNumbers({ ...model, layers, tokens: n }) * bytes,
  };
}

/**
 * Decoding the layer token by token: at step t the token's query, key and value (rows t of
 * the trace's heads, which the module projected) go to onnxAttention with the cache so far
 * as past_key / past_value; present_* (the cache grown by one row) is the next step's past.
 */
function decode(attn, dims, heads, scale) {
  const { n, heads: hq, kvHeads, dHead } = dims;
  const firstHeadOf = (g) => g * dims.group;
  const empty = () => ({
    type: 'float32',
    data: new Float32Array(0),
    dims: [1, kvHeads, 0, dHead],
  });
  let pastKey = empty();
  let pastValue = empty();
  const steps = [];
  for (let t = 0; t < n; t++) {
    const q = new Float32Array(hq * dHead);
    for (let h = 0; h < hq; h++) q.set(rowSlice(heads[h].queries, t), h * dHead);
    const k = new Float32Array(kvHeads * dHead);
    const v = new Float32Array(kvHeads * dHead);
    for (let g = 0; g < kvHeads; g++) {
      k.set(rowSlice(heads[firstHeadOf(g)].keys, t), g * dHead);
      v.set(rowSlice(heads[firstHeadOf(g)].values, t), g * dHead);
    }
    const result = attn.onnxAttention(
      {
        Q: { data: q, dims: [1, hq, 1, dHead] },
        K: { data: k, dims: [1, kvHeads, 1, dHead] },
        V: { data: v, dims: [1, kvHeads, 1, dHead] },
        past_key: pastKey,
        past_value: pastValue,
      },
      { scale, is_causal: 1 },
      ['Y', 'present_key', 'present_value', 'qk_matmul_output'],
    );
    const length = t + 1;
    steps.push({
      position: t,
      length,
      // scores[h]: query head h's new row, length t + 1 (qk_matmul_output, (1, Hq, 1, T))
      scores: Array.from({ length: hq }, (_, h) =>
        result.qk_matmul_output.data.slice(h * length, (h + 1) * length),
      ),
      // outputs[h]: Y of head h, dHead numbers ((1, Hq, 1, Dv))
      outputs: Array.from({ length: hq }, (_, h) =>
        result.Y.data.slice(h * dHead, (h + 1) * dHead),
      ),
      // The cache after this step: present_key / present_value, (1, Hkv, t + 1, D)
      cacheKey: result.present_key,
      cacheValue: result.present_value,
    });
    pastKey = result.present_key;
    pastValue = result.present_value;
  }
  return steps;
}

/**
 * @param attn the API from createAttention()
 * @param layer chapter 2's example (layer.mjs)
 * @param settings { scaled, causal }: ÷ √d_head, and the causal mask of the layer's scenes
 *   (decoding is always causal)
 * @param {boolean} isExample the chapter's own example (its text says what each head does)
 */
export function computeLayerNumbers(attn, layer, settings, isExample = false) {
  const dims = layerDimsOf(layer);
  const scale = settings.scaled ? 1 / Math.sqrt(dims.dHead) : 1;
  const args = {
    x: layer.x,
    wQuery: layer.wQuery,
    wKey: layer.wKey,
    wValue: layer.wValue,
    heads: dims.heads,
    kvHeads: dims.kvHeads,
    wOut: layer.wOut,
    scale,
  };
  const trace = attn.trace({ ...args, isCausal: settings.causal });
  const causal = settings.causal ? trace : attn.trace({ ...args, isCausal: true });
  return {
    dims,
    scale,
    isExample,
    causalSetting: settings.causal,
    x: fromRows(layer.x),
    wQuery: fromRows(layer.wQuery),
    wKey: fromRows(layer.wKey),
    wValue: fromRows(layer.wValue),
    wOut: fromRows(layer.wOut),
    heads: trace.heads,
    concat: trace.concat,
    outputs: trace.outputs,
    causal,
    decode: decode(attn, dims, causal.heads, scale),
    kvHeadOf: (h) => kvHeadOf(h, dims),
    masked: (h, i, j) => trace.heads[h].mask.data[i * dims.n + j] === 1,
  };
}
