#include "trace.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>
#include <xtensor/xbuilder.hpp>

#include "kernels/score_step.hpp"
#include "stages.hpp"

namespace attention {

const char* trace_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                              const Matrix& w_value) {
  return multi_head_shape_error(inputs, w_query, w_key, w_value, nullptr, HeadCounts{});
}

Trace trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key, const Matrix& w_value,
            const AttentionOptions& options) {
  // inputs: n x d_in; w_query, w_key: d_in x d_k; w_value: d_in x d_v
  return attend(project(inputs, w_query), project(inputs, w_key), project(inputs, w_value),
                options);
}

namespace {

// -> mask (n x n): 1 where the options hide key j from query i by position.
Mask position_mask(const AttentionOptions& options, std::size_t n) {
  Mask mask = xt::zeros<std::uint8_t>({n, n});
  for (std::size_t i = 0; i < n; ++i) {
    const kernels::KeyRange visible = kernels::visible_keys(options, 0, n, i);
    for (std::size_t j = 0; j < n; ++j) mask(i, j) = j < visible.begin || j >= visible.end;
  }
  return mask;
}

// scores (n x n), in place: each row through the score step (kernels/score_step.hpp: the
// options' effects, -inf where hidden), as attention()'s kernels take it, query i at position i
// among the n keys. `capped`, when given (n x n), receives what the step's derivative needs.
void adjust_score_rows(Matrix& scores, const AttentionOptions& options, std::size_t head,
                       std::size_t heads, Matrix* capped = nullptr) {
  const std::size_t n = scores.shape(0);
  for (std::size_t i = 0; i < n; ++i)
    kernels::adjust_scores(
        &scores(i, 0), 0, n, options, AttentionMask{},
        kernels::score_row(options, kernels::visible_keys(options, 0, n, i), i, head, heads),
        capped ? &(*capped)(i, 0) : nullptr);
}

}  // namespace

Trace attend(Matrix queries, Matrix keys, Matrix values, const AttentionOptions& options,
             std::size_t head, std::size_t heads) {
  // queries, keys: n x d_k; values: n x d_v
  const std::size_t n = queries.shape(0);
  Trace t;
  t.queries = std::move(queries);
  t.keys = std::move(keys);
  t.values = std::move(values);
  t.scores = attention_scores(t.queries, t.keys, options.scale);
  t.mask = position_mask(options, n);
  adjust_score_rows(t.scores, options, head, heads);
  t.row_max = row_maxima(t.scores);
  t.exponentials = shifted_exponentials(t.scores, t.row_max);
  t.row_sums = row_sums(t.exponentials);
  t.weights = normalise_rows(t.exponentials, t.row_sums);
  t.weighted = weight_values(t.weights, t.values);
  t.outputs = sum_weighted_values(t.weighted);
  return t;
}

TraceGrad attend_backward(const Trace& t, const Matrix& d_outputs, const AttentionOptions& options,
                          std::size_t head, std::size_t heads) {
  // t: queries, keys n x d_k; values n x d_v; scores, weights n x n; d_outputs: n x d_v
  const std::size_t n = t.keys.shape(0);
  TraceGrad g;
  g.outputs = d_outputs;
  g.weighted = sum_weighted_values_backward(g.outputs, n);
  WeightValuesGrad weighting = weight_values_backward(t.weights, t.values, g.weighted);
  g.weights = std::move(weighting.weights);
  g.scores = softmax_rows_backward(t.weights, g.weights);
  apply_mask_backward(g.scores, t.mask);
  // The score step's derivative needs the step's first part of the scores: computed again.
  Matrix scores = attention_scores(t.queries, t.keys, options.scale);
  Matrix capped(scores.shape());
  adjust_score_rows(scores, options, head, heads, &capped);
  Matrix d_raw = g.scores;
  for (std::size_t i = 0; i < n; ++i)
    kernels::adjust_scores_backward(&d_raw(i, 0), &capped(i, 0), n, options);
  ScoresGrad scoring = attention_scores_backward(t.queries, t.keys, options.scale, d_raw);
  g.queries = std::move(scoring.queries);
  g.keys = std::move(scoring.keys);
  g.values = std::move(weighting.values);
  return g;
}

const char* trace_dims_error(const TraceDims& d) {
  if (d.n == 0 || d.d_in == 0) return "x must have at least one cell";
  if (d.d_k == 0 || d.d_v == 0) return "weights need at least one column";
  if (d.heads == 0) return "heads must be at least 1";
  if (d.kv_heads == 0) return "kvHeads must be at least 1";
  if (d.heads % d.kv_heads != 0) return "kvHeads must divide heads";
  if (d.d_k % d.heads != 0) return "heads must divide wQuery's columns (d_k)";
  if (d.d_v % d.kv_heads != 0) return "kvHeads must divide wValue's columns (d_v)";
  return nullptr;
}

