// The staged path for teaching: every intermediate of the article's computation is kept, and
// trace_layout() is the one description of how a trace is packed into one buffer (the wasm
// binding writes it, the JS layer reads it back with the same table).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensor.hpp"

namespace attention {

struct TraceOptions {
  float scale = 1.0f;      // the article does not scale; the Transformer uses 1/sqrt(d_k)
  bool is_causal = false;  // hide later keys from earlier queries
};

struct Trace {
  Matrix queries;       // n x d_k
  Matrix keys;          // n x d_k
  Matrix values;        // n x d_v
  Matrix scores;        // n x n, queries . keys^T * scale, -inf where masked
  Mask mask;            // n x n, 1 where key j is hidden from query i (all 0 unless causal)
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
            const TraceOptions& options = {});

// --- the packed form -------------------------------------------------------------------

struct TraceDims {
  std::size_t n = 0, d_in = 0, d_k = 0, d_v = 0;
};

enum class Element : std::uint8_t { float32, uint8 };

// One field of a packed trace: `count` elements of `element`, row-major, `shape` (rank 1 to
// 3, unused dims 0) at byte `offset` of the buffer.
struct TraceField {
  const char* name;
  Element element;
  std::size_t rank;
  std::array<std::size_t, 3> shape;
  std::size_t count;
  std::size_t offset;
};

// Every field of a trace of these dims, in the order pack_trace() writes them: the float
// fields first, then the bytes of the mask (so every float stays 4-byte aligned).
std::vector<TraceField> trace_layout(const TraceDims& dims);

// Bytes a packed trace of these dims takes.
std::size_t trace_bytes(const TraceDims& dims);

// Writes `t` at `out` (trace_bytes() of room) as trace_layout() describes.
void pack_trace(const Trace& t, std::uint8_t* out);

}  // namespace attention
