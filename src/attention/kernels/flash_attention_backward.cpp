#include "kernels/flash_attention_backward.hpp"

#include <algorithm>
#include <memory>
#include <new>
#include <xsimd/xsimd.hpp>

#include "kernels/flash_attention.hpp"
#include "kernels/multiply_add.hpp"
#include "kernels/register_block.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/scores.hpp"
#include "kernels/visibility.hpp"

namespace attention::kernels {
namespace {

// Keys per block of pass 2: the block's K, V, dK and dV rows (16 KiB each at D = 64) stay in
// cache while every query row of the head group passes over them.
constexpr std::size_t block_keys = 64;
// Query rows whose P and dS tiles (tile_rows x block_keys) are computed before dK and dV take
// them: each dK / dV row is then loaded and stored once per tile, not once per query row.
constexpr std::size_t tile_rows = 16;

// out[j] = a . b_j for Keys rows b_j, `stride` floats apart, of n floats each: each vector of
// a loaded feeds Keys multiply-adds. Vector body, then the n % lanes tail in scalar.
template <std::size_t Keys>
inline void dot_keys(const float* a, const float* b, std::size_t stride, std::size_t n,
                     float* out) {
  batch acc[Keys];
  for (batch& x : acc) x = batch(0.0f);
  const std::size_t body = n - n % lanes;
  ATTENTION_NO_UNROLL
  for (std::size_t c = 0; c < body; c += lanes) {
    const batch x = batch::load_unaligned(a + c);
    for (std::size_t j = 0; j < Keys; ++j)
      acc[j] = multiply_add(x, batch::load_unaligned(b + j * stride + c), acc[j]);
  }
  for (std::size_t j = 0; j < Keys; ++j) {
    float dot = xsimd::reduce_add(acc[j]);
    for (std::size_t c = body; c < n; ++c) dot += a[c] * b[j * stride + c];
    out[j] = dot;
  }
}

// out0 [keys], out1 [keys] = a0 . panel, a1 . panel for two rows a0, a1 [n] of one tensor
// and a panel n x block_keys holding element c of every key in its row c (keys a multiple of
// PanelTile::columns, zeros past the last key): the forward's register tile
// (register_block.hpp), each step a splat of one element of each row times a row of keys. No
// horizontal sums: each lane is a key.
using PanelTile = RegisterBlock<2, 4>;
static_assert(block_keys % PanelTile::columns == 0, "a block holds whole register tiles");
__attribute__((noinline)) void dot_panel(const float* a0, const float* a1, const float* panel,
                                         std::size_t n, std::size_t keys, float* out0,
                                         float* out1) {
  for (std::size_t j = 0; j < keys; j += PanelTile::columns) {
    PanelTile tile;
    tile.zero();
    tile.multiply_add_steps(a0, a1 - a0, 1, panel + j, block_keys, n);
    tile.store({out0 + j, out1 + j});
  }
}

// y [n] += sum over j of w[j] * row(j) [n], for `count` rows: four vectors of y held in
// registers over every row, then one vector, then the scalar tail. `row` gives the address
// of row j: rows a stride apart (keys) or a tile's rows across heads (queries).
template <class Row>
__attribute__((noinline)) void add_combination(float* y, Row row, const float* w, std::size_t count,
                                               std::size_t n) {
  const std::size_t body = n - n % lanes;
  std::size_t c = 0;
  for (; c + 4 * lanes <= body; c += 4 * lanes) {
    batch a0 = batch::load_unaligned(y + c), a1 = batch::load_unaligned(y + c + lanes);
    batch a2 = batch::load_unaligned(y + c + 2 * lanes);
    batch a3 = batch::load_unaligned(y + c + 3 * lanes);
    ATTENTION_NO_UNROLL
    for (std::size_t j = 0; j < count; ++j) {
      const float* x = row(j) + c;
      const batch s(w[j]);
      a0 = multiply_add(s, batch::load_unaligned(x), a0);
      a1 = multiply_add(s, batch::load_unaligned(x + lanes), a1);
      a2 = multiply_add(s, batch::load_unaligned(x + 2 * lanes), a2);
      a3 = multiply_add(s, batch::load_unaligned(x + 3 * lanes), a3);
    }
    a0.store_unaligned(y + c);
    a1.store_unaligned(y + c + lanes);
    a2.store_unaligned(y + c + 2 * lanes);
    a3.store_unaligned(y + c + 3 * lanes);
  }
  for (; c < body; c += lanes) {
    batch a = batch::load_unaligned(y + c);
    ATTENTION_NO_UNROLL
    for (std::size_t j = 0; j < count; ++j)
      a = multiply_add(batch(w[j]), batch::load_unaligned(row(j) + c), a);
    a.store_unaligned(y + c);
  }
  for (; c < n; ++c) {
    float sum = 0.0f;
    for (std::size_t j = 0; j < count; ++j) sum += w[j] * row(j)[c];
    y[c] += sum;
  }
}

// Rows `stride` floats apart, from `first`.
struct StridedRows {
  const float* first;
  std::size_t stride;
  const float* operator()(std::size_t j) const { return first + j * stride; }
};

// Rows listed by address.
struct ListedRows {
  const float* const* rows;
  const float* operator()(std::size_t j) const { return rows[j]; }
};

// The memory of one call: every query row's softmax statistics (from the forward), y when the
// caller did not ask for it, and per row of a head group its visible keys and D_i; one tile
// of P and of dS, each also transposed; one block of softcapped scores.
struct Scratch {
  std::unique_ptr<RowStatistics[]> stats;  // [batch, q_num_heads, S]: max, sum of each row
  AlignedFloats y;                         // [batch, q_num_heads, S, Dv], or null
  std::unique_ptr<KeyRange[]> visible;     // group rows: the keys each row may see
  AlignedFloats delta;                     // group rows: D_i = dO_i . y_i
  AlignedFloats p;                         // tile_rows x block_keys: scores, then P
  AlignedFloats ds;                        // tile_rows x block_keys: dP, then scale * dS
  AlignedFloats p_t;                       // block_keys x tile_rows: P transposed
  AlignedFloats ds_t;                      // block_keys x tile_rows: scale * dS transposed
  AlignedFloats capped;                    // block_keys: softcapped scores, before masking
  AlignedFloats k_panel;                   // D x block_keys: the block's keys, transposed
  AlignedFloats v_panel;                   // Dv x block_keys: the block's values, transposed
  AlignedFloats spare;                     // block_keys: the unused half of a pair of rows

