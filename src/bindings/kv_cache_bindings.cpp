// Embind registrations of the resident key/value cache: conversions only; the entry points
// and their fields are in kv_cache_call.hpp. AttentionOptions is registered in bindings.cpp.
#include <emscripten/bind.h>

#include "attention_call.hpp"
#include "kv_cache_call.hpp"

namespace {

// append and attend run once per generated token, so their calls' fields go as plain numbers
// (in their structs' order): Embind's conversion of value objects cost more per call than
// everything else of a step's JS and bindings together (profiled at L = 256; a tiny cache's
// attend took 3.3-3.6 us with them and 1.9-2.1 us without).

// kv_cache_call::append; "" or why not (the cache's length is kvCacheLength's to tell).
std::string append_fields(std::uintptr_t cache, std::uintptr_t k, std::uintptr_t v,
                          std::uint32_t rows) {
  return kv_cache_call::append({cache, k, v, rows}).error;
}

// kv_cache_call::attend: KvAttendCall's fields, then AttentionOptions' (attention_call.hpp's
// options_of).
std::string attend_fields(std::uintptr_t cache, std::uintptr_t q, std::uintptr_t y,
                          std::uint32_t q_num_heads, std::uint32_t q_seq_len, float scale,
                          bool is_causal, float softcap, std::int32_t left_window,
                          std::int32_t right_window) {
  kv_cache_call::KvAttendCall call;
  call.cache = cache;
  call.q = q;
  call.y = y;
  call.q_num_heads = q_num_heads;
  call.q_seq_len = q_seq_len;
  call.options = attention_call::options_of(scale, is_causal, softcap, left_window, right_window);
  return kv_cache_call::attend(call);
}

}  // namespace

EMSCRIPTEN_BINDINGS(kv_cache) {
  namespace em = emscripten;
  namespace kv = kv_cache_call;
  em::value_object<kv::KvCacheSpec>("KvCacheSpec")
      .field("batch", &kv::KvCacheSpec::batch)
      .field("kvNumHeads", &kv::KvCacheSpec::kv_num_heads)
      .field("headSize", &kv::KvCacheSpec::head_size)
      .field("vHeadSize", &kv::KvCacheSpec::v_head_size)
      .field("capacity", &kv::KvCacheSpec::capacity);
  em::function("kvCacheCreate", &kv::create);
  em::function("kvCacheBytes", &kv::bytes);
  em::function("kvCacheFree", &kv::free);
  em::function("kvCacheAppend", &append_fields);
  em::function("kvCacheAttend", &attend_fields);
  em::function("kvCacheLength", &kv::length);
  em::function("kvCacheCapacity", &kv::capacity);
  em::function("kvCacheReset", &kv::reset);
  em::function("kvCacheTruncate", &kv::truncate);
  em::function("kvCacheCopyKeys", &kv::copy_keys);
  em::function("kvCacheCopyValues", &kv::copy_values);
}
