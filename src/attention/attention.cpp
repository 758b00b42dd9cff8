#include "attention.hpp"

#include "kernels/flash_attention.hpp"

namespace attention {

const char* attention_shape_error(const AttentionShape& s) {
  if (s.batch == 0) return "batch must be at least 1";
  if (s.q_num_heads == 0) return "qNumHeads must be at least 1";
  if (s.kv_num_heads == 0) return "kvNumHeads must be at least 1";
  if (s.q_num_heads % s.kv_num_heads != 0) return "kvNumHeads must divide qNumHeads";
  if (s.q_seq_len == 0) return "qSeqLen must be at least 1";
  if (s.kv_seq_len == 0) return "kvSeqLen must be at least 1";
  if (s.head_size == 0) return "headSize must be at least 1";
  if (s.v_head_size == 0) return "vHeadSize must be at least 1";
  return nullptr;
}

const char* broadcast_mask_strides(const std::size_t* dims, std::size_t rank,
                                   const AttentionShape& shape, std::size_t strides[4]) {
  if (rank < 1 || rank > 4) return "attnMask.shape must have 1 to 4 dimensions";
  const std::size_t target[4] = {shape.batch, shape.q_num_heads, shape.q_seq_len, shape.kv_seq_len};
  // Right-aligned: the mask's last dim meets kv_seq_len, the one before q_seq_len, ...
  std::size_t stride = 1;
  for (std::size_t axis = 4; axis-- > 0;) {
    const std::size_t from_end = 3 - axis;
    if (from_end >= rank) {
      strides[axis] = 0;
      continue;
    }
    const std::size_t dim = dims[rank - 1 - from_end];
    if (dim == target[axis]) {
      strides[axis] = target[axis] == 1 ? 0 : stride;
    } else if (dim == 1) {
      strides[axis] = 0;
    } else {
      return "attnMask.shape does not broadcast to [batch, qNumHeads, qSeqLen, kvSeqLen]";
    }
    stride *= dim;
  }
  return nullptr;
}

Status attention(const float* q, const float* k, const float* v, const AttentionMask& mask,
                 const AttentionShape& shape, const AttentionOptions& options, float* y) {
  return kernels::flash_attention(q, k, v, mask, shape, options, y) ? Status::ok
                                                                    : Status::out_of_memory;
}

}  // namespace attention
