#include "model/matmul.hpp"

#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"

namespace attention::model {

namespace {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;

// The operands with their row strides resolved: element (i, p) of the left operand is
// a[i * lda + p], or a[p * lda + i] when a is stored transposed (inner x rows).
template <bool Transposed>
struct Operands {
  const float* a;
  const float* b;
  float* c;
  std::size_t lda, ldb, ldc, inner;
  float left(std::size_t i, std::size_t p) const {
    return Transposed ? a[p * lda + i] : a[i * lda + p];
  }
};

template <bool Transposed>
Operands<Transposed> resolve(const float* a, const float* b, float* c, std::size_t rows,
                             std::size_t inner, std::size_t cols, Strides s) {
  const std::size_t dense_a = Transposed ? rows : inner;
  return {a, b, c, s.a ? s.a : dense_a, s.b ? s.b : cols, s.c ? s.c : cols, inner};
}

// Rows r .. r + R - 1 of c, columns j .. j + V * lanes - 1: R x V accumulators, each column
// vector of b loaded once per p and multiplied by a splat of each row's a[r][p]. 4 x 3 (12
// accumulators, 3 vectors of b, a splat: about all of V8's 15 vector registers on x86-64)
// made the larger benchmark model's training step 10% faster than 4 x 2 in Node (CPU time;
// bench/train-node.mjs); the small induction model's did not move. More accumulators than
// registers would spill.
template <bool Transposed, std::size_t R, std::size_t V>
void block(const Operands<Transposed>& o, std::size_t r, std::size_t j, bool accumulate) {
  batch acc[R][V];
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v] =
          accumulate ? batch::load_unaligned(o.c + (r + i) * o.ldc + j + v * lanes) : batch(0.0f);
#if defined(__clang__)
#pragma clang loop unroll_count(1)
#endif
  for (std::size_t p = 0; p < o.inner; ++p) {
    batch bv[V];
    for (std::size_t v = 0; v < V; ++v)
      bv[v] = batch::load_unaligned(o.b + p * o.ldb + j + v * lanes);
    for (std::size_t i = 0; i < R; ++i) {
      const batch ai(o.left(r + i, p));
      for (std::size_t v = 0; v < V; ++v) acc[i][v] = kernels::multiply_add(ai, bv[v], acc[i][v]);
    }
  }
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v].store_unaligned(o.c + (r + i) * o.ldc + j + v * lanes);
}

// Rows r .. r + R - 1 of c, every column: blocks of 3 vectors, then 2, then 1, then a scalar
// tail.
template <bool Transposed, std::size_t R>
void rows_of(const Operands<Transposed>& o, std::size_t r, std::size_t cols, bool accumulate) {
  std::size_t j = 0;
  for (; j + 3 * lanes <= cols; j += 3 * lanes) block<Transposed, R, 3>(o, r, j, accumulate);
  for (; j + 2 * lanes <= cols; j += 2 * lanes) block<Transposed, R, 2>(o, r, j, accumulate);
  for (; j + lanes <= cols; j += lanes) block<Transposed, R, 1>(o, r, j, accumulate);
  for (; j < cols; ++j)
    for (std::size_t i = r; i < r + R; ++i) {
      float sum = accumulate ? o.c[i * o.ldc + j] : 0.0f;
      for (std::size_t p = 0; p < o.inner; ++p) sum += o.left(i, p) * o.b[p * o.ldb + j];
      o.c[i * o.ldc + j] = sum;
    }
}

template <bool Transposed>
void product(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
             std::size_t cols, bool accumulate, Strides strides) {
  const Operands<Transposed> o = resolve<Transposed>(a, b, c, rows, inner, cols, strides);
  std::size_t r = 0;
  for (; r + 4 <= rows; r += 4) rows_of<Transposed, 4>(o, r, cols, accumulate);
  for (; r < rows; ++r) rows_of<Transposed, 1>(o, r, cols, accumulate);
}

// The plain loops the tuned kernels are tested against.
template <bool Transposed>
void product_reference(const float* a, const float* b, float* c, std::size_t rows,
                       std::size_t inner, std::size_t cols, bool accumulate, Strides strides) {
  const Operands<Transposed> o = resolve<Transposed>(a, b, c, rows, inner, cols, strides);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      float sum = accumulate ? o.c[i * o.ldc + j] : 0.0f;
      for (std::size_t p = 0; p < inner; ++p) sum += o.left(i, p) * o.b[p * o.ldb + j];
      o.c[i * o.ldc + j] = sum;
    }
}

}  // namespace

void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols, bool accumulate, Strides strides) {
  product<false>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols, bool accumulate, Strides strides) {
  product_reference<false>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_transposed_a(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols, bool accumulate, Strides strides) {
  product<true>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_transposed_a_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols, bool accumulate,
                                   Strides strides) {
  product_reference<true>(a, b, c, rows, inner, cols, accumulate, strides);
}

void transpose(const float* in, float* out, std::size_t rows, std::size_t cols,
               std::size_t in_stride) {
  const std::size_t stride = in_stride ? in_stride : cols;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * stride + j];
}

}  // namespace attention::model
