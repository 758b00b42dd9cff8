#include "kernels/flash_attention_backward.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <new>
#include <xsimd/xsimd.hpp>

#include "kernels/flash_attention.hpp"
#include "kernels/multiply_add.hpp"
#include "kernels/register_block.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/score_step.hpp"
#include "kernels/scores.hpp"
#include "kernels/visibility.hpp"

namespace attention::kernels {
namespace {

// Query rows per tile: the tile's scores, P and dS (tile_rows x the keys it sees) are made in
// one go, then every product takes them whole. dK and dV's accumulators are loaded and stored
// once per tile and key pair, so a taller tile spends less on them; 32 keeps P and dS of a
// tile (2 x 32 x 4 bytes per key) in the second-level cache up to several thousand keys.
constexpr std::size_t tile_rows = 32;

// Every product of the pass runs on the forward's register tile (register_block.hpp): two
// output rows, four vectors of columns, each step a splat of one element of each row times a
// row of the other operand. Operands with rows of D or Dv floats are packed with their rows
// padded to whole tiles (zeros), so the products have no column tail.
using Tile = RegisterBlock<2, 4>;
static_assert(tile_rows % Tile::rows == 0, "a tile holds whole pairs of rows");

// out0 [keys], out1 [keys] = a0 . panel, a1 . panel for two rows a0, a1 [n] and a panel
// n x width holding element c of every key in its row c (register_block.hpp's pack_panel;
// keys a multiple of Tile::columns): the scores and dP. No horizontal sums: each lane is a key.
__attribute__((noinline)) void dot_panel(const float* a0, const float* a1, const float* panel,
                                         std::size_t width, std::size_t n, std::size_t keys,
                                         float* out0, float* out1) {
  for (std::size_t j = 0; j < keys; j += Tile::columns) {
    Tile tile;
    tile.zero();
    tile.multiply_add_steps(a0, a1 - a0, 1, panel + j, width, n);
    tile.store({out0 + j, out1 + j});
  }
}

// How A's elements lie in add_product: its rows are P's or dS's columns (dK, dV), or its rows
// are theirs (dQ). The other stride is a template constant 1, which the register tile's
// inlined loop folds into its load offsets.
enum class ARows { down_columns, along_rows };

// out [rows, width] (rows out_row floats apart, aligned; rows even, width a multiple of
// Tile::columns) += A . B over `steps`: B's row i at b + i * b_step (aligned); A's row r,
// element i at a[r + i * a_stride] (down_columns) or a[r * a_stride + i] (along_rows).
// dV += P^T dO and dK += dS^T Q read A down P's or dS's columns; dQ += dS K along dS's rows.
template <ARows Layout>
__attribute__((noinline)) void add_product(float* out, std::size_t out_row, std::size_t rows,
                                           std::size_t width, const float* a, std::size_t a_stride,
                                           const float* b, std::size_t b_step, std::size_t steps) {
  constexpr bool down = Layout == ARows::down_columns;
  const std::ptrdiff_t a_row = down ? 1 : std::ptrdiff_t(a_stride);
  const std::size_t a_step = down ? a_stride : 1;
  for (std::size_t r = 0; r < rows; r += Tile::rows) {
    float* const out_rows[2] = {out + r * out_row, out + (r + 1) * out_row};
    for (std::size_t c = 0; c < width; c += Tile::columns) {
      Tile tile;
      tile.load({out_rows[0] + c, out_rows[1] + c}, {1.0f, 1.0f});
      tile.multiply_add_steps(a + std::ptrdiff_t(r) * a_row, a_row, a_step, b + c, b_step, steps);
      tile.store({out_rows[0] + c, out_rows[1] + c});
    }
  }
}

// The sum of p[j] * dp[j] over `padded` (a multiple of lanes, aligned): D_i, the row's
// rowsum(P o dP), which equals dO_i . y_i. Keys with p[j] = 0 (hidden ones among them) add
// nothing, whatever dp[j] is: a hidden key's value row may make dp[j] infinite, and 0 * inf
// would make the row's D_i, and so every gradient of the row, NaN.
inline float row_delta(const float* p, const float* dp, std::size_t padded) {
  const batch zero(0.0f);
  batch sum(0.0f);
  for (std::size_t j = 0; j < padded; j += lanes) {
    const batch pj = batch::load_aligned(p + j);
    sum += xsimd::select(pj != zero, pj * batch::load_aligned(dp + j), zero);
  }
  return xsimd::reduce_add(sum);
}

// rows [count, width] (aligned, zeros past n) = rows of n floats at `row(t)`.
template <class Row>
void pack_rows(Row row, std::size_t count, std::size_t n, float* out, std::size_t width) {
  for (std::size_t t = 0; t < count; ++t) std::copy(row(t), row(t) + n, out + t * width);
}

// The memory of one call, sized for the longest key range a head group can see (kv_seq_len,
// padded to whole register tiles): per group its packed keys and values and the dK, dV
// accumulators of its keys; per tile of query rows its packed q, dO and dQ rows and its
// scores, P and dS: O(kv_seq_len * (tile_rows + D)) floats (about (2 * 32 + 5 * D) * 4 bytes
// per key), never the S x T matrix. With K, V and their gradients beside it (1 KiB per key at
// D = 64), 2 GiB of wasm memory holds about 800,000 keys at D = 64: the backward's longest
// kv_seq_len (the forward has no such bound).
struct Scratch {
  std::size_t width = 0;             // floats per row of p and ds: kv_seq_len, padded
  std::size_t d = 0;                 // floats per packed row of q, K, dQ, dK: D, padded
  std::size_t dv = 0;                // floats per packed row of dO, dV: Dv, padded
  std::unique_ptr<ScoreRow[]> rows;  // group rows: each row's visible keys, position, mask
  AlignedFloats k_panel;             // D x width: the group's keys, transposed
  AlignedFloats v_panel;             // Dv x width: its values, transposed
  AlignedFloats k_rows;              // width x d: its keys as rows
  AlignedFloats grad_k;              // width x d: dK of its keys
  AlignedFloats grad_v;              // width x dv: dV of its keys
  AlignedFloats p;                   // tile_rows x width: scores, then P
  AlignedFloats ds;                  // tile_rows x width: dP, then scale * dS
  AlignedFloats capped;              // width: what adjust_scores keeps for its derivative
  AlignedFloats q;                   // tile_rows x d: the tile's q rows
  AlignedFloats grad_y;              // tile_rows x dv: its dO rows
  AlignedFloats grad_q;              // tile_rows x d: its dQ rows

