// Embind registration of trace()'s packed layout (trace.hpp's trace_layout()) as JS objects.
// The call itself is a record in wasm memory (trace_call.hpp's plain export trace_call_run).
// Type conversions only; nothing here throws or aborts.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "trace.hpp"

namespace {

// The core's trace_layout() of the TraceDims record at `address` (written by JS as
// call_layout.hpp describes it) as JS objects:
// [{ name, head?, grad?, element, shape, offset, count }], `head` only on a field of one head,
// `grad` (true) only on a gradient. Dims no trace can have give their error message instead.
emscripten::val trace_layout(std::uintptr_t address) {
  const attention::TraceDims& dims = *reinterpret_cast<const attention::TraceDims*>(address);
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

EMSCRIPTEN_BINDINGS(trace) { emscripten::function("traceLayout", &trace_layout); }
