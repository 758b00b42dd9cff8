// The KV cache (AttentionApi.createKvCache): keys and values kept in wasm memory across decoding
// steps, each step's attention over all of them.
import type { AttentionApi } from './api.js';
import type { ScoreOptions } from './attention.js';
import type { OnnxTensor } from './onnx.js';

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

/**
 * Options of {@link KvCache.attend}: the score step's ({@link ScoreOptions}: query i of S at
 * position T - S + i) and these. Read once, own properties only.
 */
export interface KvAttendOptions extends ScoreOptions {
  /** Hq: query heads, a multiple of the cache's `kvNumHeads`. Defaults to `kvNumHeads`. */
  qNumHeads?: number;
  /** Multiplies q.k; defaults to 1 / sqrt(headSize). */
  scale?: number;
  /**
   * Defaults to true: query i of S sits at position T - S + i and sees keys 0 .. T - S + i
   * (bottom-right aligned, as ONNX's `is_causal` with a past). false: every query sees every
   * cached key.
   */
  isCausal?: boolean;
  /** -1 (unbounded, the default) or n >= 0: query at position p sees no key before p - n. */
  leftWindow?: number;
  /**
   * Where to write the step's output, instead of a fresh array: a `Float32Array` of exactly
   * `B * Hq * S * Dv` numbers, which `attend` fills and returns. For a decoding loop: one
   * array for every token instead of a new one per step. Checked before any work, as
   * `attention`'s `out`: not a `Float32Array` or detached is a TypeError naming `out`; the
   * wrong length, bytes shared with `q`, or a view of the module's own wasm memory is a
   * RangeError naming `out`. On any error `out` is left as it was.
   */
  out?: Float32Array;
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
   * @returns the `(B, Hq, S, Dv)` output: `options.out`, filled, or a fresh Float32Array the
   *   caller owns.
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