  static std::size_t group_rows(const AttentionShape& s) {
    return s.q_num_heads / s.kv_num_heads * s.q_seq_len;
  }
  // visit(buffer, its floats) for every buffer above: the one list of their sizes, counted in
  // Size (double to measure a shape whose sizes would wrap a 32-bit size_t, as wasm32's does).
  template <class Size, class Visit>
  static void each_buffer(const AttentionShape& s, Visit visit) {
    const Size w = Size(round_up(s.kv_seq_len, Tile::columns));
    const Size d = Size(round_up(s.head_size, Tile::columns));
    const Size dv = Size(round_up(s.v_head_size, Tile::columns));
    visit(&Scratch::k_panel, Size(s.head_size) * w);
    visit(&Scratch::v_panel, Size(s.v_head_size) * w);
    visit(&Scratch::k_rows, w * d);
    visit(&Scratch::grad_k, w * d);
    visit(&Scratch::grad_v, w * dv);
    visit(&Scratch::p, Size(tile_rows) * w);
    visit(&Scratch::ds, Size(tile_rows) * w);
    visit(&Scratch::capped, w);
    visit(&Scratch::q, Size(tile_rows) * d);
    visit(&Scratch::grad_y, Size(tile_rows) * dv);
    visit(&Scratch::grad_q, Size(tile_rows) * d);
  }
  // Bytes allocate_for takes, as a double: it may be more than size_t can count.
  static double bytes(const AttentionShape& s) {
    double total = double(s.q_num_heads / s.kv_num_heads) * s.q_seq_len * sizeof(ScoreRow);
    each_buffer<double>(s, [&](AlignedFloats Scratch::*, double n) {
      total += n * sizeof(float) + double(allocated_bytes(0));
    });
    return total;
  }
  bool allocate_for(const AttentionShape& s) {
    width = round_up(s.kv_seq_len, Tile::columns);
    d = round_up(s.head_size, Tile::columns);
    dv = round_up(s.v_head_size, Tile::columns);
    // A shape whose scratch size_t cannot count is refused before any allocation.
    if (bytes(s) >= double(std::numeric_limits<std::size_t>::max())) return false;
    rows.reset(new (std::nothrow) ScoreRow[group_rows(s)]);
    bool ok = bool(rows);
    each_buffer<std::size_t>(s, [&](AlignedFloats Scratch::*buffer, std::size_t n) {
      if (!ok) return;  // the first allocation that fails ends the call: take no more
      this->*buffer = allocate_floats(n);
      ok = bool(this->*buffer);
      // Zeros, so that the padding columns of packed rows (never written) add nothing.
      if (this->*buffer) std::fill((this->*buffer).get(), (this->*buffer).get() + n, 0.0f);
    });
    return ok;
  }
};

// Rows `stride` floats apart, from `first`.
struct StridedRows {
  const float* first;
  std::size_t stride;
  const float* operator()(std::size_t j) const { return first + j * stride; }
};

// One kv head of one batch with the query heads it serves, as rows = group * S: row r is
// query r % S of head first_q_head + r / S (as in the forward kernels). Its keys are those
// some row may see, keys_ of them from first_key_; key j of the group is key first_key_ + j.
class BackwardGroup {
 public:
  BackwardGroup(const AttentionBackwardArgs& args, Scratch& scratch)
      : g_(args),
        a_(args.forward),
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
    KeyRange seen{key_limit(a_, b), 0};
    for (std::size_t r = 0; r < rows_; ++r) {
      scratch_.rows[r] = score_row_of(a_, b, query_head(r), query_index(r));
      const KeyRange v = scratch_.rows[r].visible;
      if (v.begin < v.end) {
        seen.begin = std::min(seen.begin, v.begin);
        seen.end = std::max(seen.end, v.end);
      }
    }
    first_key_ = seen.begin;
    keys_ = seen.end > seen.begin ? seen.end - seen.begin : 0;
    pack_keys(a_.k + k_head, a_.v + v_head);
    for (std::size_t r0 = 0; r0 < rows_; r0 += tile_rows)
      tile_gradients(r0, std::min(tile_rows, rows_ - r0));
    write_key_gradients(g_.grad_k + k_head, a_.k_strides.seq, scratch_.grad_k.get(), scratch_.d,
                        d_);
    write_key_gradients(g_.grad_v + v_head, a_.v_strides.seq, scratch_.grad_v.get(), scratch_.dv,
                        dv_);
  }