std::size_t key_columns(const TraceDims& d) { return d.d_k / d.heads * d.kv_heads; }

bool is_single_head(const TraceDims& d) { return d.heads == 1 && d.d_out == 0; }

const char* multi_head_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                                   const Matrix& w_value, const Matrix* w_out,
                                   const HeadCounts& counts) {
  const TraceDims dims{
      inputs.shape(0), inputs.shape(1), w_query.shape(1),           w_value.shape(1),
      counts.heads,    counts.kv_heads, w_out ? w_out->shape(1) : 0};
  if (const char* error = trace_dims_error(dims)) return error;
  if (w_query.shape(0) != dims.d_in) return "wQuery must have d_in rows, as many as x has columns";
  if (w_key.shape(0) != dims.d_in) return "wKey must have d_in rows, as many as x has columns";
  if (w_value.shape(0) != dims.d_in) return "wValue must have d_in rows, as many as x has columns";
  if (w_key.shape(1) != key_columns(dims))
    return "wKey must have kvHeads * d_k_head columns (d_k_head = wQuery's columns / heads)";
  if (w_out && w_out->shape(0) != dims.heads * (dims.d_v / dims.kv_heads))
    return "wOut must have heads * d_v_head rows, as many as the heads' outputs side by side";
  if (w_out && w_out->shape(1) == 0) return "wOut needs at least one column";
  return nullptr;
}

MultiHeadTrace multi_head_trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                                const Matrix& w_value, const Matrix* w_out,
                                const HeadCounts& counts, const AttentionOptions& options) {
  // inputs: n x d_in; w_query: d_in x (heads * d_k_head); w_key: d_in x (kv_heads * d_k_head);
  // w_value: d_in x (kv_heads * d_v_head); w_out: (heads * d_v_head) x d_out
  const std::size_t group = counts.heads / counts.kv_heads;  // query heads per kv head
  // Each kv head's keys and values (n x d_k_head, n x d_v_head), projected once and shared by
  // the `group` query heads that read them.
  std::vector<Matrix> keys, values;
  for (std::size_t g = 0; g < counts.kv_heads; ++g) {
    keys.push_back(project(inputs, column_block(w_key, g, counts.kv_heads)));
    values.push_back(project(inputs, column_block(w_value, g, counts.kv_heads)));
  }
  MultiHeadTrace t;
  std::vector<Matrix> head_outputs;
  for (std::size_t h = 0; h < counts.heads; ++h) {
    Matrix queries = project(inputs, column_block(w_query, h, counts.heads));
    t.heads.push_back(
        attend(std::move(queries), keys[h / group], values[h / group], options, h, counts.heads));
    head_outputs.push_back(t.heads.back().outputs);
  }
  t.concat = concatenate_columns(head_outputs);
  t.outputs = w_out ? project(t.concat, *w_out) : t.concat;
  return t;
}

LayerGrad multi_head_trace_backward(const MultiHeadTrace& t, const Matrix& inputs,
                                    const Matrix& w_query, const Matrix& w_key,
                                    const Matrix& w_value, const Matrix* w_out,
                                    const HeadCounts& counts, const AttentionOptions& options,
                                    const Matrix& d_outputs) {
  // inputs: n x d_in; w_query: d_in x (heads * d_k_head); w_key: d_in x (kv_heads * d_k_head);
  // w_value: d_in x (kv_heads * d_v_head); w_out: (heads * d_v_head) x d_out;
  // d_outputs: n x d_out (n x (heads * d_v_head) without w_out)
  const std::size_t group = counts.heads / counts.kv_heads;  // query heads per kv head
  LayerGrad g;
  g.outputs = d_outputs;
  if (w_out) {
    ProjectGrad out = project_backward(t.concat, *w_out, g.outputs);
    g.concat = std::move(out.inputs);
    g.w_out = std::move(out.weights);
  } else {
    g.concat = g.outputs;
  }
  std::vector<std::size_t> widths;
  for (const Trace& head : t.heads) widths.push_back(head.outputs.shape(1));
  const std::vector<Matrix> d_head_outputs = concatenate_columns_backward(g.concat, widths);
  g.w_query = xt::zeros<float>(w_query.shape());
  g.w_key = xt::zeros<float>(w_key.shape());
  g.w_value = xt::zeros<float>(w_value.shape());
  g.inputs = xt::zeros<float>(inputs.shape());
  // Each kv head's keys and values gradients, summed over the query heads that read them.
  std::vector<Matrix> d_keys(counts.kv_heads), d_values(counts.kv_heads);
  for (std::size_t h = 0; h < counts.heads; ++h) {
    g.heads.push_back(attend_backward(t.heads[h], d_head_outputs[h], options, h, counts.heads));
    const TraceGrad& head = g.heads.back();
    const std::size_t kv = h / group;
    d_keys[kv] = h % group == 0 ? head.keys : Matrix(d_keys[kv] + head.keys);
    d_values[kv] = h % group == 0 ? head.values : Matrix(d_values[kv] + head.values);
    ProjectGrad queries =
        project_backward(inputs, column_block(w_query, h, counts.heads), head.queries);
    column_block_backward(queries.weights, h, counts.heads, g.w_query);
    g.inputs += queries.inputs;
  }
  for (std::size_t kv = 0; kv < counts.kv_heads; ++kv) {
    ProjectGrad keys =
        project_backward(inputs, column_block(w_key, kv, counts.kv_heads), d_keys[kv]);
    column_block_backward(keys.weights, kv, counts.kv_heads, g.w_key);
    ProjectGrad values =
        project_backward(inputs, column_block(w_value, kv, counts.kv_heads), d_values[kv]);
    column_block_backward(values.weights, kv, counts.kv_heads, g.w_value);
    g.inputs += keys.inputs + values.inputs;
  }
  for (std::size_t h = 0; h < counts.heads; ++h) {
    g.heads[h].keys = d_keys[h / group];
    g.heads[h].values = d_values[h / group];
  }
  return g;
}

