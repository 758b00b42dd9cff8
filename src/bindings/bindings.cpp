// Embind bindings: type conversions only. The JS layer validates arguments, copies them into
// wasm memory and passes their addresses here; results go into buffers it allocated. Nothing
// here throws or aborts: errors come back as a message ("" = success). The call records JS
// writes into wasm memory itself (attention_call.hpp) are described to it by callLayouts.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
#include "attention_call.hpp"
#include "kernels/multiply_add.hpp"

namespace {

std::string simd_arch() { return xsimd::default_arch::name(); }
bool relaxed_simd() { return attention::kernels::relaxed_simd_build; }

// What the module itself holds once loaded (Embind keeps a small record per value_object
// field for good). Registrations live in several files, run in no set order, so JS measures
// this once every one has run: wrapModule calls markLoaded() before anything else.
std::size_t heap_bytes_at_load = 0;
void mark_loaded() { heap_bytes_at_load = mallinfo().uordblks; }

// Bytes malloc has handed out beyond that and not taken back: lets tests prove calls leak
// nothing.
std::size_t heap_bytes_in_use() { return mallinfo().uordblks - heap_bytes_at_load; }

// The most bytes wasm memory may grow to (-sMAXIMUM_MEMORY, set in CMakeLists.txt).
double maximum_memory_bytes() { return double(ATTENTION_MAXIMUM_MEMORY); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
  namespace em = emscripten;
  em::enum_<attention::Layout>("Layout")
      .value("bhsd", attention::Layout::bhsd)
      .value("bshd", attention::Layout::bshd);
  em::enum_<attention::MaskKind>("MaskKind")
      .value("none", attention::MaskKind::none)
      .value("boolean", attention::MaskKind::boolean)
      .value("additive", attention::MaskKind::additive);
  em::enum_<attention::MaskKeys>("MaskKeys")
      .value("broadcast", attention::MaskKeys::broadcast)
      .value("pad", attention::MaskKeys::pad);
  // Field names and meanings: attention_call.hpp.
  using attention_call::PresentCall;
  em::value_object<PresentCall>("PresentCall")
      .field("past", &PresentCall::past)
      .field("next", &PresentCall::next)
      .field("out", &PresentCall::out)
      .field("batch", &PresentCall::batch)
      .field("heads", &PresentCall::heads)
      .field("pastRows", &PresentCall::past_rows)
      .field("rows", &PresentCall::rows)
      .field("size", &PresentCall::size)
      .field("nextLayout", &PresentCall::next_layout);
  em::function("concatPresent", &attention_call::concat_present);
  em::function("callLayouts", &attention_call::layouts);
  em::function("maximumMemoryBytes", &maximum_memory_bytes);
  em::function("simdArch", &simd_arch);
  em::function("relaxedSimd", &relaxed_simd);
  em::function("heapBytesInUse", &heap_bytes_in_use);
  em::function("markLoaded", &mark_loaded);
}
