// IEEE 754 half precision (binary16) <-> float32, for float16 tensors given as the raw bits in
// a Uint16Array (what onnxruntime-web uses) or as a Float16Array where the engine has one.
// The core computes in float32: halves are widened while they are copied into wasm memory and
// narrowed, rounding to nearest even, while results are copied out.
//
// binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits. Exponent 0 holds zero and
// the subnormals (fraction * 2^-24); exponent 31 holds the infinities and NaN.

const floatView = new Float32Array(1);
const bitsView = new Uint32Array(floatView.buffer);

/** The float32 (as a JS number) that half-precision `bits` stand for: exact, always. */
export function halfToFloat(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24; // zero or subnormal
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

/**
 * The half-precision bits nearest to `value` (after rounding it to float32), ties to even.
 * Overflow gives +-Infinity, underflow +-0 or a subnormal, NaN a quiet NaN (sign kept).
 */
export function floatToHalf(value) {
  floatView[0] = value;
  const x = bitsView[0];
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | (mantissa ? 0x7e00 : 0x7c00); // NaN, infinity
  const e = exponent - 127 + 15; // the half's biased exponent
  if (e >= 31) return sign | 0x7c00; // too large: infinity
  if (e <= 0) {
    // A subnormal half (or zero): the 24-bit significand shifted right by 14 - e, rounded.
    if (e < -10) return sign; // below half the smallest subnormal: +-0
    const significand = mantissa | 0x800000;
    const shift = 14 - e;
    let half = significand >>> shift;
    const rest = significand & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && half & 1)) half += 1;
    return sign | half; // rounding up into the smallest normal carries correctly
  }
  let half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half += 1; // may carry into infinity
  return sign | half;
}

let widen = null; // all 65,536 halves as float32, built on first use (256 KiB)

/** Writes `source` (half bits) widened to float32 into `target`, element by element. */
export function halvesToFloats(source, target) {
  if (widen === null) {
    widen = new Float32Array(65536);
    for (let bits = 0; bits < 65536; bits++) widen[bits] = halfToFloat(bits);
  }
  const n = source.length;
  for (let i = 0; i < n; i++) target[i] = widen[source[i]];
}

/** Writes `source` (float32) narrowed to half bits, rounding to nearest even, into `target`. */
export function floatsToHalves(source, target) {
  const n = source.length;
  for (let i = 0; i < n; i++) target[i] = floatToHalf(source[i]);
}
