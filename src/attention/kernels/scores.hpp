// One row of the score matrix at a time, straightforwardly: the optional qk_matmul_output
// (it is S x T per head, so O(S * T) however it is computed) and the scalar reference kernel.
#pragma once

#include "../attention.hpp"

namespace attention::kernels {

// row [T] = query i of head h in batch b against every key, as `mode` says: raw scores,
// after each part of the score step (score_step.hpp), or the softmax (zeros if no key is
// visible).
void score_row(const AttentionArgs& args, std::size_t b, std::size_t h, std::size_t i,
               ScoresMode mode, float* row);

// args.scores [batch, q_num_heads, S, T] = every row of score_row in args.scores_mode.
void write_scores(const AttentionArgs& args);

}  // namespace attention::kernels
