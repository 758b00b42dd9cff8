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

namespace {

std::string simd_arch() { return xsimd::default_arch::name(); }
bool relaxed_simd() { return attention::kernels::relaxed_simd_build; }

// What the module itself holds once loaded (Embind keeps a small record per value_object
// field for good). Registrations live in several files, run in no set order, so JS measures
// this once every one has run: wrapModule calls markLoaded() before anything else.
std::size_t heap_bytes_at_load = 0;
void mark_loaded() { heap_bytes_at_load = mallinfo().uordblks; }

// Bytes malloc has handed out beyond that and not taken back: lets tests prove calls leak
// nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks - heap_bytes_at_load; }

// The most bytes wasm memory may grow to (-sMAXIMUM_MEMORY, set in CMakeLists.txt).
double maximum_memory_bytes() { return double(ATTENTION_MAXIMUM_MEMORY); }

// The options record's windows are int64 in the core; JS numbers reach them as int32 (the JS
// layer refuses anything beyond), since this Embind has no 64-bit integers without BigInt.
std::int32_t left_window(const attention::AttentionOptions& o) {
  return std::int32_t(o.left_window);
}
void set_left_window(attention::AttentionOptions& o, std::int32_t w) { o.left_window = w; }
std::int32_t right_window(const attention::AttentionOptions& o) {
  return std::int32_t(o.right_window);
}
void set_right_window(attention::AttentionOptions& o, std::int32_t w) { o.right_window = w; }

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
  // The options record of every entry point that attends (attention_call.hpp).
  using attention::AttentionOptions;
  em::value_object<AttentionOptions>("AttentionOptions")
      .field("scale", &AttentionOptions::scale)
      .field("isCausal", &AttentionOptions::is_causal)
      .field("softcap", &AttentionOptions::softcap)
      .field("leftWindow", &left_window, &set_left_window)
      .field("rightWindow", &right_window, &set_right_window);
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
      .field("options", &AttentionCall::options)
      .field("pastLength", &AttentionCall::past_length)
      .field("nonpadKvSeqlen", &AttentionCall::nonpad_kv_seqlen)
      .field("maskKind", &AttentionCall::mask_kind)
      .field("mask", &AttentionCall::mask)
      .field("maskDims", &AttentionCall::mask_dims)
      .field("maskRank", &AttentionCall::mask_rank)
      .field("maskKeys", &AttentionCall::mask_keys)
      .field("scores", &AttentionCall::scores)
      .field("scoresMode", &AttentionCall::scores_mode);
  // Field names and meanings: attention_call.hpp.
  using attention_call::PresentCall;
  em::value_object<PresentCall>("PresentCall")
      .field("past", &PresentCall::past)
      .field("next", &PresentCall::next)
      .field("out", &PresentCall::out)
      .field("batch", &PresentCall::batch)
      .field("heads", &PresentCall::heads)
      .field("pastRows", &PresentCall::past_rows)
      .field("rows", &PresentCall::rows)
      .field("size", &PresentCall::size)
      .field("nextLayout", &PresentCall::next_layout);
  em::function("concatPresent", &attention_call::concat_present);
  em::function("runAttention", &attention_call::run);
  em::function("attentionWorkingBytes", &attention_call::working_bytes);
  em::function("maximumMemoryBytes", &maximum_memory_bytes);
  em::function("simdArch", &simd_arch);
  em::function("relaxedSimd", &relaxed_simd);
  em::function("heapBytesInUse", &heap_bytes_in_use);
  em::function("markLoaded", &mark_loaded);
}
