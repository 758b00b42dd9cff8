// The article's stages of self-attention, one function each, in the article's order:
//   project (keys, queries, values) -> attention_scores -> the score step (the mask, a bias:
//   kernels/score_step.hpp, as attention()'s kernels run it)
//   -> softmax: row_maxima, shifted_exponentials, row_sums, normalise_rows (the weights)
//   -> weight_values -> sum_weighted_values (the outputs).
// Several heads run those same stages on their own column_block() of the projection weights;
// concatenate_columns() then lays their outputs side by side, and project() applies W_O.
// Dimensions as in tensor.hpp: n tokens, d_in, d_k, d_v, heads, kv_heads.
//
// Each stage's `_backward` twin sits beside it: given the gradient of a loss with respect to
// the stage's result (d_result, the result's shape), it returns the gradient with respect to
// the stage's inputs (the chain rule, one stage at a time). A `d_` name is such a gradient.
#pragma once

#include <vector>

#include "tensor.hpp"

namespace attention {

// inputs (n x d_in) . weights (d_in x d_out) -> (n x d_out): keys, queries or values.
Matrix project(const Matrix& inputs, const Matrix& weights);

// The gradients of a projection's two operands.
struct ProjectGrad {
  Matrix inputs;   // n x d_in
  Matrix weights;  // d_in x d_out
};

// inputs (n x d_in), weights (d_in x d_out), d_result (n x d_out) ->
// d_inputs = d_result . weights^T (n x d_in), d_weights = inputs^T . d_result (d_in x d_out).
ProjectGrad project_backward(const Matrix& inputs, const Matrix& weights, const Matrix& d_result);

// queries (n x d_k) . keys^T (d_k x n) * scale -> scores (n x n).
// scores[i][j] says how much query i matches key j.
Matrix attention_scores(const Matrix& queries, const Matrix& keys, float scale);

// The gradients of the scores' two operands.
struct ScoresGrad {
  Matrix queries;  // n x d_k
  Matrix keys;     // n x d_k
};

// queries (n x d_k), keys (n x d_k), d_scores (n x n) ->
// d_queries = d_scores . keys * scale, d_keys = d_scores^T . queries * scale (each n x d_k).
// Key j's gradient gathers every query that looked at it.
ScoresGrad attention_scores_backward(const Matrix& queries, const Matrix& keys, float scale,
                                     const Matrix& d_scores);

// (The mask itself is the score step's, kernels/score_step.hpp: trace() runs it on each row.)
// d_scores (n x n), in place: 0 wherever mask (n x n) is 1. A hidden score is the constant
// -infinity, whatever the queries and keys: no gradient passes through it, even a NaN one.
void apply_mask_backward(Matrix& d_scores, const Mask& mask);

// scores (n x n) -> (n): each row's largest score, -infinity for a fully masked row.
Vector row_maxima(const Matrix& scores);
// (No backward twin: the maximum only shifts a row, which changes no weight, so the
// gradients through it cancel; shifted_exponentials_backward holds it constant.)

// scores (n x n), maxima (n) -> (n x n): e^(s_ij - max_i). Subtracting the row's maximum keeps
// exp() from overflowing and changes no weight. A fully masked row (max -infinity) is shifted
// by 0 instead, so its exponentials are all 0.
Matrix shifted_exponentials(const Matrix& scores, const Vector& maxima);

// exponentials (n x n), d_exponentials (n x n) -> d_scores (n x n) = exponentials (.)
// d_exponentials: e^x is its own derivative. The maxima are held constant (see row_maxima).
Matrix shifted_exponentials_backward(const Matrix& exponentials, const Matrix& d_exponentials);

// exponentials (n x n) -> (n): the sum of each row, the softmax's denominator.
Vector row_sums(const Matrix& exponentials);

// d_sums (n), n_cols -> d_exponentials (n x n_cols): every exponential of row i adds into its
// sum once, so each gets d_sums[i].
Matrix row_sums_backward(const Vector& d_sums, std::size_t n_cols);

// exponentials (n x n), sums (n) -> weights (n x n): each row divided by its sum; a row that
// sums to 0 (fully masked) gives zeros, not NaN.
Matrix normalise_rows(const Matrix& exponentials, const Vector& sums);

// The gradients of normalise_rows()'s two operands.
struct NormaliseGrad {
  Matrix exponentials;  // n x n
  Vector sums;          // n
};

// exponentials (n x n), sums (n), d_weights (n x n) -> d_exponentials = d_weights / sums
// (n x n) and d_sums[i] = -(sum over j of d_weights[i][j] * exponentials[i][j]) / sums[i]^2
// (n); both 0 for a row that sums to 0, as its weights are.
NormaliseGrad normalise_rows_backward(const Matrix& exponentials, const Vector& sums,
                                      const Matrix& d_weights);

// scores (n x n) -> weights (n x n): the four softmax stages above, composed. A row is
// positive and sums to 1; NaN and +infinity propagate as IEEE arithmetic does.
Matrix softmax_rows(const Matrix& scores);

// weights (n x n), d_weights (n x n) -> d_scores (n x n), row by row (the three twins above,
// composed, and simplified):
// d_scores[i][j] = weights[i][j] * (d_weights[i][j] - sum over k of weights[i][k] *
// d_weights[i][k]). Written with the softmax's result alone: the four stages above compose to a
// function whose Jacobian is diag(a) - a a^T per row a. The row maximum is a shift that changes no
// weight, so it passes no gradient. A hidden score's weight is 0, so its gradient is 0 (or NaN when
// d_weights holds one: apply_mask_backward then clears it).
Matrix softmax_rows_backward(const Matrix& weights, const Matrix& d_weights);

// weights (n x n), values (n x d_v) -> weighted (n x n x d_v):
// weighted[i][j] = weights[i][j] * values[j], value row j scaled by how much query i uses it.
Tensor3 weight_values(const Matrix& weights, const Matrix& values);

// The gradients of weight_values()'s two operands.
struct WeightValuesGrad {
  Matrix weights;  // n x n
  Matrix values;   // n x d_v
};

// weights (n x n), values (n x d_v), d_weighted (n x n x d_v) ->
// d_weights[i][j] = d_weighted[i][j] . values[j] (n x n), and
// d_values[j] = sum over i of weights[i][j] * d_weighted[i][j] (n x d_v): value j's gradient
// gathers every query that used it, as much as it used it.
WeightValuesGrad weight_values_backward(const Matrix& weights, const Matrix& values,
                                        const Tensor3& d_weighted);

// weighted (n x n x d_v) -> outputs (n x d_v): outputs[i] = sum over j of weighted[i][j].
Matrix sum_weighted_values(const Tensor3& weighted);

// d_outputs (n x d_v) -> d_weighted (n x n_keys x d_v): d_weighted[i][j] = d_outputs[i] for
// every key j, since each weighted row adds into its output with a factor of 1.
Tensor3 sum_weighted_values_backward(const Matrix& d_outputs, std::size_t n_keys);

// weights (rows x cols) -> (rows x cols / blocks): columns [block * w, (block + 1) * w), with
// w = cols / blocks (blocks divides cols). Head h's share of a projection: its own d_k_head
// columns of W_Q, or its kv head's columns of W_K and W_V.
Matrix column_block(const Matrix& weights, std::size_t block, std::size_t blocks);

// d_block (rows x w), d_weights (rows x cols, w = cols / blocks), in place: adds d_block into
// columns [block * w, (block + 1) * w) of d_weights. Adds, not sets: with grouped heads the
// projection of one kv head's block feeds several query heads, and their gradients sum.
void column_block_backward(const Matrix& d_block, std::size_t block, std::size_t blocks,
                           Matrix& d_weights);

// blocks (each rows x w_b, the same rows) -> (rows x sum of w_b): the blocks side by side, in
// order. The heads' outputs (n x d_v_head each) -> concat (n x heads * d_v_head).
Matrix concatenate_columns(const std::vector<Matrix>& blocks);

// d_result (rows x sum of widths), widths (each block's columns) -> the blocks' gradients
// (rows x widths[b] each): d_result cut back into the blocks, in order.
std::vector<Matrix> concatenate_columns_backward(const Matrix& d_result,
                                                 const std::vector<std::size_t>& widths);

}  // namespace attention
