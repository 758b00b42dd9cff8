// The staged path for teaching: every intermediate of the article's computation is kept, for
// one head (trace) or for a layer of several heads with an output projection
// (multi_head_trace), and trace_layout() is the one description of how a trace is packed into
// one buffer (the wasm binding writes it, the JS layer reads it back with the same table).
// Backwards, attend_backward() and multi_head_trace_backward() give the gradient of a loss
// with respect to every intermediate, from the gradient of its outputs (stages.hpp's
// `_backward` twins, in reverse order).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention.hpp"
#include "tensor.hpp"

namespace attention {

// A trace takes attention()'s options record (attention.hpp): its scores go through the same
// score step (kernels/score_step.hpp), query i at position i among the n keys. Its scale
// defaults to 1, as the article does not scale (the Transformer uses 1/sqrt(d_k)).

struct Trace {
  Matrix queries;       // n x d_k
  Matrix keys;          // n x d_k
  Matrix values;        // n x d_v
  Matrix scores;        // n x n, queries . keys^T * scale after the score step
                        // (kernels/score_step.hpp), -inf where masked
  Mask mask;            // n x n, 1 where key j is hidden from query i by position (causal)
  Vector row_max;       // n, each row's largest score (the softmax's shift)
  Matrix exponentials;  // n x n, e^(scores[i][j] - row_max[i]), 0 where masked
  Vector row_sums;      // n, each row's sum of exponentials (the softmax's denominator)
  Matrix weights;       // n x n, exponentials / row_sums: each row sums to 1
  Tensor3 weighted;     // n x n x d_v, weighted[i][j] = weights[i][j] * values[j]
  Matrix outputs;       // n x d_v, outputs[i] = sum over j of weighted[i][j]
};

// Why a trace cannot be computed, or nullptr when it can. Shapes: inputs n x d_in,
// w_query and w_key d_in x d_k, w_value d_in x d_v, every dimension at least 1.
const char* trace_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                              const Matrix& w_value);

// Runs every stage; the shapes must satisfy trace_shape_error() == nullptr.
Trace trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key, const Matrix& w_value,
            const AttentionOptions& options = {});

// The stages after the projections: queries (n x d_k), keys (n x d_k), values (n x d_v) ->
// the rest of the trace, for query head `head` of `heads` (what the score step does may depend
// on the head). trace() is project() three times, then this.
Trace attend(Matrix queries, Matrix keys, Matrix values, const AttentionOptions& options,
             std::size_t head = 0, std::size_t heads = 1);

// The gradient of a loss with respect to each intermediate of one head's Trace, each the
// shape of the intermediate it belongs to.
struct TraceGrad {
  Matrix outputs;    // n x d_v, given: how the loss changes with each output
  Tensor3 weighted;  // n x n x d_v
  Matrix weights;    // n x n
  Matrix scores;     // n x n, 0 where the mask hides the score
  Matrix queries;    // n x d_k
  Matrix keys;       // n x d_k
  Matrix values;     // n x d_v
};

// t (attend()'s, run with `options`), d_outputs (n x d_v) -> every intermediate's gradient:
// sum_weighted_values, weight_values, softmax_rows, apply_mask, the score step and
// attention_scores backwards.
TraceGrad attend_backward(const Trace& t, const Matrix& d_outputs, const AttentionOptions& options,
                          std::size_t head = 0, std::size_t heads = 1);

// --- several heads ---------------------------------------------------------------------

struct HeadCounts {
  std::size_t heads = 1;     // query heads
  std::size_t kv_heads = 1;  // key/value heads; divides heads (kv_heads < heads: GQA, 1: MQA)
};

struct MultiHeadTrace {
  std::vector<Trace> heads;  // `heads` single-head traces; head h: queries n x d_k_head (its
                             // block of W_Q), keys n x d_k_head and values n x d_v_head (from
                             // kv head h / (heads / kv_heads)), outputs n x d_v_head
  Matrix concat;             // n x (heads * d_v_head): the heads' outputs side by side
  Matrix outputs;            // n x d_out = concat . w_out, or concat itself without w_out
};

// Why a multi-head trace cannot be computed, or nullptr when it can. Shapes: inputs n x d_in,
// w_query d_in x (heads * d_k_head), w_key d_in x (kv_heads * d_k_head), w_value
// d_in x (kv_heads * d_v_head), w_out (when not null) (heads * d_v_head) x d_out.
const char* multi_head_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                                   const Matrix& w_value, const Matrix* w_out,
                                   const HeadCounts& counts);

// Splits the projections into heads (stages.hpp's column_block), runs attend() per head,
// concatenates the heads' outputs and applies w_out when given. With one head and no w_out,
// heads[0] is exactly trace() and concat and outputs are its outputs.
MultiHeadTrace multi_head_trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                                const Matrix& w_value, const Matrix* w_out,
                                const HeadCounts& counts, const AttentionOptions& options = {});

