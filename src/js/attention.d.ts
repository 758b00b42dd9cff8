/**
 * Self-attention in WebAssembly (SIMD128): every intermediate of the computation for teaching
 * and visualisation (`trace`), and a fast multi-head attention with the semantics of the ONNX
 * `Attention` operator, opset 23 (`attention`).
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

/** Arguments of {@link AttentionApi.trace}. Dimensions: n tokens, d_in, d_k, d_v. */
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
}

/** Every intermediate of one self-attention computation. All arrays are fresh copies. */
export interface Trace {
  /** x . wQuery: n x d_k. */
  queries: Matrix;
  /** x . wKey: n x d_k. */
  keys: Matrix;
  /** x . wValue: n x d_v. */
  values: Matrix;
  /** queries . keys^T * scale: n x n; -Infinity where `isCausal` hides a key. */
  scores: Matrix;
  /**
   * Softmax of each row of scores: n x n, each row sums to 1. A row whose every score is
   * -Infinity (fully masked) is all 0; NaN and +Infinity propagate as IEEE arithmetic does.
   */
  weights: Matrix;
  /** weighted[i][j] = weights[i][j] * values[j], at `data[(i * n + j) * d_v + c]`. */
  weighted: { dims: [number, number, number]; data: Float32Array };
  /** outputs[i] = sum over j of weighted[i][j]: n x d_v. */
  outputs: Matrix;
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

/** Options of {@link AttentionApi.attention}, named as in the ONNX `Attention` operator. */
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
  /** Multiplies every score. Default `1 / Math.sqrt(headSize)`. */
  scale?: number;
  /** Hide key j from query i when j > i (top-left aligned, as ONNX without past). Default false. */
  isCausal?: boolean;
  /** When positive, scores become `softcap * tanh(score / softcap)` before masking. Default 0 (off). */
  softcap?: number;
  /** An optional boolean or additive mask. */
  attnMask?: AttentionMask;
}

/** What `createAttention()` resolves to. */
export interface AttentionApi {
  /**
   * Runs every stage of self-attention on small inputs and returns every intermediate.
   * At most 16,777,216 numbers in all intermediates together (use `attention` beyond).
   * @throws TypeError for a missing or non-numeric argument, RangeError for wrong shapes,
   *   naming the argument and what was expected versus given.
   */
  trace(args: TraceArgs): Trace;
  /**
   * The ONNX `Attention` operator (opset 23), 4-D layout, no past key/value. Fused and tiled:
   * memory grows with sequence length, never with its square.
   * @param q `[batch, qNumHeads, qSeqLen, headSize]`
   * @param k `[batch, kvNumHeads, kvSeqLen, headSize]`
   * @param v `[batch, kvNumHeads, kvSeqLen, vHeadSize]`
   * @returns a fresh `[batch, qNumHeads, qSeqLen, vHeadSize]` array that the caller owns. A
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
  /** True when the loaded WebAssembly uses SIMD128. */
  readonly simd: boolean;
  /**
   * True when the loaded module is the Relaxed SIMD build (attention-relaxed.wasm), whose
   * kernels use `f32x4.relaxed_madd`; false for the SIMD128 build (attention.wasm). Results
   * of the two may differ in the last bits: a fused multiply-add rounds once.
   */
  readonly relaxedSimd: boolean;
  /** The package version. */
  readonly version: string;
  /**
   * Diagnostics: the size of the wasm memory and the bytes currently allocated in it. After
   * any call returns or throws, `allocatedBytes` is back where it was.
   */
  memoryStats(): { wasmMemoryBytes: number; allocatedBytes: number };
}

/** Options of {@link createAttention}; none are needed in a page, a Worker or Node. */
export interface CreateAttentionOptions {
  /** The bytes of attention.wasm, if you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where to fetch attention.wasm from, if not next to attention.mjs. */
  wasmUrl?: string | URL;
  /**
   * Whether to load the Relaxed SIMD build (attention-relaxed.wasm) where the engine supports
   * Relaxed SIMD (Chromium and Firefox do; Safari, and Node without
   * `--experimental-wasm-relaxed-simd`, do not: there the SIMD128 build loads). Defaults to
   * true; false always loads the SIMD128 build. Ignored with `wasmBinary` or `wasmUrl`, which
   * load the given file ({@link AttentionApi.relaxedSimd} then says which build it is).
   */
  relaxedSimd?: boolean;
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
   * of copying them. Their buffers are then detached in the caller. Defaults to false: the
   * caller's arrays are never detached or changed.
   */
  transfer?: boolean;
}

/**
 * Several instances of the module, one per worker (Web Workers in a page, worker_threads in
 * Node), for every core without cross-origin isolation. Each call is split across batch x
 * heads (and blocks of query rows when there are fewer of those than workers; causal calls
 * are not split by rows); each worker computes its slice with the same kernel, so results are
 * those of {@link AttentionApi.attention}, bit for bit, from the same build.
 */
export interface AttentionPool {
  /**
   * {@link AttentionApi.attention} across the workers. Rejects with the same TypeError or
   * RangeError for a bad argument, and with an Error saying so when a worker running the
   * call dies or the pool is closed (the pool replaces a dead worker). Calls may overlap:
   * their slices share one queue.
   */
  attention(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    options: AttentionOptions,
    call?: PoolCallOptions,
  ): Promise<Float32Array>;
  /**
   * The module's `onnxAttention`, forwarded as a whole call to one worker. Tensors (an
   * onnxruntime-web Tensor too) are sent as `{ type, data, dims }`.
   */
  onnxAttention(
    inputs: object,
    attributes?: object,
    outputs?: string[],
    call?: PoolCallOptions,
  ): Promise<object>;
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
