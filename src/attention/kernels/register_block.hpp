// The register block the fused kernels' matrix products share (the forward's scores and its
// probabilities . values, the backward's dot products against a panel of keys or values):
// Rows x Vectors accumulators, acc[r][v] holding columns v * lanes .. v * lanes + lanes - 1 of
// output row r. Each step loads Vectors vectors of one row of b and one splat per row of a,
// and does Rows x Vectors multiply-adds: every vector loaded feeds Rows of them, every splat
// Vectors of them.
//
// Sizing for V8 (about 15 usable vector registers on x86-64): Rows x Vectors accumulators,
// plus the Vectors of b, plus a splat, plus (SIMD128, where a multiply-add is a multiply then
// an add) one product, must fit; beyond that it spills and the rate collapses.
#pragma once

#include <cstddef>
#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"
#include "kernels/row_softmax.hpp"

namespace attention::kernels {

template <std::size_t Rows, std::size_t Vectors>
struct RegisterBlock {
  static constexpr std::size_t rows = Rows;
  static constexpr std::size_t columns = Vectors * lanes;
  batch acc[Rows][Vectors];

  void zero() {
    for (auto& row : acc)
      for (batch& x : row) x = batch(0.0f);
  }

  // acc[r] = in[r] [columns] * factor[r]: rows already accumulated, rescaled (the online
  // softmax's correction when a row's maximum moved). Aligned.
  void load(const float* const (&in)[Rows], const float (&factor)[Rows]) {
    for (std::size_t r = 0; r < Rows; ++r)
      for (std::size_t v = 0; v < Vectors; ++v)
        acc[r][v] = batch::load_aligned(in[r] + v * lanes) * batch(factor[r]);
  }

  // acc[r] = in[r] [columns]: rows already accumulated, whose maximum did not move. Aligned.
  void load(const float* const (&in)[Rows]) {
    for (std::size_t r = 0; r < Rows; ++r)
      for (std::size_t v = 0; v < Vectors; ++v) acc[r][v] = batch::load_aligned(in[r] + v * lanes);
  }

  // out[r] [columns] = acc[r] * scale. Aligned.
  void store(float* const (&out)[Rows], float scale = 1.0f) const {
    for (std::size_t r = 0; r < Rows; ++r)
      for (std::size_t v = 0; v < Vectors; ++v)
        (scale == 1.0f ? acc[r][v] : acc[r][v] * batch(scale)).store_aligned(out[r] + v * lanes);
  }

  // store(out, scale), also folding each row's values into running_max[r], lane by lane, as
  // block_max (row_softmax.hpp) does: the softmax's maximum while the scores are still in
  // registers, instead of a pass that loads them again.
  void store(float* const (&out)[Rows], float scale, batch (&running_max)[Rows]) const {
    for (std::size_t r = 0; r < Rows; ++r)
      for (std::size_t v = 0; v < Vectors; ++v) {
        const batch x = acc[r][v] * batch(scale);
        x.store_aligned(out[r] + v * lanes);
        running_max[r] = xsimd::max(running_max[r], x);
      }
  }

  // acc[r] += sum over i < steps of a_r[i * a_step] * b [i * b_step .. + columns], where
  // a_r = a + r * a_row: row r of a has its elements a_step apart; b's rows (aligned) are
  // b_step (> 0) apart. Inlined, so that a caller's constant strides become load offsets.
  // The loop runs on b's address alone (no step counter): one scalar instruction fewer per
  // step, in a body of about 27.
  __attribute__((always_inline)) void multiply_add_steps(const float* a, std::ptrdiff_t a_row,
                                                         std::size_t a_step, const float* b,
                                                         std::size_t b_step, std::size_t steps) {
    const float* const b_end = b + steps * b_step;
    ATTENTION_NO_UNROLL
    for (; b != b_end; a += a_step, b += b_step) {
      batch x[Vectors];
      for (std::size_t v = 0; v < Vectors; ++v) x[v] = batch::load_aligned(b + v * lanes);
      for (std::size_t r = 0; r < Rows; ++r) {
        const batch splat(a[std::ptrdiff_t(r) * a_row]);
        for (std::size_t v = 0; v < Vectors; ++v) acc[r][v] = multiply_add(splat, x[v], acc[r][v]);
      }
    }
  }
};

// panel [n x width] = rows [keys x n] (`stride` floats apart) transposed: element c of row j
// at panel[c * width + j], zeros for keys <= j < padded (padded <= width, a multiple of lanes;
// the panel aligned, width a multiple of lanes). The operand layout of multiply_add_steps' b
// when the products run over n and the columns are keys. Whole lanes x lanes squares are
// transposed in registers; the n % lanes last elements and a partial square of keys go one
// by one.
inline void pack_panel(const float* rows, std::size_t stride, std::size_t n, std::size_t keys,
                       std::size_t padded, float* panel, std::size_t width) {
  const std::size_t body = n - n % lanes;
  for (std::size_t j0 = 0; j0 < padded; j0 += lanes) {
    float* out = panel + j0;
    if (j0 + lanes <= keys) {
      const float* first = rows + j0 * stride;
      for (std::size_t c = 0; c < body; c += lanes) {
        batch square[lanes];
        for (std::size_t i = 0; i < lanes; ++i)
          square[i] = batch::load_unaligned(first + i * stride + c);
        xsimd::transpose(square, square + lanes);
        for (std::size_t i = 0; i < lanes; ++i) square[i].store_aligned(out + (c + i) * width);
      }
      for (std::size_t c = body; c < n; ++c)
        for (std::size_t i = 0; i < lanes; ++i) out[c * width + i] = first[i * stride + c];
    } else {
      for (std::size_t i = 0; i < lanes; ++i) {
        const float* row = j0 + i < keys ? rows + (j0 + i) * stride : nullptr;
        for (std::size_t c = 0; c < n; ++c) out[c * width + i] = row ? row[c] : 0.0f;
      }
    }
  }
}

// pack_panel, plainly.
inline void pack_panel_reference(const float* rows, std::size_t stride, std::size_t n,
                                 std::size_t keys, std::size_t padded, float* panel,
                                 std::size_t width) {
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t j = 0; j < padded; ++j)
      panel[c * width + j] = j < keys ? rows[j * stride + c] : 0.0f;
}

// The plain reference of one block's product, for the tests: out[r][c] (row stride
// `out_row`) += sum over i < steps of a[r * a_row + i * a_step] * b[i * b_step + c].
inline void multiply_add_steps_reference(const float* a, std::ptrdiff_t a_row, std::size_t a_step,
                                         const float* b, std::size_t b_step, std::size_t steps,
                                         std::size_t rows, std::size_t columns, float* out,
                                         std::size_t out_row) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < columns; ++c)
      for (std::size_t i = 0; i < steps; ++i)
        out[r * out_row + c] +=
            a[std::ptrdiff_t(r) * a_row + std::ptrdiff_t(i * a_step)] * b[i * b_step + c];
}

}  // namespace attention::kernels
