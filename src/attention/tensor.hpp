// The core's vocabulary, named once (as in the article and in ONNX):
//   n       number of tokens (rows of the inputs X)
//   d_in    size of one input embedding
//   d_k     size of a query and of a key (they are dotted together, so they must match)
//   d_v     size of a value, and so of an output (may differ from d_k)
// and, when a layer splits its projections into heads (trace.hpp's multi-head trace):
//   heads       query heads; each has d_k_head = d_k / heads columns of W_Q
//   kv_heads    key/value heads (divides heads); each has d_k_head columns of W_K and
//               d_v_head columns of W_V; query head h reads kv head h / (heads / kv_heads)
//   d_out       columns of the output projection W_O, (heads * d_v_head) x d_out
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