 private:
  std::size_t query_index(std::size_t r) const { return r % s_.q_seq_len; }
  std::size_t query_head(std::size_t r) const { return first_q_head_ + r / s_.q_seq_len; }
  std::size_t row_offset(const Strides& st, std::size_t r) const {
    return batch_ * st.batch + query_head(r) * st.head + query_index(r) * st.seq;
  }

  // The group's keys and values packed for the products (zeros past the last key, up to a
  // whole register tile), and its dK, dV accumulators zeroed.
  void pack_keys(const float* k, const float* v) {
    const std::size_t padded = round_up(keys_, Tile::columns), width = scratch_.width;
    const float* k0 = k + first_key_ * a_.k_strides.seq;
    pack_panel(k0, a_.k_strides.seq, d_, keys_, padded, scratch_.k_panel.get(), width);
    pack_panel(v + first_key_ * a_.v_strides.seq, a_.v_strides.seq, dv_, keys_, padded,
               scratch_.v_panel.get(), width);
    float* k_rows = scratch_.k_rows.get();
    pack_rows(StridedRows{k0, a_.k_strides.seq}, keys_, d_, k_rows, scratch_.d);
    std::fill(k_rows + keys_ * scratch_.d, k_rows + padded * scratch_.d, 0.0f);
    std::fill(scratch_.grad_k.get(), scratch_.grad_k.get() + padded * scratch_.d, 0.0f);
    std::fill(scratch_.grad_v.get(), scratch_.grad_v.get() + padded * scratch_.dv, 0.0f);
  }

