// A fast SIMD 2^x for the softmax; kernels_test checks it against std::exp2 in double.
// 2^x = 2^n * 2^f with n = nearest integer to x and f in [-0.5, 0.5]; 2^f comes from a
// degree-5 polynomial fitted by the Remez exchange to the least worst relative error on that
// interval (7.5e-8, with its constant then set to exactly 1 so that 2^0 = 1), below what
// float32's rounding of the steps adds (about 2e-7 in all, as degree 6 gave; the degree-5
// Taylor polynomial is 3e-6 off): a multiply-add per score fewer than degree 6.
// 2^n is built straight into the float's exponent bits. x is clamped to [-127, 127]: at
// n = -127 those bits are all zero, so inputs below -126.5 (a masked score's -inf among them)
// give exactly 0, and nothing overflows to inf. NaN gives NaN.
//
// Every step is one SIMD128 instruction (this runs once per score, next to the matrix
// products): n comes from adding and subtracting 1.5 * 2^23, which rounds to the nearest
// integer and leaves n in the low bits of the sum, instead of a rounding and a float-to-int
// conversion that WebAssembly engines expand into several instructions each.
#pragma once

#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"

namespace attention::kernels {

// 2^x for x in [-127, 127] (what both entries below hand it).
inline xsimd::batch<float> exp2_in_range(xsimd::batch<float> x) {
  using batch = xsimd::batch<float>;
  using int_batch = xsimd::batch<std::int32_t>;
  const batch round(12582912.0f);  // 1.5 * 2^23: x + round has n in its low mantissa bits
  const batch shifted = x + round;
  const batch f = x - (shifted - round);
  batch p(1.3276472454890609e-3f);
  p = multiply_add(p, f, batch(9.6755409613251686e-3f));
  p = multiply_add(p, f, batch(5.5507130920886993e-2f));
  p = multiply_add(p, f, batch(2.4022120237350464e-1f));
  p = multiply_add(p, f, batch(6.9314694404602051e-1f));
  p = multiply_add(p, f, batch(1.0f));
  // (n << 23) + the bits of 1.0f = the bits of 2^n; shifting drops the sum's exponent bits.
  const int_batch exponent =
      (xsimd::bitwise_cast<std::int32_t>(shifted) << 23) + int_batch(0x3f800000);
  return p * xsimd::bitwise_cast<float>(exponent);
}

// max(x, lo) and min(x, hi) that keep a NaN x, so that exp2 of NaN is NaN on every target:
// on WebAssembly xsimd's max and min are pmax and pmin (one instruction each), which return
// their first operand when either is NaN; on x86 they are maxps and minps, which return their
// second.
template <class MaxOrMin>
inline xsimd::batch<float> keeping_nan(MaxOrMin op, xsimd::batch<float> x, float bound) {
#if defined(__wasm__)
  return op(x, xsimd::batch<float>(bound));
#else
  return op(xsimd::batch<float>(bound), x);
#endif
}
inline xsimd::batch<float> at_least(xsimd::batch<float> x, float lo) {
  return keeping_nan([](auto a, auto b) { return xsimd::max(a, b); }, x, lo);
}
inline xsimd::batch<float> at_most(xsimd::batch<float> x, float hi) {
  return keeping_nan([](auto a, auto b) { return xsimd::min(a, b); }, x, hi);
}

// 2^x for any x.
inline xsimd::batch<float> exp2_fast(xsimd::batch<float> x) {
  return exp2_in_range(at_most(at_least(x, -127.0f), 127.0f));
}

// 2^x for x <= 127 (or NaN): the softmax's case, a score minus the row's maximum (<= 0);
// one instruction fewer than exp2_fast.
inline xsimd::batch<float> exp2_nonpositive(xsimd::batch<float> x) {
  return exp2_in_range(at_least(x, -127.0f));
}

}  // namespace attention::kernels
