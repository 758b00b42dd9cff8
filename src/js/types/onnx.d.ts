// The ONNX operators with ONNX's own names: Attention (AttentionApi.onnxAttention), RotaryEmbedding
// (AttentionApi.onnxRotaryEmbedding) and the rotary caches, their tensors float32 or float16.
import type { AttentionApi } from './api.js';

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

/**
 * Widens IEEE half-precision bits (float16 as a `Uint16Array`, what onnxruntime-web passes) to
 * float32, writing `source.length` numbers into `target`. Exact: every half is a float32.
 */
export function halvesToFloats(source: ArrayLike<number>, target: Float32Array): void;

/**
 * Narrows numbers to IEEE half-precision bits, rounding to nearest, ties to even, writing
 * `source.length` of them into `target`. Too large gives ±Infinity; too small, ±0 or a
 * subnormal.
 */
export function floatsToHalves(source: ArrayLike<number>, target: Uint16Array): void;