  // out's rows [kv_seq_len, n] (`stride` floats apart) = the accumulated rows (`width` floats
  // apart) for the group's keys, zeros for the keys no row sees.
  void write_key_gradients(float* out, std::size_t stride, const float* accumulated,
                           std::size_t width, std::size_t n) const {
    for (std::size_t j = 0; j < s_.kv_seq_len; ++j) {
      float* row = out + j * stride;
      if (j >= first_key_ && j < first_key_ + keys_) {
        const float* from = accumulated + (j - first_key_) * width;
        std::copy(from, from + n, row);
      } else {
        std::fill(row, row + n, 0.0f);
      }
    }
  }

  // The tile of `count` query rows from r0: each pair of rows' scores and dP against the keys
  // the pair sees, then each row's P and dS (zeros at the tile's other keys), then its dQ =
  // dS K, written once, and dV += P^T dO and dK += dS^T Q into the group's accumulators. Under
  // a causal mask or a window the pairs' key spans differ, so the masked part of the tile is
  // mostly neither computed nor multiplied.
  void tile_gradients(std::size_t r0, std::size_t count) {
    const std::size_t d = scratch_.d, width = scratch_.width;
    const std::size_t pairs = round_up(count, Tile::rows);
    KeyRange pair_keys[tile_rows / Tile::rows];
    KeyRange span{keys_, 0};  // every key of the tile's pairs
    for (std::size_t t = 0; t < pairs; t += Tile::rows) {
      const KeyRange keys = keys_of_pair(r0, t, count);
      pair_keys[t / Tile::rows] = keys;
      if (keys.begin < keys.end) {
        span.begin = std::min(span.begin, keys.begin);
        span.end = std::max(span.end, keys.end);
      }
    }
    float* grad_q = scratch_.grad_q.get();
    std::fill(grad_q, grad_q + pairs * d, 0.0f);
    if (span.begin < span.end) {
      pack_rows([&](std::size_t t) { return a_.q + row_offset(a_.q_strides, r0 + t); }, count, d_,
                scratch_.q.get(), d);
      pack_rows([&](std::size_t t) { return g_.grad_y + row_offset(a_.y_strides, r0 + t); }, count,
                dv_, scratch_.grad_y.get(), scratch_.dv);
      for (std::size_t t = 0; t < pairs; t += Tile::rows) {
        const KeyRange keys = pair_keys[t / Tile::rows];
        pair_ds(r0, t, count, keys, span);
        if (keys.begin < keys.end)
          add_product<ARows::along_rows>(
              grad_q + t * d, d, Tile::rows, d, scratch_.ds.get() + t * width + keys.begin, width,
              scratch_.k_rows.get() + keys.begin * d, d, keys.end - keys.begin);
      }
      key_gradients(span, pair_keys, count);
    }
    for (std::size_t t = 0; t < count; ++t)
      std::copy(grad_q + t * d, grad_q + t * d + d_, g_.grad_q + row_offset(a_.q_strides, r0 + t));
  }

  // The group's keys that rows t and t + 1 of the tile from r0 see (t + 1 may be past count:
  // the spare row of an odd tile), widened to whole register tiles; empty when neither sees one.
  KeyRange keys_of_pair(std::size_t r0, std::size_t t, std::size_t count) const {
    KeyRange seen{keys_, 0};
    for (std::size_t u = t; u < std::min(t + Tile::rows, count); ++u) {
      const KeyRange v = scratch_.rows[r0 + u].visible;
      if (v.begin < v.end) {
        seen.begin = std::min(seen.begin, v.begin - first_key_);
        seen.end = std::max(seen.end, v.end - first_key_);
      }
    }
    if (seen.begin >= seen.end) return {0, 0};
    return {seen.begin - seen.begin % Tile::columns, round_up(seen.end, Tile::columns)};
  }

