#include "attention_call.hpp"

#include <memory>

#include "attention_backward_call.hpp"
#include "call_layout.hpp"
#include "kv_cache_call.hpp"
#include "thread_team.hpp"
#include "trace_call.hpp"

namespace attention_call {
namespace {

// This instance's team, or null: the calling thread alone.
std::unique_ptr<attention::ThreadTeam> team;

// True when `value` names one of Enum's values (0 .. last): JS may write any number there.
template <class Enum>
bool known(Enum value, Enum last) {
  return static_cast<int>(value) >= 0 && static_cast<int>(value) <= static_cast<int>(last);
}

}  // namespace

const char* set_threads(std::uint32_t count) {
  static_assert(attention::max_team_helpers + 1 == 64, "the message below names the bound");
  if (count < 1 || count > attention::max_team_helpers + 1) return "threads must be from 1 to 64";
  if (count > 1 && !attention::threads_available)
    return "this build of the module has no threads (the wasm threads build has)";
  if (count == threads()) return nullptr;
  std::unique_ptr<attention::ThreadTeam> next;
  if (count > 1) {
    next = attention::ThreadTeam::start(count - 1);
    if (!next) return "the helper threads could not be started";
  }
  team = std::move(next);
  return nullptr;
}

std::uint32_t threads() { return team ? std::uint32_t(team->size()) : 1; }
attention::ThreadTeam* shared_team() { return team.get(); }

const char* to_args(const AttentionCall& call, attention::AttentionArgs& args) {
  using attention::Layout, attention::MaskKind, attention::MaskKeys, attention::ScoresMode;
  if (!known(call.q_layout, Layout::bshd) || !known(call.kv_layout, Layout::bshd))
    return "unknown layout";
  if (!known(call.mask_kind, MaskKind::additive)) return "unknown mask kind";
  if (!known(call.mask_keys, MaskKeys::pad)) return "unknown mask keys";
  if (!known(call.scores_mode, ScoresMode::probabilities)) return "unknown scores mode";
  attention::AttentionShape& s = args.shape;
  s = {call.batch,      call.q_num_heads, call.kv_num_heads, call.q_seq_len,
       call.kv_seq_len, call.head_size,   call.v_head_size};
  if (const char* error = attention::attention_shape_error(s)) return error;
  const auto address = [](std::uintptr_t a) { return reinterpret_cast<float*>(a); };
  args.q = address(call.q);
  args.k = address(call.k);
  args.v = address(call.v);
  args.y = address(call.y);
  args.q_strides =
      attention::layout_strides(call.q_layout, s.q_num_heads, s.q_seq_len, s.head_size);
  args.y_strides =
      attention::layout_strides(call.q_layout, s.q_num_heads, s.q_seq_len, s.v_head_size);
  args.k_strides =
      attention::layout_strides(call.kv_layout, s.kv_num_heads, s.kv_seq_len, s.head_size);
  args.v_strides =
      attention::layout_strides(call.kv_layout, s.kv_num_heads, s.kv_seq_len, s.v_head_size);
  args.options = call.options;
  args.past_length = call.past_length;
  args.nonpad_kv_seqlen = reinterpret_cast<const std::int32_t*>(call.nonpad_kv_seqlen);
  args.scores = address(call.scores);
  args.scores_mode = call.scores_mode;
  args.mask = {};
  if (call.mask_kind != attention::MaskKind::none) {
    if (call.mask_rank < 1 || call.mask_rank > 4) return "the mask must have 1 to 4 dims";
    std::size_t dims[4];
    for (std::size_t i = 0; i < call.mask_rank; ++i) dims[i] = call.mask_dims[i];
    if (const char* error =
            attention::broadcast_mask_strides(dims, call.mask_rank, s, call.mask_keys, args.mask))
      return error;
    args.mask.kind = call.mask_kind;
    args.mask.allowed = reinterpret_cast<const std::uint8_t*>(call.mask);
    args.mask.bias = address(call.mask);
  }
  return attention::attention_error(args);
}

const char* run_message(const AttentionCall& call) {
  attention::AttentionArgs args;
  if (const char* error = to_args(call, args)) return error;
  args.team = team.get();
  return attention::status_message(attention::attention(args), args);
}

std::string run(const AttentionCall& call) {
  const char* error = run_message(call);
  return error ? error : "";
}

std::string concat_present(const PresentCall& c) {
  using attention::Layout;
  const std::size_t total = std::size_t(c.past_rows) + c.rows;
  if (c.batch == 0 || c.heads == 0 || c.rows == 0 || c.size == 0)
    return "every dim must be 1 or more";
  if (!attention::checked_product({c.batch, c.heads, total, c.size, sizeof(float)}))
    return "the concatenation does not fit in size_t";
  if (!c.next || !c.out || (c.past_rows && !c.past)) return "a buffer is missing";
  const auto floats = [](std::uintptr_t a) { return reinterpret_cast<float*>(a); };
  const attention::Strides out = attention::layout_strides(Layout::bhsd, c.heads, total, c.size);
  if (c.past_rows) {
    attention::copy_rows(floats(c.past),
                         attention::layout_strides(Layout::bhsd, c.heads, c.past_rows, c.size),
                         floats(c.out), out, c.batch, c.heads, c.past_rows, c.size);
  }
  attention::copy_rows(
      floats(c.next), attention::layout_strides(c.next_layout, c.heads, c.rows, c.size),
      floats(c.out) + std::size_t(c.past_rows) * c.size, out, c.batch, c.heads, c.rows, c.size);
  return "";
}

double working_bytes(const AttentionCall& call) {
  const attention::AttentionShape s{call.batch,      call.q_num_heads, call.kv_num_heads,
                                    call.q_seq_len,  call.kv_seq_len,  call.head_size,
                                    call.v_head_size};
  if (attention::attention_shape_error(s)) return 0;
  return double(attention::attention_working_bytes(s, threads()));
}

std::string layouts() {
  return call_layout::describe_layouts<attention::AttentionOptions, AttentionCall,
                                       AttentionBackwardCall, kv_cache_call::KvAttendCall,
                                       attention::TraceDims, trace_call::TraceCall>();
}

}  // namespace attention_call

namespace {

// A call of this shape, every other field its default.
attention_call::AttentionCall call_of_shape(std::uint32_t batch, std::uint32_t q_num_heads,
                                            std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                            std::uint32_t kv_seq_len, std::uint32_t head_size,
                                            std::uint32_t v_head_size) {
  attention_call::AttentionCall call;
  call.batch = batch;
  call.q_num_heads = q_num_heads;
  call.kv_num_heads = kv_num_heads;
  call.q_seq_len = q_seq_len;
  call.kv_seq_len = kv_seq_len;
  call.head_size = head_size;
  call.v_head_size = v_head_size;
  return call;
}

}  // namespace

extern "C" {

const char* attention_call_run(const attention_call::AttentionCall* call) {
  return attention_call::run_message(*call);
}

const char* attention_call_set_threads(std::uint32_t threads) {
  return attention_call::set_threads(threads);
}

double attention_call_working_bytes(std::uint32_t batch, std::uint32_t q_num_heads,
                                    std::uint32_t kv_num_heads, std::uint32_t q_seq_len,
                                    std::uint32_t kv_seq_len, std::uint32_t head_size,
                                    std::uint32_t v_head_size) {
  return attention_call::working_bytes(call_of_shape(batch, q_num_heads, kv_num_heads, q_seq_len,
                                                     kv_seq_len, head_size, v_head_size));
}

}  // extern "C"
