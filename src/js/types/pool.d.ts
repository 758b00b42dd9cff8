// The pool (createAttentionPool): attention calls split across workers, off the calling thread.
import type { AttentionApi } from './api.js';
import type { AttentionOptions } from './attention.js';
import type { CreateAttentionOptions } from '../attention.js';
import type {
  OnnxAttentionAttributes,
  OnnxAttentionInputs,
  OnnxOutputName,
  OnnxResultTensor,
  PairedOnnxOutputs,
} from './onnx.js';

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
