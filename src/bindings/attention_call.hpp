// The one call the JS layer makes to run attention, as plain numbers: bindings.cpp registers
// AttentionCall as an Embind value_object (a JS object with the fields below), and the enums
// Layout, MaskKind, MaskKeys and ScoresMode as Embind enums (Module.Layout.bhsd, ...).
// No Emscripten header here, so the native tests and the fuzzer drive this same entry point.
//
// JS field        type                 meaning (every field is required)
// q, k, v, y      number               byte addresses in wasm memory of float32 tensors
// batch           number (uint32)      >= 1
// qNumHeads       number (uint32)      >= 1
// kvNumHeads      number (uint32)      >= 1, divides qNumHeads
// qSeqLen         number (uint32)      S >= 1, query rows
// kvSeqLen        number (uint32)      T >= 1, every key in k and v (past ones included)
// headSize        number (uint32)      D >= 1, for q and k
// vHeadSize       number (uint32)      Dv >= 1, for v and y
// qLayout         Module.Layout        q and y: bhsd = [batch, qNumHeads, S, D] (4-D),
//                                      bshd = [batch, S, qNumHeads * D] (3-D)
// kvLayout        Module.Layout        k and v: bhsd = [batch, kvNumHeads, T, D] or bshd
// options         AttentionOptions     the options record, one object shared by every entry
//                                      point that attends (KvAttendCall too), its fields:
//   scale         number               multiplies q.k (the caller resolves 1/sqrt(D))
//   isCausal      boolean              key j hidden from query i when j > i + offset
//   softcap       number               0 = off, else softcap * tanh(score / softcap)
//   leftWindow    number (int32)       -1 = unbounded, else keys j < i + offset - leftWindow
//                                      are hidden
//   rightWindow   number (int32)       -1 = unbounded, else keys j > i + offset + rightWindow
//                                      are hidden
// pastLength      number (uint32)      P <= T: the queries' offset (keys 0..P-1 are the past);
//                                      0 without a cache. Must be 0 with nonpadKvSeqlen.
// nonpadKvSeqlen  number               0, or the byte address of `batch` int32 valid key
//                                      counts (0..T); then offset = nonpadKvSeqlen[b] - S
// maskKind        Module.MaskKind      none | boolean (uint8, 1 = may attend) | additive
//                                      (float32, added to the scores)
// mask            number               byte address of the mask's data (0 when none)
// maskDims        [n, n, n, n]         the mask's dims, the first maskRank of them used
// maskRank        number (uint32)      1..4 (ignored when maskKind is none)
// maskKeys        Module.MaskKeys      broadcast: the last dim is T or 1 (repeated);
//                                      pad: the last dim is <= T, keys beyond it hidden (ONNX)
// scores          number               0, or the byte address of a float32
//                                      [batch, qNumHeads, S, T] buffer for qk_matmul_output
// scoresMode      Module.ScoresMode    raw | softcapped | biased | probabilities (modes 0..3)
//
// Enum fields take the Module's values (Module.Layout.bshd, ...); Embind does not check them,
// so a stray number reads as some enum value. Integer fields wrap as uint32 / int32 do.
//
// Validation: the JS layer checks every argument first, with its users' names and wording
// (lengths of typed arrays against dims, types, attribute values). The core checks again
// only what memory safety needs (the rules of attention_error in attention.hpp) and returns a
// neutral message; it never aborts. The JS layer also allocates every buffer named above
// (sizes follow from the dims), frees them, and concatenates past and new keys into one
// [batch, kvNumHeads, T, D] buffer when a cache is given (kvLayout bhsd, pastLength P).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "attention.hpp"

