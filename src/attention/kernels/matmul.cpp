#include "kernels/matmul.hpp"

#include <xsimd/xsimd.hpp>

namespace attention::kernels {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;

void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols) {
  // Row i of c is a sum over p of a[i][p] * (row p of b): a splat times a vector of b.
  // Vector body over `lanes` columns at a time, then a scalar tail for the last cols % lanes.
  const std::size_t vector_cols = cols - cols % lanes;
  for (std::size_t i = 0; i < rows; ++i) {
    const float* a_row = a + i * inner;
    float* c_row = c + i * cols;
    for (std::size_t j = 0; j < vector_cols; j += lanes) {
      batch sum(0.0f);
      for (std::size_t p = 0; p < inner; ++p) {
        sum = xsimd::fma(batch(a_row[p]), batch::load_unaligned(b + p * cols + j), sum);
      }
      sum.store_unaligned(c_row + j);
    }
    for (std::size_t j = vector_cols; j < cols; ++j) {
      float sum = 0.0f;
      for (std::size_t p = 0; p < inner; ++p) sum += a_row[p] * b[p * cols + j];
      c_row[j] = sum;
    }
  }
}

void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (std::size_t p = 0; p < inner; ++p) sum += a[i * inner + p] * b[p * cols + j];
      c[i * cols + j] = sum;
    }
}

void matmul_transposed_b(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols) {
  // c[i][j] is the dot product of row i of a with row j of b: vector body over `lanes`
  // elements of the shared inner dimension, a horizontal add, then a scalar tail.
  const std::size_t vector_inner = inner - inner % lanes;
  for (std::size_t i = 0; i < rows; ++i) {
    const float* a_row = a + i * inner;
    for (std::size_t j = 0; j < cols; ++j) {
      const float* b_row = b + j * inner;
      batch partial(0.0f);
      for (std::size_t p = 0; p < vector_inner; p += lanes) {
        partial =
            xsimd::fma(batch::load_unaligned(a_row + p), batch::load_unaligned(b_row + p), partial);
      }
      float sum = xsimd::reduce_add(partial);
      for (std::size_t p = vector_inner; p < inner; ++p) sum += a_row[p] * b_row[p];
      c[i * cols + j] = sum;
    }
  }
}

void matmul_transposed_b_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (std::size_t p = 0; p < inner; ++p) sum += a[i * inner + p] * b[j * inner + p];
      c[i * cols + j] = sum;
    }
}

}  // namespace attention::kernels
