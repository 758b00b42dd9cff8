#include "stages.hpp"

#include <cmath>
#include <limits>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "kernels/matmul.hpp"

namespace attention {

Matrix project(const Matrix& inputs, const Matrix& weights) {
  // inputs: n x d_in, weights: d_in x d_out, result: n x d_out
  const std::size_t n = inputs.shape(0), d_in = inputs.shape(1), d_out = weights.shape(1);
  Matrix result({n, d_out});
  kernels::matmul(inputs.data(), weights.data(), result.data(), n, d_in, d_out);
  return result;
}

Matrix attention_scores(const Matrix& queries, const Matrix& keys, float scale) {
  // queries: n x d_k, keys: n x d_k, result: n x n
  const std::size_t n_queries = queries.shape(0), n_keys = keys.shape(0);
  const std::size_t d_k = queries.shape(1);
  Matrix scores({n_queries, n_keys});
  kernels::matmul_transposed_b(queries.data(), keys.data(), scores.data(), n_queries, d_k, n_keys);
  if (scale != 1.0f) scores *= scale;
  return scores;
}

void apply_causal_mask(Matrix& scores) {
  // scores: n x n; key j is hidden from query i when j > i (it comes later in the sequence)
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < scores.shape(0); ++i)
    for (std::size_t j = i + 1; j < scores.shape(1); ++j) scores(i, j) = minus_infinity;
}

Matrix softmax_rows(const Matrix& scores) {
  // scores: n x n, result: n x n
  // Subtracting each row's maximum keeps exp() from overflowing and changes nothing else.
  // A fully masked row has maximum -inf: shifting it by 0 instead makes its exps all 0, and
  // its weights 0. NaN and +inf still propagate as IEEE arithmetic does.
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  auto row_max = xt::eval(xt::amax(scores, {1}, xt::keep_dims));
  auto shift = xt::eval(xt::where(xt::equal(row_max, minus_infinity), 0.0f, row_max));
  Matrix exps = xt::exp(scores - shift);
  auto row_sum = xt::eval(xt::sum(exps, {1}, xt::keep_dims));
  return xt::where(xt::equal(row_sum, 0.0f), 0.0f, exps / row_sum);
}

Tensor3 weight_values(const Matrix& weights, const Matrix& values) {
  // weights: n x n, values: n x d_v, result: n x n x d_v (a broadcast product)
  return xt::view(weights, xt::all(), xt::all(), xt::newaxis()) *
         xt::view(values, xt::newaxis(), xt::all(), xt::all());
}

Matrix sum_weighted_values(const Tensor3& weighted) {
  // weighted: n x n x d_v, result: n x d_v
  return xt::sum(weighted, {1});
}

}  // namespace attention
