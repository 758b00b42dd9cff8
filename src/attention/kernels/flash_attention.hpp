// The fused attention kernel (flash-attention style) and its plain scalar reference.
// Both compute attention() of ../attention.hpp with the same semantics; tests hold them to
// each other on odd sizes that exercise every SIMD tail.
#pragma once

#include "../attention.hpp"

namespace attention::kernels {

// Tiled over blocks of query rows x blocks of keys with an online softmax, so memory is
// O(rows_per_block * head_size) however long the sequences. Returns false (writing nothing)
// when that scratch cannot be allocated.
bool flash_attention(const float* q, const float* k, const float* v, const AttentionMask& mask,
                     const AttentionShape& shape, const AttentionOptions& options, float* y);

// Straightforward: materialises one row of scores at a time, two-pass softmax, float math.
// Returns false when its row buffer cannot be allocated.
bool attention_reference(const float* q, const float* k, const float* v, const AttentionMask& mask,
                         const AttentionShape& shape, const AttentionOptions& options, float* y);

}  // namespace attention::kernels
