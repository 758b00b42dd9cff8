// The model's one matrix product, c (+)= a . b, row-major, used by every projection of the tiny
// transformer, forward and backward, and by its attention. A register-blocked xsimd kernel
// with a scalar tail, and a plain scalar reference beside it that the tests hold it to.
//
// Summation order: every element of c sums over the inner index p = 0, 1, ... in order, one
// multiply-add at a time, whatever the number of rows. So the same row gives the same bits
// whether it is multiplied alone (decoding one token) or among many (a training batch).
#pragma once

#include <cstddef>
#include <xsimd/xsimd.hpp>

namespace attention::model {

// Columns of b that the kernel packs into one panel for products of many rows (matmul.cpp): 4
// vectors. A product split among threads by columns, in multiples of this, packs each panel
// once, where a split by rows has every chunk pack all of b.
inline constexpr std::size_t panel_columns = 4 * xsimd::batch<float>::size;

// Row strides, in floats, of a, b and c when they are views into wider rows (one head's
// columns of a [N, heads * d] tensor, say); 0 means dense (a's row length, cols, cols).
struct Strides {
  std::size_t a = 0, b = 0, c = 0;
};

// c (rows x cols) = a (rows x inner) . b (inner x cols), or c += a . b when `accumulate`.
void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols, bool accumulate, Strides strides = {});
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols, bool accumulate, Strides strides = {});

// c (rows x cols) = a^T . b, or c += a^T . b: a is stored (inner x rows), b (inner x cols).
// The backward's weight gradients (x^T . dout) without transposing x.
void matmul_transposed_a(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols, bool accumulate,
                         Strides strides = {});
void matmul_transposed_a_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols, bool accumulate,
                                   Strides strides = {});

// out (cols x rows) = in (rows x cols) transposed; in's rows are `in_stride` floats apart
// (0: cols).
void transpose(const float* in, float* out, std::size_t rows, std::size_t cols,
               std::size_t in_stride = 0);

}  // namespace attention::model
