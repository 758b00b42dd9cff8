// The resident key/value cache (src/attention/kv_cache.hpp) as the JS layer calls it
// (src/js/kv-cache.mjs): plain structs of numbers and wasm addresses. kv_cache_bindings.cpp
// registers KvCacheSpec as an Embind value object and append as its fields, plain numbers in
// the order below; attend's KvAttendCall is a record JS writes into wasm memory (laid out by
// each_field, as attention_call.hpp's AttentionCall) and passes by address to the plain export
// kv_cache_call_attend. No Emscripten header, so the native tests drive these same entry
// points. A cache is a handle: its address, a number JS keeps and passes back.
//
// JS object         fields (all required)
// KvCacheSpec       batch, kvNumHeads, headSize, vHeadSize, capacity: numbers (uint32)
// KvAppendCall      cache: the handle; k, v: addresses of [batch, kvNumHeads, rows, headSize]
//                   and [batch, kvNumHeads, rows, vHeadSize] float32; rows (uint32)
// KvAttendCall      cache; q, y: addresses of [batch, qNumHeads, qSeqLen, headSize] and
//                   [batch, qNumHeads, qSeqLen, vHeadSize] float32; qNumHeads, qSeqLen;
//                   options: AttentionOptions (attention_call.hpp), as for attention
// KvAppendResult    error: "" or why the append was refused; length: rows now cached (JS
//                   receives the error alone and asks kvCacheLength)
//
// Each call validates what memory safety needs and returns a neutral message ("" = success);
// the JS layer checks the arguments first, in its users' words. Nothing here aborts.
#pragma once

#include <cstdint>
#include <string>

#include "attention.hpp"
#include "kv_cache.hpp"

namespace kv_cache_call {

struct KvCacheSpec {
  std::uint32_t batch = 1, kv_num_heads = 1, head_size = 1, v_head_size = 1, capacity = 1;
};

struct KvAppendCall {
  std::uintptr_t cache = 0, k = 0, v = 0;
  std::uint32_t rows = 0;
};

// What an append returns, so that one append is one call: why not, and the new length.
struct KvAppendResult {
  std::string error;
  double length = 0;
};

struct KvAttendCall {
  static constexpr const char* name = "KvAttendCall";
  std::uintptr_t cache = 0, q = 0, y = 0;
  std::uint32_t q_num_heads = 1, q_seq_len = 1;
  attention::AttentionOptions options;

  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("cache", &KvAttendCall::cache);
    visit("q", &KvAttendCall::q);
    visit("y", &KvAttendCall::y);
    visit("q_num_heads", &KvAttendCall::q_num_heads);
    visit("q_seq_len", &KvAttendCall::q_seq_len);
    visit("options", &KvAttendCall::options);
  }
};

// A new empty cache's handle, or 0 when the spec is invalid or its memory cannot be allocated.
std::uintptr_t create(const KvCacheSpec& spec);
// Bytes of keys and values the spec's capacity needs, or 0 when that overflows size_t.
double bytes(const KvCacheSpec& spec);
void free(std::uintptr_t cache);

// Appends the rows, growing the cache first when they do not fit (KvCache::append's rule:
// twice the capacity, or exactly what is needed). On error the cache is as it was.
KvAppendResult append(const KvAppendCall& call);
// y = attention of q over every cached row, the queries being the last q_seq_len of them:
// nullptr, or why not (a static string).
const char* attend_message(const KvAttendCall& call);
std::string attend(const KvAttendCall& call);  // the same, "" on success

double length(std::uintptr_t cache);
double capacity(std::uintptr_t cache);
void reset(std::uintptr_t cache);
void truncate(std::uintptr_t cache, std::uint32_t length);
// The cached rows, contiguous, into `out`: [batch, kvNumHeads, length, headSize] (keys) or
// [..., vHeadSize] (values).
void copy_keys(std::uintptr_t cache, std::uintptr_t out);
void copy_values(std::uintptr_t cache, std::uintptr_t out);

}  // namespace kv_cache_call

// A plain wasm export (CMakeLists.txt's EXPORTED_FUNCTIONS): kv_cache_call::attend_message of
// the record at `call`. Called once per generated token: no Embind conversion.
extern "C" const char* kv_cache_call_attend(const kv_cache_call::KvAttendCall* call);
