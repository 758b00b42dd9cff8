// The backward pass of attention(): the gradients of a loss L with respect to q, k and v,
// given grad_y = dL/dy, with every option of the forward (GQA/MQA, the options record, masks,
// past and nonpad lengths, 3-D or 4-D strides).
//
// Per query row i (its scores s_j over the keys, P = softmax(s), y_i = P . V):
//   D_i   = dO_i . y_i = sum_j P_ij dP_ij  (one number per row; the tuned kernel sums the latter)
//   dV_j += P_ij dO_i                    dP_ij = dO_i . v_j
//   dS_ij = P_ij (dP_ij - D_i)           (the softmax's Jacobian)
//   dS_ij *= ds_ij / draw_ij              (the score step's derivative, adjust_scores_backward)
//   dQ_i += scale dS_ij k_j              dK_j += scale dS_ij q_i
// Hidden keys have P = 0, so they pass no gradient: keys with P_ij = 0 are left out of D_i and
// get dS_ij = 0 whatever dP_ij is (a hidden key's value row may make it infinite, and 0 * inf
// would turn the whole row NaN). A row that sees no key (y = 0) gives none. A group's query
// heads all add into their shared kv head's dK and dV. The score step and its derivative are
// score_step.hpp's.
#pragma once

#include "../attention.hpp"

namespace attention::kernels {

// Everything one backward call reads and writes.
struct AttentionBackwardArgs {
  // q, k, v, the mask, the options, the positions and every stride, exactly as attention()
  // takes them. forward.y may be null; when given, the forward's output is written there too
  // (the backward computes it on the way). forward.scores must be null.
  AttentionArgs forward;
  const float* grad_y = nullptr;  // dL/dy, laid out as y (forward.y_strides)
  float* grad_q = nullptr;        // dL/dq, written with forward.q_strides
  float* grad_k = nullptr;        // dL/dk, written with forward.k_strides
  float* grad_v = nullptr;        // dL/dv, written with forward.v_strides
};

// Why these arguments are invalid, or nullptr: attention_error's rules, the gradients given,
// no scores requested. Neutral wording, as attention_error's.
const char* attention_backward_error(const AttentionBackwardArgs& args);

// One pass per head group (a kv head and its query heads), over tiles of query rows: each
// tile computes its scores and dP against every key it sees, the exact softmax of its whole
// rows, D_i as rowsum(P o dP) and dS; dQ = dS K is written once per tile, and dV += P^T dO,
// dK += dS^T Q add into the group's accumulators, written when the group ends. All five
// products run on the forward's register tile (register_block.hpp). Pairs of rows compute
// only the keys they see, and dK, dV take only the rows that see a key tile, so a causal mask
// or a window saves its hidden part. The forward runs (flash_attention) only when forward.y
// is given: the gradients need no y. Work is the 5 products' 10 * S * T * D per head (half
// of it causal); working memory is O((kv_seq_len + rows per tile) * (D + Dv)), never the
// S x T matrix. Overwrites the three gradients. Returns false (having written nothing) when
// its scratch cannot be allocated. Arguments must pass attention_backward_error.
bool flash_attention_backward(const AttentionBackwardArgs& args);

// Bytes flash_attention_backward allocates for this shape.
double flash_attention_backward_working_bytes(const AttentionShape& shape);

// Straightforward: whole rows of probabilities (score_row), float math, the formulas above
// one element at a time (D_i as sum_j P_ij dP_ij, the other form). Returns false when its row
// buffers cannot be allocated.
bool attention_backward_reference(const AttentionBackwardArgs& args);

// Validates, then runs flash_attention_backward.
Status attention_backward(const AttentionBackwardArgs& args);

}  // namespace attention::kernels
