#include "trace_call.hpp"

#include <algorithm>

namespace trace_call {

namespace {

// rows x cols floats at `address`, copied into a Matrix (0 x cols when address is 0).
attention::Matrix matrix_from(std::uintptr_t address, std::size_t rows, std::size_t cols) {
  attention::Matrix m({rows, cols});
  const float* first = reinterpret_cast<const float*>(address);
  if (address != 0) std::copy(first, first + rows * cols, m.begin());
  return m;
}

}  // namespace

const char* run_message(const TraceCall& call) {
  const attention::TraceDims& d = call.dims;
  if (const char* error = attention::trace_dims_error(d)) return error;
  if ((d.d_out == 0) != (call.w_out == 0)) return "wOut and its column count disagree";
  if (d.with_grad != (call.grad_outputs != 0)) return "gradOutputs and withGrad disagree";
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
  const attention::AttentionOptions& options = call.options;
  const attention::MultiHeadTrace t =
      attention::multi_head_trace(inputs, wq, wk, wv, w_out, counts, options);
  std::uint8_t* out = reinterpret_cast<std::uint8_t*>(call.out);
  if (!d.with_grad) {
    attention::pack_trace(t, d, out);
    return nullptr;
  }
  const attention::Matrix d_outputs =
      matrix_from(call.grad_outputs, d.n, w_out ? d.d_out : concat_cols);
  const attention::LayerGrad grad = attention::multi_head_trace_backward(
      t, inputs, wq, wk, wv, w_out, counts, options, d_outputs);
  attention::pack_trace(t, d, out, &grad);
  return nullptr;
}

std::string run(const TraceCall& call) {
  const char* message = run_message(call);
  return message ? message : "";
}

}  // namespace trace_call

extern "C" const char* trace_call_run(const trace_call::TraceCall* call) {
  return trace_call::run_message(*call);
}
