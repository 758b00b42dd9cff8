// What createAttention() resolves to: the module's API, one method per job (the types of each
// job's arguments live in the file named after the job).
import type { AttentionGradients, AttentionOptions } from './attention.js';
import type { CreateAttentionOptions } from '../attention.js';
import type { KvCache, KvCacheOptions } from './kv-cache.js';
import type {
  OnnxAttentionAttributes,
  OnnxAttentionInputs,
  OnnxOutputName,
  OnnxResultTensor,
  OnnxRotaryEmbeddingAttributes,
  OnnxRotaryEmbeddingInputs,
  PairedOnnxOutputs,
  RotaryCachesOptions,
} from './onnx.js';
import type {
  MatrixInput,
  MultiHeadTrace,
  MultiHeadTraceArgs,
  Trace,
  TraceArgs,
  TraceGrad,
} from './trace.js';
import type { TinyTransformer, TinyTransformerConfig } from './training.js';

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
   * sees no key (its y is zeros) gets none; the chain rule goes through every score option
   * of {@link AttentionOptions}. Computed in one pass over tiles of 32 query rows (each
   * tile's exact softmax over the keys it sees; never the `qSeqLen x kvSeqLen` weights
   * stored), in float32. Its working
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
