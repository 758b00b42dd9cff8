// The decode path of the fused kernel: a few query rows per kv head (S = 1 while generating,
// or a few rows of a short draft), each against a long cache of keys. There the work is
// reading K and V, not multiplying: this path reads every key and value row once, where it
// lies (no packing of blocks, no padding of query rows), for the whole group of query heads
// that shares its kv head, with an online softmax. attention() picks it when
// decode_applies(); the plain scalar reference (attention_reference in flash_attention.hpp)
// computes the same y, and the tests hold the two to each other.
#pragma once

#include "../attention.hpp"

namespace attention::kernels {

// Query rows of one head group (q_num_heads / kv_num_heads * q_seq_len) up to which the
// decode path runs; beyond, the tiled kernel's reuse of each packed block pays off.
constexpr std::size_t decode_max_rows = 16;

// Bytes of keys and values (all heads, all batches) above which a call reads each chunk's
// lines once in address order before using them: the stand-in for the prefetch WebAssembly
// lacks. With several query rows per kv head, or where each cached row holds its key and then
// its value (the resident cache), it pays from 4 MiB; with one row (no grouped heads, S = 1)
// over separate keys and values only once the cache is well past the core's own caches
// (decode_attention.cpp says what was measured).
constexpr std::size_t decode_touch_min_bytes = std::size_t{4} << 20;
constexpr std::size_t decode_touch_single_row_min_bytes = std::size_t{32} << 20;

// True when the decode path computes these arguments: at most decode_max_rows rows per head
// group and no attention mask. Masks go to the tiled kernel (flash_attention), which applies
// them element by element; the decode path honours everything else (causal, windows, past
// length, nonpad lengths, the score step's options, 3-D and 4-D strides).
bool decode_applies(const AttentionArgs& args);

// Computes y for arguments that attention_error() accepted and decode_applies() allows.
// Returns false (writing nothing) when its scratch cannot be allocated.
bool decode_attention(const AttentionArgs& args);

// Bytes decode_attention allocates for this shape.
std::size_t decode_working_bytes(const AttentionShape& shape);

}  // namespace attention::kernels
