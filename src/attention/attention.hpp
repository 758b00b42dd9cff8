// Multi-head attention with the semantics of the whole ONNX "Attention" operator (opsets 23 to
// 25): 4-D or 3-D layouts read where they lie, a key/value cache with its past length, an
// external cache with per-batch valid lengths (nonpad_kv_seqlen), sliding windows, boolean or
// additive masks, softcap, and the optional matrix of scores (qk_matmul_output). One fused
// kernel computes the output; nothing else of size q_seq_len x kv_seq_len is materialised
// unless the scores are asked for.
//
// Dimensions, as ONNX names them:
//   batch, q_num_heads, kv_num_heads (divides q_num_heads: grouped-query / multi-query),
//   q_seq_len (S), kv_seq_len (T: every key the queries may see, past ones included),
//   head_size (D, queries and keys), v_head_size (Dv, values and outputs).
// Tensors, each element (b, h, s, c) at b*strides.batch + h*strides.head + s*strides.seq + c:
//   q [batch, q_num_heads, S, D]      k [batch, kv_num_heads, T, D]
//   v [batch, kv_num_heads, T, Dv]    y [batch, q_num_heads, S, Dv]
// so the 4-D layout (batch, heads, seq, size) and the 3-D one (batch, seq, heads * size, head h
// owning columns h*size .. h*size+size-1) are both read and written in place.
// Query head h reads kv head h / (q_num_heads / kv_num_heads), as ONNX's repeat-interleave.
//
// Positions: query i sits at absolute position p = i + offset among the keys, where offset is
// past_length, or nonpad_kv_seqlen[b] - S with an external cache (may be negative).
// Per head h: s = scale * q.k^T; s = softcap * tanh(s / softcap) when softcap > 0; then the
// bias: with ALiBi slope_h * (j - p) (alibi_slope), plus -inf where key j is hidden, i.e.
// where any of these holds
//   is_causal and j > p (bottom-right aligned);  left_window >= 0 and j < p - left_window;
//   right_window >= 0 and j > p + right_window;  j >= nonpad_kv_seqlen[b];
//   j >= the mask's key columns;  a boolean mask says 0 (selected, never multiplied);
// plus an additive mask's value; y = softmax(s) . v. A query row that sees no key yields zeros
// (in y and in the probabilities), never NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace attention {

class ThreadTeam;  // thread_team.hpp

struct AttentionShape {
  std::size_t batch = 1;
  std::size_t q_num_heads = 1;
  std::size_t kv_num_heads = 1;
  std::size_t q_seq_len = 1;
  std::size_t kv_seq_len = 1;  // T, the total key length (past keys included)
  std::size_t head_size = 1;
  std::size_t v_head_size = 1;
};

// Element strides of a [batch, heads, seq, size] tensor; the size axis is contiguous.
struct Strides {
  std::size_t batch = 0, head = 0, seq = 0;
};

// bhsd: 4-D (batch, heads, seq, size). bshd: 3-D (batch, seq, heads * size).
enum class Layout { bhsd, bshd };
Strides layout_strides(Layout layout, std::size_t heads, std::size_t seq, std::size_t size);

// Copies `rows` rows of `size` floats of every (b, h), b < batch and h < heads, from `from`
// to `to`, each tensor laid out by its own strides: the one loop that moves rows head by head
// (a cache appending or growing, past and new keys concatenated into ONNX's present_key).
void copy_rows(const float* from, const Strides& from_strides, float* to, const Strides& to_strides,
               std::size_t batch, std::size_t heads, std::size_t rows, std::size_t size);

enum class MaskKind { none, boolean, additive };

// How a mask's last dim meets the T keys. broadcast: it is T, or 1 and repeated (attention()).
// pad: it is at most T and the keys beyond it are hidden (ONNX: a mask may be shorter than T).
enum class MaskKeys { broadcast, pad };

// A mask broadcast to [batch, q_num_heads, S, T] by strides: element (b, h, i, j) is at
// data[b*strides[0] + h*strides[1] + i*strides[2] + j*strides[3]], with a stride of 0 along
// every broadcast axis; keys j >= key_columns are hidden.
struct AttentionMask {
  MaskKind kind = MaskKind::none;
  const std::uint8_t* allowed = nullptr;  // boolean: 1 = may attend, 0 = hidden
  const float* bias = nullptr;            // additive: added to the scores
  std::size_t strides[4] = {0, 0, 0, 0};
  std::size_t key_columns = std::numeric_limits<std::size_t>::max();
};