// The gradient of a loss with respect to every intermediate of a MultiHeadTrace and to its
// inputs and weights, each the shape of what it belongs to.
struct LayerGrad {
  std::vector<TraceGrad> heads;  // head h's intermediates; its keys and values are its kv
                                 // head's, shared by the group's query heads, so their
                                 // gradients are the sum over the group (the same for each)
  Matrix outputs;                // n x d_out (n x (heads * d_v_head) without w_out), given
  Matrix w_out;                  // (heads * d_v_head) x d_out; 0 x 0 without w_out
  Matrix concat;                 // n x (heads * d_v_head)
  Matrix w_query;                // d_in x (heads * d_k_head)
  Matrix w_key;                  // d_in x (kv_heads * d_k_head)
  Matrix w_value;                // d_in x (kv_heads * d_v_head)
  Matrix inputs;                 // n x d_in: x feeds every projection, so it sums them all
};

// t (multi_head_trace()'s, of the same arguments), d_outputs (the shape of t.outputs) -> every
// gradient: w_out and the concatenation, each head backwards (attend_backward), then each
// projection and column block backwards (a kv head's block once, from its group's sum).
LayerGrad multi_head_trace_backward(const MultiHeadTrace& t, const Matrix& inputs,
                                    const Matrix& w_query, const Matrix& w_key,
                                    const Matrix& w_value, const Matrix* w_out,
                                    const HeadCounts& counts, const AttentionOptions& options,
                                    const Matrix& d_outputs);

// --- the packed form -------------------------------------------------------------------

// What decides a packed trace's layout. d_k is w_query's columns (heads * d_k_head), d_v is
// w_value's (kv_heads * d_v_head); d_out is w_out's columns, 0 without w_out. with_grad: the
// trace carries a LayerGrad too.
// A record JS writes into wasm memory (src/bindings/call_layout.hpp reads each_field).
struct TraceDims {
  static constexpr const char* name = "TraceDims";
  std::size_t n = 0, d_in = 0, d_k = 0, d_v = 0;
  std::size_t heads = 1, kv_heads = 1, d_out = 0;
  bool with_grad = false;

  // visit(name, member) for every field (call_layout.hpp).
  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("n", &TraceDims::n);
    visit("d_in", &TraceDims::d_in);
    visit("d_k", &TraceDims::d_k);
    visit("d_v", &TraceDims::d_v);
    visit("heads", &TraceDims::heads);
    visit("kv_heads", &TraceDims::kv_heads);
    visit("d_out", &TraceDims::d_out);
    visit("with_grad", &TraceDims::with_grad);
  }
};

// Why no trace has these dims, or nullptr: every dim at least 1 (d_out may be 0), kv_heads
// divides heads, heads divides d_k and kv_heads divides d_v.
const char* trace_dims_error(const TraceDims& dims);

// Columns of w_key for these dims: kv_heads * d_k_head.
std::size_t key_columns(const TraceDims& dims);

// One head and no w_out: packed as the single-head trace, its fields at the top level.
bool is_single_head(const TraceDims& dims);

enum class Element : std::uint8_t { float32, uint8 };

// One field of a packed trace: `count` elements of `element`, row-major, `shape` (rank 1 to
// 3, unused dims 0) at byte `offset` of the buffer; `head` is the head it belongs to, or
// whole_trace for a field of the trace itself; `grad`: a gradient (of the intermediate, input
// or weight `name`), not a value.
constexpr std::size_t whole_trace = static_cast<std::size_t>(-1);

struct TraceField {
  const char* name;
  std::size_t head;
  bool grad;
  Element element;
  std::size_t rank;
  std::array<std::size_t, 3> shape;
  std::size_t count;
  std::size_t offset;
};

// Every field of a trace of these dims (trace_dims_error() == nullptr), in the order
// pack_trace() writes them: the float fields first, then the bytes of the masks (so every
// float stays 4-byte aligned). One head without w_out: the single-head Trace's fields, all
// whole_trace. Otherwise each head's Trace fields (head 0, 1, ...), then concat and outputs.
// With with_grad, the LayerGrad's fields follow the values (before the masks): each head's
// TraceGrad (all whole_trace for one head without w_out), then outputs, w_out and concat
// (only with several heads or w_out), then wQuery, wKey, wValue and x.
std::vector<TraceField> trace_layout(const TraceDims& dims);

// Bytes a packed trace of these dims takes.
std::size_t trace_bytes(const TraceDims& dims);

// Writes `t` (and `grad`, given exactly when dims.with_grad), computed for `dims`, at `out`
// (trace_bytes() of room) as trace_layout() describes.
void pack_trace(const MultiHeadTrace& t, const TraceDims& dims, std::uint8_t* out,
                const LayerGrad* grad = nullptr);

}  // namespace attention
