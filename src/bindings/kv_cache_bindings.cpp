// Embind registrations of the resident key/value cache: conversions only; the entry points
// and their fields are in kv_cache_call.hpp.
#include <emscripten/bind.h>

#include "kv_cache_call.hpp"

namespace {

// append runs once per generated token, so its call's fields go as plain numbers (in their
// struct's order): Embind's conversion of value objects cost more per call than everything
// else of a step's JS and bindings together (profiled at L = 256; a tiny cache's attend took
// 3.3-3.6 us with them and 1.9-2.1 us without). attend, which carries the options record, is
// the plain export kv_cache_call_attend (kv_cache_call.hpp).

// kv_cache_call::append; "" or why not (the cache's length is kvCacheLength's to tell).
std::string append_fields(std::uintptr_t cache, std::uintptr_t k, std::uintptr_t v,
                          std::uint32_t rows) {
  return kv_cache_call::append({cache, k, v, rows}).error;
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
  em::function("kvCacheLength", &kv::length);
  em::function("kvCacheCapacity", &kv::capacity);
  em::function("kvCacheReset", &kv::reset);
  em::function("kvCacheTruncate", &kv::truncate);
  em::function("kvCacheCopyKeys", &kv::copy_keys);
  em::function("kvCacheCopyValues", &kv::copy_values);
}
