// Multi-head attention with the semantics of the ONNX "Attention" operator (opset 23), 4-D
// layout, no past key/value. The fast path for apps: nothing but the output is materialised.
//
// Dimensions, as ONNX names them:
//   batch, q_num_heads, kv_num_heads (divides q_num_heads: grouped-query / multi-query),
//   q_seq_len, kv_seq_len, head_size (queries and keys), v_head_size (values and outputs).
// Tensors, row-major:
//   q [batch, q_num_heads, q_seq_len, head_size]
//   k [batch, kv_num_heads, kv_seq_len, head_size]
//   v [batch, kv_num_heads, kv_seq_len, v_head_size]
//   y [batch, q_num_heads, q_seq_len, v_head_size]
// Query head h reads kv head h / (q_num_heads / kv_num_heads), as ONNX's repeat-interleave.
//
// Per head: s = scale * q.k^T; s = softcap * tanh(s / softcap) when softcap > 0; then the
// mask: -inf where is_causal hides key j > query i (top-left aligned), -inf where a boolean
// mask says 0, plus an additive mask's value; y = softmax(s) . v. A query row whose every key
// is masked yields zeros (ONNX leaves it undefined; zeros is what a padded batch wants).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention {

struct AttentionShape {
  std::size_t batch = 1;
  std::size_t q_num_heads = 1;
  std::size_t kv_num_heads = 1;
  std::size_t q_seq_len = 1;
  std::size_t kv_seq_len = 1;
  std::size_t head_size = 1;
  std::size_t v_head_size = 1;
};

enum class MaskKind { none, boolean, additive };

// A mask broadcast to [batch, q_num_heads, q_seq_len, kv_seq_len] by strides: element
// (b, h, i, j) is at data[b*strides[0] + h*strides[1] + i*strides[2] + j*strides[3]], with a
// stride of 0 along every broadcast axis.
struct AttentionMask {
  MaskKind kind = MaskKind::none;
  const std::uint8_t* allowed = nullptr;  // boolean: 1 = may attend, 0 = hidden
  const float* bias = nullptr;            // additive: added to the scores
  std::size_t strides[4] = {0, 0, 0, 0};
};

struct AttentionOptions {
  float scale = 1.0f;  // ONNX's default is 1/sqrt(head_size); callers resolve it
  bool is_causal = false;
  float softcap = 0.0f;  // 0 = off
};

// Why this shape is invalid, or nullptr. Every dimension must be at least 1 and
// kv_num_heads must divide q_num_heads.
const char* attention_shape_error(const AttentionShape& shape);

// Strides that broadcast a mask of `rank` (1..4) dims, right-aligned, to the 4-D score shape.
// Returns why it cannot broadcast, or nullptr and fills `strides`.
const char* broadcast_mask_strides(const std::size_t* dims, std::size_t rank,
                                   const AttentionShape& shape, std::size_t strides[4]);

enum class Status { ok, out_of_memory };

// The fused, tiled kernel (O(head_size) scratch per row block, never the n x n scores).
// Returns out_of_memory, writing nothing, when its small scratch cannot be allocated.
Status attention(const float* q, const float* k, const float* v, const AttentionMask& mask,
                 const AttentionShape& shape, const AttentionOptions& options, float* y);

}  // namespace attention
