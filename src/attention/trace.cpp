#include "trace.hpp"

#include "stages.hpp"

namespace attention {

const char* trace_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                              const Matrix& w_value) {
  if (inputs.shape(0) == 0 || inputs.shape(1) == 0) return "x must have at least one cell";
  const std::size_t d_in = inputs.shape(1);
  if (w_query.shape(0) != d_in) return "wQuery must have d_in rows, as many as x has columns";
  if (w_key.shape(0) != d_in) return "wKey must have d_in rows, as many as x has columns";
  if (w_value.shape(0) != d_in) return "wValue must have d_in rows, as many as x has columns";
  if (w_query.shape(1) == 0 || w_value.shape(1) == 0) return "weights need at least one column";
  if (w_query.shape(1) != w_key.shape(1))
    return "wQuery and wKey must have the same number of columns (d_k)";
  return nullptr;
}

Trace trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key, const Matrix& w_value,
            const TraceOptions& options) {
  Trace t;
  t.keys = project(inputs, w_key);
  t.values = project(inputs, w_value);
  t.queries = project(inputs, w_query);
  t.scores = attention_scores(t.queries, t.keys, options.scale);
  if (options.is_causal) apply_causal_mask(t.scores);
  t.weights = softmax_rows(t.scores);
  t.weighted = weight_values(t.weights, t.values);
  t.outputs = sum_weighted_values(t.weighted);
  return t;
}

}  // namespace attention
