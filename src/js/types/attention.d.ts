// The options of AttentionApi.attention (the KV cache's attend and attentionBackward take the
// same record) and what attentionBackward returns.
import type { AttentionApi } from './api.js';
import type { KvAttendOptions } from './kv-cache.js';
import type { TraceArgs } from './trace.js';

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
 * What the score step does to each query row's scores between `scale * q.k` and the softmax,
 * the same in every entry point that takes it: {@link AttentionOptions} (attention() and
 * attentionBackward), {@link KvAttendOptions} (a cache's attend) and {@link TraceArgs}
 * (trace(), whose `scores` show the result). Query i sits at position i among the keys (with a
 * cache: T - S + i).
 */
export interface ScoreOptions {
  /**
   * When positive, scores become `softcap * tanh(score / softcap)` before masking. Default 0
   * (off). A float32, like `scale`: 1e-46 would be 0 there, so it is a RangeError.
   */
  softcap?: number;
  /**
   * ALiBi, the linear position bias of BLOOM and MPT: `slope_h * (j - i)` is added to query
   * head h's score of key j for query i (after `softcap`, with a mask). `true`: the
   * standard slopes of the ALiBi paper, `2^(-8 (h + 1) / n)` for n heads (a power of two;
   * for other counts the first n = the largest power of two below, then the odd steps of 2n's
   * sequence); or a `Float32Array` of one finite slope per query head (copied when read).
   * Default false. The same as passing those biases as an additive `attnMask`, without it.
   */
  alibi?: boolean | Float32Array;
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
export interface AttentionOptions extends ScoreOptions {
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

/** What {@link AttentionApi.attentionBackward} returns: each a fresh array the caller owns. */
export interface AttentionGradients {
  /** dL/dq, `[batch, qNumHeads, qSeqLen, headSize]`. */
  gradQ: Float32Array;
  /** dL/dk, `[batch, kvNumHeads, kvSeqLen, headSize]`: every query head of a group adds in. */
  gradK: Float32Array;
  /** dL/dv, `[batch, kvNumHeads, kvSeqLen, vHeadSize]`: every query head of a group adds in. */
  gradV: Float32Array;
}