// The options record: how attention is computed, one record for every entry point that attends
// (attention(), the KV cache's attend, the backward). The JS layer writes it into wasm memory
// where each_field says each field lies (src/bindings/call_layout.hpp describes it to JS).
struct AttentionOptions {
  static constexpr const char* name = "AttentionOptions";
  float scale = 1.0f;  // ONNX's default is 1/sqrt(head_size); callers resolve it
  bool is_causal = false;
  float softcap = 0.0f;            // 0 = off
  std::int64_t left_window = -1;   // -1 = unbounded
  std::int64_t right_window = -1;  // -1 = unbounded
  // ALiBi (BLOOM, MPT): slope_h * (key position - query position) added to query head h's
  // scores, with the mask. alibi_slopes: one slope per query head, or null for the standard
  // slopes of the ALiBi paper (alibi_slope).
  bool alibi = false;
  const float* alibi_slopes = nullptr;

  // visit(name, member) for every field: the one list of them the layout is described from.
  template <class Visit>
  static void each_field(Visit&& visit) {
    visit("scale", &AttentionOptions::scale);
    visit("is_causal", &AttentionOptions::is_causal);
    visit("softcap", &AttentionOptions::softcap);
    visit("left_window", &AttentionOptions::left_window);
    visit("right_window", &AttentionOptions::right_window);
    visit("alibi", &AttentionOptions::alibi);
    visit("alibi_slopes", &AttentionOptions::alibi_slopes);
  }
};

// qk_matmul_output_mode 0..3: what the optional scores output holds.
enum class ScoresMode {
  raw,            // scale * q.k^T
  softcapped,     // after softcap
  biased,         // after softcap, plus the bias (-inf where hidden)
  probabilities,  // the softmax (zeros in a row that sees no key)
};

// Everything one call reads and writes.
struct AttentionArgs {
  AttentionShape shape;
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  float* y = nullptr;
  Strides q_strides, k_strides, v_strides, y_strides;
  AttentionMask mask;
  AttentionOptions options;
  std::size_t past_length = 0;                     // offset of the queries; 0 without a cache
  const std::int32_t* nonpad_kv_seqlen = nullptr;  // [batch] valid keys, or null
  float* scores = nullptr;  // [batch, q_num_heads, S, T], contiguous; written only when given
  ScoresMode scores_mode = ScoresMode::raw;
  // Threads that share the tiled kernel's work with the caller (thread_team.hpp), or null:
  // the calling thread alone. Results are the same either way, bit for bit.
  ThreadTeam* team = nullptr;
};

// Arguments for contiguous 4-D tensors, the layout of attention()'s fast path.
AttentionArgs contiguous_args(const float* q, const float* k, const float* v,
                              const AttentionMask& mask, const AttentionShape& shape,
                              const AttentionOptions& options, float* y);

// Why this shape is invalid, or nullptr. Every dimension must be at least 1, kv_num_heads
// must divide q_num_heads, and every tensor's byte size must fit in size_t.
const char* attention_shape_error(const AttentionShape& shape);

// Why these arguments are invalid, or nullptr: the shape, null tensors, windows below -1,
// past_length beyond T, past_length together with nonpad_kv_seqlen, a nonpad length outside
// 0..T, a mask's key columns beyond T, an unknown mask kind or scores mode.
// Messages are neutral (no API's argument names): the caller's layer owns the wording.
const char* attention_error(const AttentionArgs& args);

// Fills mask.strides and mask.key_columns for a mask of `rank` (1..4) dims, right-aligned
// against [batch, q_num_heads, S, T]. Returns why it cannot broadcast, or nullptr.
const char* broadcast_mask_strides(const std::size_t* dims, std::size_t rank,
                                   const AttentionShape& shape, MaskKeys keys, AttentionMask& mask);

// Bytes of working memory the fused kernel allocates for one call on `threads` threads (a
// team's size; scratch only: q, k, v, y, the mask and the scores are the caller's).
std::size_t attention_working_bytes(const AttentionShape& shape, std::size_t threads = 1);

enum class Status { ok, invalid_arguments, out_of_memory };

// What `status` of attention(args) means, as the neutral message the bindings hand to JS:
// nullptr for ok, "out of memory ..." for out_of_memory (the JS layer recognises the prefix),
// else why args are invalid. The one table from Status to words.
const char* status_message(Status status, const AttentionArgs& args);

// a * b * ..., or 0 when a factor is 0 or the product overflows size_t: sizes computed with
// it are either exact or 0, never wrapped around.
std::size_t checked_product(std::initializer_list<std::size_t> factors);

// The fused, tiled kernel (O(head_size) scratch per row block, never the S x T scores), plus
// the scores output when args.scores is set. Validates with attention_error first; returns
// invalid_arguments or out_of_memory without writing anything.
Status attention(const AttentionArgs& args);

// attention() on contiguous 4-D tensors.
Status attention(const float* q, const float* k, const float* v, const AttentionMask& mask,
                 const AttentionShape& shape, const AttentionOptions& options, float* y);

}  // namespace attention