  // Rows t, t + 1 of the tile's P and dS (scratch p, ds; row t at t * width) over the keys
  // `span`: the pair's scores and dP against its `keys`, then each row's P and scale * dS
  // there; zeros elsewhere, and in a row that sees nothing (or the spare row).
  void pair_ds(std::size_t r0, std::size_t t, std::size_t count, const KeyRange& keys,
               const KeyRange& span) {
    const std::size_t d = scratch_.d, dv = scratch_.dv, width = scratch_.width;
    float* p = scratch_.p.get() + t * width;
    float* ds = scratch_.ds.get() + t * width;
    const std::size_t n = keys.end - keys.begin;
    if (n > 0) {
      const float* q = scratch_.q.get() + t * d;
      const float* grad_y = scratch_.grad_y.get() + t * dv;
      dot_panel(q, q + d, scratch_.k_panel.get() + keys.begin, width, d_, n, p + keys.begin,
                p + width + keys.begin);
      dot_panel(grad_y, grad_y + dv, scratch_.v_panel.get() + keys.begin, width, dv_, n,
                ds + keys.begin, ds + width + keys.begin);
    }
    for (std::size_t u = 0; u < Tile::rows; ++u, p += width, ds += width) {
      float* p_row = p + keys.begin;
      float* ds_row = ds + keys.begin;
      const bool sees = n > 0 && t + u < count && probabilities(r0 + t + u, keys.begin, n, p_row);
      if (sees) {
        scale_ds(p_row, ds_row, n, row_delta(p_row, ds_row, n));
        // The score step's derivative, at the group's keys (the rest of the row is padding).
        adjust_scores_backward(ds_row, scratch_.capped.get(), std::min(n, keys_ - keys.begin),
                               a_.options);
      } else {
        std::fill(p_row, p_row + n, 0.0f);
        std::fill(ds_row, ds_row + n, 0.0f);
      }
      // The rest of the tile's span (what the key products read).
      for (float* row : {p, ds}) {
        std::fill(row + span.begin, row + std::max(span.begin, keys.begin), 0.0f);
        std::fill(row + std::max(span.begin, keys.end), row + span.end, 0.0f);
      }
    }
  }

  // dV += P^T dO and dK += dS^T Q for the tile's keys `span`, a register tile of keys at a
  // time, each over only the pairs of rows that see some of those keys.
  void key_gradients(const KeyRange& span, const KeyRange (&pair_keys)[tile_rows / Tile::rows],
                     std::size_t count) {
    const std::size_t d = scratch_.d, dv = scratch_.dv, width = scratch_.width;
    for (std::size_t j = span.begin; j < span.end; j += Tile::columns) {
      std::size_t first = count, last = 0;  // rows first .. last - 1 see key tile j
      for (std::size_t t = 0; t < count; t += Tile::rows) {
        const KeyRange keys = pair_keys[t / Tile::rows];
        if (keys.begin <= j && j < keys.end) {
          first = std::min(first, t);
          last = std::min(count, t + Tile::rows);
        }
      }
      if (first >= last) continue;
      add_product<ARows::down_columns>(scratch_.grad_v.get() + j * dv, dv, Tile::columns, dv,
                                       scratch_.p.get() + first * width + j, width,
                                       scratch_.grad_y.get() + first * dv, dv, last - first);
      add_product<ARows::down_columns>(scratch_.grad_k.get() + j * d, d, Tile::columns, d,
                                       scratch_.ds.get() + first * width + j, width,
                                       scratch_.q.get() + first * d, d, last - first);
    }
  }

  // row [n] = the probabilities of row r for the group's keys begin .. begin + n (a span
  // holding every key the row sees), from its dot products q.k on entry: times scale, the
  // score step (adjust_scores, keeping in scratch capped what its derivative needs), -inf past the
  // group's last key, then the softmax. False (row unspecified) when the row sees no key, or
  // only masked ones: then it passes no gradient.
  bool probabilities(std::size_t r, std::size_t begin, std::size_t n, float* row) {
    const ScoreRow& at = scratch_.rows[r];
    if (at.visible.begin >= at.visible.end) return false;
    const std::size_t keys = std::min(n, keys_ - begin);
    rescale_row(row, n, a_.options.scale);
    adjust_scores(row, first_key_ + begin, keys, a_.options, a_.mask, at, scratch_.capped.get());
    std::fill(row + keys, row + n, minus_infinity);
    RowStatistics stats;
    online_softmax_update(row, n, stats);
    if (stats.sum == 0.0f) return false;
    rescale_row(row, n, 1.0f / stats.sum);
    return true;
  }

