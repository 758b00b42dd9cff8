// What every fused attention kernel shares (the tiled forward, the decode path, the backward):
// the constants, the aligned scratch, and the per-row softmax micro-kernels: folding a block
// of scores into a row's running maximum and sum (the online softmax), turning scores back
// into probabilities from a row's final statistics (the backward), and the final
// normalisation. What happens to a row of scores before the softmax is score_step.hpp's.
// Each micro-kernel with a vector body has a plain scalar reference beside it; kernels_test
// holds them to each other.
//
// Rows of scores handed to the vector micro-kernels are 16-byte aligned and padded to whole
// vectors (`padded`, a multiple of lanes) with -inf, so they have no scalar tail.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <xsimd/xsimd.hpp>

#include "../attention.hpp"
#include "kernels/exp2.hpp"

// Keep clang from unrolling register-blocked loops: unrolled, V8 runs out of its ~15 usable
// vector registers and spills (measured 27 vs 40 GFLOP/s).
#if defined(__clang__)
#define ATTENTION_NO_UNROLL _Pragma("clang loop unroll_count(1)")
#else
#define ATTENTION_NO_UNROLL
#endif

namespace attention::kernels {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;
constexpr float log2e = 1.44269504088896340736f;
constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

constexpr std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// Scratch floats on a 64-byte boundary (a cache line; every vector load is aligned).
constexpr std::size_t scratch_alignment = 64;
struct AlignedFree {
  void operator()(float* p) const { xsimd::aligned_free(p); }
};
using AlignedFloats = std::unique_ptr<float[], AlignedFree>;

// `count` floats, or null when memory runs out (the kernels then report it, never abort).
inline AlignedFloats allocate_floats(std::size_t count) {
  return AlignedFloats(
      static_cast<float*>(xsimd::aligned_malloc(count * sizeof(float), scratch_alignment)));
}

// Bytes allocate_floats(count) may take, with what aligned_malloc adds.
constexpr std::size_t allocated_bytes(std::size_t count) {
  return count * sizeof(float) + scratch_alignment + 16;
}

// A row's running softmax statistics: the largest score so far and the sum of
// e^(score - max) over the scores so far. A row that saw nothing has (-inf, 0).
struct RowStatistics {
  float max = minus_infinity;
  float sum = 0.0f;
};

// The largest of a block of `padded` scores; -inf when every score is -inf. A NaN score may
// be passed by (WebAssembly's pmax, xsimd's max there, keeps its first operand) or returned
// (x86's maxps returns its second): online_softmax_update gives a NaN sum either way.
inline float block_max(const float* row, std::size_t padded) {
  batch m(minus_infinity);
  for (std::size_t j = 0; j < padded; j += lanes) m = xsimd::max(m, batch::load_aligned(row + j));
  return xsimd::reduce_max(m);
}

// The online softmax's step: folds one block of scores (`padded` of them, -inf where hidden
// or padding) into the row's statistics and turns the block into e^(score - new max), in
// place. `largest` is block_max of the block (a kernel may have it from the scores' own
// computation). Returns the factor the row's accumulated outputs must be rescaled by (1 when
// the maximum did not move, 0 when nothing was seen before). A NaN score makes the sum NaN,
// so the row's outputs come out NaN, as IEEE arithmetic would: exp2_nonpositive carries the
// NaN into the sum (a NaN `largest` leaves the maximum where it was), and only a block
// without a finite score needs a search for one. All -inf: zeros, returns 1.
inline float online_softmax_update(float* row, std::size_t padded, float largest,
                                   RowStatistics& stats) {
  const float old_max = stats.max;
  const float new_max = std::max(old_max, largest);
  if (new_max == minus_infinity) {  // everything so far is hidden (or NaN): nothing to add
    if (std::any_of(row, row + padded, [](float x) { return std::isnan(x); }))
      stats.sum = std::numeric_limits<float>::quiet_NaN();
    std::fill(row, row + padded, 0.0f);
    return 1.0f;
  }
  // e^(x - max) = 2^((x - max) * log2(e)): the subtraction first, so nothing overflows.
  const batch shift(new_max), to_log2(log2e);
  batch sum(0.0f);
  for (std::size_t j = 0; j < padded; j += lanes) {
    const batch p = exp2_nonpositive((batch::load_aligned(row + j) - shift) * to_log2);
    p.store_aligned(row + j);
    sum += p;
  }
  // 0 when old_max is -inf; the exp call is skipped in the common case of an unmoved maximum.
  const float rescale = old_max == new_max ? 1.0f : std::exp(old_max - new_max);
  stats.sum = stats.sum * rescale + xsimd::reduce_add(sum);
  stats.max = new_max;
  return rescale;
}

inline float online_softmax_update(float* row, std::size_t padded, RowStatistics& stats) {
  return online_softmax_update(row, padded, block_max(row, padded), stats);
}

// online_softmax_update, plainly: one score at a time, std::exp.
inline float online_softmax_update_reference(float* row, std::size_t count, RowStatistics& stats) {
  float new_max = stats.max;
  bool nan_seen = false;
  for (std::size_t j = 0; j < count; ++j) {
    nan_seen = nan_seen || std::isnan(row[j]);
    if (row[j] > new_max) new_max = row[j];
  }
  if (nan_seen) stats.sum = std::numeric_limits<float>::quiet_NaN();
  if (new_max == minus_infinity) {
    std::fill(row, row + count, 0.0f);
    return 1.0f;
  }
  float sum = 0.0f;
  for (std::size_t j = 0; j < count; ++j) {
    row[j] = std::exp(row[j] - new_max);
    sum += row[j];
  }
  const float rescale = std::exp(stats.max - new_max);
  stats.sum = stats.sum * rescale + sum;
  stats.max = new_max;
  return rescale;
}

// out [padded] *= factor (a row's accumulated outputs, after online_softmax_update).
inline void rescale_row(float* out, std::size_t padded, float factor) {
  for (std::size_t c = 0; c < padded; c += lanes)
    (batch::load_aligned(out + c) * batch(factor)).store_aligned(out + c);
}

// y [n] = out / sum: the final normalisation of a row's accumulated outputs. A row that saw
// no key has sum 0 and gets zeros; a NaN sum gives NaN.
inline void normalise_row(const float* out, float sum, std::size_t n, float* y) {
  const float inverse = sum > 0.0f ? 1.0f / sum : (sum == 0.0f ? 0.0f : sum);
  for (std::size_t c = 0; c < n; ++c) y[c] = out[c] * inverse;
}

}  // namespace attention::kernels
