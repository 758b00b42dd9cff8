// Embind registrations of trace(): the call (trace_call.hpp) and the core's packed layout
// (trace.hpp's trace_layout()) as JS objects. Type conversions only; nothing here throws or
// aborts.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "trace.hpp"
#include "trace_call.hpp"

namespace {

// The core's trace_layout() as JS objects:
// [{ name, head?, grad?, element, shape, offset, count }], `head` only on a field of one head,
// `grad` (true) only on a gradient. Dims no trace can have give their error message instead.
emscripten::val trace_layout(const attention::TraceDims& dims) {
  if (const char* error = attention::trace_dims_error(dims)) return emscripten::val(error);
  emscripten::val fields = emscripten::val::array();
  std::size_t index = 0;
  for (const attention::TraceField& field : attention::trace_layout(dims)) {
    emscripten::val shape = emscripten::val::array();
    for (std::size_t r = 0; r < field.rank; ++r) shape.set(r, field.shape[r]);
    emscripten::val entry = emscripten::val::object();
    entry.set("name", std::string(field.name));
    if (field.head != attention::whole_trace) entry.set("head", field.head);
    if (field.grad) entry.set("grad", true);
    entry.set("element",
              std::string(field.element == attention::Element::float32 ? "float32" : "uint8"));
    entry.set("shape", shape);
    entry.set("offset", field.offset);
    entry.set("count", field.count);
    fields.set(index++, entry);
  }
  return fields;
}

}  // namespace

EMSCRIPTEN_BINDINGS(trace) {
  namespace em = emscripten;
  using attention::TraceDims;
  using trace_call::TraceCall;
  // Field names and meanings: trace_call.hpp.
  em::value_object<TraceDims>("TraceDims")
      .field("n", &TraceDims::n)
      .field("dIn", &TraceDims::d_in)
      .field("dK", &TraceDims::d_k)
      .field("dV", &TraceDims::d_v)
      .field("heads", &TraceDims::heads)
      .field("kvHeads", &TraceDims::kv_heads)
      .field("dOut", &TraceDims::d_out)
      .field("withGrad", &TraceDims::with_grad);
  em::value_object<TraceCall>("TraceCall")
      .field("x", &TraceCall::x)
      .field("wQuery", &TraceCall::w_query)
      .field("wKey", &TraceCall::w_key)
      .field("wValue", &TraceCall::w_value)
      .field("wOut", &TraceCall::w_out)
      .field("gradOutputs", &TraceCall::grad_outputs)
      .field("out", &TraceCall::out)
      .field("dims", &TraceCall::dims)
      .field("scale", &TraceCall::scale)
      .field("isCausal", &TraceCall::is_causal)
      .field("alibi", &TraceCall::alibi)
      .field("alibiSlopes", &TraceCall::alibi_slopes);
  em::function("traceInto", &trace_call::run);
  em::function("traceLayout", &trace_layout);
}
