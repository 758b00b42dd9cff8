#include "model/matmul.hpp"

#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"

namespace attention::model {

namespace {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;

// Element (i, p) of the left operand: a[i][p] of a (rows x inner), or a[p][i] when a is
// stored transposed (inner x rows).
template <bool Transposed>
float left(const float* a, std::size_t i, std::size_t p, std::size_t rows, std::size_t inner) {
  return Transposed ? a[p * rows + i] : a[i * inner + p];
}

// Rows r .. r + R - 1 of c, columns j .. j + V * lanes - 1: R x V accumulators (8 at most,
// which stay in registers on wasm; more would spill), each column vector of b loaded once per
// p and multiplied by a splat of each row's a[r][p].
template <bool Transposed, std::size_t R, std::size_t V>
void block(const float* a, const float* b, float* c, std::size_t r, std::size_t j, std::size_t rows,
           std::size_t inner, std::size_t cols, bool accumulate) {
  batch acc[R][V];
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v] =
          accumulate ? batch::load_unaligned(c + (r + i) * cols + j + v * lanes) : batch(0.0f);
#if defined(__clang__)
#pragma clang loop unroll_count(1)
#endif
  for (std::size_t p = 0; p < inner; ++p) {
    batch bv[V];
    for (std::size_t v = 0; v < V; ++v) bv[v] = batch::load_unaligned(b + p * cols + j + v * lanes);
    for (std::size_t i = 0; i < R; ++i) {
      const batch ai(left<Transposed>(a, r + i, p, rows, inner));
      for (std::size_t v = 0; v < V; ++v) acc[i][v] = kernels::multiply_add(ai, bv[v], acc[i][v]);
    }
  }
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v].store_unaligned(c + (r + i) * cols + j + v * lanes);
}

// Rows r .. r + R - 1 of c, every column: blocks of 2 vectors, then 1, then a scalar tail.
template <bool Transposed, std::size_t R>
void rows_of(const float* a, const float* b, float* c, std::size_t r, std::size_t rows,
             std::size_t inner, std::size_t cols, bool accumulate) {
  std::size_t j = 0;
  for (; j + 2 * lanes <= cols; j += 2 * lanes)
    block<Transposed, R, 2>(a, b, c, r, j, rows, inner, cols, accumulate);
  for (; j + lanes <= cols; j += lanes)
    block<Transposed, R, 1>(a, b, c, r, j, rows, inner, cols, accumulate);
  for (; j < cols; ++j)
    for (std::size_t i = r; i < r + R; ++i) {
      float sum = accumulate ? c[i * cols + j] : 0.0f;
      for (std::size_t p = 0; p < inner; ++p)
        sum += left<Transposed>(a, i, p, rows, inner) * b[p * cols + j];
      c[i * cols + j] = sum;
    }
}

template <bool Transposed>
void product(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
             std::size_t cols, bool accumulate) {
  std::size_t r = 0;
  for (; r + 4 <= rows; r += 4) rows_of<Transposed, 4>(a, b, c, r, rows, inner, cols, accumulate);
  for (; r < rows; ++r) rows_of<Transposed, 1>(a, b, c, r, rows, inner, cols, accumulate);
}

// The plain loops the tuned kernels are tested against.
template <bool Transposed>
void product_reference(const float* a, const float* b, float* c, std::size_t rows,
                       std::size_t inner, std::size_t cols, bool accumulate) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      float sum = accumulate ? c[i * cols + j] : 0.0f;
      for (std::size_t p = 0; p < inner; ++p)
        sum += left<Transposed>(a, i, p, rows, inner) * b[p * cols + j];
      c[i * cols + j] = sum;
    }
}

}  // namespace

void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols, bool accumulate) {
  product<false>(a, b, c, rows, inner, cols, accumulate);
}
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols, bool accumulate) {
  product_reference<false>(a, b, c, rows, inner, cols, accumulate);
}
void matmul_transposed_a(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols, bool accumulate) {
  product<true>(a, b, c, rows, inner, cols, accumulate);
}
void matmul_transposed_a_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols, bool accumulate) {
  product_reference<true>(a, b, c, rows, inner, cols, accumulate);
}

void transpose(const float* in, float* out, std::size_t rows, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * cols + j];
}

}  // namespace attention::model
