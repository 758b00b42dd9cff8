// The fused attention kernel (flash-attention style) and its plain scalar reference.
// Both compute the output y of ../attention.hpp with the same semantics, from arguments that
// attention_error() accepted; tests hold them to each other on odd sizes that exercise every
// SIMD tail and every positional rule.
#pragma once

#include "../attention.hpp"

namespace attention::kernels {

// Tiled over blocks of query rows x blocks of keys with an online softmax, so memory is
// O(rows_per_block * head_size) however long the sequences. Key blocks that no row of a row
// block can see are neither packed nor computed. With args.team, the team's threads share
// the row blocks of every head group (the same results, bit for bit). Returns false (writing
// nothing) when the scratch cannot be allocated.
bool flash_attention(const AttentionArgs& args);

// Bytes flash_attention allocates for this shape on `threads` threads (a team's size).
std::size_t flash_attention_working_bytes(const AttentionShape& shape, std::size_t threads = 1);

// Straightforward: one row of scores at a time (score_row), two-pass softmax, float math.
// Returns false when its row buffer cannot be allocated.
bool attention_reference(const AttentionArgs& args);

}  // namespace attention::kernels
