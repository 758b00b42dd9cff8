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

// The package's types, behind this index (package.json "types"): the entry's own function and
// its options below, each job's types in types/, one file per job (the trace, attention's
// options, ONNX, the KV cache, the API object, training, the pool, the tasks). The
// <attention-explainer> element has its own (web/element/attention-explainer.d.ts).
export * from './types/trace.js';
export * from './types/attention.js';
export * from './types/onnx.js';
export * from './types/kv-cache.js';
export * from './types/api.js';
export * from './types/training.js';
export * from './types/pool.js';
export * from './types/tasks.js';

import type { AttentionApi } from './types/api.js';
import type { createAttentionPool } from './types/pool.js';

/**
 * Options of {@link createAttention}; none are needed in a page, a Worker or Node. Read once,
 * own properties only: an unknown option, or one the object only inherits (from a prototype),
 * is a TypeError naming it.
 */
export interface CreateAttentionOptions {
  /** The bytes of attention.wasm, if you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where to fetch attention.wasm from, if not next to attention.mjs. Relative URLs resolve
   * against the page; Node has no page, so there it is an absolute URL (for a file,
   * `url.pathToFileURL(path)`). Anything else is a TypeError naming `wasmUrl`.
   */
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