  static std::size_t query_rows(const AttentionShape& s) {
    return s.batch * s.q_num_heads * s.q_seq_len;
  }
  static std::size_t group_rows(const AttentionShape& s) {
    return s.q_num_heads / s.kv_num_heads * s.q_seq_len;
  }
  // With room for y: the caller may not ask for it.
  static std::size_t bytes(const AttentionShape& s) {
    const std::size_t rows = group_rows(s);
    return query_rows(s) * sizeof(RowStatistics) + allocated_bytes(query_rows(s) * s.v_head_size) +
           rows * sizeof(KeyRange) + allocated_bytes(rows) +
           4 * allocated_bytes(tile_rows * block_keys) + allocated_bytes(block_keys) +
           flash_attention_working_bytes(s);
  }
  bool allocate_for(const AttentionShape& s, bool with_y) {
    const std::size_t rows = group_rows(s);
    stats.reset(new (std::nothrow) RowStatistics[query_rows(s)]);
    if (with_y) y = allocate_floats(query_rows(s) * s.v_head_size);
    visible.reset(new (std::nothrow) KeyRange[rows]);
    delta = allocate_floats(rows);
    p = allocate_floats(tile_rows * block_keys);
    ds = allocate_floats(tile_rows * block_keys);
    p_t = allocate_floats(tile_rows * block_keys);
    ds_t = allocate_floats(tile_rows * block_keys);
    capped = allocate_floats(block_keys);
    k_panel = allocate_floats(s.head_size * block_keys);
    v_panel = allocate_floats(s.v_head_size * block_keys);
    spare = allocate_floats(block_keys);
    return stats && (y || !with_y) && visible && delta && p && ds && p_t && ds_t && capped &&
           k_panel && v_panel && spare;
  }
};

// One kv head of one batch with the query heads it serves, as rows = group * S: row r is
// query r % S of head first_q_head + r / S (as in the forward kernels).
class BackwardGroup {
 public:
  // `forward` is args.forward with y where pass 1 wrote it (the caller's, or scratch).
  BackwardGroup(const AttentionBackwardArgs& args, const AttentionArgs& forward, Scratch& scratch)
      : g_(args),
        a_(args.forward),
        y_(forward.y),
        y_strides_(forward.y_strides),
        s_(args.forward.shape),
        scratch_(scratch),
        group_(s_.q_num_heads / s_.kv_num_heads),
        rows_(group_ * s_.q_seq_len),
        d_(s_.head_size),
        dv_(s_.v_head_size) {}

