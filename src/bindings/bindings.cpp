// Embind bindings: type conversions only. The JS layer (src/js/api.mjs) validates arguments,
// copies them into wasm memory and passes their addresses here; results go into buffers it
// allocated. Nothing here throws or aborts: errors come back as a message ("" = success).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
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

// mask_kind: 0 none, 1 boolean (uint8), 2 additive (float); mask_dims: `mask_rank` uint32.
std::string attention_into(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::uintptr_t y,
                           std::size_t batch, std::size_t q_num_heads, std::size_t kv_num_heads,
                           std::size_t q_seq_len, std::size_t kv_seq_len, std::size_t head_size,
                           std::size_t v_head_size, float scale, bool is_causal, float softcap,
                           int mask_kind, std::uintptr_t mask_data, std::uintptr_t mask_dims,
                           std::size_t mask_rank) {
  const attention::AttentionShape shape{batch,      q_num_heads, kv_num_heads, q_seq_len,
                                        kv_seq_len, head_size,   v_head_size};
  if (const char* error = attention::attention_shape_error(shape)) return error;
  attention::AttentionMask mask;
  if (mask_kind != 0) {
    std::size_t dims[4] = {0, 0, 0, 0};
    const auto* dims32 = reinterpret_cast<const std::uint32_t*>(mask_dims);
    for (std::size_t i = 0; i < mask_rank && i < 4; ++i) dims[i] = dims32[i];
    if (const char* error = attention::broadcast_mask_strides(dims, mask_rank, shape, mask.strides))
      return error;
    mask.kind = mask_kind == 1 ? attention::MaskKind::boolean : attention::MaskKind::additive;
    mask.allowed = reinterpret_cast<const std::uint8_t*>(mask_data);
    mask.bias = floats(mask_data);
  }
  const attention::AttentionOptions options{scale, is_causal, softcap};
  const auto status = attention::attention(floats(q), floats(k), floats(v), mask, shape, options,
                                           reinterpret_cast<float*>(y));
  return status == attention::Status::ok ? "" : "out of memory for the kernel's scratch";
}

std::string simd_arch() { return xsimd::default_arch::name(); }

// Bytes malloc has handed out and not taken back: lets tests prove calls leak nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::value_object<TraceCall>("TraceCall")
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
  emscripten::function("traceInto", &trace_into);
  emscripten::function("traceLayout", &trace_layout);
  emscripten::function("traceBytes", &trace_bytes);
  emscripten::function("attentionInto", &attention_into);
  emscripten::function("simdArch", &simd_arch);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}