namespace {

using Shape = std::array<std::size_t, 3>;

// The fields of one head's Trace, floats only, in packing order.
// `visit(grad, name, head, element, shape, rank, data-or-null)`; grad false: a value.
template <class Visit>
void visit_head_floats(std::size_t n, std::size_t d_k, std::size_t d_v, std::size_t head,
                       const Trace* t, Visit& visit) {
  const auto data = [&](const auto& member) -> const void* {
    return t ? (t->*member).data() : nullptr;
  };
  visit(false, "queries", head, Element::float32, Shape{n, d_k, 0}, 2, data(&Trace::queries));
  visit(false, "keys", head, Element::float32, Shape{n, d_k, 0}, 2, data(&Trace::keys));
  visit(false, "values", head, Element::float32, Shape{n, d_v, 0}, 2, data(&Trace::values));
  visit(false, "scores", head, Element::float32, Shape{n, n, 0}, 2, data(&Trace::scores));
  visit(false, "rowMax", head, Element::float32, Shape{n, 0, 0}, 1, data(&Trace::row_max));
  visit(false, "exponentials", head, Element::float32, Shape{n, n, 0}, 2,
        data(&Trace::exponentials));
  visit(false, "rowSums", head, Element::float32, Shape{n, 0, 0}, 1, data(&Trace::row_sums));
  visit(false, "weights", head, Element::float32, Shape{n, n, 0}, 2, data(&Trace::weights));
  visit(false, "weighted", head, Element::float32, Shape{n, n, d_v}, 3, data(&Trace::weighted));
  visit(false, "outputs", head, Element::float32, Shape{n, d_v, 0}, 2, data(&Trace::outputs));
}

// The fields of one head's TraceGrad, in packing order, as visit_head_floats().
template <class Visit>
void visit_head_grads(std::size_t n, std::size_t d_k, std::size_t d_v, std::size_t head,
                      const TraceGrad* g, Visit& visit) {
  const auto data = [&](const auto& member) -> const void* {
    return g ? (g->*member).data() : nullptr;
  };
  const Element f = Element::float32;
  visit(true, "outputs", head, f, Shape{n, d_v, 0}, 2, data(&TraceGrad::outputs));
  visit(true, "weighted", head, f, Shape{n, n, d_v}, 3, data(&TraceGrad::weighted));
  visit(true, "weights", head, f, Shape{n, n, 0}, 2, data(&TraceGrad::weights));
  visit(true, "scores", head, f, Shape{n, n, 0}, 2, data(&TraceGrad::scores));
  visit(true, "queries", head, f, Shape{n, d_k, 0}, 2, data(&TraceGrad::queries));
  visit(true, "keys", head, f, Shape{n, d_k, 0}, 2, data(&TraceGrad::keys));
  visit(true, "values", head, f, Shape{n, d_v, 0}, 2, data(&TraceGrad::values));
}

// The LayerGrad's fields, in packing order, as visit_head_floats().
template <class Visit>
void visit_layer_grads(const TraceDims& d, const LayerGrad* g, Visit& visit) {
  const bool single = is_single_head(d);
  const std::size_t n = d.n, d_k_head = d.d_k / d.heads, d_v_head = d.d_v / d.kv_heads;
  const std::size_t concat_cols = d.heads * d_v_head;
  const auto data = [&](const Matrix LayerGrad::*member) -> const void* {
    return g ? (g->*member).data() : nullptr;
  };
  for (std::size_t h = 0; h < d.heads; ++h)
    visit_head_grads(n, d_k_head, d_v_head, single ? whole_trace : h, g ? &g->heads[h] : nullptr,
                     visit);
  const Element f = Element::float32;
  if (!single) {
    const std::size_t out_cols = d.d_out == 0 ? concat_cols : d.d_out;
    visit(true, "outputs", whole_trace, f, Shape{n, out_cols, 0}, 2, data(&LayerGrad::outputs));
    if (d.d_out != 0)
      visit(true, "wOut", whole_trace, f, Shape{concat_cols, d.d_out, 0}, 2,
            data(&LayerGrad::w_out));
    visit(true, "concat", whole_trace, f, Shape{n, concat_cols, 0}, 2, data(&LayerGrad::concat));
  }
  visit(true, "wQuery", whole_trace, f, Shape{d.d_in, d.d_k, 0}, 2, data(&LayerGrad::w_query));
  visit(true, "wKey", whole_trace, f, Shape{d.d_in, key_columns(d), 0}, 2, data(&LayerGrad::w_key));
  visit(true, "wValue", whole_trace, f, Shape{d.d_in, d.d_v, 0}, 2, data(&LayerGrad::w_value));
  visit(true, "x", whole_trace, f, Shape{n, d.d_in, 0}, 2, data(&LayerGrad::inputs));
}

// The fields of a packed trace, in packing order: the one list both trace_layout() and
// pack_trace() walk. `t` and `g` are null when only the layout is wanted.
template <class Visit>
void for_each_field(const TraceDims& d, const MultiHeadTrace* t, const LayerGrad* g,
                    Visit&& visit) {
  const bool single = is_single_head(d);
  const std::size_t n = d.n, d_k_head = d.d_k / d.heads, d_v_head = d.d_v / d.kv_heads;
  const auto head_of = [&](std::size_t h) { return single ? whole_trace : h; };
  const auto trace_of = [&](std::size_t h) { return t ? &t->heads[h] : nullptr; };
  for (std::size_t h = 0; h < d.heads; ++h)
    visit_head_floats(n, d_k_head, d_v_head, head_of(h), trace_of(h), visit);
  if (!single) {
    const std::size_t concat_cols = d.heads * d_v_head;
    const std::size_t out_cols = d.d_out == 0 ? concat_cols : d.d_out;
    visit(false, "concat", whole_trace, Element::float32, Shape{n, concat_cols, 0}, 2,
          t ? t->concat.data() : nullptr);
    visit(false, "outputs", whole_trace, Element::float32, Shape{n, out_cols, 0}, 2,
          t ? t->outputs.data() : nullptr);
  }
  if (d.with_grad) visit_layer_grads(d, g, visit);
  for (std::size_t h = 0; h < d.heads; ++h)
    visit(false, "mask", head_of(h), Element::uint8, Shape{n, n, 0}, 2,
          t ? static_cast<const void*>(t->heads[h].mask.data()) : nullptr);
}

std::size_t element_bytes(Element element) { return element == Element::float32 ? 4 : 1; }

}  // namespace

std::vector<TraceField> trace_layout(const TraceDims& dims) {
  std::vector<TraceField> fields;
  std::size_t offset = 0;
  for_each_field(dims, nullptr, nullptr,
                 [&](bool grad, const char* name, std::size_t head, Element element, Shape shape,
                     std::size_t rank, const void*) {
                   std::size_t count = 1;
                   for (std::size_t r = 0; r < rank; ++r) count *= shape[r];
                   fields.push_back({name, head, grad, element, rank, shape, count, offset});
                   offset += count * element_bytes(element);
                 });
  return fields;
}

std::size_t trace_bytes(const TraceDims& dims) {
  const auto fields = trace_layout(dims);
  const TraceField& last = fields.back();
  return last.offset + last.count * element_bytes(last.element);
}

void pack_trace(const MultiHeadTrace& t, const TraceDims& dims, std::uint8_t* out,
                const LayerGrad* grad) {
  const auto layout = trace_layout(dims);
  std::size_t index = 0;
  for_each_field(
      dims, &t, grad,
      [&](bool, const char*, std::size_t, Element element, Shape, std::size_t, const void* data) {
        const TraceField& field = layout[index++];
        std::memcpy(out + field.offset, data, field.count * element_bytes(element));
      });
}

}  // namespace attention