  // ds [n] = scale * P o (dP - D_i), the softmax's Jacobian, with dP in ds on entry (n whole
  // vectors, aligned). Keys with P = 0 get 0, whatever their dP (row_delta says why).
  void scale_ds(const float* p, float* ds, std::size_t n, float delta) const {
    const batch shift(delta), factor(a_.options.scale), zero(0.0f);
    for (std::size_t j = 0; j < n; j += lanes) {
      const batch pj = batch::load_aligned(p + j);
      const batch dsj = pj * (batch::load_aligned(ds + j) - shift) * factor;
      xsimd::select(pj != zero, dsj, zero).store_aligned(ds + j);
    }
  }

  const AttentionBackwardArgs& g_;
  const AttentionArgs& a_;
  const AttentionShape& s_;
  Scratch& scratch_;
  const std::size_t group_, rows_, d_, dv_;
  std::size_t batch_ = 0, first_q_head_ = 0;
  std::size_t first_key_ = 0, keys_ = 0;
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
  if (!scratch.allocate_for(s)) return false;
  // The forward's y only when asked for: the gradients need no y (D_i comes from P and dP).
  if (args.forward.y) {
    AttentionArgs forward = args.forward;
    forward.scores = nullptr;
    if (!flash_attention(forward)) return false;
  }
  BackwardGroup group(args, scratch);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t g = 0; g < s.kv_num_heads; ++g) group.run(b, g);
  return true;
}

double flash_attention_backward_working_bytes(const AttentionShape& shape) {
  return Scratch::bytes(shape) + double(flash_attention_working_bytes(shape));
}

bool attention_backward_reference(const AttentionBackwardArgs& args) {
  const AttentionArgs& a = args.forward;
  const AttentionShape& s = a.shape;
  std::unique_ptr<float[]> p(new (std::nothrow) float[s.kv_seq_len]);
  std::unique_ptr<float[]> raw(new (std::nothrow) float[s.kv_seq_len]);
  std::unique_ptr<float[]> dp(new (std::nothrow) float[s.kv_seq_len]);
  if (!p || !raw || !dp) return false;
  zero_rows(args.grad_q, a.q_strides, s.batch, s.q_num_heads, s.q_seq_len, s.head_size);
  zero_rows(args.grad_k, a.k_strides, s.batch, s.kv_num_heads, s.kv_seq_len, s.head_size);
  zero_rows(args.grad_v, a.v_strides, s.batch, s.kv_num_heads, s.kv_seq_len, s.v_head_size);
  const std::size_t group = s.q_num_heads / s.kv_num_heads;
  const float scale = a.options.scale;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.q_num_heads; ++h)
      for (std::size_t i = 0; i < s.q_seq_len; ++i) {
        // Rows [D] of q, dQ; [Dv] of dO, y; the kv head's K, dK [T, D] and V, dV [T, Dv].
        score_row(a, b, h, i, ScoresMode::probabilities, p.get());
        score_row(a, b, h, i, ScoresMode::raw, raw.get());
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
          if (p[j] != 0.0f) delta += p[j] * dp[j];  // keys with P = 0 add nothing
          if (a.y) {
            float* y = a.y + yi;
            if (j == 0) std::fill(y, y + s.v_head_size, 0.0f);
            for (std::size_t c = 0; c < s.v_head_size; ++c) y[c] += p[j] * v[c];
          }
        }
        for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
          float ds = p[j] == 0.0f ? 0.0f : p[j] * (dp[j] - delta) * scale;
          adjust_scores_backward_reference(&ds, &raw[j], 1, a.options);
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
