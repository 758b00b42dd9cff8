// Embind bindings: type conversions only. The JS layer (src/js/api.mjs) validates arguments,
// copies them into wasm memory and passes their addresses here; results go into buffers it
// allocated. Nothing here throws or aborts: errors come back as a message ("" = success).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <array>
#include <cstdint>
#include <string>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
#include "attention_call.hpp"
#include "kernels/multiply_add.hpp"
#include "trace.hpp"

namespace {

const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

attention::Matrix matrix_from(std::uintptr_t address, std::size_t rows, std::size_t cols) {
  attention::Matrix m({rows, cols});
  std::copy(floats(address), floats(address) + rows * cols, m.begin());
  return m;
}

// trace()'s arguments as one object (an Embind value_object): addresses of the row-major
// float inputs in wasm memory (w_out 0 when absent), their dims (TraceDims, whose d_out is 0
// without w_out), the options, and where to write the packed trace (room for every field
// traceLayout() lists).
struct TraceCall {
  std::uintptr_t x = 0, w_query = 0, w_key = 0, w_value = 0, w_out = 0, out = 0;
  attention::TraceDims dims;
  float scale = 1.0f;
  bool is_causal = false;
};

// Packs the trace at call.out as traceLayout() describes; "" on success, else why not.
std::string trace_into(const TraceCall& call) {
  const attention::TraceDims& d = call.dims;
  if (const char* error = attention::trace_dims_error(d)) return error;
  if ((d.d_out == 0) != (call.w_out == 0)) return "wOut and its column count disagree";
  const attention::Matrix inputs = matrix_from(call.x, d.n, d.d_in);
  const attention::Matrix wq = matrix_from(call.w_query, d.d_in, d.d_k);
  const attention::Matrix wk = matrix_from(call.w_key, d.d_in, attention::key_columns(d));
  const attention::Matrix wv = matrix_from(call.w_value, d.d_in, d.d_v);
  const std::size_t concat_cols = d.heads * (d.d_v / d.kv_heads);
  const attention::Matrix wo = matrix_from(call.w_out, call.w_out ? concat_cols : 0, d.d_out);
  const attention::Matrix* w_out = call.w_out ? &wo : nullptr;
  const attention::HeadCounts counts{d.heads, d.kv_heads};
  if (const char* error = attention::multi_head_shape_error(inputs, wq, wk, wv, w_out, counts))
    return error;
  const attention::MultiHeadTrace t =
      attention::multi_head_trace(inputs, wq, wk, wv, w_out, counts, {call.scale, call.is_causal});
  attention::pack_trace(t, d, reinterpret_cast<std::uint8_t*>(call.out));
  return "";
}

// The core's trace_layout() as JS objects: [{ name, head?, element, shape, offset, count }],
// `head` only on a field of one head. Dims no trace can have give their error message instead.
emscripten::val trace_layout(const attention::TraceDims& dims) {
  if (const char* error = attention::trace_dims_error(dims)) return emscripten::val(error);
  emscripten::val fields = emscripten::val::array();
  std::size_t index = 0;
  for (const attention::TraceField& field : attention::trace_layout(dims)) {
    emscripten::val shape = emscripten::val::array();
    for (std::size_t r = 0; r < field.rank; ++r) shape.set(r, field.shape[r]);
    emscripten::val entry = emscripten::val::object();
    entry.set("name", std::string(field.name));
    if (field.head != attention::whole_trace) entry.set("head", field.head);
    entry.set("element",
              std::string(field.element == attention::Element::float32 ? "float32" : "uint8"));
    entry.set("shape", shape);
    entry.set("offset", field.offset);
    entry.set("count", field.count);
    fields.set(index++, entry);
  }
  return fields;
}

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
  using attention::TraceDims;
  em::value_object<TraceDims>("TraceDims")
      .field("n", &TraceDims::n)
      .field("dIn", &TraceDims::d_in)
      .field("dK", &TraceDims::d_k)
      .field("dV", &TraceDims::d_v)
      .field("heads", &TraceDims::heads)
      .field("kvHeads", &TraceDims::kv_heads)
      .field("dOut", &TraceDims::d_out);
  em::value_object<TraceCall>("TraceCall")
      .field("x", &TraceCall::x)
      .field("wQuery", &TraceCall::w_query)
      .field("wKey", &TraceCall::w_key)
      .field("wValue", &TraceCall::w_value)
      .field("wOut", &TraceCall::w_out)
      .field("out", &TraceCall::out)
      .field("dims", &TraceCall::dims)
      .field("scale", &TraceCall::scale)
      .field("isCausal", &TraceCall::is_causal);
  em::function("traceInto", &trace_into);
  em::function("traceLayout", &trace_layout);
  em::function("runAttention", &attention_call::run);
  em::function("attentionWorkingBytes", &attention_call::working_bytes);
  em::function("maximumMemoryBytes", &maximum_memory_bytes);
  em::function("simdArch", &simd_arch);
  em::function("relaxedSimd", &relaxed_simd);
  em::function("heapBytesInUse", &heap_bytes_in_use);
  em::function("markLoaded", &mark_loaded);
}