  void run(std::size_t b, std::size_t g) {
    batch_ = b;
    first_q_head_ = g * group_;
    const std::size_t k_head = b * a_.k_strides.batch + g * a_.k_strides.head;
    const std::size_t v_head = b * a_.v_strides.batch + g * a_.v_strides.head;
    k_ = a_.k + k_head;
    v_ = a_.v + v_head;
    grad_k_ = g_.grad_k + k_head;
    grad_v_ = g_.grad_v + v_head;
    const std::int64_t offset = query_offset(a_, b);
    const std::size_t limit = key_limit(a_, b);
    KeyRange seen{limit, 0};
    for (std::size_t r = 0; r < rows_; ++r) {
      const KeyRange v = visible_keys(a_.options, offset, limit, query_index(r));
      scratch_.visible[r] = v;
      if (v.begin < v.end) {
        seen.begin = std::min(seen.begin, v.begin);
        seen.end = std::max(seen.end, v.end);
      }
      std::fill(g_.grad_q + row_offset(a_.q_strides, r),
                g_.grad_q + row_offset(a_.q_strides, r) + d_, 0.0f);
    }
    for (std::size_t j = 0; j < s_.kv_seq_len; ++j) {
      std::fill(grad_k_ + j * a_.k_strides.seq, grad_k_ + j * a_.k_strides.seq + d_, 0.0f);
      std::fill(grad_v_ + j * a_.v_strides.seq, grad_v_ + j * a_.v_strides.seq + dv_, 0.0f);
    }
    stats_ = scratch_.stats.get() + (b * s_.q_num_heads + first_q_head_) * s_.q_seq_len;
    for (std::size_t r = 0; r < rows_; ++r)
      dot_keys<1>(g_.grad_y + row_offset(a_.y_strides, r), y_ + row_offset(y_strides_, r), 0, dv_,
                  &scratch_.delta[r]);
    for (std::size_t key0 = seen.begin; key0 < seen.end; key0 += block_keys) {
      const std::size_t keys = std::min(block_keys, seen.end - key0);
      // Transposed (register_block.hpp), zeros past the last key up to a whole register tile.
      const std::size_t padded = round_up(keys, PanelTile::columns);
      pack_panel(k_ + key0 * a_.k_strides.seq, a_.k_strides.seq, d_, keys, padded,
                 scratch_.k_panel.get(), block_keys);
      pack_panel(v_ + key0 * a_.v_strides.seq, a_.v_strides.seq, dv_, keys, padded,
                 scratch_.v_panel.get(), block_keys);
      for (std::size_t r0 = 0; r0 < rows_; r0 += tile_rows)
        tile_gradients(r0, std::min(tile_rows, rows_ - r0), key0, keys);
    }
  }

