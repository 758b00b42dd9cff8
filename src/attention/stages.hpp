// The article's stages of self-attention, one function each, in the article's order:
//   project (keys, queries, values) -> attention_scores -> causal_mask / apply_mask (optional)
//   -> softmax: row_maxima, shifted_exponentials, row_sums, normalise_rows (the weights)
//   -> weight_values -> sum_weighted_values (the outputs).
// Several heads run those same stages on their own column_block() of the projection weights;
// concatenate_columns() then lays their outputs side by side, and project() applies W_O.
// Dimensions as in tensor.hpp: n tokens, d_in, d_k, d_v, heads, kv_heads.
#pragma once

#include <vector>

#include "tensor.hpp"

namespace attention {

// inputs (n x d_in) . weights (d_in x d_out) -> (n x d_out): keys, queries or values.
Matrix project(const Matrix& inputs, const Matrix& weights);

// queries (n x d_k) . keys^T (d_k x n) * scale -> scores (n x n).
// scores[i][j] says how much query i matches key j.
Matrix attention_scores(const Matrix& queries, const Matrix& keys, float scale);

// -> mask (n x n): 1 where key j comes after query i (j > i), hidden from it; else 0.
Mask causal_mask(std::size_t n);

// scores (n x n), in place: -infinity wherever mask (n x n) is 1.
void apply_mask(Matrix& scores, const Mask& mask);

// scores (n x n), in place: -infinity wherever key j comes after query i (j > i).
void apply_causal_mask(Matrix& scores);

// scores (n x n) -> (n): each row's largest score, -infinity for a fully masked row.
Vector row_maxima(const Matrix& scores);

// scores (n x n), maxima (n) -> (n x n): e^(s_ij - max_i). Subtracting the row's maximum keeps
// exp() from overflowing and changes no weight. A fully masked row (max -infinity) is shifted
// by 0 instead, so its exponentials are all 0.
Matrix shifted_exponentials(const Matrix& scores, const Vector& maxima);

// exponentials (n x n) -> (n): the sum of each row, the softmax's denominator.
Vector row_sums(const Matrix& exponentials);

// exponentials (n x n), sums (n) -> weights (n x n): each row divided by its sum; a row that
// sums to 0 (fully masked) gives zeros, not NaN.
Matrix normalise_rows(const Matrix& exponentials, const Vector& sums);

// scores (n x n) -> weights (n x n): the four softmax stages above, composed. A row is
// positive and sums to 1; NaN and +infinity propagate as IEEE arithmetic does.
Matrix softmax_rows(const Matrix& scores);

// weights (n x n), values (n x d_v) -> weighted (n x n x d_v):
// weighted[i][j] = weights[i][j] * values[j], value row j scaled by how much query i uses it.
Tensor3 weight_values(const Matrix& weights, const Matrix& values);

// weighted (n x n x d_v) -> outputs (n x d_v): outputs[i] = sum over j of weighted[i][j].
Matrix sum_weighted_values(const Tensor3& weighted);

// weights (rows x cols) -> (rows x cols / blocks): columns [block * w, (block + 1) * w), with
// w = cols / blocks (blocks divides cols). Head h's share of a projection: its own d_k_head
// columns of W_Q, or its kv head's columns of W_K and W_V.
Matrix column_block(const Matrix& weights, std::size_t block, std::size_t blocks);

// blocks (each rows x w_b, the same rows) -> (rows x sum of w_b): the blocks side by side, in
// order. The heads' outputs (n x d_v_head each) -> concat (n x heads * d_v_head).
Matrix concatenate_columns(const std::vector<Matrix>& blocks);

}  // namespace attention
