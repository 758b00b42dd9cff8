// The staged path for teaching: every intermediate of the article's computation is kept.
#pragma once

#include "tensor.hpp"

namespace attention {

struct TraceOptions {
  float scale = 1.0f;      // the article does not scale; the Transformer uses 1/sqrt(d_k)
  bool is_causal = false;  // hide later keys from earlier queries
};

struct Trace {
  Matrix queries;    // n x d_k
  Matrix keys;       // n x d_k
  Matrix values;     // n x d_v
  Matrix scores;     // n x n, queries . keys^T * scale, -inf where masked
  Matrix weights;    // n x n, row softmax of scores
  Tensor3 weighted;  // n x n x d_v, weighted[i][j] = weights[i][j] * values[j]
  Matrix outputs;    // n x d_v, outputs[i] = sum over j of weighted[i][j]
};

// Why a trace cannot be computed, or nullptr when it can. Shapes: inputs n x d_in,
// w_query and w_key d_in x d_k, w_value d_in x d_v, every dimension at least 1.
const char* trace_shape_error(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key,
                              const Matrix& w_value);

// Runs every stage; the shapes must satisfy trace_shape_error() == nullptr.
Trace trace(const Matrix& inputs, const Matrix& w_query, const Matrix& w_key, const Matrix& w_value,
            const TraceOptions& options = {});

}  // namespace attention
