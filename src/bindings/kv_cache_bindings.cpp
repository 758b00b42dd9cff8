// Embind registrations of the resident key/value cache: conversions only; the entry points
// and their fields are in kv_cache_call.hpp. AttentionOptions is registered in bindings.cpp.
#include <emscripten/bind.h>

#include "kv_cache_call.hpp"

EMSCRIPTEN_BINDINGS(kv_cache) {
  namespace em = emscripten;
  namespace kv = kv_cache_call;
  em::value_object<kv::KvCacheSpec>("KvCacheSpec")
      .field("batch", &kv::KvCacheSpec::batch)
      .field("kvNumHeads", &kv::KvCacheSpec::kv_num_heads)
      .field("headSize", &kv::KvCacheSpec::head_size)
      .field("vHeadSize", &kv::KvCacheSpec::v_head_size)
      .field("capacity", &kv::KvCacheSpec::capacity);
  em::value_object<kv::KvAppendCall>("KvAppendCall")
      .field("cache", &kv::KvAppendCall::cache)
      .field("k", &kv::KvAppendCall::k)
      .field("v", &kv::KvAppendCall::v)
      .field("rows", &kv::KvAppendCall::rows);
  em::value_object<kv::KvAppendResult>("KvAppendResult")
      .field("error", &kv::KvAppendResult::error)
      .field("length", &kv::KvAppendResult::length);
  em::value_object<kv::KvAttendCall>("KvAttendCall")
      .field("cache", &kv::KvAttendCall::cache)
      .field("q", &kv::KvAttendCall::q)
      .field("y", &kv::KvAttendCall::y)
      .field("qNumHeads", &kv::KvAttendCall::q_num_heads)
      .field("qSeqLen", &kv::KvAttendCall::q_seq_len)
      .field("options", &kv::KvAttendCall::options);
  em::function("kvCacheCreate", &kv::create);
  em::function("kvCacheBytes", &kv::bytes);
  em::function("kvCacheFree", &kv::free);
  em::function("kvCacheAppend", &kv::append);
  em::function("kvCacheAttend", &kv::attend);
  em::function("kvCacheLength", &kv::length);
  em::function("kvCacheCapacity", &kv::capacity);
  em::function("kvCacheReset", &kv::reset);
  em::function("kvCacheTruncate", &kv::truncate);
  em::function("kvCacheCopyKeys", &kv::copy_keys);
  em::function("kvCacheCopyValues", &kv::copy_values);
}
