#include "trace.hpp"

#include <algorithm>
#include <cstring>
#include <xtensor/xbuilder.hpp>

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
  // inputs: n x d_in; w_query, w_key: d_in x d_k; w_value: d_in x d_v
  const std::size_t n = inputs.shape(0);
  Trace t;
  t.keys = project(inputs, w_key);
  t.values = project(inputs, w_value);
  t.queries = project(inputs, w_query);
  t.scores = attention_scores(t.queries, t.keys, options.scale);
  t.mask = options.is_causal ? causal_mask(n) : Mask(xt::zeros<std::uint8_t>({n, n}));
  apply_mask(t.scores, t.mask);
  t.row_max = row_maxima(t.scores);
  t.exponentials = shifted_exponentials(t.scores, t.row_max);
  t.row_sums = row_sums(t.exponentials);
  t.weights = normalise_rows(t.exponentials, t.row_sums);
  t.weighted = weight_values(t.weights, t.values);
  t.outputs = sum_weighted_values(t.weighted);
  return t;
}

namespace {

// The fields of a trace, in packing order: the one list both trace_layout() and pack_trace()
// walk. `visit(name, element, shape, rank, tensor-or-null)`.
template <class Visit>
void for_each_field(const TraceDims& d, const Trace* t, Visit&& visit) {
  const std::size_t n = d.n, d_k = d.d_k, d_v = d.d_v;
  using S = std::array<std::size_t, 3>;
  visit("queries", Element::float32, S{n, d_k, 0}, 2, t ? t->queries.data() : nullptr);
  visit("keys", Element::float32, S{n, d_k, 0}, 2, t ? t->keys.data() : nullptr);
  visit("values", Element::float32, S{n, d_v, 0}, 2, t ? t->values.data() : nullptr);
  visit("scores", Element::float32, S{n, n, 0}, 2, t ? t->scores.data() : nullptr);
  visit("rowMax", Element::float32, S{n, 0, 0}, 1, t ? t->row_max.data() : nullptr);
  visit("exponentials", Element::float32, S{n, n, 0}, 2, t ? t->exponentials.data() : nullptr);
  visit("rowSums", Element::float32, S{n, 0, 0}, 1, t ? t->row_sums.data() : nullptr);
  visit("weights", Element::float32, S{n, n, 0}, 2, t ? t->weights.data() : nullptr);
  visit("weighted", Element::float32, S{n, n, d_v}, 3, t ? t->weighted.data() : nullptr);
  visit("outputs", Element::float32, S{n, d_v, 0}, 2, t ? t->outputs.data() : nullptr);
  visit("mask", Element::uint8, S{n, n, 0}, 2,
        t ? static_cast<const void*>(t->mask.data()) : nullptr);
}

std::size_t element_bytes(Element element) { return element == Element::float32 ? 4 : 1; }

TraceDims dims_of(const Trace& t) {
  return {t.queries.shape(0), 0, t.queries.shape(1), t.values.shape(1)};
}

}  // namespace

std::vector<TraceField> trace_layout(const TraceDims& dims) {
  std::vector<TraceField> fields;
  std::size_t offset = 0;
  for_each_field(dims, nullptr,
                 [&](const char* name, Element element, std::array<std::size_t, 3> shape,
                     std::size_t rank, const void*) {
                   std::size_t count = 1;
                   for (std::size_t r = 0; r < rank; ++r) count *= shape[r];
                   fields.push_back({name, element, rank, shape, count, offset});
                   offset += count * element_bytes(element);
                 });
  return fields;
}

std::size_t trace_bytes(const TraceDims& dims) {
  const auto fields = trace_layout(dims);
  const TraceField& last = fields.back();
  return last.offset + last.count * element_bytes(last.element);
}

void pack_trace(const Trace& t, std::uint8_t* out) {
  const TraceDims dims = dims_of(t);
  const auto layout = trace_layout(dims);
  std::size_t index = 0;
  for_each_field(
      dims, &t,
      [&](const char*, Element element, std::array<std::size_t, 3>, std::size_t, const void* data) {
        const TraceField& field = layout[index++];
        std::memcpy(out + field.offset, data, field.count * element_bytes(element));
      });
}

}  // namespace attention
