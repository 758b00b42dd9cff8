// The one call the JS layer makes to run attentionBackward: a record in wasm memory, as
// attention_call.hpp's AttentionCall is (laid out by each_field, passed by its address to the
// plain export attention_call_run_backward): the forward's AttentionCall (every field as
// attn.attention fills it; its y may be 0) plus the addresses of the gradients. No Emscripten
// header here, so the native tests drive this entry.
//
// field      type                  meaning (every field is written)
// forward    AttentionCall         q, k, v, dims, options, mask as for attention(); y = 0,
//                                  or where to write the forward's output too; scores = 0
// gradY      number                byte address of dL/dy, float32, laid out as y
// gradQ      number                where dL/dq goes, float32, laid out as q
// gradK      number                where dL/dk goes, laid out as k
// gradV      number                where dL/dv goes, laid out as v
#pragma once

#include <cstdint>
#include <string>

#include "attention_call.hpp"

namespace attention_call {

struct AttentionBackwardCall {
  static constexpr const char* name = "AttentionBackwardCall";
  AttentionCall forward;
  std::uintptr_t grad_y = 0, grad_q = 0, grad_k = 0, grad_v = 0;

  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("forward", &AttentionBackwardCall::forward);
    visit("grad_y", &AttentionBackwardCall::grad_y);
    visit("grad_q", &AttentionBackwardCall::grad_q);
    visit("grad_k", &AttentionBackwardCall::grad_k);
    visit("grad_v", &AttentionBackwardCall::grad_v);
  }
};

// Runs the backward: nullptr on success, else a neutral message saying what is wrong (a
// static string).
const char* run_backward_message(const AttentionBackwardCall& call);
// The same as "" or the message.
std::string run_backward(const AttentionBackwardCall& call);

// Bytes of working memory the backward kernel allocates for this shape, beyond the caller's
// buffers; 0 for an invalid shape.
double backward_working_bytes(const attention::AttentionShape& shape);

}  // namespace attention_call

// Plain wasm exports (CMakeLists.txt's EXPORTED_FUNCTIONS), as attention_call_run is.
extern "C" {
// attention_call::run_backward_message of the record at `call`.
const char* attention_call_run_backward(const attention_call::AttentionBackwardCall* call);
// attention_call::backward_working_bytes for a call of this shape.
double attention_call_backward_working_bytes(std::uint32_t batch, std::uint32_t q_num_heads,
                                             std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                             std::uint32_t kv_seq_len, std::uint32_t head_size,
                                             std::uint32_t v_head_size);
}
