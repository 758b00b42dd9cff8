#include "attention_backward_call.hpp"

#include "kernels/flash_attention_backward.hpp"

namespace attention_call {

const char* run_backward_message(const AttentionBackwardCall& call) {
  namespace kernels = attention::kernels;
  kernels::AttentionBackwardArgs args;
  // to_args checks the forward as attention() would, and that wants a y: the backward's y is
  // optional, so a missing one borrows gradQ's address for the check and is dropped after.
  AttentionCall forward = call.forward;
  if (forward.y == 0) forward.y = call.grad_q;
  if (const char* error = to_args(forward, args.forward)) return error;
  if (call.forward.y == 0) args.forward.y = nullptr;
  args.grad_y = reinterpret_cast<const float*>(call.grad_y);
  args.grad_q = reinterpret_cast<float*>(call.grad_q);
  args.grad_k = reinterpret_cast<float*>(call.grad_k);
  args.grad_v = reinterpret_cast<float*>(call.grad_v);
  if (const char* error = kernels::attention_backward_error(args)) return error;
  if (kernels::attention_backward(args) == attention::Status::out_of_memory)
    return "out of memory for the kernel's working memory";
  return nullptr;
}

std::string run_backward(const AttentionBackwardCall& call) {
  const char* error = run_backward_message(call);
  return error ? error : "";
}

double backward_working_bytes(const attention::AttentionShape& s) {
  if (attention::attention_shape_error(s)) return 0;
  return attention::kernels::flash_attention_backward_working_bytes(s);
}

}  // namespace attention_call

extern "C" {

const char* attention_call_run_backward(const attention_call::AttentionBackwardCall* call) {
  return attention_call::run_backward_message(*call);
}

double attention_call_backward_working_bytes(std::uint32_t batch, std::uint32_t q_num_heads,
                                             std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                             std::uint32_t kv_seq_len, std::uint32_t head_size,
                                             std::uint32_t v_head_size) {
  return attention_call::backward_working_bytes(
      {batch, q_num_heads, kv_num_heads, q_seq_len, kv_seq_len, head_size, v_head_size});
}

}  // extern "C"