 private:
  std::size_t query_index(std::size_t r) const { return r % s_.q_seq_len; }
  std::size_t query_head(std::size_t r) const { return first_q_head_ + r / s_.q_seq_len; }
  std::size_t row_offset(const Strides& st, std::size_t r) const {
    return batch_ * st.batch + query_head(r) * st.head + query_index(r) * st.seq;
  }

  // scores [padded] = row r's dot products q.k against keys key0 .. key0 + keys (on entry)
  // made its scores: times scale, softcapped (kept in scratch capped when softcap is on),
  // masked, -inf outside the row's visible keys and in the padding.
  void adjust_scores(std::size_t r, std::size_t key0, std::size_t keys, float* scores) {
    for (std::size_t j = 0; j < keys; ++j) scores[j] *= a_.options.scale;
    if (a_.options.softcap > 0.0f) {
      apply_softcap(scores, keys, a_.options.softcap);
      std::copy(scores, scores + keys, scratch_.capped.get());
    }
    const AttentionMask& m = a_.mask;
    const std::size_t mask_row = batch_ * m.strides[0] + query_head(r) * m.strides[1] +
                                 query_index(r) * m.strides[2] + key0 * m.strides[3];
    hide_scores(scores, keys, key0, scratch_.visible[r], m, mask_row);
    std::fill(scores + keys, scores + round_up(keys, lanes), minus_infinity);
  }

  // Pass 2 for the tile of `count` rows from r0 and the keys key0 .. key0 + keys: each row's
  // P (from its statistics), dP and dS, then dV += P^T dO and dK += dS^T Q key by key, and
  // dQ += dS K row by row. A row that sees none of these keys, or (sum 0) sees only masked
  // keys, has zeros in P and dS.
  void tile_gradients(std::size_t r0, std::size_t count, std::size_t key0, std::size_t keys) {
    const float* q_rows[tile_rows];
    const float* grad_y_rows[tile_rows];
    bool sees[tile_rows], any = false;
    for (std::size_t t = 0; t < count; ++t) {
      const std::size_t r = r0 + t;
      q_rows[t] = a_.q + row_offset(a_.q_strides, r);
      grad_y_rows[t] = g_.grad_y + row_offset(a_.y_strides, r);
      const KeyRange v = scratch_.visible[r];
      sees[t] = v.begin < key0 + keys && v.end > key0 && stats_[r].sum != 0.0f;
      any = any || sees[t];
    }
    if (!any) return;
    // Dot products of the tile's rows, two at a time (an odd last row pairs with itself):
    // q.k into p, dO.v (dP) into ds.
    const std::size_t padded = round_up(keys, PanelTile::columns);
    for (std::size_t t = 0; t < count; t += 2) {
      const std::size_t u = t + 1 < count ? t + 1 : t;
      float* p = scratch_.p.get() + t * block_keys;
      float* ds = scratch_.ds.get() + t * block_keys;
      float* p1 = t + 1 < count ? p + block_keys : scratch_.spare.get();
      float* ds1 = t + 1 < count ? ds + block_keys : scratch_.spare.get();
      dot_panel(q_rows[t], q_rows[u], scratch_.k_panel.get(), d_, padded, p, p1);
      dot_panel(grad_y_rows[t], grad_y_rows[u], scratch_.v_panel.get(), dv_, padded, ds, ds1);
    }
    for (std::size_t t = 0; t < count; ++t) {
      const std::size_t r = r0 + t;
      float* p = scratch_.p.get() + t * block_keys;
      float* ds = scratch_.ds.get() + t * block_keys;
      if (!sees[t]) {
        std::fill(p, p + keys, 0.0f);
        std::fill(ds, ds + keys, 0.0f);
        continue;
      }
      adjust_scores(r, key0, keys, p);
      softmax_from_statistics(p, round_up(keys, lanes), stats_[r]);
      scale_ds(p, ds, keys, scratch_.delta[r]);
    }
    if (!any) return;
    // Transposed, so that a key's column of P (or dS) over the tile's rows is contiguous.
    for (std::size_t t = 0; t < count; ++t)
      for (std::size_t j = 0; j < keys; ++j) {
        scratch_.p_t[j * tile_rows + t] = scratch_.p[t * block_keys + j];
        scratch_.ds_t[j * tile_rows + t] = scratch_.ds[t * block_keys + j];
      }
    for (std::size_t j = 0; j < keys; ++j) {
      add_combination(grad_v_ + (key0 + j) * a_.v_strides.seq, ListedRows{grad_y_rows},
                      scratch_.p_t.get() + j * tile_rows, count, dv_);
      add_combination(grad_k_ + (key0 + j) * a_.k_strides.seq, ListedRows{q_rows},
                      scratch_.ds_t.get() + j * tile_rows, count, d_);
    }
    const StridedRows k_rows{k_ + key0 * a_.k_strides.seq, a_.k_strides.seq};
    for (std::size_t t = 0; t < count; ++t)
      add_combination(g_.grad_q + row_offset(a_.q_strides, r0 + t), k_rows,
                      scratch_.ds.get() + t * block_keys, keys, d_);
  }

