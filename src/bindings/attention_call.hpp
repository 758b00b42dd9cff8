// The one call the JS layer makes to run attention: an AttentionCall record that JS writes
// into wasm memory (where call_layout.hpp's description of each_field says each field lies,
// src/js/core-call.mjs) and hands to the plain export attention_call_run by its address.
// No Emscripten header here, so the native tests and the fuzzer drive this same entry point.
//
// field (JS name)  type                 meaning (every field is written)
// q, k, v, y       address              float32 tensors in wasm memory
// batch            uint32               >= 1
// qNumHeads        uint32               >= 1
// kvNumHeads       uint32               >= 1, divides qNumHeads
// qSeqLen          uint32               S >= 1, query rows
// kvSeqLen         uint32               T >= 1, every key in k and v (past ones included)
// headSize         uint32               D >= 1, for q and k
// vHeadSize        uint32               Dv >= 1, for v and y
// qLayout          Layout (int32)       q and y: bhsd = [batch, qNumHeads, S, D] (4-D),
//                                       bshd = [batch, S, qNumHeads * D] (3-D)
// kvLayout         Layout (int32)       k and v: bhsd = [batch, kvNumHeads, T, D] or bshd
// options          AttentionOptions     the options record (attention.hpp), shared by every
//                                       entry point that attends (KvAttendCall, the backward)
// pastLength       uint32               P <= T: the queries' offset (keys 0..P-1 are the past);
//                                       0 without a cache. Must be 0 with nonpadKvSeqlen.
// nonpadKvSeqlen   address              0, or `batch` int32 valid key counts (0..T); then
//                                       offset = nonpadKvSeqlen[b] - S
// maskKind         MaskKind (int32)     none | boolean (uint8, 1 = may attend) | additive
//                                       (float32, added to the scores)
// mask             address              the mask's data (0 when none)
// maskDims         uint32[4]            the mask's dims, the first maskRank of them used
// maskRank         uint32               1..4 (ignored when maskKind is none)
// maskKeys         MaskKeys (int32)     broadcast: the last dim is T or 1 (repeated);
//                                       pad: the last dim is <= T, keys beyond it hidden (ONNX)
// scores           address              0, or a float32 [batch, qNumHeads, S, T] buffer for
//                                       qk_matmul_output
// scoresMode       ScoresMode (int32)   what scores holds: qk_matmul_output_mode 0..3
//                                       (attention.hpp's ScoresMode)
//
// Enums cross as their numbers (Module.Layout.bshd.value, ...; bindings.cpp registers them);
// a number that names no value is refused with a message.
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
  static constexpr const char* name = "AttentionCall";
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

  // visit(name, member) for every field (call_layout.hpp).
  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("q", &AttentionCall::q);
    visit("k", &AttentionCall::k);
    visit("v", &AttentionCall::v);
    visit("y", &AttentionCall::y);
    visit("batch", &AttentionCall::batch);
    visit("q_num_heads", &AttentionCall::q_num_heads);
    visit("kv_num_heads", &AttentionCall::kv_num_heads);
    visit("q_seq_len", &AttentionCall::q_seq_len);
    visit("kv_seq_len", &AttentionCall::kv_seq_len);
    visit("head_size", &AttentionCall::head_size);
    visit("v_head_size", &AttentionCall::v_head_size);
    visit("q_layout", &AttentionCall::q_layout);
    visit("kv_layout", &AttentionCall::kv_layout);
    visit("options", &AttentionCall::options);
    visit("past_length", &AttentionCall::past_length);
    visit("nonpad_kv_seqlen", &AttentionCall::nonpad_kv_seqlen);
    visit("mask_kind", &AttentionCall::mask_kind);
    visit("mask", &AttentionCall::mask);
    visit("mask_dims", &AttentionCall::mask_dims);
    visit("mask_rank", &AttentionCall::mask_rank);
    visit("mask_keys", &AttentionCall::mask_keys);
    visit("scores", &AttentionCall::scores);
    visit("scores_mode", &AttentionCall::scores_mode);
  }
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
// The team set_threads started (null: the caller alone), which the other entry points that
// share their work use too (the tiny transformer's training step).
attention::ThreadTeam* shared_team();

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

// The layouts of every record JS writes into wasm memory (call_layout.hpp's JSON):
// AttentionOptions, AttentionCall, AttentionBackwardCall, KvAttendCall, TraceDims and TraceCall.
std::string layouts();

}  // namespace attention_call

// The plain wasm exports JS calls (listed in CMakeLists.txt's EXPORTED_FUNCTIONS): without
// Embind, whose generic glue converts a record field by field (about 5 us per call in a
// module built without dynamic code, for a strict CSP). JS side: src/js/core-call.mjs.
extern "C" {
// attention_call::run_message of the record at `call`: nullptr on success.
const char* attention_call_run(const attention_call::AttentionCall* call);

// attention_call::set_threads: nullptr, or why not.
const char* attention_call_set_threads(std::uint32_t threads);

// attention_call::working_bytes for a call of this shape.
double attention_call_working_bytes(std::uint32_t batch, std::uint32_t q_num_heads,
                                    std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                    std::uint32_t kv_seq_len, std::uint32_t head_size,
                                    std::uint32_t v_head_size);
}
