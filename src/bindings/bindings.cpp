// Embind bindings: type conversions only. The JS layer (src/js/api.mjs) validates arguments,
// copies them into wasm memory and passes their addresses here; results go into buffers it
// allocated. Nothing here throws or aborts: errors come back as a message ("" = success).
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
#include "kernels/multiply_add.hpp"
#include "trace.hpp"

namespace {

const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

attention::Matrix matrix_from(std::uintptr_t address, std::size_t rows, std::size_t cols) {
  attention::Matrix m({rows, cols});
  std::copy(floats(address), floats(address) + rows * cols, m.begin());
  return m;
}

template <class Tensor>
float* copy_out(const Tensor& t, float* out) {
  return std::copy(t.begin(), t.end(), out);
}

// Writes queries, keys, values, scores, weights, weighted, outputs one after another at `out`.
std::string trace_into(std::uintptr_t x, std::size_t n, std::size_t d_in, std::uintptr_t w_query,
                       std::uintptr_t w_key, std::size_t d_k, std::uintptr_t w_value,
                       std::size_t d_v, float scale, bool is_causal, std::uintptr_t out) {
  const attention::Matrix inputs = matrix_from(x, n, d_in);
  const attention::Matrix wq = matrix_from(w_query, d_in, d_k);
  const attention::Matrix wk = matrix_from(w_key, d_in, d_k);
  const attention::Matrix wv = matrix_from(w_value, d_in, d_v);
  if (const char* error = attention::trace_shape_error(inputs, wq, wk, wv)) return error;
  const attention::Trace t = attention::trace(inputs, wq, wk, wv, {scale, is_causal});
  float* cursor = reinterpret_cast<float*>(out);
  cursor = copy_out(t.queries, cursor);
  cursor = copy_out(t.keys, cursor);
  cursor = copy_out(t.values, cursor);
  cursor = copy_out(t.scores, cursor);
  cursor = copy_out(t.weights, cursor);
  cursor = copy_out(t.weighted, cursor);
  copy_out(t.outputs, cursor);
  return "";
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
bool relaxed_simd() { return attention::kernels::relaxed_simd_build; }

// Bytes malloc has handed out and not taken back: lets tests prove calls leak nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  emscripten::function("traceInto", &trace_into);
  emscripten::function("attentionInto", &attention_into);
  emscripten::function("simdArch", &simd_arch);
  emscripten::function("relaxedSimd", &relaxed_simd);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}
