// Dense matrix products for the staged (teaching) path: small matrices, row-major floats.
// Each tuned kernel sits beside a plain scalar reference; tests run both on odd sizes.
#pragma once

#include <cstddef>

namespace attention::kernels {

// c (rows x cols) = a (rows x inner) . b (inner x cols)
void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols);
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols);

// c (rows x cols) = a (rows x inner) . b^T, where b is (cols x inner)
void matmul_transposed_b(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols);
void matmul_transposed_b_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols);

}  // namespace attention::kernels
