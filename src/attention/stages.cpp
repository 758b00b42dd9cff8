#include "stages.hpp"

#include <cmath>
#include <limits>
#include <utility>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmanipulation.hpp>
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

ProjectGrad project_backward(const Matrix& inputs, const Matrix& weights, const Matrix& d_result) {
  // inputs: n x d_in, weights: d_in x d_out, d_result: n x d_out
  // result: inputs n x d_in, weights d_in x d_out
  const std::size_t n = inputs.shape(0), d_in = inputs.shape(1), d_out = weights.shape(1);
  ProjectGrad grad{Matrix({n, d_in}), Matrix({d_in, d_out})};
  kernels::matmul_transposed_b(d_result.data(), weights.data(), grad.inputs.data(), n, d_out, d_in);
  const Matrix inputs_t = xt::transpose(inputs);  // d_in x n
  kernels::matmul(inputs_t.data(), d_result.data(), grad.weights.data(), d_in, n, d_out);
  return grad;
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

ScoresGrad attention_scores_backward(const Matrix& queries, const Matrix& keys, float scale,
                                     const Matrix& d_scores) {
  // queries: n x d_k, keys: n x d_k, d_scores: n x n; result: queries n x d_k, keys n x d_k
  const std::size_t n_queries = queries.shape(0), n_keys = keys.shape(0);
  const std::size_t d_k = queries.shape(1);
  ScoresGrad grad{Matrix({n_queries, d_k}), Matrix({n_keys, d_k})};
  kernels::matmul(d_scores.data(), keys.data(), grad.queries.data(), n_queries, n_keys, d_k);
  const Matrix d_scores_t = xt::transpose(d_scores);  // n_keys x n_queries
  kernels::matmul(d_scores_t.data(), queries.data(), grad.keys.data(), n_keys, n_queries, d_k);
  if (scale != 1.0f) {
    grad.queries *= scale;
    grad.keys *= scale;
  }
  return grad;
}

void apply_mask_backward(Matrix& d_scores, const Mask& mask) {
  // d_scores: n x n, mask: n x n
  d_scores = xt::where(xt::equal(mask, std::uint8_t{1}), 0.0f, d_scores);
}

Vector row_maxima(const Matrix& scores) {
  // scores: n x n, result: n
  return xt::amax(scores, {1});
}

Matrix shifted_exponentials(const Matrix& scores, const Vector& maxima) {
  // scores: n x n, maxima: n, result: n x n
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  auto shift = xt::eval(xt::where(xt::equal(maxima, minus_infinity), 0.0f, maxima));
  return xt::exp(scores - xt::view(shift, xt::all(), xt::newaxis()));
}

Matrix shifted_exponentials_backward(const Matrix& exponentials, const Matrix& d_exponentials) {
  // exponentials: n x n, d_exponentials: n x n, result: n x n
  return exponentials * d_exponentials;
}

Vector row_sums(const Matrix& exponentials) {
  // exponentials: n x n, result: n
  return xt::sum(exponentials, {1});
}

Matrix row_sums_backward(const Vector& d_sums, std::size_t n_cols) {
  // d_sums: n, result: n x n_cols
  return xt::broadcast(xt::view(d_sums, xt::all(), xt::newaxis()), {d_sums.size(), n_cols});
}

Matrix normalise_rows(const Matrix& exponentials, const Vector& sums) {
  // exponentials: n x n, sums: n, result: n x n
  auto column = xt::view(sums, xt::all(), xt::newaxis());
  return xt::where(xt::equal(column, 0.0f), 0.0f, exponentials / column);
}

NormaliseGrad normalise_rows_backward(const Matrix& exponentials, const Vector& sums,
                                      const Matrix& d_weights) {
  // exponentials: n x n, sums: n, d_weights: n x n; result: exponentials n x n, sums n
  auto column = xt::view(sums, xt::all(), xt::newaxis());
  const Vector pull = xt::sum(d_weights * exponentials, {1});  // how the row's numerators pull
  return {xt::where(xt::equal(column, 0.0f), 0.0f, d_weights / column),
          xt::where(xt::equal(sums, 0.0f), 0.0f, -pull / (sums * sums))};
}

Matrix softmax_rows(const Matrix& scores) {
  // scores: n x n, result: n x n
  const Matrix exponentials = shifted_exponentials(scores, row_maxima(scores));
  return normalise_rows(exponentials, row_sums(exponentials));
}

Matrix softmax_rows_backward(const Matrix& weights, const Matrix& d_weights) {
  // weights: n x n, d_weights: n x n, result: n x n
  // Each row's a . g: how much the weights' gradient agrees with the weights themselves.
  const Vector agreement = xt::sum(weights * d_weights, {1});
  return weights * (d_weights - xt::view(agreement, xt::all(), xt::newaxis()));
}

Tensor3 weight_values(const Matrix& weights, const Matrix& values) {
  // weights: n x n, values: n x d_v, result: n x n x d_v (a broadcast product)
  return xt::view(weights, xt::all(), xt::all(), xt::newaxis()) *
         xt::view(values, xt::newaxis(), xt::all(), xt::all());
}

WeightValuesGrad weight_values_backward(const Matrix& weights, const Matrix& values,
                                        const Tensor3& d_weighted) {
  // weights: n x n, values: n x d_v, d_weighted: n x n x d_v
  // result: weights n x n, values n x d_v
  auto values_3d = xt::view(values, xt::newaxis(), xt::all(), xt::all());    // 1 x n x d_v
  auto weights_3d = xt::view(weights, xt::all(), xt::all(), xt::newaxis());  // n x n x 1
  return {xt::sum(d_weighted * values_3d, {2}), xt::sum(d_weighted * weights_3d, {0})};
}

Matrix sum_weighted_values(const Tensor3& weighted) {
  // weighted: n x n x d_v, result: n x d_v
  return xt::sum(weighted, {1});
}

Tensor3 sum_weighted_values_backward(const Matrix& d_outputs, std::size_t n_keys) {
  // d_outputs: n x d_v, result: n x n_keys x d_v
  const std::size_t n = d_outputs.shape(0), d_v = d_outputs.shape(1);
  return xt::broadcast(xt::view(d_outputs, xt::all(), xt::newaxis(), xt::all()), {n, n_keys, d_v});
}

Matrix column_block(const Matrix& weights, std::size_t block, std::size_t blocks) {
  // weights: rows x cols, result: rows x width, width = cols / blocks
  const std::size_t rows = weights.shape(0), width = weights.shape(1) / blocks;
  Matrix result({rows, width});
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) result(r, c) = weights(r, block * width + c);
  return result;
}

