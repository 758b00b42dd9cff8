// The article's stages of self-attention, one function each, in the article's order:
//   project (keys, queries, values) -> attention_scores -> apply_causal_mask (optional)
//   -> softmax_rows (the weights) -> weight_values -> sum_weighted_values (the outputs).
// Dimensions as in tensor.hpp: n tokens, d_in, d_k, d_v.
#pragma once

#include "tensor.hpp"

namespace attention {

// inputs (n x d_in) . weights (d_in x d_out) -> (n x d_out): keys, queries or values.
Matrix project(const Matrix& inputs, const Matrix& weights);

// queries (n x d_k) . keys^T (d_k x n) * scale -> scores (n x n).
// scores[i][j] says how much query i matches key j.
Matrix attention_scores(const Matrix& queries, const Matrix& keys, float scale);

// scores (n x n), in place: -infinity wherever key j comes after query i (j > i).
void apply_causal_mask(Matrix& scores);

// scores (n x n) -> weights (n x n): each row through a numerically stable softmax, so a row
// is positive and sums to 1. A row whose every score is -infinity gives zeros, not NaN.
Matrix softmax_rows(const Matrix& scores);

// weights (n x n), values (n x d_v) -> weighted (n x n x d_v):
// weighted[i][j] = weights[i][j] * values[j], value row j scaled by how much query i uses it.
Tensor3 weight_values(const Matrix& weights, const Matrix& values);

// weighted (n x n x d_v) -> outputs (n x d_v): outputs[i] = sum over j of weighted[i][j].
Matrix sum_weighted_values(const Tensor3& weighted);

}  // namespace attention
