#include "attention.hpp"

#include <algorithm>
#include <initializer_list>

#include "kernels/decode_attention.hpp"
#include "kernels/flash_attention.hpp"
#include "kernels/scores.hpp"

namespace attention {

std::size_t checked_product(std::initializer_list<std::size_t> factors) {
  std::size_t product = 1;
  for (std::size_t f : factors) {
    if (f != 0 && product > std::numeric_limits<std::size_t>::max() / f) return 0;
    product *= f;
  }
  return product;
}

const char* status_message(Status status, const AttentionArgs& args) {
  switch (status) {
    case Status::ok:
      return nullptr;
    case Status::out_of_memory:
      return "out of memory for the kernel's working memory";
    case Status::invalid_arguments:
      break;
  }
  const char* error = attention_error(args);
  return error ? error : "invalid arguments";
}

Strides layout_strides(Layout layout, std::size_t heads, std::size_t seq, std::size_t size) {
  if (layout == Layout::bshd) return {seq * heads * size, size, heads * size};
  return {heads * seq * size, seq * size, size};
}

void copy_rows(const float* from, const Strides& f, float* to, const Strides& t, std::size_t batch,
               std::size_t heads, std::size_t rows, std::size_t size) {
  const bool contiguous = f.seq == size && t.seq == size;  // each head's rows in one block
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t h = 0; h < heads; ++h) {
      const float* src = from + b * f.batch + h * f.head;
      float* dst = to + b * t.batch + h * t.head;
      if (contiguous) {
        std::copy(src, src + rows * size, dst);
        continue;
      }
      for (std::size_t r = 0; r < rows; ++r)
        std::copy(src + r * f.seq, src + r * f.seq + size, dst + r * t.seq);
    }
  }
}

AttentionArgs contiguous_args(const float* q, const float* k, const float* v,
                              const AttentionMask& mask, const AttentionShape& s,
                              const AttentionOptions& options, float* y) {
  AttentionArgs a;
  a.shape = s;
  a.q = q;
  a.k = k;
  a.v = v;
  a.y = y;
  a.q_strides = layout_strides(Layout::bhsd, s.q_num_heads, s.q_seq_len, s.head_size);
  a.k_strides = layout_strides(Layout::bhsd, s.kv_num_heads, s.kv_seq_len, s.head_size);
  a.v_strides = layout_strides(Layout::bhsd, s.kv_num_heads, s.kv_seq_len, s.v_head_size);
  a.y_strides = layout_strides(Layout::bhsd, s.q_num_heads, s.q_seq_len, s.v_head_size);
  a.mask = mask;
  a.options = options;
  return a;
}

const char* attention_shape_error(const AttentionShape& s) {
  if (s.batch == 0) return "batch must be at least 1";
  if (s.q_num_heads == 0) return "q_num_heads must be at least 1";
  if (s.kv_num_heads == 0) return "kv_num_heads must be at least 1";
  if (s.q_num_heads % s.kv_num_heads != 0) return "kv_num_heads must divide q_num_heads";
  if (s.q_seq_len == 0) return "q_seq_len must be at least 1";
  if (s.kv_seq_len == 0) return "kv_seq_len must be at least 1";
  if (s.head_size == 0) return "head_size must be at least 1";
  if (s.v_head_size == 0) return "v_head_size must be at least 1";
  const std::size_t f = sizeof(float);
  if (!checked_product({s.batch, s.q_num_heads, s.q_seq_len, s.head_size, f}) ||
      !checked_product({s.batch, s.kv_num_heads, s.kv_seq_len, s.head_size, f}) ||
      !checked_product({s.batch, s.kv_num_heads, s.kv_seq_len, s.v_head_size, f}) ||
      !checked_product({s.batch, s.q_num_heads, s.q_seq_len, s.v_head_size, f}))
    return "a tensor of this shape is larger than the address space";
  return nullptr;
}

