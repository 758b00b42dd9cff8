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
#include "trace.hpp"

namespace {

const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

attention::Matrix matrix_from(std::uintptr_t address, std::size_t rows, std::size_t cols) {
  attention::Matrix m({rows, cols});
  std::copy(floats(address), floats(address) + rows * cols, m.begin());
  return m;
}

// trace()'s arguments as one object (an Embind value_object): addresses of the row-major
// float inputs in wasm memory, their dims, the options, and where to write the packed trace
// (traceBytes() of room).
struct TraceCall {
  std::uintptr_t x = 0, w_query = 0, w_key = 0, w_value = 0, out = 0;
  std::size_t n = 0, d_in = 0, d_k = 0, d_v = 0;
  float scale = 1.0f;
  bool is_causal = false;
};

// Packs the trace at call.out as traceLayout() describes; "" on success, else why not.
std::string trace_into(const TraceCall& call) {
  const attention::Matrix inputs = matrix_from(call.x, call.n, call.d_in);
  const attention::Matrix wq = matrix_from(call.w_query, call.d_in, call.d_k);
  const attention::Matrix wk = matrix_from(call.w_key, call.d_in, call.d_k);
  const attention::Matrix wv = matrix_from(call.w_value, call.d_in, call.d_v);
  if (const char* error = attention::trace_shape_error(inputs, wq, wk, wv)) return error;
  const attention::Trace t = attention::trace(inputs, wq, wk, wv, {call.scale, call.is_causal});
  attention::pack_trace(t, reinterpret_cast<std::uint8_t*>(call.out));
  return "";
}

// The core's trace_layout() as JS objects: [{ name, element, shape, offset, count }].
emscripten::val trace_layout(std::size_t n, std::size_t d_in, std::size_t d_k, std::size_t d_v) {
  emscripten::val fields = emscripten::val::array();
  std::size_t index = 0;
  for (const attention::TraceField& field : attention::trace_layout({n, d_in, d_k, d_v})) {
    emscripten::val shape = emscripten::val::array();
    for (std::size_t r = 0; r < field.rank; ++r) shape.set(r, field.shape[r]);
    emscripten::val entry = emscripten::val::object();
    entry.set("name", std::string(field.name));
    entry.set("element",
              std::string(field.element == attention::Element::float32 ? "float32" : "uint8"));
    entry.set("shape", shape);
    entry.set("offset", field.offset);
    entry.set("count", field.count);
    fields.set(index++, entry);
  }
  return fields;
}

std::size_t trace_bytes(std::size_t n, std::size_t d_in, std::size_t d_k, std::size_t d_v) {
  return attention::trace_bytes({n, d_in, d_k, d_v});
}

std::string simd_arch() { return xsimd::default_arch::name(); }

// What the module itself holds once loaded (Embind keeps a small record per value_object
// field for good), measured at the end of the registrations below.
std::size_t heap_bytes_at_load = 0;

// Bytes malloc has handed out beyond that and not taken back: lets tests prove calls leak
// nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks - heap_bytes_at_load; }

// The most bytes wasm memory may grow to (-sMAXIMUM_MEMORY, set in CMakeLists.txt).
double maximum_memory_bytes() { return double(ATTENTION_MAXIMUM_MEMORY); }

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
  em::value_object<TraceCall>("TraceCall")
      .field("x", &TraceCall::x)
      .field("wQuery", &TraceCall::w_query)
      .field("wKey", &TraceCall::w_key)
      .field("wValue", &TraceCall::w_value)
      .field("out", &TraceCall::out)
      .field("n", &TraceCall::n)
      .field("dIn", &TraceCall::d_in)
      .field("dK", &TraceCall::d_k)
      .field("dV", &TraceCall::d_v)
      .field("scale", &TraceCall::scale)
      .field("isCausal", &TraceCall::is_causal);
  em::function("traceInto", &trace_into);
  em::function("traceLayout", &trace_layout);
  em::function("traceBytes", &trace_bytes);
  em::function("runAttention", &attention_call::run);
  em::function("attentionWorkingBytes", &attention_call::working_bytes);
  em::function("maximumMemoryBytes", &maximum_memory_bytes);
  em::function("simdArch", &simd_arch);
  em::function("heapBytesInUse", &heap_bytes_in_use);
  heap_bytes_at_load = mallinfo().uordblks;
}
