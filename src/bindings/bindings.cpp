// Embind bindings: type conversions only. The JS layer (src/js/api.mjs) validates arguments,
// copies them into wasm memory and passes their addresses here; results go into buffers it
// allocated. Nothing here throws or aborts: errors come back as a message ("" = success).
#include <emscripten/bind.h>
#include <malloc.h>

#include <array>
#include <cstdint>
#include <string>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
#include "attention_call.hpp"
#include "kernels/multiply_add.hpp"
#include "kv_cache.hpp"

namespace {

const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

std::string simd_arch() { return xsimd::default_arch::name(); }
bool relaxed_simd() { return attention::kernels::relaxed_simd_build; }

// What the module itself holds once loaded (Embind keeps a small record per value_object
// field for good), measured at the end of the registrations below.
std::size_t heap_bytes_at_load = 0;

// Bytes malloc has handed out beyond that and not taken back: lets tests prove calls leak
// nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks - heap_bytes_at_load; }

// The most bytes wasm memory may grow to (-sMAXIMUM_MEMORY, set in CMakeLists.txt).
double maximum_memory_bytes() { return double(ATTENTION_MAXIMUM_MEMORY); }

// The resident key/value cache (kv_cache.hpp), to JS as a handle: the cache's address, a
// number that src/js/kv-cache.mjs keeps and passes back. 0 = could not create.
attention::KvCache* cache(std::uintptr_t handle) {
  return reinterpret_cast<attention::KvCache*>(handle);
}

std::uintptr_t kv_cache_create(std::uint32_t batch, std::uint32_t kv_num_heads,
                               std::uint32_t head_size, std::uint32_t v_head_size,
                               std::uint32_t capacity) {
  return reinterpret_cast<std::uintptr_t>(
      attention::KvCache::create({batch, kv_num_heads, head_size, v_head_size}, capacity)
          .release());
}

void kv_cache_free(std::uintptr_t handle) { delete cache(handle); }

std::string kv_cache_append(std::uintptr_t handle, std::uintptr_t k, std::uintptr_t v,
                            std::uint32_t rows) {
  const char* error = cache(handle)->append(floats(k), floats(v), rows);
  return error ? error : "";
}

std::string kv_cache_attend(std::uintptr_t handle, std::uintptr_t q, std::uintptr_t y,
                            std::uint32_t q_num_heads, std::uint32_t q_seq_len, float scale,
                            bool is_causal, float softcap, std::int32_t left_window) {
  attention::KvAttendOptions o;
  o.q_num_heads = q_num_heads;
  o.q_seq_len = q_seq_len;
  o.options.scale = scale;
  o.options.is_causal = is_causal;
  o.options.softcap = softcap;
  o.options.left_window = left_window;
  const char* error = cache(handle)->attend(floats(q), o, reinterpret_cast<float*>(y));
  return error ? error : "";
}

double kv_cache_length(std::uintptr_t handle) { return double(cache(handle)->length()); }
double kv_cache_capacity(std::uintptr_t handle) { return double(cache(handle)->capacity()); }
void kv_cache_reset(std::uintptr_t handle) { cache(handle)->reset(); }
void kv_cache_truncate(std::uintptr_t handle, std::uint32_t length) {
  cache(handle)->truncate(length);
}
bool kv_cache_reserve(std::uintptr_t handle, std::uint32_t capacity) {
  return cache(handle)->reserve(capacity);
}
void kv_cache_copy_keys(std::uintptr_t handle, std::uintptr_t out) {
  cache(handle)->copy_keys(reinterpret_cast<float*>(out));
}
void kv_cache_copy_values(std::uintptr_t handle, std::uintptr_t out) {
  cache(handle)->copy_values(reinterpret_cast<float*>(out));
}
double kv_cache_bytes(std::uint32_t batch, std::uint32_t kv_num_heads, std::uint32_t head_size,
                      std::uint32_t v_head_size, std::uint32_t capacity) {
  return double(
      attention::KvCache::bytes_for({batch, kv_num_heads, head_size, v_head_size}, capacity));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  using attention_call::AttentionCall;
  namespace em = emscripten;
  em::enum_<attention::Layout>("Layout")
      .value("bhsd", attention::Layout::bhsd)
      .value("bshd", attention::Layout::bshd);
  em::enum_<attention::MaskKind>("MaskKind")
      .value("none", attention::MaskKind::none)
      .value("boolean", attention::MaskKind::boolean)
      .value("additive", attention::MaskKind::additive);
  em::enum_<attention::MaskKeys>("MaskKeys")
      .value("broadcast", attention::MaskKeys::broadcast)
      .value("pad", attention::MaskKeys::pad);
  em::enum_<attention::ScoresMode>("ScoresMode")
      .value("raw", attention::ScoresMode::raw)
      .value("softcapped", attention::ScoresMode::softcapped)
      .value("biased", attention::ScoresMode::biased)
      .value("probabilities", attention::ScoresMode::probabilities);
  em::value_array<std::array<std::uint32_t, 4>>("MaskDims")
      .element(em::index<0>())
      .element(em::index<1>())
      .element(em::index<2>())
      .element(em::index<3>());
  // Field names and meanings: attention_call.hpp.
  em::value_object<AttentionCall>("AttentionCall")
      .field("q", &AttentionCall::q)
      .field("k", &AttentionCall::k)
      .field("v", &AttentionCall::v)
      .field("y", &AttentionCall::y)
      .field("batch", &AttentionCall::batch)
      .field("qNumHeads", &AttentionCall::q_num_heads)
      .field("kvNumHeads", &AttentionCall::kv_num_heads)
      .field("qSeqLen", &AttentionCall::q_seq_len)
      .field("kvSeqLen", &AttentionCall::kv_seq_len)
      .field("headSize", &AttentionCall::head_size)
      .field("vHeadSize", &AttentionCall::v_head_size)
      .field("qLayout", &AttentionCall::q_layout)
      .field("kvLayout", &AttentionCall::kv_layout)
      .field("scale", &AttentionCall::scale)
      .field("isCausal", &AttentionCall::is_causal)
      .field("softcap", &AttentionCall::softcap)
      .field("leftWindow", &AttentionCall::left_window)
      .field("rightWindow", &AttentionCall::right_window)
      .field("pastLength", &AttentionCall::past_length)
      .field("nonpadKvSeqlen", &AttentionCall::nonpad_kv_seqlen)
      .field("maskKind", &AttentionCall::mask_kind)
      .field("mask", &AttentionCall::mask)
      .field("maskDims", &AttentionCall::mask_dims)
      .field("maskRank", &AttentionCall::mask_rank)
      .field("maskKeys", &AttentionCall::mask_keys)
      .field("scores", &AttentionCall::scores)
      .field("scoresMode", &AttentionCall::scores_mode);
  em::function("runAttention", &attention_call::run);
  em::function("attentionWorkingBytes", &attention_call::working_bytes);
  em::function("maximumMemoryBytes", &maximum_memory_bytes);
  em::function("simdArch", &simd_arch);
  em::function("relaxedSimd", &relaxed_simd);
  em::function("heapBytesInUse", &heap_bytes_in_use);
  em::function("kvCacheCreate", &kv_cache_create);
  em::function("kvCacheFree", &kv_cache_free);
  em::function("kvCacheAppend", &kv_cache_append);
  em::function("kvCacheAttend", &kv_cache_attend);
  em::function("kvCacheLength", &kv_cache_length);
  em::function("kvCacheCapacity", &kv_cache_capacity);
  em::function("kvCacheReset", &kv_cache_reset);
  em::function("kvCacheTruncate", &kv_cache_truncate);
  em::function("kvCacheReserve", &kv_cache_reserve);
  em::function("kvCacheCopyKeys", &kv_cache_copy_keys);
  em::function("kvCacheCopyValues", &kv_cache_copy_values);
  em::function("kvCacheBytes", &kv_cache_bytes);
  heap_bytes_at_load = mallinfo().uordblks;
}
