/**
 * Self-attention in WebAssembly (SIMD128): every intermediate of the computation for teaching
 * and visualisation (`trace`), a fast multi-head attention with the semantics of the ONNX
 * `Attention` operator, opset 23 (`attention`), and the whole operator with ONNX's own names,
 * KV cache, 3-D layout, windows and float16 included (`onnxAttention`).
 *
 * @example
 * ```ts
 * import createAttention from 'attention-explained';
 * const attn = await createAttention();
 * const t = attn.trace({ x: [[1, 0, 1, 0]], wQuery, wKey, wValue });
 * ```
 * @packageDocumentation
 */

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
 * Arguments of {@link AttentionApi.trace}. Dimensions: n tokens, d_in, d_k, d_v.
 * Read once, own properties only (see {@link AttentionOptions}).
 */
export interface TraceArgs {
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
  /** queries . keys^T * scale: n x n; -Infinity where `mask` hides a key. */
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

/**
 * A mask over the scores, broadcast (right-aligned, numpy rules) to
 * `[batch, qNumHeads, qSeqLen, kvSeqLen]`.
 */
export interface AttentionMask {
  /**
   * `Uint8Array`: boolean, 1 = the query may attend to the key, 0 = hidden.
   * `Float32Array`: added to the scores (use -Infinity to hide, as in ONNX).
   */
  data: Uint8Array | Float32Array;
  /** 1 to 4 dims, each 1 or the matching dim of `[batch, qNumHeads, qSeqLen, kvSeqLen]`. */
  shape: number[];
}

/**
 * Options of {@link AttentionApi.attention}, named as in the ONNX `Attention` operator.
 *
 * Every argument is read exactly once, before anything is checked, so a getter or a Proxy
 * cannot change a value between its check and its use. Options must be OWN properties of the
 * object: one found only on its prototype (a class getter, `{ __proto__: { isCausal: true } }`,
 * a polluted `Object.prototype.scale`) is refused with a TypeError naming it. Typed arrays are
 * measured by the engine's own getters, so an own `length`, `byteLength` or
 * `Symbol.toStringTag` changes nothing; a detached buffer is a TypeError naming the argument.
 */
export interface AttentionOptions {
  /** Batch size. Default 1. */
  batch?: number;
  /** Number of query heads. Required. */
  qNumHeads: number;
  /**
   * Number of key/value heads. Default `qNumHeads`. Must divide `qNumHeads`: each kv head
   * serves `qNumHeads / kvNumHeads` consecutive query heads (grouped-query attention; 1 is
   * multi-query attention).
   */
  kvNumHeads?: number;
  /** Query sequence length. Default: inferred from `q.length`. */
  qSeqLen?: number;
  /** Key/value sequence length. Default: inferred from `k.length`. */
  kvSeqLen?: number;
  /** Size of one query or key head. Required. */
  headSize: number;
  /** Size of one value head, and of one output head. Default `headSize`. */
  vHeadSize?: number;
  /**
   * Multiplies every score. Default `1 / Math.sqrt(headSize)`. Used as a float32: a value
   * that overflows it (|scale| >= 3.4e38) or rounds to 0 there (0 < |scale| < 1.4e-45) is a
   * RangeError.
   */
  scale?: number;
  /** Hide key j from query i when j > i (top-left aligned, as ONNX without past). Default false. */
  isCausal?: boolean;
  /**
   * When positive, scores become `softcap * tanh(score / softcap)` before masking. Default 0
   * (off). A float32, like `scale`: 1e-46 would be 0 there, so it is a RangeError.
   */
  softcap?: number;
  /**
   * ALiBi, the linear position bias of BLOOM and MPT: `slope_h * (j - i)` is added to query
   * head h's score of key j for query i (after `softcap`, with `attnMask`). `true`: the
   * standard slopes of the ALiBi paper, `2^(-8 (h + 1) / n)` for n heads (a power of two;
   * for other counts the first n = the largest power of two below, then the odd steps of 2n's
   * sequence); or a `Float32Array` of one finite slope per query head (copied when read).
   * Default false. The same as passing those biases as an additive `attnMask`, without it.
   */
  alibi?: boolean | Float32Array;
  /** An optional boolean or additive mask. */
  attnMask?: AttentionMask;
  /**
   * Where to write the result, instead of a fresh array: a `Float32Array` of exactly
   * `batch * qNumHeads * qSeqLen * vHeadSize` numbers, which `attention` fills and returns.
   * For many small calls of one shape (an animation frame, a layer loop): the result needs no
   * new array per call. Checked like the inputs, before any work: not a `Float32Array` or
   * detached is a TypeError naming `out`; the wrong length, bytes shared with `q`, `k`, `v`
   * or the mask, or a view of the module's own wasm memory is a RangeError naming `out`. On
   * any error `out` is left as it was. Not accepted by a pool's `attention` (TypeError).
   */
  out?: Float32Array;
}

/**
 * A `Float16Array`, in engines that have one (typed by its tag, so that no `lib` setting is
 * needed). Elsewhere float16 data is a `Uint16Array` of IEEE half-precision bits.
 */
export interface Float16ArrayLike extends ArrayLike<number> {
  readonly [Symbol.toStringTag]: 'Float16Array';
  readonly buffer: ArrayBufferLike;
  readonly byteLength: number;
  readonly byteOffset: number;
}

/**
 * A tensor as {@link AttentionApi.onnxAttention} reads it: the shape of an onnxruntime-web
 * `Tensor`, so `new ort.Tensor('float32', data, dims)` passes as it is (a tensor typed only as
 * `ort.Tensor`, such as a session's output, needs `as OnnxTensor`). `data` holds the elements
 * row-major; `type` may be left out, it is then inferred from `data`. Each field is read once.
 */
export type OnnxTensor =
  | { readonly type?: 'float32'; readonly data: Float32Array; readonly dims: readonly number[] }
  | {
      /** IEEE half precision: the bits in a Uint16Array, or a Float16Array. */
      readonly type?: 'float16';
      readonly data: Uint16Array | Float16ArrayLike;
      readonly dims: readonly number[];
    }
  | {
      /** Boolean: nonzero = true. */
      readonly type?: 'bool';
      readonly data: Uint8Array;
      readonly dims: readonly number[];
    }
  | { readonly type?: 'int64'; readonly data: BigInt64Array; readonly dims: readonly number[] };

/**
 * What {@link AttentionApi.onnxAttention} returns for each output: fresh arrays the caller owns
 * (never views into wasm memory), in the type of the input they follow (Y and
 * qk_matmul_output: Q's; present_key: K's; present_value: V's). float16 comes back as a
 * `Uint16Array` of half bits, or as a `Float16Array` when the input was one. A result is an
 * {@link OnnxTensor}: `present_*` pass back as the next call's `past_*` as they are.
 */
export type OnnxResultTensor =
  | { type: 'float32'; data: Float32Array; dims: number[] }
  | { type: 'float16'; data: Uint16Array | Float16ArrayLike; dims: number[] };

/**
 * Inputs of the ONNX `Attention` operator, by their ONNX names. Dimensions: B batch, Hq / Hkv
 * query / key-value heads, S queries, L new keys, P past keys, T = P + L, D head size, Dv value
 * head size. An optional input may be left out, `undefined` or `null`. Own properties only.
 */
export interface OnnxAttentionInputs {
  /** `float32` or `float16` (T1): 4-D `(B, Hq, S, D)` or 3-D `(B, S, Hq * D)`. */
  Q: OnnxTensor;
  /** T1, `(B, Hkv, L, D)` or 3-D `(B, L, Hkv * D)`. Hkv must divide Hq. */
  K: OnnxTensor;
  /** `float32` or `float16` (T2): `(B, Hkv, L, Dv)` or 3-D `(B, L, Hkv * Dv)`, K's rank. */
  V: OnnxTensor;
  /**
   * `bool` (true = may attend) or T1 (added to the scores), broadcast right-aligned to
   * `(B, Hq, S, T)`, 1 to 4 dims. Its last dim may be shorter than T: the keys beyond it are
   * hidden.
   */
  attn_mask?: OnnxTensor | null;
  /** T1, `(B, Hkv, P, D)`: the cache of earlier keys (P may be 0). Only with `past_value`. */
  past_key?: OnnxTensor | null;
  /** T2, `(B, Hkv, P, Dv)`: the cache of earlier values. Only with `past_key`. */
  past_value?: OnnxTensor | null;
  /**
   * `int64`, `(B,)` (opset 24): an external cache. K and V hold a whole cache buffer of which
   * only the first `nonpad_kv_seqlen[b]` keys of batch b are real (0 to L); the queries sit at
   * the end of them. Not together with `past_key`.
   */
  nonpad_kv_seqlen?: OnnxTensor | null;
}

/** Attributes of the ONNX `Attention` operator, by their ONNX names; all optional. */
export interface OnnxAttentionAttributes {
  /**
   * 1: key j is hidden from query i when j > i + offset, bottom-right aligned, where offset
   * is P with a past cache, `nonpad_kv_seqlen[b] - S` with an external one, else 0. Default 0.
   */
  is_causal?: 0 | 1 | boolean;
  /** Multiplies Q.K. Default `1 / Math.sqrt(D)`. A float32 (RangeError if it vanishes there). */
  scale?: number;
  /** Positive: scores become `softcap * tanh(score / softcap)`, before any mask. Default 0 (off). */
  softcap?: number;
  /** Hq; required when Q is 3-D (then it splits the last axis head-major). */
  q_num_heads?: number;
  /** Hkv; required when K and V are 3-D. */
  kv_num_heads?: number;
  /**
   * What `qk_matmul_output` holds: 0 the raw `scale * Q.K`, 1 after softcap, 2 after softcap
   * plus the mask and bias (-Infinity where hidden), 3 the softmax probabilities (zeros in a
   * row that sees no key). Default 0.
   */
  qk_matmul_output_mode?: 0 | 1 | 2 | 3;
  /**
   * The precision the softmax must at least have: 1 float, 10 float16, 11 double, 16 bfloat16
   * (ONNX data types). Accepted; the kernel computes the softmax in float32.
   */
  softmax_precision?: 1 | 10 | 11 | 16;
  /** Opset 25: keys more than this many positions before the query are hidden. -1 (default): none. */
  left_window_size?: number;
  /** Opset 25: keys more than this many positions after the query are hidden. -1 (default): none. */
  right_window_size?: number;
}

/**
 * Inputs of the ONNX `RotaryEmbedding` operator (opset 23), by their ONNX names. Dimensions:
 * B batch, H heads, S sequence length, D head size (even), R the rotary dim
 * (`rotary_embedding_dim`, or D when it is 0), M rows of the caches. Own properties only.
 */
export interface OnnxRotaryEmbeddingInputs {
  /** `float32` or `float16` (T): 4-D `(B, H, S, D)`, or 3-D `(B, S, H * D)` with `num_heads`. */
  input: OnnxTensor;
  /**
   * T, the cosines: `(M, R / 2)` with `position_ids` (row p for position p), or `(B, S, R / 2)`
   * without (one row per token). {@link AttentionApi.rotaryCaches} builds the usual ones.
   */
  cos_cache: OnnxTensor;
  /** T, the sines: `cos_cache`'s dims. */
  sin_cache: OnnxTensor;
  /** `int64`, `(B, S)`: each token's row of the caches, from 0 to M - 1. Optional. */
  position_ids?: OnnxTensor | null;
}

/** Attributes of the ONNX `RotaryEmbedding` operator, by their ONNX names; all optional. */
export interface OnnxRotaryEmbeddingAttributes {
  /**
   * 0 (default): pair i is `(i, i + R / 2)`, the head's two halves (GPT-NeoX, Llama).
   * 1: pair i is `(2i, 2i + 1)` (GPT-J).
   */
  interleaved?: 0 | 1 | boolean;
  /** R: rotate only the first R numbers of each head (even, at most D); the rest are copied. 0 (default): all D. */
  rotary_embedding_dim?: number;
  /** H; required when `input` is 3-D (then it splits the last axis head-major). */
  num_heads?: number;
}

/** Options of {@link AttentionApi.rotaryCaches}. Read once, own properties only. */
export interface RotaryCachesOptions {
  /** M: rows, one per position 0 .. M - 1 (positive). */
  length: number;
  /** R: the rotary dim (positive, even); each row holds R / 2 numbers. */
  rotaryDim: number;
  /** The base of the frequencies (positive, finite). Default 10000. */
  base?: number;
  /** The caches' type: `'float32'` (default) or `'float16'` (half bits in a Uint16Array). */
  type?: 'float32' | 'float16';
}

/**
 * Options of {@link AttentionApi.createKvCache}. Names: B batch, Hkv key/value heads, D key
 * head size, Dv value head size. Give the shape, or `pastKey` and `pastValue` (ONNX
 * `past_key` / `present_key` tensors) and the shape follows from their dims; options given
 * as well must agree with them. Read once, own properties only.
 */
export interface KvCacheOptions {
  /** B, defaults to 1 (or pastKey's dims[0]). */
  batch?: number;
  /** Hkv: key/value heads (query heads are a multiple of it, given to `attend`). */
  kvNumHeads?: number;
  /** D: the size of each key (and query). */
  headSize?: number;
  /** Dv: the size of each value (and output row); defaults to `headSize`. */
  vHeadSize?: number;
  /**
   * Rows per head to reserve (positive). Defaults to 256, or the past's length if longer.
   * When an append does not fit, the cache grows by reallocation: to twice its capacity, or
   * to what the append needs when that is more (each growth copies the cached rows once).
   */
  capacity?: number;
  /** Rows to start from: float32 `(B, Hkv, P, D)`, e.g. an onnxAttention `present_key`. */
  pastKey?: OnnxTensor;
  /** Rows to start from: float32 `(B, Hkv, P, Dv)`, with `pastKey`. */
  pastValue?: OnnxTensor;
}

/** Options of {@link KvCache.attend}. Read once, own properties only. */
export interface KvAttendOptions {
  /** Hq: query heads, a multiple of the cache's `kvNumHeads`. Defaults to `kvNumHeads`. */
  qNumHeads?: number;
  /** Multiplies q.k; defaults to 1 / sqrt(headSize). */
  scale?: number;
  /** 0 (off, the default) or positive: scores become `softcap * tanh(score / softcap)`. */
  softcap?: number;
  /**
   * ALiBi, as {@link AttentionOptions.alibi}: query i of S at position T - S + i, so key j's
   * bias is `slope_h * (j - (T - S + i))`. Default false.
   */
  alibi?: boolean | Float32Array;
  /**
   * Defaults to true: query i of S sits at position T - S + i and sees keys 0 .. T - S + i
   * (bottom-right aligned, as ONNX's `is_causal` with a past). false: every query sees every
   * cached key.
   */
  isCausal?: boolean;
  /** -1 (unbounded, the default) or n >= 0: query at position p sees no key before p - n. */
  leftWindow?: number;
}

/**
 * A key/value cache living in wasm memory, for decoding token by token: each step copies in
 * only its new rows and queries and copies out only its output, where `onnxAttention`'s
 * `past_*` / `present_*` copy the whole cache in and out on every call. Every tensor is a
 * float32, contiguous, 4-D `(batch, heads, rows, size)` Float32Array.
 *
 * Free it with `free()` (or `using`, where the engine supports it): its memory is not the
 * JS heap's. After `free()` every method and getter throws a TypeError.
 * @example
 * ```ts
 * const cache = attn.createKvCache({ kvNumHeads: 8, headSize: 64, capacity: 4096 });
 * for (const { q, k, v } of steps) {
 *   cache.append(k, v);                          // (1, 8, 1, 64) each
 *   const y = cache.attend(q, { qNumHeads: 32 }); // q (1, 32, 1, 64) -> y (1, 32, 1, 64)
 * }
 * cache.free();
 * ```
 */
export interface KvCache {
  /** B. */
  readonly batch: number;
  /** Hkv. */
  readonly kvNumHeads: number;
  /** D. */
  readonly headSize: number;
  /** Dv. */
  readonly vHeadSize: number;
  /** T: rows cached per head. */
  readonly length: number;
  /** Rows per head the cache holds before it must grow. */
  readonly capacity: number;
  /** True once `free()` has run. */
  readonly freed: boolean;
  /**
   * Appends this step's keys `(B, Hkv, S, D)` and values `(B, Hkv, S, Dv)` (S >= 1 new rows,
   * from the length of `k`), growing the cache if needed.
   * @returns the new length T.
   * @throws TypeError / RangeError naming `k` or `v`; a RangeError when growing does not fit
   *   in wasm memory. A refused append leaves the cache unchanged.
   */
  append(k: Float32Array, v: Float32Array): number;
  /**
   * Attention of the step's queries `(B, Hq, S, D)` over every cached row: the queries are the
   * last S positions (append their keys first).
   * @returns a fresh `(B, Hq, S, Dv)` Float32Array the caller owns.
   * @throws RangeError for an empty cache, more query rows than cached rows, or a `q` whose
   *   length is not a multiple of B * Hq * D; TypeError / RangeError naming a bad option.
   */
  attend(q: Float32Array, options?: KvAttendOptions): Float32Array;
  /** The cached keys as ONNX `present_key`: a fresh `{ type: 'float32', data, dims: [B, Hkv, T, D] }`. */
  presentKey(): { type: 'float32'; data: Float32Array; dims: number[] };
  /** The cached values as ONNX `present_value`: `dims: [B, Hkv, T, Dv]`. */
  presentValue(): { type: 'float32'; data: Float32Array; dims: number[] };
  /** Keeps the first `length` rows per head (e.g. drops rejected draft tokens). */
  truncate(length: number): void;
  /** Forgets every row; keeps the memory. */
  reset(): void;
  /** Releases the cache's wasm memory. Calling it again does nothing. */
  free(): void;
}

/** Outputs of the ONNX `Attention` operator that {@link AttentionApi.onnxAttention} can return. */
export type OnnxOutputName = 'Y' | 'present_key' | 'present_value' | 'qk_matmul_output';

/**
 * `O` when it names both `present_key` and `present_value` or neither (the operator gives the
 * two together), `never` otherwise: `onnxAttention(…, ['Y', 'present_key'])` does not
 * type-check, as it would throw.
 */
export type PairedOnnxOutputs<O extends readonly OnnxOutputName[]> = (
  'present_key' extends O[number] ? true : false
) extends ('present_value' extends O[number] ? true : false)
  ? O
  : never;

/** What {@link AttentionApi.attentionBackward} returns: each a fresh array the caller owns. */
export interface AttentionGradients {
  /** dL/dq, `[batch, qNumHeads, qSeqLen, headSize]`. */
  gradQ: Float32Array;
  /** dL/dk, `[batch, kvNumHeads, kvSeqLen, headSize]`: every query head of a group adds in. */
  gradK: Float32Array;
  /** dL/dv, `[batch, kvNumHeads, kvSeqLen, vHeadSize]`: every query head of a group adds in. */
  gradV: Float32Array;
}

/** What `createAttention()` resolves to. */
export interface AttentionApi {
  /**
   * Runs every stage of self-attention on small inputs and returns every intermediate.
   * At most 16,777,216 numbers in all intermediates together, gradients included (use
   * `attention` beyond).
   * @throws TypeError for a missing or non-numeric argument, RangeError for wrong shapes,
   *   naming the argument and what was expected versus given.
   */
  trace(args: TraceArgs): Trace<TraceGrad>;
  /**
   * With `wOut`: a layer of heads and its output projection, every head's intermediates
   * included (one head too: `heads[0]` is then the single-head trace).
   * @throws TypeError / RangeError naming the argument: a head count that is not a positive
   *   integer up to 256, a `kvHeads` that does not divide `heads`, weights whose columns the
   *   head counts do not divide, a `wOut` whose rows are not heads * d_v_head, a
   *   `gradOutputs` whose shape is not the outputs'.
   */
  trace(args: MultiHeadTraceArgs & { wOut: MatrixInput }): MultiHeadTrace;
  /**
   * Several heads: a {@link MultiHeadTrace}. One head without `wOut` (`heads` 1 or absent) is
   * exactly the single-head {@link Trace}, so `'heads' in t ? t.heads : [t]` lists the heads
   * either way.
   * @throws as above.
   */
  trace(args: MultiHeadTraceArgs): Trace<TraceGrad> | MultiHeadTrace;
  /**
   * The ONNX `Attention` operator (opset 23), 4-D layout, no past key/value. Fused and tiled:
   * memory grows with sequence length, never with its square.
   * @param q `[batch, qNumHeads, qSeqLen, headSize]`
   * @param k `[batch, kvNumHeads, kvSeqLen, headSize]`
   * @param v `[batch, kvNumHeads, kvSeqLen, vHeadSize]`
   * @returns a fresh `[batch, qNumHeads, qSeqLen, vHeadSize]` array that the caller owns, or
   *   `options.out` filled with it when given (the very object passed, not a copy). A
   *   query row whose every key is masked yields zeros. NaN and Infinity in the data propagate
   *   as IEEE arithmetic does, with one latitude: a NaN or Infinity in a key or value that a
   *   query cannot see (masked) may or may not reach that query's output, because the kernel
   *   skips whole blocks of keys that a causal mask hides.
   * @throws TypeError / RangeError naming the bad argument; the instance keeps working.
   */
  attention(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    options: AttentionOptions,
  ): Float32Array;
  /**
   * The exact gradients of {@link AttentionApi.attention}: for a loss L whose gradient with
   * respect to `y = attention(q, k, v, options)` is `gradY`, returns dL/dq, dL/dk and dL/dv,
   * for training in the page or in an app. Same layouts and every option of `attention`
   * (`out` excepted): a group's query heads (GQA/MQA) add into their shared kv head's
   * gradients; keys hidden by `isCausal` or a mask pass no gradient, and a query row that
   * sees no key (its y is zeros) gets none; under `softcap` the chain rule goes through the
   * tanh. Computed in one pass over tiles of 32 query rows (each tile's exact softmax over the
   * keys it sees; never the `qSeqLen x kvSeqLen` weights stored), in float32. Its working
   * memory grows with `kvSeqLen` (about `(64 + 5 * headSize) * 4` bytes per key), so the
   * longest `kvSeqLen` it takes is shorter than `attention`'s: about 800,000 keys at
   * headSize 64 in 2 GiB of wasm memory. NaN in a row's scores may reach the gradients of
   * every key in the same 16-key block.
   * @param q `[batch, qNumHeads, qSeqLen, headSize]`
   * @param k `[batch, kvNumHeads, kvSeqLen, headSize]`
   * @param v `[batch, kvNumHeads, kvSeqLen, vHeadSize]`
   * @param gradY dL/dy, `[batch, qNumHeads, qSeqLen, vHeadSize]` (y's shape)
   * @param options as for `attention`, read and checked by the same rules; `out` is refused
   * @returns fresh arrays the caller owns, shaped as `q`, `k` and `v`. NaN and Infinity
   *   propagate as IEEE arithmetic does.
   * @throws TypeError / RangeError naming the bad argument (`gradY` of the wrong type or
   *   length included; a request that cannot fit in wasm memory with its gradients is refused
   *   before anything is copied); the instance keeps working and holds no leaked memory.
   */
  attentionBackward(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    gradY: Float32Array,
    options: AttentionOptions,
  ): AttentionGradients;
  /**
   * The whole ONNX `Attention` operator (opset 23, plus opset 24's `nonpad_kv_seqlen` and
   * opset 25's windows), with ONNX's names, on the same fused kernel as `attention`:
   * - `Y` `(B, Hq, S, Dv)`, or `(B, S, Hq * Dv)` when Q is 3-D;
   * - `present_key` `(B, Hkv, T, D)` and `present_value` `(B, Hkv, T, Dv)`: `past_*` followed
   *   by K / V, ready to pass as the next call's `past_*` (token-by-token decoding);
   * - `qk_matmul_output` `(B, Hq, S, T)`, computed only when asked for (it is the only
   *   output whose size grows with S * T).
   *
   * A query row that sees no key gives zeros, in Y and in mode 3. float16 is computed in
   * float32 and rounded to nearest even on the way out.
   * @param outputs the outputs wanted, both `present_*` or neither. Default: `['Y']`, plus
   *   `present_key` and `present_value` when `past_key` is given (name them to have them in
   *   the result's type too).
   * @throws TypeError / RangeError naming the ONNX input, attribute or output at fault, for
   *   every shape rule of the spec; the instance keeps working and holds no leaked memory.
   */
  onnxAttention<const O extends readonly OnnxOutputName[] = ['Y']>(
    inputs: OnnxAttentionInputs,
    attributes?: OnnxAttentionAttributes,
    outputs?: O & PairedOnnxOutputs<O>,
  ): { [Name in O[number]]: OnnxResultTensor };
  /**
   * A key/value cache in wasm memory for decoding ({@link KvCache}): the resident
   * alternative to `onnxAttention`'s `past_*` / `present_*`, which copy the whole cache per
   * call. A cache that is garbage-collected without `free()` is freed eventually, but call
   * `free()`: collection may come late.
   * @throws TypeError / RangeError naming the bad option; RangeError when the capacity does
   *   not fit in wasm memory.
   */
  createKvCache(options: KvCacheOptions): KvCache;
  /**
   * The ONNX `RotaryEmbedding` operator (opset 23), with ONNX's names: rotary position
   * embedding (RoPE). Each head's pair i of numbers (see `interleaved`) at a token whose cache
   * row holds `cos`, `sin` becomes `(a cos - b sin, b cos + a sin)`: turned by the angle of its
   * position, so that a query-key dot product depends on how far apart the tokens are.
   * @returns `output`: a fresh tensor of the input's dims and type (float16 is computed in
   *   float32 and rounded to nearest even on the way out).
   * @throws TypeError / RangeError naming the ONNX input or attribute at fault, for every shape
   *   rule of the spec (a 3-D input without `num_heads`, an odd head size or
   *   `rotary_embedding_dim`, caches whose dims do not match the form with or without
   *   `position_ids`, a position id outside the caches' rows); the instance keeps working and
   *   holds no leaked memory. NaN and Infinity in the data propagate.
   * @example
   * ```ts
   * const caches = attn.rotaryCaches({ length: 2048, rotaryDim: 64 });
   * const { output } = attn.onnxRotaryEmbedding(
   *   { input: q, ...caches, position_ids }, // q (B, H, S, 64), position_ids int64 (B, S)
   * );
   * ```
   */
  onnxRotaryEmbedding(
    inputs: OnnxRotaryEmbeddingInputs,
    attributes?: OnnxRotaryEmbeddingAttributes,
  ): { output: OnnxResultTensor };
  /**
   * The cos and sin caches of RoPE for positions 0 .. length - 1, as `onnxRotaryEmbedding`
   * reads them with `position_ids`: row p holds `cos(theta_i)` and `sin(theta_i)` for
   * `theta_i = p * base^(-2i / rotaryDim)`, i < rotaryDim / 2, computed in double and rounded
   * once.
   * @returns fresh `(length, rotaryDim / 2)` tensors in `type`.
   * @throws TypeError / RangeError naming the bad option; RangeError when the caches do not fit
   *   in wasm memory.
   */
  rotaryCaches(options: RotaryCachesOptions): {
    cos_cache: OnnxResultTensor;
    sin_cache: OnnxResultTensor;
  };
  /**
   * A tiny decoder-only transformer that trains in wasm ({@link TinyTransformer}).
   * @throws TypeError / RangeError naming the config field at fault (heads must divide dModel,
   *   kvHeads must divide heads, ...); RangeError when the model would not fit in wasm memory.
   */
  createTinyTransformer(config: TinyTransformerConfig): TinyTransformer;
  /** True when the loaded WebAssembly uses SIMD128. */
  readonly simd: boolean;
  /**
   * True when the loaded module is the Relaxed SIMD build (attention-relaxed.wasm), whose
   * kernels use `f32x4.relaxed_madd`; false for the SIMD128 build (attention.wasm). Results
   * of the two may differ in the last bits: a fused multiply-add rounds once.
   */
  readonly relaxedSimd: boolean;
  /**
   * The threads `attention` (and `onnxAttention`) compute on: 1, or
   * {@link CreateAttentionOptions.threads} for the wasm threads build.
   */
  readonly threads: number;
  /** The package version. */
  readonly version: string;
  /**
   * Diagnostics: the size of the wasm memory and the bytes currently allocated in it. After
   * any call returns or throws, `allocatedBytes` is back where it was; what you hold (a
   * {@link TinyTransformer}'s parameters, a KV cache) stays allocated until its `free()`, and a
   * model's call gives back its working memory (activations, generate()'s cache) when it returns.
   */
  memoryStats(): { wasmMemoryBytes: number; allocatedBytes: number };
  /**
   * Ends this module: the wasm threads build's helper threads stop and their Workers end, and
   * the API lets go of the module, whose memory is freed once nothing made from it (a KV
   * cache, a tiny transformer, which go on working on the calling thread) is left. Every
   * method then throws an Error saying the module was closed. A call already reading its
   * arguments when close() runs (from a getter) finishes on the calling thread. Calling it
   * again does nothing. A threads build left unreachable without close() ends its helpers
   * when it is garbage-collected.
   */
  close(): void;
  /** The same as {@link AttentionApi.close}, for `using attn = await createAttention()`. */
  [Symbol.dispose](): void;
  /** True once {@link AttentionApi.close} has run. */
  readonly closed: boolean;
}

declare global {
  interface SymbolConstructor {
    /** `Symbol.dispose` (explicit resource management), for TypeScript before 5.2's lib. */
    readonly dispose: unique symbol;
  }
}

/**
 * Config of {@link AttentionApi.createTinyTransformer}. Names: V vocabSize, C context, D dModel,
 * L layers, H heads, Hkv kvHeads, d = D / H the head size, M mlpSize. Read once, own properties
 * only; integers unless said otherwise.
 */
export interface TinyTransformerConfig {
  /** V: token ids are 0 .. V - 1 (1 to 2^20). */
  vocabSize: number;
  /** C: the most tokens per sequence, T <= C (1 to 16384). */
  context: number;
  /** D: the width of the residual stream (1 to 16384). */
  dModel: number;
  /** L: attention layers (1 to 256). */
  layers: number;
  /** H: query heads per layer; must divide dModel. */
  heads: number;
  /** Hkv: key/value heads (grouped-query attention); must divide heads. Defaults to heads. */
  kvHeads?: number;
  /**
   * How the model knows where a token is: 'learned' (the default: a [C, D] table added to the
   * token embedding, trained from sinusoids: row t holds cos(t θ_i) then sin(t θ_i), θ_i from 1
   * radian per position down to 1 radian over the context), 'rope' (rotary embedding of every head's queries and keys, base 10000,
   * pairs (i, i + d / 2); needs an even head size) or 'none'.
   */
  positions?: 'learned' | 'rope' | 'none';
  /** M: the MLP's hidden size after each attention; 0 (the default) for attention-only layers. */
  mlpSize?: number;
  /** AdamW's step size (finite, >= 0). Defaults to 0.001. */
  learningRate?: number;
  /** AdamW's decoupled weight decay, applied to every parameter (finite, >= 0). Defaults to 0. */
  weightDecay?: number;
  /** Seeds the initial parameters (0 to 2^32 - 1). Defaults to 0. */
  seed?: number;
}

/** A batch of B sequences of T tokens each (T <= context), as trainStep and forward take it. */
export interface TinyTransformerBatch {
  /** Token ids, [B, T] row after row. */
  tokens: Int32Array;
  /** B (>= 1, divides tokens.length). Defaults to 1. */
  batch?: number;
}

/**
 * Switches heads off (or dims them) in {@link TinyTransformer.forward} and
 * {@link TinyTransformer.generate}: one factor per head, layer by layer (`headMask[l * heads + h]`
 * for head h of layer l, L * H numbers), each from 0 to 1. A head's output rows are multiplied by
 * its factor before W_O: 0 and the head adds nothing to its layer's output (exactly as if its
 * rows of W_O were zero), 1 leaves it as it is (a mask of all ones gives the same bits as no
 * mask). Training never sees a mask. An array of numbers or a Float32Array (Float64Array too),
 * copied when the call is made.
 */
export type HeadMask = readonly number[] | Float32Array | Float64Array;

/**
 * How {@link TinyTransformer.generate} chooses each new token. Read once, own properties only.
 */
export interface GenerateOptions {
  /**
   * 0 (the default): greedy, the first of the largest logits. Above 0: a draw from
   * softmax(logits / temperature) (below 1 sharper, above 1 flatter). Finite.
   */
  temperature?: number;
  /** Draw among the topK largest logits only (ties ranked by the lower id); 0 (the default), or vocabSize and more, means among all. topK 1 is greedy. */
  topK?: number;
  /** Seeds the draws (0 to 2^32 - 1; default 0): the same model, prompt and options give the same tokens. */
  seed?: number;
  /** Heads switched off while generating ({@link HeadMask}). */
  headMask?: HeadMask;
}

/** One parameter tensor, row-major. Weights are [in, out]: a row times the matrix. */
export interface TinyTransformerTensor {
  data: Float32Array;
  dims: number[];
}

/**
 * A decoder-only transformer that trains in wasm memory: token embedding (+ positions),
 * L layers of pre-LayerNorm causal multi-head attention (W_Q, W_K, W_V, W_O, no biases) and,
 * when mlpSize > 0, an MLP (Linear D -> M, GELU in its tanh form, Linear M -> D), residual
 * connections, a final LayerNorm and an unembedding of its own; trained on the mean next-token
 * cross-entropy with AdamW (beta1 0.9, beta2 0.999, eps 1e-8, bias correction).
 *
 * The same seed and the same batches give the same losses, bit for bit, in the same build
 * (the Relaxed SIMD build may differ from the SIMD128 build in the last bits). Free it with
 * `free()`: its memory is not the JS heap's; afterwards every method throws a TypeError.
 * @example
 * ```ts
 * const model = attn.createTinyTransformer({
 *   vocabSize: 16, context: 25, dModel: 32, layers: 2, heads: 4, learningRate: 6e-3, seed: 1,
 * });
 * const loss = model.trainStep({ tokens, targets, batch: 32 }); // Int32Array [32, 25] each
 * const { logits, attention } = model.forward({ tokens: prompt }); // batch 1
 * const next = model.generate([3, 1, 4], 5);                     // 5 greedy tokens
 * const drawn = model.generate([3, 1, 4], 5, { temperature: 0.8, topK: 10, seed: 7 });
 * const without = model.forward({ tokens: prompt, headMask: [1, 0, 1, 1, 1, 1, 1, 1] });
 * model.free();
 * ```
 */
export interface TinyTransformer {
  /** The config with every default filled in (frozen). */
  readonly config: Readonly<Required<TinyTransformerConfig>>;
  /** True once `free()` has run. */
  readonly freed: boolean;
  /**
   * One AdamW step on the mean next-token cross-entropy of `tokens` against `targets`
   * ([B, T] each; target -1 = not counted, else a token id).
   * @returns the loss before the step (a mean over the counted targets, in nats).
   * @throws TypeError / RangeError naming the bad tensor or token (a token outside
   *   [0, vocabSize), a target outside [-1, vocabSize), every target -1, T > context, ...);
   *   RangeError when the loss or a gradient is not finite: that step is refused and the
   *   parameters and AdamW state stay exactly as they were.
   */
  trainStep(
    batch: TinyTransformerBatch & {
      targets: Int32Array;
      /** T, when given (as {@link InductionTask.batch} gives it): checked against the tokens. */
      length?: number;
      /** Each row's layout, as {@link InductionTask.batch} gives it; not used. */
      rows?: readonly { p: number; n: number }[];
    },
  ): number;
  /**
   * The model on `tokens` without training, with the heads of `headMask` switched off (or
   * dimmed) when it is given.
   * @returns fresh arrays: `logits` [B, T, V] and every head's attention weights
   *   `attention` [L, B, H, T, T] (row t of a head: its softmax over keys 0 .. t, zeros after;
   *   a masked head's weights are still shown: the mask acts on its output).
   * @throws TypeError / RangeError as trainStep, and for a headMask that is not L * H numbers
   *   from 0 to 1 (naming the first bad factor).
   */
  forward(batch: TinyTransformerBatch & { headMask?: HeadMask }): {
    logits: TinyTransformerTensor;
    attention: TinyTransformerTensor;
  };
  /**
   * Decoding: feeds `prompt`, then each new token back, one at a time through a per-layer
   * key/value cache in wasm memory. Without options each new token is the argmax (the first on
   * ties) of the last logits, as `forward()` over the growing sequence would pick it; with a
   * temperature above 0 it is drawn from softmax(logits / temperature) over the topK largest,
   * by a generator seeded with `seed` ({@link GenerateOptions}).
   * @param prompt at least one token id.
   * @param count new tokens wanted, 0 to context; prompt.length + count - 1 <= context.
   * @returns the `count` new tokens.
   * @throws TypeError / RangeError naming the bad token, count or option (a negative or
   *   non-finite temperature, a topK or seed that is not an integer from 0 to 2^32 - 1, a
   *   headMask of the wrong length or with a factor outside [0, 1], an unknown option).
   */
  generate(
    prompt: Int32Array | readonly number[],
    count: number,
    options?: GenerateOptions,
  ): Int32Array;
  /**
   * A fresh copy of every parameter, by name, in the model's order: 'embedding.tokens' [V, D],
   * 'embedding.positions' [C, D] (learned positions only), then for each layer l
   * 'layers.l.norm1.gain' / '.bias' [D], 'layers.l.attention.wq' [D, H d], '.wk' and '.wv'
   * [D, Hkv d], '.wo' [H d, D], and with an MLP 'layers.l.norm2.gain' / '.bias' [D],
   * 'layers.l.mlp.w1' [D, M], '.b1' [M], '.w2' [M, D], '.b2' [D]; then 'norm.gain' /
   * 'norm.bias' [D] and 'unembedding' [D, V].
   *
   * To store it as JSON, turn the Float32Arrays into arrays:
   * `JSON.stringify(p, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v))`;
   * `loadParameters(JSON.parse(text))` takes that back.
   */
  parameters(): Record<string, TinyTransformerTensor>;
  /**
   * Replaces every parameter: the same names and dims as `parameters()` gives, each `data` a
   * Float32Array or an array of numbers. A missing, extra or inherited (prototype) name, any
   * wrong dims or length, or a value that is not finite as a float32 (NaN, +-Infinity, 1e39:
   * such a model computes NaN everywhere) refuses the whole set (TypeError / RangeError naming
   * the tensor, and the index of a bad value) and changes nothing. Loading restarts AdamW (its
   * moments and step count belong to the old parameters).
   */
  loadParameters(
    parameters: Record<string, { data: Float32Array | readonly number[]; dims: readonly number[] }>,
  ): void;
  /** Releases the model's wasm memory; later use is a TypeError. Calling it again is a no-op. */
  free(): void;
}

/**
 * Options of {@link createAttention}; none are needed in a page, a Worker or Node. Read once,
 * own properties only: an unknown option, or one the object only inherits (from a prototype),
 * is a TypeError naming it.
 */
export interface CreateAttentionOptions {
  /** The bytes of attention.wasm, if you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where to fetch attention.wasm from, if not next to attention.mjs. */
  wasmUrl?: string | URL;
  /**
   * The folder of the package's files (`dist/` as published: both `.wasm`, and with
   * {@link CreateAttentionOptions.threads} the threads build's glue, `.wasm` and helper
   * script), for an app that serves them somewhere else than beside attention.mjs (or than
   * where its bundler put them). Relative URLs resolve against the page. Works with threads,
   * where `wasmUrl` and `wasmBinary` cannot.
   */
  baseUrl?: string | URL;
  /**
   * How long loading may take, in milliseconds (default 30000; Infinity: no limit): the
   * module, or the threads build and every helper. Past it, the promise rejects with an Error
   * naming what did not load; a file that cannot load (a 404, a helper script served without
   * the page's Cross-Origin-Embedder-Policy) rejects at once, naming its URL and why.
   */
  initTimeout?: number;
  /**
   * Whether to load the Relaxed SIMD build (attention-relaxed.wasm) where the engine supports
   * Relaxed SIMD (Chromium and Firefox do; Safari, and Node without
   * `--experimental-wasm-relaxed-simd`, do not: there the SIMD128 build loads). Defaults to
   * true; false always loads the SIMD128 build. Ignored with `wasmBinary` or `wasmUrl`, which
   * load the given file ({@link AttentionApi.relaxedSimd} then says which build it is).
   */
  relaxedSimd?: boolean;
  /**
   * Whether to make one small `attention` call as the module loads (N = 256, head size 64), so
   * that the engine has optimised the kernel before your first large call (otherwise that
   * call may run in the engine's baseline tier, slower). Defaults to true. False skips it, for
   * an app whose calls are all small (it took about 15 ms of a page's load in Chromium).
   */
  warmUp?: boolean;
  /**
   * How many threads `attention` and `onnxAttention` compute on (1 to 64; default 1). Above 1,
   * the wasm threads build loads (attention-threads.wasm, or attention-threads-relaxed.wasm as
   * {@link CreateAttentionOptions.relaxedSimd} says, with its glue and its helpers' worker
   * script, all beside attention.mjs): each call runs on the calling thread and
   * `threads - 1` helper threads that share the module's memory, the way onnxruntime-web's
   * threads do, and returns when all are done, with the same results, bit for bit, as one
   * thread of the same SIMD build. A call blocks the calling thread for its (shorter) time:
   * in a page, call it from a Worker to keep the page responsive, or use
   * {@link createAttentionPool}, which never blocks the page. The other entry points (trace,
   * gradients, the KV cache, the tiny transformer) stay on the calling thread.
   *
   * Needs wasm threads: Node (its `worker_threads`), or a browser page, or a Worker of one,
   * that is cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
   * `Cross-Origin-Embedder-Policy: require-corp`); elsewhere a RangeError says so. Not a
   * number is a TypeError, not an integer from 1 to 64 a RangeError; with `wasmBinary` or
   * `wasmUrl`, a TypeError. The helpers start as the module loads; in Node they do not keep
   * the process alive. {@link AttentionApi.close} ends them.
   *
   * `'auto'`: the machine's cores (up to 8) where threads can run (Node, a cross-origin
   * isolated page or Worker), one thread elsewhere; {@link AttentionApi.threads} says which.
   */
  threads?: number | 'auto';
}

/**
 * Loads the WebAssembly module (from `attention-relaxed.wasm` or `attention.wasm` next to this
 * file, see {@link CreateAttentionOptions.relaxedSimd}) and resolves to the API. Rejects
 * with an Error saying why when the module cannot be loaded.
 */
export default function createAttention(options?: CreateAttentionOptions): Promise<AttentionApi>;

/** True when this engine validates Relaxed SIMD's `f32x4.relaxed_madd` (a tiny probe module). */
export function hasRelaxedSimd(): boolean;

/** Options of {@link createAttentionPool}. */
export interface AttentionPoolOptions {
  /**
   * How many workers (1 to 256). Defaults to the machine's cores
   * (`navigator.hardwareConcurrency`, or `os.availableParallelism()` in Node).
   */
  workers?: number;
  /** As {@link CreateAttentionOptions.relaxedSimd}, for every worker's module. */
  relaxedSimd?: boolean;
  /**
   * Where the worker script is, if not `attention-worker.mjs` next to this file (a bundler
   * may move it). It must load this package's `attention-worker.mjs`.
   */
  workerUrl?: string | URL;
  /**
   * How long each worker may take to load and warm up its module, in milliseconds (default
   * 30000). A worker that has not reported ready by then rejects createAttentionPool with an
   * Error saying so. `Infinity` waits for ever; a finite value above 2^31 - 1 (about 24.8
   * days, the longest a timer can wait) is a RangeError.
   */
  initTimeout?: number;
}

/** Per-call options of the pool's methods. */
export interface PoolCallOptions {
  /**
   * Aborts the call: it rejects with the signal's reason at once, and the workers running it
   * are terminated and replaced (a running wasm call cannot be interrupted otherwise).
   */
  signal?: AbortSignal;
  /**
   * For a call the pool runs whole on one worker (a small one): move q, k and v to it instead
   * of copying them. Their buffers are taken when the call is made, and detached in the
   * caller then (a later write cannot reach the call; another call given the same buffer is
   * refused with a TypeError, as for any detached array). A buffer that cannot be moved (a
   * WebAssembly.Memory's, a SharedArrayBuffer) is copied when the call is made instead.
   * Defaults to false: the caller's arrays are never detached or changed.
   */
  transfer?: boolean;
}

/**
 * Several instances of the module, one per worker (Web Workers in a page, worker_threads in
 * Node), for every core, with or without cross-origin isolation. Each call is split across
 * batch x heads (and blocks of query rows when there are fewer of those than workers; causal
 * calls are not split by rows); each worker computes its slices with the same kernel, so
 * results are those of {@link AttentionApi.attention}, bit for bit, from the same build.
 * Where workers can share memory (Node, and pages that are cross-origin isolated), a large
 * call's arrays are copied once into a SharedArrayBuffer the workers read and write, and the
 * workers share out its slices as they go; elsewhere each slice travels by message. The pool
 * keeps that buffer (up to 64 MiB) for its next call; close() lets it go.
 */
export interface AttentionPool {
  /**
   * {@link AttentionApi.attention} across the workers. The arguments are read once and
   * validated before anything is sent: rejects with the same TypeError or RangeError as
   * `attn.attention` for a bad argument, and with an Error saying so when a worker running the
   * call dies, sends a message the pool's worker never would (a result of the wrong kind
   * included), or the pool is closed (the pool replaces such a worker). Calls may overlap:
   * their slices share one queue. `options.out` is not supported here (rejects with a
   * TypeError naming it): results come back from the workers in arrays of their own.
   */
  attention(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    options: AttentionOptions,
    call?: PoolCallOptions,
  ): Promise<Float32Array>;
  /**
   * {@link AttentionApi.onnxAttention}, forwarded as a whole call to one worker. The call is
   * read once and validated before anything is sent (the same TypeError or RangeError as
   * `attn.onnxAttention`); each tensor (an onnxruntime-web Tensor too) goes as a copy.
   */
  onnxAttention<const O extends readonly OnnxOutputName[] = ['Y']>(
    inputs: OnnxAttentionInputs,
    attributes?: OnnxAttentionAttributes,
    outputs?: O & PairedOnnxOutputs<O>,
    call?: PoolCallOptions,
  ): Promise<{ [Name in O[number]]: OnnxResultTensor }>;
  /** Terminates every worker: running and queued calls reject, and so does every later one. */
  close(): void;
  /** Workers alive now (0 after close()). */
  readonly workers: number;
  /** True when every worker loaded the Relaxed SIMD build. */
  readonly relaxedSimd: boolean;
}

/**
 * Starts a pool of workers, each loading the module and warming it up (a few small calls, so
 * that the first large call runs optimised code), and resolves once all have. Rejects when
 * a worker's script or module cannot load. In Node, idle workers do not keep the process
 * alive, but close() the pool when done.
 */
export function createAttentionPool(options?: AttentionPoolOptions): Promise<AttentionPool>;

// ---- Training in a worker: createTrainer, the induction task and the text task ------------

/** Options of {@link createTrainer}, read once, own properties only. */
export interface TrainerOptions {
  /**
   * The model's config, as {@link AttentionApi.createTinyTransformer} takes it. For the
   * induction task, vocabSize at least 16 and context at least 25 (its tokens and rows); for
   * a text, vocabSize may be left out (the text's distinct characters; at least those if
   * given) and the text's first nine tenths must hold a window of context characters and
   * one more (e.g. {@link TEXT_MODEL}). Its seed defaults to this trainer's
   * {@link TrainerOptions.seed}.
   */
  config:
    TinyTransformerConfig | (Omit<TinyTransformerConfig, 'vocabSize'> & { vocabSize?: number });
  /**
   * The workload: 'induction' (the default; {@link createInductionTask}) or `{ text }`: next
   * characters of any string, trained on its first nine tenths, its last tenth held out for
   * {@link Trainer.evaluate} ({@link createTextTask}).
   */
  task?: 'induction' | { text: string };
  /** Seeds the training batches (and the model, unless config.seed is given). Default 1. */
  seed?: number;
  /** Rows per training step (default 32). */
  batch?: number;
  /**
   * Called in the host for each progress event. If it throws, the run stops and its
   * {@link Trainer.train} promise rejects with what it threw; the trainer stays usable.
   */
  onProgress?: (event: TrainerProgress) => void;
  /** Where the worker script is, if not `train-worker.mjs` next to this file. */
  workerUrl?: string | URL;
  /**
   * In a browser, how `workerUrl` is started: 'module' (the default; train-worker.mjs is a
   * module) or 'classic', for a classic script that speaks the same protocol (a page opened
   * from file:// cannot start module workers). Ignored in Node.
   */
  workerType?: 'module' | 'classic';
  /** How long the worker may take to load the module and build the model (ms, default 30000, at most 2^31 - 1). */
  initTimeout?: number;
  /** As {@link CreateAttentionOptions.relaxedSimd}, for the worker's module. */
  relaxedSimd?: boolean;
}

/** A progress event of a run: sent every `progressEvery` steps, and when the run ends. */
export interface TrainerProgress {
  /** Steps trained since the model was made (or reset). */
  step: number;
  /** The loss of the last step (before its update). */
  loss: number;
  /** Every step's loss since the previous event, oldest first: a loss curve without gaps. */
  losses: Float32Array;
  /** Mean time of those steps' trainStep calls alone, in milliseconds. */
  msPerStep: number;
  /**
   * Every head's weights on one fixed held-out row (for a text: its first held-out window),
   * when a multiple of `attentionEvery` was
   * reached since the previous event: dims [layers, 1, heads, T, T].
   */
  attention?: { data: Float32Array; dims: number[] };
}

/** Options of {@link Trainer.train}. */
export interface TrainOptions {
  /** How many more steps (1 to 10^7). */
  steps: number;
  /** Steps between progress events (default 10). */
  progressEvery?: number;
  /** Include the attention weights in progress events every this many steps (default 0: never). */
  attentionEvery?: number;
}

/**
 * What {@link Trainer.evaluate} measures, on held-out rows (the induction task's: their own
 * seeded sequence, not the training batches; a text's: its last tenth, never trained on).
 */
export interface TrainerEvaluation {
  step: number;
  /** Mean cross-entropy over the counted targets (for a text: nats per character). */
  loss: number;
  /** Share of counted targets whose largest logit is the target. */
  accuracy: number;
  /** For a text: how many held-out characters were scored (all of the last tenth but its first). */
  counted?: number;
  /**
   * The rows evaluated: Int32Array [batch, 25] each (targets -1 where not counted); for a
   * text, its first held-out window only, [1, context].
   */
  tokens: Int32Array;
  targets: Int32Array;
  /** Every head's weights on those rows: dims [layers, batch, heads, T, T]. */
  attention: { data: Float32Array; dims: number[] };
}

/**
 * A tiny transformer training in its own worker. Every method answers by promise; requests
 * run in the order they were made. Bad arguments throw a TypeError / RangeError at once and
 * change nothing. Once the worker dies, misbehaves (a message that is not its protocol's) or
 * {@link Trainer.close} is called, every pending and later call rejects with a
 * {@link TrainerError}; none is left pending.
 */
export interface Trainer {
  /**
   * Trains `steps` more steps on fresh induction batches; resolves when they are done, or
   * early on {@link Trainer.stop} / {@link Trainer.reset} (then `stopped` is true). One run
   * at a time: a second call while one runs rejects.
   */
  train(options: TrainOptions): Promise<{ step: number; loss: number; stopped: boolean }>;
  /** Holds the run after its current step (no CPU used while paused). */
  pause(): Promise<{ step: number }>;
  resume(): Promise<{ step: number }>;
  /** Ends the run; the model keeps what it learnt. */
  stop(): Promise<{ step: number }>;
  /**
   * Loss, accuracy and every head's attention on `batch` held-out rows (default 64; the same
   * rows at every call until a reset with another seed). A text trainer scores its whole
   * held-out tenth and refuses `batch` (a TypeError).
   */
  evaluate(options?: { batch?: number }): Promise<TrainerEvaluation>;
  /**
   * The model in the worker on one sequence ({@link TinyTransformer.forward} with batch 1),
   * with the heads of `headMask` switched off. `tokens`: ids (an Int32Array or an array), or
   * for a text trainer a string, encoded by its {@link Trainer.tokenizer}. Answered between
   * training steps when a run is going. Kinds and factors are checked at once (a throw); ids
   * against vocabSize, the length against context and the mask against layers * heads in the
   * worker (the promise rejects with that RangeError).
   */
  forward(args: { tokens: Int32Array | readonly number[] | string; headMask?: HeadMask }): Promise<{
    logits: TinyTransformerTensor;
    attention: TinyTransformerTensor;
  }>;
  /**
   * `count` new tokens after `prompt` ({@link TinyTransformer.generate}: greedy without a
   * temperature, else sampled with topK from seed, some heads switched off by headMask). A text
   * trainer takes the prompt as a string too; the tokens come back as ids: decode them with
   * `trainer.tokenizer.decode`. Checked as {@link Trainer.forward} checks.
   * @example
   * ```ts
   * const ids = await trainer.generate({ prompt: '床前明月光，', count: 24, temperature: 0.8, topK: 8, seed: 1 });
   * console.log(trainer.tokenizer!.decode(ids));
   * ```
   */
  generate(
    args: { prompt: Int32Array | readonly number[] | string; count: number } & GenerateOptions,
  ): Promise<Int32Array>;
  /** The model's parameters ({@link TinyTransformer.parameters}), for export. */
  parameters(): Promise<Record<string, TinyTransformerTensor>>;
  /**
   * Loads parameters of the same names and dims (data: Float32Array or number[]), refused
   * whole as {@link TinyTransformer.loadParameters} refuses them. Names, dims and each data's
   * length are checked against the model before any item is read (this runs on your thread):
   * a wrong one throws at once; a value that is not finite, at once too, or the promise
   * rejects with the model's RangeError naming it.
   */
  loadParameters(
    parameters: Record<string, { data: Float32Array | number[]; dims: number[] }>,
  ): Promise<{ step: number }>;
  /** A new model at step 0, with a new config and/or seed (the current ones by default; a text trainer keeps its text). */
  reset(options?: { config?: TrainerOptions['config']; seed?: number }): Promise<{ step: number }>;
  /** Ends the worker. */
  close(): void;
  /** A text trainer's tokenizer ({@link createCharTokenizer} of its text); null for induction. */
  readonly tokenizer: CharTokenizer | null;
  /** The last step the worker reported. */
  readonly step: number;
  /** True once the worker is gone. */
  readonly closed: boolean;
}

/** Why a trainer's promise rejected when its worker died, misbehaved or was closed. */
export class TrainerError extends Error {
  name: 'TrainerError';
}

/**
 * Starts a worker (a Web Worker in a page, a worker_thread in Node) holding its own module
 * and a tiny transformer ({@link AttentionApi.createTinyTransformer}), and resolves once the
 * model is built. In Node an idle trainer does not keep the process alive; close() it when done.
 */
export function createTrainer(options: TrainerOptions): Promise<Trainer>;

/** A batch of induction rows: Int32Array [batch, length] each. */
export interface InductionBatch {
  tokens: Int32Array;
  /** The token to predict at each position, or -1 where it is not predictable (not counted). */
  targets: Int32Array;
  batch: number;
  length: 25;
  /** Each row's layout: x1 at 1 + p and again at 1 + p + n. */
  rows: { p: number; n: number }[];
}

/**
 * The induction task: rows of 25 tokens, BOS (0) | p noise | x1..xn | x1..xn | noise, with
 * n distinct symbols from 1..15 (n in 4..10, p in 0..24-2n, new for each row) and noise from
 * the other symbols. Only the second copy's predictable next tokens are counted targets.
 * The same seed (an integer in 0..2^32-1, default 1) gives the same batches everywhere.
 */
export function createInductionTask(seed?: number): {
  readonly seed: number;
  readonly length: 25;
  readonly vocabSize: 16;
  /** The next `rows` rows (1 to 65536). */
  batch(rows: number): InductionBatch;
};

/**
 * The model the induction task was made for, as the page's chapter 3, the learning tests and
 * the training benchmark train it: vocab 16, context 25, dModel 32, 2 attention-only layers of
 * 4 heads (two layers are the fewest that can hold a previous-token head and an induction
 * head), learned positions, AdamW at learning rate 6e-3. Frozen: spread it to try another,
 * e.g. `createTinyTransformer({ ...INDUCTION_MODEL, layers: 1, seed: 3 })`.
 */
export const INDUCTION_MODEL: Readonly<{
  vocabSize: 16;
  context: 25;
  dModel: 32;
  layers: 2;
  heads: 4;
  positions: 'learned';
  mlpSize: 0;
  learningRate: 0.006;
}>;

/** Rows per training step for {@link INDUCTION_MODEL}: 32. */
export const INDUCTION_BATCH: 32;

/** Accuracy over counted targets (not -1), by the largest logit; accuracy is NaN if none. */
export function inductionAccuracy(
  logits: { data: Float32Array; dims: number[] },
  targets: Int32Array,
): { correct: number; counted: number; accuracy: number };

/** Characters to ids and back: {@link createCharTokenizer}. */
export interface CharTokenizer {
  /** How many distinct characters (code points) the text holds: the model's vocabSize. */
  readonly vocabSize: number;
  /** The vocabulary: characters[id] is the character of that id, in code-point order. */
  readonly characters: readonly string[];
  /**
   * One id per character (code point) of `text`. A character outside the vocabulary is a
   * RangeError naming it and its index (in characters); a non-string a TypeError.
   */
  encode(text: string): Int32Array;
  /** The characters of `ids` joined; an id outside 0..vocabSize-1 is a RangeError naming its index. */
  decode(ids: Int32Array | number[]): string;
}

/**
 * A character tokenizer whose vocabulary is every distinct character (Unicode code point) of
 * `text`, ids in code-point order. `text` must be a non-empty string.
 */
export function createCharTokenizer(text: string): CharTokenizer;

/** A batch of text windows: Int32Array [batch, length] each. */
export interface TextBatch {
  tokens: Int32Array;
  /** The next character of each position. */
  targets: Int32Array;
  batch: number;
  length: number;
  /** Where each row starts in the text, in characters. */
  starts: Int32Array;
}

/**
 * The text task: windows of `context` characters from the first nine tenths of `text`
 * (floor(0.9 n) characters), with next-character targets; the last tenth is held out. The
 * same seed (default 1) gives the same batches. A text too short for one window of context
 * characters and one more, and two held-out characters, is a RangeError.
 */
export function createTextTask(
  text: string,
  options: { context: number; seed?: number },
): {
  readonly tokenizer: CharTokenizer;
  readonly vocabSize: number;
  readonly context: number;
  /** Characters in the text, in its training part, in its held-out part. */
  readonly length: number;
  readonly trainLength: number;
  readonly heldOutLength: number;
  /** The next `rows` training windows (1 to 65536). */
  batch(rows: number): TextBatch;
  /**
   * The held-out tenth in consecutive windows; each held-out character after the first is one
   * target, `counted` in all; the last window is padded (tokens 0, targets -1).
   */
  heldOut(): Omit<TextBatch, 'starts'> & { counted: number };
};

/**
 * The model for text (docs/text.md says how it was chosen): dModel 64, 2 layers of 4 heads,
 * RoPE positions, an MLP of 256, AdamW at 1e-2, windows of 32 characters. No vocabSize: it
 * comes from the text (createTrainer fills it in; elsewhere spread `{ ...TEXT_MODEL, vocabSize }`).
 */
export const TEXT_MODEL: Readonly<{
  context: 32;
  dModel: 64;
  layers: 2;
  heads: 4;
  positions: 'rope';
  mlpSize: 256;
  learningRate: 0.01;
}>;

/** Windows per training step for {@link TEXT_MODEL}: 8. */
export const TEXT_BATCH: 8;