  // ds [keys] = scale * P o (dP - D_i), with dP in ds on entry, times the softcap's
  // derivative 1 - tanh^2 (tanh = capped / cap) when it is on.
  void scale_ds(const float* p, float* ds, std::size_t keys, float delta) const {
    const float scale = a_.options.scale, cap = a_.options.softcap;
    for (std::size_t j = 0; j < keys; ++j) {
      float x = p[j] * (ds[j] - delta);
      if (cap > 0.0f) {
        const float t = scratch_.capped[j] / cap;
        x *= 1.0f - t * t;
      }
      ds[j] = x * scale;
    }
  }

  const AttentionBackwardArgs& g_;
  const AttentionArgs& a_;
  const float* const y_;     // the forward's output, pass 1's
  const Strides y_strides_;  // its layout (a_.y_strides are gradY's)
  const AttentionShape& s_;
  Scratch& scratch_;
  const std::size_t group_, rows_, d_, dv_;
  std::size_t batch_ = 0, first_q_head_ = 0;
  const RowStatistics* stats_ = nullptr;  // the group's rows of scratch stats
  const float* k_ = nullptr;
  const float* v_ = nullptr;
  float* grad_k_ = nullptr;
  float* grad_v_ = nullptr;
};

// Every row of a [batch, heads, seq, size] tensor laid out by `st`, zeroed.
void zero_rows(float* x, const Strides& st, std::size_t batch, std::size_t heads, std::size_t seq,
               std::size_t size) {
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t i = 0; i < seq; ++i) {
        float* row = x + b * st.batch + h * st.head + i * st.seq;
        std::fill(row, row + size, 0.0f);
      }
}

}  // namespace

const char* attention_backward_error(const AttentionBackwardArgs& args) {
  if (!args.grad_y || !args.grad_q || !args.grad_k || !args.grad_v)
    return "the gradients of y, q, k and v must all be given";
  if (args.forward.scores) return "the backward computes no scores";
  AttentionArgs forward = args.forward;
  if (!forward.y) forward.y = args.grad_q;  // y is optional here; attention_error wants one
  return attention_error(forward);
}

bool flash_attention_backward(const AttentionBackwardArgs& args) {
  const AttentionShape& s = args.forward.shape;
  Scratch scratch;
  if (!scratch.allocate_for(s, args.forward.y == nullptr)) return false;
  // Pass 1: the tuned forward kernel gives y and every row's statistics.
  AttentionArgs forward = args.forward;
  forward.scores = nullptr;
  if (!forward.y) {
    forward.y = scratch.y.get();
    forward.y_strides = layout_strides(Layout::bhsd, s.q_num_heads, s.q_seq_len, s.v_head_size);
  }
  if (!flash_attention_with_statistics(forward, scratch.stats.get())) return false;
  BackwardGroup group(args, forward, scratch);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t g = 0; g < s.kv_num_heads; ++g) group.run(b, g);
  return true;
}

