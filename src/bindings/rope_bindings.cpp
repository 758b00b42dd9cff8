// Embind registrations of the RoPE entry points (rope_call.hpp): conversions only. The enum
// Layout they use is registered with the attention call (bindings.cpp).
#include <emscripten/bind.h>

#include "rope_call.hpp"

EMSCRIPTEN_BINDINGS(rope) {
  namespace em = emscripten;
  using attention_call::RopeCacheCall;
  using attention_call::RopeCall;
  // Field names and meanings: rope_call.hpp.
  em::value_object<RopeCall>("RopeCall")
      .field("x", &RopeCall::x)
      .field("y", &RopeCall::y)
      .field("cosCache", &RopeCall::cos_cache)
      .field("sinCache", &RopeCall::sin_cache)
      .field("positionIds", &RopeCall::position_ids)
      .field("batch", &RopeCall::batch)
      .field("heads", &RopeCall::heads)
      .field("seq", &RopeCall::seq)
      .field("headSize", &RopeCall::head_size)
      .field("rotaryDim", &RopeCall::rotary_dim)
      .field("interleaved", &RopeCall::interleaved)
      .field("layout", &RopeCall::layout)
      .field("cacheRows", &RopeCall::cache_rows);
  em::value_object<RopeCacheCall>("RopeCacheCall")
      .field("cosCache", &RopeCacheCall::cos_cache)
      .field("sinCache", &RopeCacheCall::sin_cache)
      .field("length", &RopeCacheCall::length)
      .field("rotaryDim", &RopeCacheCall::rotary_dim)
      .field("base", &RopeCacheCall::base);
  em::function("runRope", &attention_call::run_rope);
  em::function("runRopeCache", &attention_call::run_rope_cache);
}
