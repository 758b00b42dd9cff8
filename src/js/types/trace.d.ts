// The trace (AttentionApi.trace): every intermediate of self-attention on small inputs, one head
// or a layer of heads, and their gradients, for teaching and visualisation.
import type { AttentionApi } from './api.js';
import type { AttentionOptions, ScoreOptions } from './attention.js';

/** A row-major matrix: `data[i * cols + j]` is row i, column j. */
export interface Matrix {
  /** Number of rows (at least 1). */
  rows: number;
  /** Number of columns (at least 1). */
  cols: number;
  /** `rows * cols` numbers, row after row. */
  data: Float32Array;
}

/** A matrix given either as nested arrays (rectangular, numbers only) or as a {@link Matrix}. */
export type MatrixInput = number[][] | Matrix;

/**
 * Arguments of {@link AttentionApi.trace}. Dimensions: n tokens, d_in, d_k, d_v. The score
 * step's options ({@link ScoreOptions}: `scores` hold their effect; query head h of `heads`
 * is head h there) as attention() takes them. Read once, own properties only (see
 * {@link AttentionOptions}).
 */
export interface TraceArgs extends ScoreOptions {
  /** The inputs, one token per row: n x d_in. */
  x: MatrixInput;
  /** Query weights: d_in x d_k. */
  wQuery: MatrixInput;
  /** Key weights: d_in x d_k (queries and keys are dotted together, so d_k must match). */
  wKey: MatrixInput;
  /** Value weights: d_in x d_v (d_v may differ from d_k; outputs have d_v columns). */
  wValue: MatrixInput;
  /**
   * Multiplies every score. Defaults to 1, as in the article; pass `1 / Math.sqrt(d_k)` for
   * the Transformer's scaled dot-product attention.
   */
  scale?: number;
  /** Hide key j from query i when j > i (a decoder's causal mask). Defaults to false. */
  isCausal?: boolean;
  /** One head: the article's form. See {@link MultiHeadTraceArgs} for several. */
  heads?: 1;
  /** One key/value head. */
  kvHeads?: 1;
  /** No output projection: the {@link Trace} is returned as it is. */
  wOut?: undefined;
  /**
   * The gradient of a loss with respect to the outputs: exactly the outputs' shape, n x d_v
   * here (n x d_out with `wOut`, n x (heads * d_v_head) with several heads and no `wOut`).
   * Optional: given, the result also holds `grad`, the gradient of every intermediate (see
   * {@link TraceGrad}); absent, the result is exactly as without it. For the loss
   * `1/2 |outputs[i] - target|^2`, row i is `outputs[i] - target` and every other row 0.
   * NaN and Infinity propagate into the gradients as IEEE arithmetic does; they are not an
   * error.
   */
  gradOutputs?: MatrixInput;
}

/**
 * Arguments of {@link AttentionApi.trace} for a layer of several heads, as a Transformer
 * runs it: the projections are split into heads by columns, each head attends on its own,
 * their outputs are put side by side and multiplied by W_O. Dimensions: n tokens, d_in;
 * each query head has d_k_head columns of wQuery, each key/value head d_k_head columns of
 * wKey and d_v_head of wValue. Read once, own properties only.
 *
 * @example
 * ```ts
 * // 4 query heads sharing 2 key/value heads (grouped-query attention), then W_O.
 * const t = attn.trace({ x, wQuery, wKey, wValue, heads: 4, kvHeads: 2, wOut });
 * t.heads[3].weights; // head 3's n x n attention, computed with kv head 1's keys
 * ```
 */
export interface MultiHeadTraceArgs extends Omit<TraceArgs, 'heads' | 'kvHeads' | 'wOut'> {
  /** Query weights: d_in x (heads * d_k_head); head h has columns [h * d_k_head, (h + 1) * d_k_head). */
  wQuery: MatrixInput;
  /** Key weights: d_in x (kvHeads * d_k_head); kv head g has the g-th block of d_k_head columns. */
  wKey: MatrixInput;
  /** Value weights: d_in x (kvHeads * d_v_head); kv head g has the g-th block of d_v_head columns. */
  wValue: MatrixInput;
  /**
   * Query heads: a positive integer (at most 256) dividing wQuery's columns. Defaults to 1.
   */
  heads?: number;
  /**
   * Key/value heads: divides `heads` and wValue's columns. Defaults to `heads` (multi-head
   * attention); fewer is grouped-query attention, 1 is multi-query attention. Query head h
   * reads kv head `Math.floor(h / (heads / kvHeads))`.
   */
  kvHeads?: number;
  /** The output projection W_O: (heads * d_v_head) x d_out. Optional. */
  wOut?: MatrixInput;
}

/**
 * Every intermediate of one self-attention computation. All arrays are fresh copies. `Grad`:
 * what `grad` holds, a {@link TraceGrad} for the single-head trace itself (its weights' and
 * x's gradients included), a {@link HeadGrad} for a head of a {@link MultiHeadTrace}.
 */
