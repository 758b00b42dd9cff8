// The micro-kernels' one multiply-add, a * b + acc lane by lane, in two builds from one source:
// - SIMD128 (the default): a multiply then an add (SIMD128 has no fused instruction).
// - Relaxed SIMD (compiled with ATTENTION_RELAXED_SIMD and -mrelaxed-simd): one
//   f32x4.relaxed_madd, which engines may fuse (one rounding) or not (two), so results may
//   differ from the SIMD128 build in the last bits. Clang 14 spells it
//   __builtin_wasm_fma_f32x4 and emits the proposal's prototype opcode; the build rewrites
//   that to the final one (scripts/lib/relaxed-simd.mjs). Both compute a * b + c from (a, b, c).
#pragma once

#include <xsimd/xsimd.hpp>

#if defined(ATTENTION_RELAXED_SIMD) && !defined(__wasm_relaxed_simd__)
#error "ATTENTION_RELAXED_SIMD needs a WebAssembly target compiled with -mrelaxed-simd"
#endif

namespace attention::kernels {

// Which of the two builds this is (the JS loader reports it as attn.relaxedSimd).
#if defined(ATTENTION_RELAXED_SIMD)
inline constexpr bool relaxed_simd_build = true;
#else
inline constexpr bool relaxed_simd_build = false;
#endif

inline xsimd::batch<float> multiply_add(const xsimd::batch<float>& a, const xsimd::batch<float>& b,
                                        const xsimd::batch<float>& acc) {
#if defined(ATTENTION_RELAXED_SIMD)
  using f32x4 = float __attribute__((__vector_size__(16)));
  return xsimd::batch<float>(__builtin_wasm_fma_f32x4(
      static_cast<f32x4>(a.data), static_cast<f32x4>(b.data), static_cast<f32x4>(acc.data)));
#else
  return xsimd::fma(a, b, acc);
#endif
}

}  // namespace attention::kernels
