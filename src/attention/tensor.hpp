// The core's vocabulary, named once (as in the article and in ONNX):
//   n       number of tokens (rows of the inputs X)
//   d_in    size of one input embedding
//   d_k     size of a query and of a key (they are dotted together, so they must match)
//   d_v     size of a value, and so of an output (may differ from d_k)
// Matrices are row-major xtensor containers of float.
#pragma once

#include <cstddef>
#include <cstdint>
#include <xtensor/xtensor.hpp>

namespace attention {

using Matrix = xt::xtensor<float, 2>;       // rows x cols
using Tensor3 = xt::xtensor<float, 3>;      // e.g. weighted values, n x n x d_v
using Vector = xt::xtensor<float, 1>;       // one number per row, e.g. each row's maximum
using Mask = xt::xtensor<std::uint8_t, 2>;  // n x n, 1 where key j is hidden from query i

}  // namespace attention
