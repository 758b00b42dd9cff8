#include "attention_backward_call.hpp"

#include "kernels/flash_attention_backward.hpp"

namespace attention_call {

std::string run_backward(const AttentionBackwardCall& call) {
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
  return "";
}

double backward_working_bytes(const AttentionBackwardCall& call) {
  const AttentionCall& c = call.forward;
  const attention::AttentionShape s{c.batch,      c.q_num_heads, c.kv_num_heads, c.q_seq_len,
                                    c.kv_seq_len, c.head_size,   c.v_head_size};
  if (attention::attention_shape_error(s)) return 0;
  return attention::kernels::flash_attention_backward_working_bytes(s);
}

}  // namespace attention_call
