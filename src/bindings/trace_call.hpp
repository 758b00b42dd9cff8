// The one call the JS layer makes for trace(): a TraceCall record that JS writes into wasm
// memory (where call_layout.hpp's description of each_field says each field lies,
// src/js/module/core-call.mjs) and hands to the plain export trace_call_run by its address.
// No Emscripten header here, so the native tests and the fuzzer drive this same entry point.
//
// field (JS name)  type                 meaning (every field is written)
// x                address              x, n x d_in float32, row-major
// wQuery           address              W_Q, d_in x d_k
// wKey             address              W_K, d_in x (kvHeads * d_k / heads)
// wValue           address              W_V, d_in x d_v
// wOut             address              W_O, (heads * d_v / kvHeads) x dOut; 0 when absent
//                                       (then dims.dOut is 0)
// gradOutputs      address              the gradient of a loss with respect to the outputs,
//                                       n x dOut (n x (heads * d_v / kvHeads) without W_O);
//                                       0 when absent (then dims.withGrad is false)
// out              address              trace_bytes(dims) bytes: the packed trace, as
//                                       trace_layout(dims) lists its fields
// dims             TraceDims            { n, dIn, dK, dV, heads, kvHeads, dOut, withGrad }
//                                       (trace.hpp)
// options          AttentionOptions     the options record attention() takes (attention.hpp):
//                                       every score goes through the same score step
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
  static constexpr const char* name = "TraceCall";
  std::uintptr_t x = 0, w_query = 0, w_key = 0, w_value = 0, w_out = 0, grad_outputs = 0;
  std::uintptr_t out = 0;
  attention::TraceDims dims;
  attention::AttentionOptions options;

  // visit(name, member) for every field (call_layout.hpp).
  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("x", &TraceCall::x);
    visit("w_query", &TraceCall::w_query);
    visit("w_key", &TraceCall::w_key);
    visit("w_value", &TraceCall::w_value);
    visit("w_out", &TraceCall::w_out);
    visit("grad_outputs", &TraceCall::grad_outputs);
    visit("out", &TraceCall::out);
    visit("dims", &TraceCall::dims);
    visit("options", &TraceCall::options);
  }
};

// Packs the trace (with its gradients when grad_outputs is given) at call.out as
// trace_layout(call.dims) describes: nullptr on success, else why not.
const char* run_message(const TraceCall& call);
// The same, "" on success (for tests).
std::string run(const TraceCall& call);

}  // namespace trace_call

// A plain wasm export (CMakeLists.txt's EXPORTED_FUNCTIONS), as attention_call_run is:
// trace_call::run_message of the record at `call`.
extern "C" const char* trace_call_run(const trace_call::TraceCall* call);