namespace attention_call {

struct AttentionCall {
  std::uintptr_t q = 0, k = 0, v = 0, y = 0;
  std::uint32_t batch = 1, q_num_heads = 1, kv_num_heads = 1, q_seq_len = 1, kv_seq_len = 1;
  std::uint32_t head_size = 1, v_head_size = 1;
  attention::Layout q_layout = attention::Layout::bhsd;
  attention::Layout kv_layout = attention::Layout::bhsd;
  attention::AttentionOptions options;
  std::uint32_t past_length = 0;
  std::uintptr_t nonpad_kv_seqlen = 0;
  attention::MaskKind mask_kind = attention::MaskKind::none;
  std::uintptr_t mask = 0;
  std::array<std::uint32_t, 4> mask_dims = {0, 0, 0, 0};
  std::uint32_t mask_rank = 0;
  attention::MaskKeys mask_keys = attention::MaskKeys::broadcast;
  std::uintptr_t scores = 0;
  attention::ScoresMode scores_mode = attention::ScoresMode::raw;
};

// Converts the call into the core's arguments. Returns why it cannot, or nullptr.
const char* to_args(const AttentionCall& call, attention::AttentionArgs& args);

// Runs the call: "" on success, else a neutral message saying what is wrong.
std::string run(const AttentionCall& call);

// The same, as nullptr on success, else the message (a static string, nothing to free).
const char* run_message(const AttentionCall& call);

// Bytes of working memory the kernel allocates for this call, beyond the caller's buffers
// (for every thread of the team, when set_threads gave it one).
double working_bytes(const AttentionCall& call);

// The threads run() computes with, for this module instance (one per wasm instance, or per
// process natively): 1 by default, the caller alone; set_threads(n) starts n - 1 helpers
// (thread_team.hpp) that share every later call's tiled kernel with the caller, and
// set_threads(1) stops them. Returns why it cannot (a build without threads, n outside
// 1..max_team_helpers + 1, the system refusing threads), or nullptr; refused, nothing changes.
// Not to be called while a run() is under way on another thread.
const char* set_threads(std::uint32_t threads);
std::uint32_t threads();

// ONNX's present_key (or present_value) = concat(past, new) along the sequence, as
// [batch, heads, pastRows + rows, size] at `out`: the past [batch, heads, pastRows, size]
// (contiguous, absent when pastRows is 0), then the new rows, laid out as nextLayout says
// (bhsd, or bshd: [batch, rows, heads * size]). JS field names: past, next, out (addresses),
// batch, heads, pastRows, rows, size (uint32), nextLayout (Module.Layout).
struct PresentCall {
  std::uintptr_t past = 0, next = 0, out = 0;
  std::uint32_t batch = 1, heads = 1, past_rows = 0, rows = 1, size = 1;
  attention::Layout next_layout = attention::Layout::bhsd;
};

// Builds the concatenation: "" on success, else why not (a zero dim, a size past size_t, a
// missing buffer); nothing written then.
std::string concat_present(const PresentCall& call);

// AttentionOptions from its fields as the plain exports take them, in this order (the
// attention_call_* exports below, and the KV cache's attend: kv_cache_bindings.cpp).
attention::AttentionOptions options_of(float scale, bool is_causal, float softcap,
                                       std::int32_t left_window, std::int32_t right_window);

}  // namespace attention_call

// The same two calls as plain wasm exports (listed in CMakeLists.txt's EXPORTED_FUNCTIONS),
// which JS calls without Embind: Embind converts an AttentionCall field by field through its
// generic glue (the module is built without dynamic code, for a strict CSP), about 5 us per
// conversion, and attention() converted one twice per call. The arguments are AttentionCall's
// fields in its order, maskDims spelled out; the enums are their numbers (Module.Layout.bhsd
// .value, ...), and a number that names no value is refused with a message. JS side:
// src/js/core-call.mjs (runAttentionCall, attentionWorkingBytes).
extern "C" {
// attention_call::run_message of the call these fields make: nullptr on success.
const char* attention_call_run(
    std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::uintptr_t y, std::uint32_t batch,
    std::uint32_t q_num_heads, std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
    std::uint32_t kv_seq_len, std::uint32_t head_size, std::uint32_t v_head_size,
    std::int32_t q_layout, std::int32_t kv_layout, float scale, bool is_causal, float softcap,
    std::int32_t left_window, std::int32_t right_window, std::uint32_t past_length,
    std::uintptr_t nonpad_kv_seqlen, std::int32_t mask_kind, std::uintptr_t mask,
    std::uint32_t mask_dim0, std::uint32_t mask_dim1, std::uint32_t mask_dim2,
    std::uint32_t mask_dim3, std::uint32_t mask_rank, std::int32_t mask_keys, std::uintptr_t scores,
    std::int32_t scores_mode);

// attention_call::set_threads: nullptr, or why not.
const char* attention_call_set_threads(std::uint32_t threads);

// attention_call::working_bytes for a call of this shape.
double attention_call_working_bytes(std::uint32_t batch, std::uint32_t q_num_heads,
                                    std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                    std::uint32_t kv_seq_len, std::uint32_t head_size,
                                    std::uint32_t v_head_size);
}