export interface Trace<Grad extends HeadGrad = HeadGrad> {
  /** x . wQuery: n x d_k. */
  queries: Matrix;
  /** x . wKey: n x d_k. */
  keys: Matrix;
  /** x . wValue: n x d_v. */
  values: Matrix;
  /**
   * queries . keys^T * scale after the score step ({@link ScoreOptions}): n x n; -Infinity
   * where `mask` hides a key.
   */
  scores: Matrix;
  /** Each row's largest score: n numbers, the shift the softmax subtracts before `e^x`. */
  rowMax: Float32Array;
  /**
   * The softmax's numerators, `e^(scores[i][j] - rowMax[i])`: n x n, 0 where masked. (A fully
   * masked row, whose maximum is -Infinity, is shifted by 0 instead: all 0.)
   */
  exponentials: Matrix;
  /** Each row's sum of `exponentials`: n numbers, the softmax's denominators. */
  rowSums: Float32Array;
  /**
   * Softmax of each row of scores, `exponentials / rowSums`: n x n, each row sums to 1. A
   * row whose every score is -Infinity (fully masked) is all 0; NaN and +Infinity propagate
   * as IEEE arithmetic does.
   */
  weights: Matrix;
  /** weighted[i][j] = weights[i][j] * values[j], at `data[(i * n + j) * d_v + c]`. */
  weighted: { dims: [number, number, number]; data: Float32Array };
  /** outputs[i] = sum over j of weighted[i][j]: n x d_v. */
  outputs: Matrix;
  /** n x n, 1 where key j is hidden from query i (`isCausal` and j > i), else 0. */
  mask: { rows: number; cols: number; data: Uint8Array };
  /** With `gradOutputs` only: the gradient of every intermediate (and of the weights and x). */
  grad?: Grad;
}

/**
 * The gradient of a loss with respect to each intermediate of one head, each the shape of
 * the intermediate it belongs to, from the gradient of the head's outputs. Computed by the
 * core stage by stage, backwards: outputs -> weighted -> weights (and values) -> scores ->
 * queries and keys.
 */
export interface HeadGrad {
  /** How the loss changes with each output: n x d_v (`gradOutputs`, or this head's share). */
  outputs: Matrix;
  /** `outputs[i]` for every key j: each weighted row adds into its output once. */
  weighted: { dims: [number, number, number]; data: Float32Array };
  /** `grad.weighted[i][j] . values[j]`: n x n. */
  weights: Matrix;
  /**
   * Through the softmax, row by row: `a[j] * (g[j] - a . g)`, with a the row of the trace's
   * weights and g the row of `grad.weights`: n x n. 0 wherever `mask` hides the score.
   */
  scores: Matrix;
  /** `grad.scores . keys * scale`: n x d_k. */
  queries: Matrix;
  /**
   * `grad.scores^T . queries * scale`: n x d_k. In a layer with fewer kv heads than heads, the
   * kv head's (shared by its group): the sum over the group's query heads, the same for each.
   */
  keys: Matrix;
  /** Sum over i of `weights[i][j] * grad.outputs[i]`: n x d_v; a kv head's, as for keys. */
  values: Matrix;
}

/** {@link Trace}'s `grad`: one head's {@link HeadGrad} plus the weights' and x's. */
export interface TraceGrad extends HeadGrad {
  /** `x^T . queries`: d_in x d_k, wQuery's shape. A step `wQuery - eta * grad.wQuery` lowers the loss. */
  wQuery: Matrix;
  /** `x^T . keys`: d_in x d_k. */
  wKey: Matrix;
  /** `x^T . values`: d_in x d_v. */
  wValue: Matrix;
  /** x feeds all three projections, so the sum of their gradients: n x d_in. */
  x: Matrix;
}

/** {@link MultiHeadTrace}'s `grad`: the layer's gradients; each head's are in `heads[h].grad`. */
export interface LayerGrad {
  /** `gradOutputs`, the outputs' shape. */
  outputs: Matrix;
  /** With `wOut` only: `concat^T . outputs`, (heads * d_v_head) x d_out. */
  wOut?: Matrix;
  /** `outputs . wOut^T` (or `outputs` without wOut): n x (heads * d_v_head); head h's columns are its outputs' gradient. */
  concat: Matrix;
  /** d_in x (heads * d_k_head): head h's block is `x^T . heads[h].grad.queries`. */
  wQuery: Matrix;
  /** d_in x (kvHeads * d_k_head): kv head g's block, from its group's summed keys gradient. */
  wKey: Matrix;
  /** d_in x (kvHeads * d_v_head), as wKey. */
  wValue: Matrix;
  /** n x d_in: the sum over every projection of every head. */
  x: Matrix;
}

/**
 * A layer of several heads (or one head with W_O), from {@link MultiHeadTraceArgs}. All
 * arrays are fresh copies.
 */
export interface MultiHeadTrace {
  /**
   * Each head's whole trace, in the dims of that head: queries n x d_k_head (its block of
   * wQuery), keys n x d_k_head and values n x d_v_head (its kv head's; query heads of one
   * group hold equal copies), scores, weights and the softmax fields n x n, outputs
   * n x d_v_head.
   */
  heads: Trace[];
  /** The heads' outputs side by side: n x (heads * d_v_head), head h in columns h * d_v_head on. */
  concat: Matrix;
  /** concat . wOut: n x d_out; `concat` itself (a copy) without wOut. */
  outputs: Matrix;
  /** With `gradOutputs` only: the layer's gradients (each head's in `heads[h].grad`). */
  grad?: LayerGrad;
}
