// The peak probes: how many f32x4 flops per second one core sustains in this engine when
// nothing but arithmetic is in the way. One source, two builds (scripts/bench):
//   simd_peak.wasm (-msimd128): chains of f32x4.mul then f32x4.add, the limit of our SIMD128
//     build, which has no fused instruction; exports peak8 … peak14.
//   fma_peak.wasm (-mrelaxed-simd -DFMA_PEAK): chains of f32x4.relaxed_madd, the limit of our
//     Relaxed SIMD build, whose kernels multiply-add in one instruction; exports fma8 … fma14.
//     Clang 14 emits the Relaxed SIMD prototype's f32x4.fma (0xfd 0xaf 0x01), which engines
//     reject; scripts/bench rewrites it to the final f32x4.relaxed_madd (0xfd 0x85 0x02) with
//     scripts/lib/relaxed-simd.mjs, as scripts/build does for the module. The rewritten
//     instruction takes (a, b, c) from the stack and computes a·b + c.
// Both count 8 flops per chain and iteration (a multiply and an add on 4 lanes), the way the
// benchmark counts the kernels' flops, so a build's GFLOP/s divides by its own probe's.
//
// peakN(iters) / fmaN(iters) run N independent chains acc = acc * m + b. One chain is bound by
// the latency of a mul then an add (or of one FMA); independent chains overlap until the FP
// pipes are full or the engine runs out of vector registers (V8 on x86-64 has about 15; N
// accumulators + m + b must fit, beyond that it spills and the rate collapses). scripts/bench
// times every N and reports the best as the peak, so the figure is the machine's rather than
// one chain count's.
//
// m < 1 and b > 0 make every chain converge to b / (1 - m) = 1: no overflow, no denormals.
// Built with: emcc -O3 -msimd128 [-mrelaxed-simd -DFMA_PEAK] --no-entry -sSTANDALONE_WASM
// (no imports, no libc).
#include <wasm_simd128.h>

#ifdef FMA_PEAK
// acc·m + b in one instruction (operands in the final relaxed_madd's order).
#define STEP(acc, m, b) __builtin_wasm_fma_f32x4((acc), (m), (b))
#define PROBE_NAME "fma"
#else
#define STEP(acc, m, b) wasm_f32x4_add(wasm_f32x4_mul((acc), (m)), (b))
#define PROBE_NAME "peak"
#endif

static inline __attribute__((always_inline)) float chains(int iters, const int n) {
  const v128_t m = wasm_f32x4_splat(0.999f);
  const v128_t b = wasm_f32x4_splat(0.001f);
  v128_t acc[16];
  // Distinct start values, none of them the fixed point 1: clang merges identical chains and
  // deletes one that provably never changes.
#pragma clang loop unroll(full)
  for (int c = 0; c < n; ++c) acc[c] = wasm_f32x4_splat(2.0f + 0.01f * (float)c);

    // One iteration per loop trip (the chains, fully unrolled, live in registers); unrolling the
    // trip loop would not add work per chain, only make the instruction stream harder to read.
#pragma clang loop unroll(disable)
  for (int i = 0; i < iters; ++i) {
#pragma clang loop unroll(full)
    for (int c = 0; c < n; ++c) acc[c] = STEP(acc[c], m, b);
  }

  // Every lane of every chain is returned: with only lane 0 used, clang turns a chain into
  // scalar f32 code, and the probe would no longer measure SIMD.
  v128_t sum = acc[0];
#pragma clang loop unroll(full)
  for (int c = 1; c < n; ++c) sum = wasm_f32x4_add(sum, acc[c]);
  return wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1) +
         wasm_f32x4_extract_lane(sum, 2) + wasm_f32x4_extract_lane(sum, 3);
}

#define PEAK(n) \
  __attribute__((export_name(PROBE_NAME #n))) float probe##n(int iters) { return chains(iters, n); }

PEAK(8)
PEAK(10)
PEAK(12)
PEAK(13)
PEAK(14)
