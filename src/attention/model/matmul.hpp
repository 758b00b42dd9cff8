// The model's one matrix product, c (+)= a . b, row-major, used by every projection of the tiny
// transformer, forward and backward (a transpose turns the backward's a^T . b and a . b^T into
// this same form). A register-blocked xsimd kernel with a scalar tail, and a plain scalar
// reference beside it that the tests hold it to.
//
// Summation order: every element of c sums over the inner index p = 0, 1, ... in order, one
// multiply-add at a time, whatever the number of rows. So the same row gives the same bits
// whether it is multiplied alone (decoding one token) or among many (a training batch).
#pragma once

#include <cstddef>

namespace attention::model {

// c (rows x cols) = a (rows x inner) . b (inner x cols), or c += a . b when `accumulate`.
void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols, bool accumulate);
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols, bool accumulate);

// c (rows x cols) = a^T . b, or c += a^T . b: a is stored (inner x rows), b (inner x cols).
// The backward's weight gradients (x^T . dout) without transposing x.
void matmul_transposed_a(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols, bool accumulate);
void matmul_transposed_a_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols, bool accumulate);

// out (cols x rows) = in (rows x cols) transposed.
void transpose(const float* in, float* out, std::size_t rows, std::size_t cols);

}  // namespace attention::model