std::size_t flash_attention_backward_working_bytes(const AttentionShape& shape) {
  return Scratch::bytes(shape);
}

bool attention_backward_reference(const AttentionBackwardArgs& args) {
  const AttentionArgs& a = args.forward;
  const AttentionShape& s = a.shape;
  std::unique_ptr<float[]> p(new (std::nothrow) float[s.kv_seq_len]);
  std::unique_ptr<float[]> capped(new (std::nothrow) float[s.kv_seq_len]);
  std::unique_ptr<float[]> dp(new (std::nothrow) float[s.kv_seq_len]);
  if (!p || !capped || !dp) return false;
  zero_rows(args.grad_q, a.q_strides, s.batch, s.q_num_heads, s.q_seq_len, s.head_size);
  zero_rows(args.grad_k, a.k_strides, s.batch, s.kv_num_heads, s.kv_seq_len, s.head_size);
  zero_rows(args.grad_v, a.v_strides, s.batch, s.kv_num_heads, s.kv_seq_len, s.v_head_size);
  const std::size_t group = s.q_num_heads / s.kv_num_heads;
  const float cap = a.options.softcap, scale = a.options.scale;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.q_num_heads; ++h)
      for (std::size_t i = 0; i < s.q_seq_len; ++i) {
        // Rows [D] of q, dQ; [Dv] of dO, y; the kv head's K, dK [T, D] and V, dV [T, Dv].
        score_row(a, b, h, i, ScoresMode::probabilities, p.get());
        if (cap > 0.0f) score_row(a, b, h, i, ScoresMode::softcapped, capped.get());
        const std::size_t kv = b * a.k_strides.batch + (h / group) * a.k_strides.head;
        const std::size_t vv = b * a.v_strides.batch + (h / group) * a.v_strides.head;
        const std::size_t qi = b * a.q_strides.batch + h * a.q_strides.head + i * a.q_strides.seq;
        const std::size_t yi = b * a.y_strides.batch + h * a.y_strides.head + i * a.y_strides.seq;
        const float* q = a.q + qi;
        const float* grad_y = args.grad_y + yi;
        float delta = 0.0f;
        for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
          const float* v = a.v + vv + j * a.v_strides.seq;
          dp[j] = 0.0f;
          for (std::size_t c = 0; c < s.v_head_size; ++c) dp[j] += grad_y[c] * v[c];
          delta += p[j] * dp[j];
          if (a.y) {
            float* y = a.y + yi;
            if (j == 0) std::fill(y, y + s.v_head_size, 0.0f);
            for (std::size_t c = 0; c < s.v_head_size; ++c) y[c] += p[j] * v[c];
          }
        }
        for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
          float ds = p[j] * (dp[j] - delta);
          if (cap > 0.0f) ds *= 1.0f - (capped[j] / cap) * (capped[j] / cap);
          ds *= scale;
          const float* k = a.k + kv + j * a.k_strides.seq;
          float* grad_k = args.grad_k + kv + j * a.k_strides.seq;
          float* grad_v = args.grad_v + vv + j * a.v_strides.seq;
          for (std::size_t c = 0; c < s.head_size; ++c) {
            args.grad_q[qi + c] += ds * k[c];
            grad_k[c] += ds * q[c];
          }
          for (std::size_t c = 0; c < s.v_head_size; ++c) grad_v[c] += p[j] * grad_y[c];
        }
      }
  return true;
}

Status attention_backward(const AttentionBackwardArgs& args) {
  if (attention_backward_error(args)) return Status::invalid_arguments;
  return flash_attention_backward(args) ? Status::ok : Status::out_of_memory;
}

}  // namespace attention::kernels
