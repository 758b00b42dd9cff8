// Embind registrations of attentionBackward's entry point (attention_backward_call.hpp):
// conversions only. The forward's AttentionCall value_object is registered in bindings.cpp.
#include <emscripten/bind.h>

#include "attention_backward_call.hpp"

EMSCRIPTEN_BINDINGS(attention_backward) {
  using attention_call::AttentionBackwardCall;
  namespace em = emscripten;
  // Field names and meanings: attention_backward_call.hpp.
  em::value_object<AttentionBackwardCall>("AttentionBackwardCall")
      .field("forward", &AttentionBackwardCall::forward)
      .field("gradY", &AttentionBackwardCall::grad_y)
      .field("gradQ", &AttentionBackwardCall::grad_q)
      .field("gradK", &AttentionBackwardCall::grad_k)
      .field("gradV", &AttentionBackwardCall::grad_v);
  em::function("runAttentionBackward", &attention_call::run_backward);
  em::function("attentionBackwardWorkingBytes", &attention_call::backward_working_bytes);
}
