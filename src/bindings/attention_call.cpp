#include "attention_call.hpp"

namespace attention_call {

const char* to_args(const AttentionCall& call, attention::AttentionArgs& args) {
  attention::AttentionShape& s = args.shape;
  s = {call.batch,      call.q_num_heads, call.kv_num_heads, call.q_seq_len,
       call.kv_seq_len, call.head_size,   call.v_head_size};
  if (const char* error = attention::attention_shape_error(s)) return error;
  const auto address = [](std::uintptr_t a) { return reinterpret_cast<float*>(a); };
  args.q = address(call.q);
  args.k = address(call.k);
  args.v = address(call.v);
  args.y = address(call.y);
  args.q_strides =
      attention::layout_strides(call.q_layout, s.q_num_heads, s.q_seq_len, s.head_size);
  args.y_strides =
      attention::layout_strides(call.q_layout, s.q_num_heads, s.q_seq_len, s.v_head_size);
  args.k_strides =
      attention::layout_strides(call.kv_layout, s.kv_num_heads, s.kv_seq_len, s.head_size);
  args.v_strides =
      attention::layout_strides(call.kv_layout, s.kv_num_heads, s.kv_seq_len, s.v_head_size);
  args.options = call.options;
  args.past_length = call.past_length;
  args.nonpad_kv_seqlen = reinterpret_cast<const std::int32_t*>(call.nonpad_kv_seqlen);
  args.scores = address(call.scores);
  args.scores_mode = call.scores_mode;
  args.mask = {};
  if (call.mask_kind != attention::MaskKind::none) {
    if (call.mask_rank < 1 || call.mask_rank > 4) return "the mask must have 1 to 4 dims";
    std::size_t dims[4];
    for (std::size_t i = 0; i < call.mask_rank; ++i) dims[i] = call.mask_dims[i];
    if (const char* error =
            attention::broadcast_mask_strides(dims, call.mask_rank, s, call.mask_keys, args.mask))
      return error;
    args.mask.kind = call.mask_kind;
    args.mask.allowed = reinterpret_cast<const std::uint8_t*>(call.mask);
    args.mask.bias = address(call.mask);
  }
  return attention::attention_error(args);
}

std::string run(const AttentionCall& call) {
  attention::AttentionArgs args;
  if (const char* error = to_args(call, args)) return error;
  const char* error = attention::status_message(attention::attention(args), args);
  return error ? error : "";
}

std::string concat_present(const PresentCall& c) {
  using attention::Layout;
  const std::size_t total = std::size_t(c.past_rows) + c.rows;
  if (c.batch == 0 || c.heads == 0 || c.rows == 0 || c.size == 0)
    return "every dim must be 1 or more";
  if (!attention::checked_product({c.batch, c.heads, total, c.size, sizeof(float)}))
    return "the concatenation does not fit in size_t";
  if (!c.next || !c.out || (c.past_rows && !c.past)) return "a buffer is missing";
  const auto floats = [](std::uintptr_t a) { return reinterpret_cast<float*>(a); };
  const attention::Strides out = attention::layout_strides(Layout::bhsd, c.heads, total, c.size);
  if (c.past_rows) {
    attention::copy_rows(floats(c.past),
                         attention::layout_strides(Layout::bhsd, c.heads, c.past_rows, c.size),
                         floats(c.out), out, c.batch, c.heads, c.past_rows, c.size);
  }
  attention::copy_rows(
      floats(c.next), attention::layout_strides(c.next_layout, c.heads, c.rows, c.size),
      floats(c.out) + std::size_t(c.past_rows) * c.size, out, c.batch, c.heads, c.rows, c.size);
  return "";
}

double working_bytes(const AttentionCall& call) {
  const attention::AttentionShape s{call.batch,      call.q_num_heads, call.kv_num_heads,
                                    call.q_seq_len,  call.kv_seq_len,  call.head_size,
                                    call.v_head_size};
  if (attention::attention_shape_error(s)) return 0;
  return double(attention::attention_working_bytes(s));
}

}  // namespace attention_call