const char* attention_error(const AttentionArgs& a) {
  const AttentionShape& s = a.shape;
  if (const char* error = attention_shape_error(s)) return error;
  if (!a.q || !a.k || !a.v || !a.y) return "q, k, v and y must all be given";
  if (a.options.left_window < -1) return "the left window must be -1 (unbounded) or more";
  if (a.options.right_window < -1) return "the right window must be -1 (unbounded) or more";
  if (a.past_length > s.kv_seq_len) return "the past length must not exceed kv_seq_len";
  if (a.nonpad_kv_seqlen) {
    if (a.past_length != 0) return "a past length and per-batch key counts cannot be combined";
    for (std::size_t b = 0; b < s.batch; ++b)
      if (a.nonpad_kv_seqlen[b] < 0 || std::size_t(a.nonpad_kv_seqlen[b]) > s.kv_seq_len)
        return "every per-batch key count must be between 0 and kv_seq_len";
  }
  switch (a.mask.kind) {
    case MaskKind::none:
      break;
    case MaskKind::boolean:
      if (!a.mask.allowed) return "the mask's data must be given";
      break;
    case MaskKind::additive:
      if (!a.mask.bias) return "the mask's data must be given";
      break;
    default:
      return "unknown mask kind";
  }
  if (a.scores) {
    if (static_cast<int>(a.scores_mode) < 0 ||
        static_cast<int>(a.scores_mode) > static_cast<int>(ScoresMode::probabilities))
      return "unknown scores mode";
    if (!checked_product({s.batch, s.q_num_heads, s.q_seq_len, s.kv_seq_len, sizeof(float)}))
      return "the scores are larger than the address space";
  }
  return nullptr;
}

const char* broadcast_mask_strides(const std::size_t* dims, std::size_t rank,
                                   const AttentionShape& shape, MaskKeys keys,
                                   AttentionMask& mask) {
  if (rank < 1 || rank > 4) return "the mask must have 1 to 4 dims";
  const std::size_t target[4] = {shape.batch, shape.q_num_heads, shape.q_seq_len, shape.kv_seq_len};
  const std::size_t last = dims[rank - 1];
  if (keys == MaskKeys::pad) {
    if (last == 0 || last > shape.kv_seq_len)
      return "the mask's last dim must be between 1 and kv_seq_len";
    mask.key_columns = last;
  } else {
    if (last != 1 && last != shape.kv_seq_len) return "the mask's last dim must be kv_seq_len or 1";
    mask.key_columns = shape.kv_seq_len;
  }
  // Right-aligned: the mask's last dim meets the keys, the one before the queries, ...
  std::size_t stride = 1;
  for (std::size_t axis = 4; axis-- > 0;) {
    const std::size_t from_end = 3 - axis;
    if (from_end >= rank) {
      mask.strides[axis] = 0;
      continue;
    }
    const std::size_t dim = dims[rank - 1 - from_end];
    if (axis == 3) {
      mask.strides[axis] = dim == 1 ? 0 : 1;
    } else if (dim == target[axis]) {
      mask.strides[axis] = target[axis] == 1 ? 0 : stride;
    } else if (dim == 1) {
      mask.strides[axis] = 0;
    } else {
      return "the mask does not broadcast to [batch, q_num_heads, q_seq_len, kv_seq_len]";
    }
    if (stride > std::numeric_limits<std::size_t>::max() / dim)
      return "the mask is larger than the address space";
    stride *= dim;
  }
  return nullptr;
}

std::size_t attention_working_bytes(const AttentionShape& shape, std::size_t threads) {
  // Whether the decode path runs depends on the mask too: the larger of the two.
  return std::max(kernels::flash_attention_working_bytes(shape, threads),
                  kernels::decode_working_bytes(shape));
}

Status attention(const AttentionArgs& args) {
  if (attention_error(args)) return Status::invalid_arguments;
  // A few query rows per head group against the keys: the decode path, which reads K and V
  // where they lie, once per head group. Otherwise the tiled kernel.
  //
  // Called through a table the optimiser cannot see through, on purpose: wasm-opt inlines a
  // function that has a single caller, and with both kernels inlined into this one function
  // V8 compiles the tiled kernel's loops about a third slower (scripts/bench shows it).
  using Kernel = bool (*)(const AttentionArgs&);
  static Kernel volatile kernel_for_path[2] = {&kernels::flash_attention,
                                               &kernels::decode_attention};
  const bool computed = kernel_for_path[kernels::decode_applies(args) ? 1 : 0](args);
  if (!computed) return Status::out_of_memory;
  if (args.scores) kernels::write_scores(args);
  return Status::ok;
}

Status attention(const float* q, const float* k, const float* v, const AttentionMask& mask,
                 const AttentionShape& shape, const AttentionOptions& options, float* y) {
  return attention(contiguous_args(q, k, v, mask, shape, options, y));
}

}  // namespace attention