void column_block_backward(const Matrix& d_block, std::size_t block, std::size_t blocks,
                           Matrix& d_weights) {
  // d_block: rows x width, d_weights: rows x cols, width = cols / blocks
  const std::size_t rows = d_weights.shape(0), width = d_weights.shape(1) / blocks;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) d_weights(r, block * width + c) += d_block(r, c);
}

Matrix concatenate_columns(const std::vector<Matrix>& blocks) {
  // blocks[b]: rows x w_b, result: rows x (w_0 + w_1 + ...)
  const std::size_t rows = blocks.empty() ? 0 : blocks.front().shape(0);
  std::size_t cols = 0;
  for (const Matrix& block : blocks) cols += block.shape(1);
  Matrix result({rows, cols});
  std::size_t first = 0;  // the result's column where the current block starts
  for (const Matrix& block : blocks) {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < block.shape(1); ++c) result(r, first + c) = block(r, c);
    first += block.shape(1);
  }
  return result;
}

std::vector<Matrix> concatenate_columns_backward(const Matrix& d_result,
                                                 const std::vector<std::size_t>& widths) {
  // d_result: rows x (w_0 + w_1 + ...), result[b]: rows x w_b
  const std::size_t rows = d_result.shape(0);
  std::vector<Matrix> blocks;
  std::size_t first = 0;  // d_result's column where the current block starts
  for (const std::size_t width : widths) {
    Matrix block({rows, width});
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < width; ++c) block(r, c) = d_result(r, first + c);
    blocks.push_back(std::move(block));
    first += width;
  }
  return blocks;
}

}  // namespace attention
