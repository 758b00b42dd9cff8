// The one call the JS layer makes to run attentionBackward, as plain numbers: the forward's
// AttentionCall (attention_call.hpp, every field as attn.attention fills it; its y may be 0)
// plus the byte addresses of the gradients. attention_backward_bindings.cpp registers it as
// an Embind value_object. No Emscripten header here, so the native tests drive this entry.
//
// JS field   type                  meaning (every field is required)
// forward    AttentionCall         q, k, v, dims, options, mask as for runAttention; y = 0,
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
  AttentionCall forward;
  std::uintptr_t grad_y = 0, grad_q = 0, grad_k = 0, grad_v = 0;
};

// Runs the backward: "" on success, else a neutral message saying what is wrong.
std::string run_backward(const AttentionBackwardCall& call);

// Bytes of working memory the backward kernel allocates, beyond the caller's buffers.
double backward_working_bytes(const AttentionBackwardCall& call);

}  // namespace attention_call
