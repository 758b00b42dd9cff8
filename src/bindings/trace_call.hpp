// The one call the JS layer makes for trace(), as plain numbers: trace_bindings.cpp registers
// TraceCall and the core's TraceDims as Embind value_objects (JS objects with the fields
// below). No Emscripten header here, so the native tests and the fuzzer drive this same entry
// point.
//
// JS field   type                meaning (every field is required)
// x          number              byte address in wasm memory of x, n x d_in float32, row-major
// wQuery     number              address of W_Q, d_in x d_k
// wKey       number              address of W_K, d_in x (kvHeads * d_k / heads)
// wValue     number              address of W_V, d_in x d_v
// wOut       number              address of W_O, (heads * d_v / kvHeads) x dOut; 0 when absent
//                                (then dims.dOut is 0)
// gradOutputs number             address of the gradient of a loss with respect to the
//                                outputs, n x dOut (n x (heads * d_v / kvHeads) without
//                                W_O); 0 when absent (then dims.withGrad is false)
// out        number              address of trace_bytes(dims) bytes: the packed trace, as
//                                trace_layout(dims) lists its fields
// dims       TraceDims           { n, dIn, dK, dV, heads, kvHeads, dOut, withGrad } (trace.hpp)
// scale      number              multiplies q.k (1 in the article)
// isCausal   boolean             key j hidden from query i when j > i
// alibi      boolean             ALiBi: head h's scores get slope_h * (j - i)
// alibiSlopes number             address of one float32 slope per query head; 0: the standard
//                                slopes (with alibi)
//
// Validation: the JS layer checks every argument first, with its users' names and wording,
// and allocates every buffer above. run() checks again only what memory safety needs and
// returns a neutral message; it never aborts.
#pragma once

#include <cstdint>
#include <string>

#include "trace.hpp"

namespace trace_call {

struct TraceCall {
  std::uintptr_t x = 0, w_query = 0, w_key = 0, w_value = 0, w_out = 0, grad_outputs = 0;
  std::uintptr_t out = 0;
  attention::TraceDims dims;
  float scale = 1.0f;
  bool is_causal = false;
  bool alibi = false;
  std::uintptr_t alibi_slopes = 0;
};

// Packs the trace (with its gradients when grad_outputs is given) at call.out as
// trace_layout(call.dims) describes: "" on success, else why not.
std::string run(const TraceCall& call);

}  // namespace trace_call
