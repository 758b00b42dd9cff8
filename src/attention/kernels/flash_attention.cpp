#include "kernels/flash_attention.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <xsimd/xsimd.hpp>

#include "kernels/register_block.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/score_step.hpp"
#include "kernels/scores.hpp"
#include "kernels/visibility.hpp"
#include "thread_team.hpp"

namespace attention::kernels {
namespace {

// A register tile is 2 rows x 4 vectors (register_block.hpp): 8 accumulators, 4 vectors of
// keys (or values), a splat and a product fit the ~15 vector registers V8 has, and each splat
// feeds 4 multiply-adds. Measured in Node against 4 rows x 2 vectors: 72-74% vs 70-72% of the
// SIMD128 peak; 12 accumulators spill, and so does going two steps at a time (clang hoists
// the second step's loads).
using Tile = RegisterBlock<2, 4>;
constexpr std::size_t tile_rows = Tile::rows;     // query rows in one register tile
constexpr std::size_t tile_keys = Tile::columns;  // keys (or value columns) in one register tile
constexpr std::size_t block_keys = 64;            // keys per packed K/V block
// Query rows that reuse one packed K/V block: each block is packed once per row block, and
// 256 rows (64 KiB of queries and of outputs at head size 64, in L2) measured 1.5 points of
// the SIMD128 peak above 128 at N = 256 in Node.
constexpr std::size_t block_rows = 256;
static_assert(block_keys % tile_keys == 0, "a key block holds whole register tiles");
static_assert(block_rows % tile_rows == 0, "a row block holds whole register tiles");

using Buffer = AlignedFloats;

// All the memory one thread of a call needs: O(rows * (head_size + v_head_size)), whatever S
// and T are, where rows = rows_per_block: decoding (S = 1) allocates and packs for the few
// rows it has, not for a whole block.
struct Scratch {
  Buffer queries;  // rows x d: the block's query rows, tile by tile, interleaved
  Buffer outputs;  // rows x dv_padded: running (unnormalised) softmax . values
  Buffer keys;     // block_keys x d, packed as d x tile_keys panels, one per tile of keys
  Buffer values;   // block_keys x dv_padded
  Buffer scores;   // tile_rows x block_keys: scores, then probabilities, of one tile
  std::unique_ptr<ScoreRow[]> score_rows;      // rows: each row's visible keys, position, mask
  std::unique_ptr<RowStatistics[]> row_stats;  // rows: each row's running softmax max and sum

  // Floats of each buffer, in the order above; one list serves allocation and the byte count.
  static std::array<std::size_t, 5> sizes(std::size_t rows, std::size_t d, std::size_t dv_padded) {
    return {rows * d, rows * dv_padded, block_keys * d, block_keys * dv_padded,
            tile_rows * block_keys};
  }

  bool allocate_for(std::size_t rows, std::size_t d, std::size_t dv_padded) {
    const auto n = sizes(rows, d, dv_padded);
    Buffer* buffers[5] = {&queries, &outputs, &keys, &values, &scores};
    for (std::size_t i = 0; i < 5; ++i) {
      *buffers[i] = allocate_floats(n[i]);
      if (!*buffers[i]) return false;
    }
    score_rows.reset(new (std::nothrow) ScoreRow[rows]);
    row_stats.reset(new (std::nothrow) RowStatistics[rows]);
    return score_rows != nullptr && row_stats != nullptr;
  }
};

// Query rows per row block for this shape on `threads` threads: a whole block, or the rows of
// one head group. A team shares the row blocks of every head group, so with several threads
// the blocks are halved (down to min_shared_block_rows) until each thread has
// blocks_per_thread of them: one head at N = 256 is one block alone, four of 64 rows on two
// threads. Smaller blocks pack each key block more often (once per row block), a cost that
// stays small beside the products down to 64 rows.
constexpr std::size_t min_shared_block_rows = 64;
constexpr std::size_t blocks_per_thread = 2;

std::size_t group_rows(const AttentionShape& s) {
  return s.q_num_heads / s.kv_num_heads * s.q_seq_len;
}

std::size_t rows_per_block(const AttentionShape& s, std::size_t threads) {
  std::size_t rows = std::min(block_rows, round_up(group_rows(s), tile_rows));
  const auto blocks = [&](std::size_t r) {
    return s.batch * s.kv_num_heads * ((group_rows(s) + r - 1) / r);
  };
  while (threads > 1 && rows > min_shared_block_rows && blocks(rows) < blocks_per_thread * threads)
    rows = round_up(rows / 2, tile_rows);
  return rows;
}

// scores (tile_rows x tile_keys, row stride block_keys) = queries . panel * scale, where
// queries (d x tile_rows) is one tile of query rows stored interleaved, (element, row), and
// panel (d x tile_keys) one packed tile of keys: each step a splat of one query element
// times a vector of keys. The scale is applied to the finished dot products, as the
// definition does, so no scaled intermediate can overflow where the scores themselves would
// not. Each row's scores are also folded into largest[row] (for the softmax's maximum).
void score_tile(const float* queries, std::size_t d, const float* panel, float scale, float* scores,
                batch (&largest)[tile_rows]) {
  Tile tile;
  tile.zero();
  tile.multiply_add_steps(queries, 1, tile_rows, panel, tile_keys, d);
  tile.store({scores, scores + block_keys}, scale, largest);
}

// outputs (tile_rows x dv_padded) = outputs * rescale + probabilities . values, where
// probabilities (tile_rows x keys, row stride block_keys) are the tile's rows of
// probabilities and values is (keys x dv_padded); tile_keys value columns at a time, each
// step a splat of one probability times a vector of values. The rescale (the online
// softmax's correction of what each row accumulated before its maximum moved) rides on the
// load of the accumulators.
void accumulate_tile(const float* probabilities, std::size_t keys, const float* values,
                     std::size_t dv_padded, const float (&rescale)[tile_rows], float* outputs) {
  for (std::size_t c = 0; c < dv_padded; c += tile_keys) {
    float* const rows[tile_rows] = {outputs + c, outputs + dv_padded + c};
    Tile tile;
    if (rescale[0] == 1.0f && rescale[1] == 1.0f)
      tile.load({rows[0], rows[1]});  // the common case once the maxima settle
    else
      tile.load({rows[0], rows[1]}, rescale);
    tile.multiply_add_steps(probabilities, block_keys, 1, values + c, dv_padded, keys);
    tile.store(rows);
  }
}

// One kv head with the query heads it serves, walked as one matrix of rows = group * S (row
// r is query r % S of head first_q_head + r / S), so each packed K/V block is read once for
// all of them (grouped-query attention reads each kv head once per group).
class HeadGroup {
 public:
  HeadGroup(const AttentionArgs& args, Scratch& scratch, std::size_t block_rows)
      : a_(args),
        shape_(args.shape),
        options_(args.options),
        mask_(args.mask),
        s_(scratch),
        d_(shape_.head_size),
        dv_(shape_.v_head_size),
        dv_padded_(round_up(dv_, tile_keys)),
        group_(shape_.q_num_heads / shape_.kv_num_heads),
        block_rows_(block_rows) {}

  // Batch b, kv head g: the row block of its query heads' rows that starts at row0 (of
  // group * S), against the keys and values of g.
  void run(std::size_t b, std::size_t g, std::size_t row0) {
    batch_ = b;
    first_q_head_ = g * group_;
    key_limit_ = key_limit(a_, b);
    const float* k_head = a_.k + b * a_.k_strides.batch + g * a_.k_strides.head;
    const float* v_head = a_.v + b * a_.v_strides.batch + g * a_.v_strides.head;
    const std::size_t rows = std::min(block_rows_, group_rows(shape_) - row0);
    const KeyRange keys_seen = start_row_block(row0, rows);
    // Only the key blocks some row of this block can see are packed and computed. Blocks
    // start at multiples of block_keys, wherever a row block's keys begin (a window), so
    // that each row's online softmax sums the same blocks, in the same order, however the
    // rows are grouped into row blocks: one thread or a team, the same bits.
    const std::size_t first_key = keys_seen.begin / block_keys * block_keys;
    for (std::size_t key0 = first_key; key0 < keys_seen.end; key0 += block_keys) {
      const std::size_t keys = std::min(block_keys, keys_seen.end - key0);
      pack_block(k_head + key0 * a_.k_strides.seq, v_head + key0 * a_.v_strides.seq, keys);
      block_step(*this, key0, keys);
    }
    finish_row_block();
  }

 private:
  // process_block, called through a pointer the optimiser cannot see through (as attention()
  // calls the kernels): wasm-opt would inline it into its one caller, and as a function of
  // its own V8 moves it to its optimising tier after its first calls, so that the first large
  // call runs its remaining blocks optimised. Inlined, the whole kernel is one function, and
  // V8 keeps a running call in the baseline tier until it returns. One call per key block,
  // not per tile: with the per-tile visibility checks that a block every row sees whole does
  // not need, that measured 1% faster at N = 256 in Node (A/B in the same rounds).
  static void (*volatile const block_step)(HeadGroup&, std::size_t, std::size_t);

  std::size_t query_index(std::size_t r) const { return (row0_ + r) % shape_.q_seq_len; }
  std::size_t query_head(std::size_t r) const {
    return first_q_head_ + (row0_ + r) / shape_.q_seq_len;
  }
  std::size_t row_offset(const Strides& st, std::size_t r) const {
    return batch_ * st.batch + query_head(r) * st.head + query_index(r) * st.seq;
  }

  // Packs the block's query rows, resets their running softmax, and returns the keys any of
  // them may see.
  KeyRange start_row_block(std::size_t row0, std::size_t rows) {
    row0_ = row0;
    rows_ = rows;
    const std::size_t padded = round_up(rows, tile_rows);
    KeyRange seen{key_limit_, 0};
    seen_by_all_ = {0, key_limit_};
    for (std::size_t r = 0; r < padded; ++r) {
      // Row r is lane r % tile_rows of its tile: element c at tile + c * tile_rows + lane.
      // Plain scalar copies: this runs once per row block, in V8's baseline tier for a whole
      // first call (the function is entered once per head group), where a SIMD version
      // (loads and zip shuffles) made the first N = 1024 call 7 ms slower.
      float* dst = s_.queries.get() + (r - r % tile_rows) * d_ + r % tile_rows;
      const float* src = r < rows ? a_.q + row_offset(a_.q_strides, r) : nullptr;
      for (std::size_t c = 0; c < d_; ++c) dst[c * tile_rows] = src ? src[c] : 0.0f;
      s_.row_stats[r] = RowStatistics();
      if (r < rows) {
        s_.score_rows[r] = score_row_of(a_, batch_, query_head(r), query_index(r));
        const KeyRange v = s_.score_rows[r].visible;
        seen_by_all_ = {std::max(seen_by_all_.begin, v.begin), std::min(seen_by_all_.end, v.end)};
        if (v.begin < v.end) {
          seen.begin = std::min(seen.begin, v.begin);
          seen.end = std::max(seen.end, v.end);
        }
      }
    }
    std::fill(s_.outputs.get(), s_.outputs.get() + padded * dv_padded_, 0.0f);
    if (seen.end <= seen.begin) return {0, 0};
    return seen;
  }

  void pack_block(const float* k_block, const float* v_block, std::size_t keys) {
    // keys: panels of d x tile_keys, zero-padded past the last key; values: rows padded to
    // dv_padded with zeros, so neither micro-kernel has a tail.
    const std::size_t padded_keys = round_up(keys, tile_keys);
    for (std::size_t kt = 0; kt < padded_keys; kt += tile_keys)
      pack_panel(k_block + kt * a_.k_strides.seq, a_.k_strides.seq, d_,
                 std::min(tile_keys, keys - kt), tile_keys, s_.keys.get() + kt * d_, tile_keys);
    for (std::size_t j = 0; j < keys; ++j) {
      float* dst = s_.values.get() + j * dv_padded_;
      const float* src = v_block + j * a_.v_strides.seq;
      std::copy(src, src + dv_, dst);
      std::fill(dst + dv_, dst + dv_padded_, 0.0f);
    }
  }

  // Every tile of the row block against the packed key block key0 .. key0 + keys.
  void process_block(std::size_t key0, std::size_t keys) {
    // A block inside every row's visible keys (no causal edge or window inside it, the common
    // case) needs no tile's checks.
    const bool seen_whole = seen_by_all_.covers(key0, keys);
    for (std::size_t t = 0; t < rows_; t += tile_rows) process_tile(t, key0, keys, seen_whole);
  }

  void process_tile(std::size_t t, std::size_t key0, std::size_t keys, bool seen_whole) {
    const std::size_t real_rows = std::min(tile_rows, rows_ - t);
    // Decided per tile, not per element: skip a block no row of the tile sees; mask element
    // by element only where a row's visible range ends inside the block.
    bool any_sees = seen_whole, straddles = false;
    for (std::size_t r = t; r < t + real_rows && !seen_whole; ++r) {
      const KeyRange v = s_.score_rows[r].visible;
      if (v.begin < key0 + keys && v.end > key0 && v.begin < v.end) any_sees = true;
      if (!v.covers(key0, keys)) straddles = true;
    }
    if (!any_sees) return;
    const std::size_t padded_keys = round_up(keys, tile_keys);
    float* scores = s_.scores.get();
    batch largest[tile_rows];
    for (batch& x : largest) x = batch(minus_infinity);
    for (std::size_t kt = 0; kt < padded_keys; kt += tile_keys)
      score_tile(s_.queries.get() + t * d_, d_, s_.keys.get() + kt * d_, options_.scale,
                 scores + kt, largest);

    // Online softmax (row_softmax.hpp): each row's block of scores becomes its probabilities,
    // in place, folded into the row's statistics; accumulate_tile applies each row's rescale.
    // The rows' maxima from score_tile hold unless scores were adjusted or padding was added.
    const bool adjust = scores_need_adjusting(options_, mask_) || straddles;
    const bool maxima_hold = !adjust && keys == padded_keys;
    float rescale[tile_rows];
    for (std::size_t r = 0; r < tile_rows; ++r) {
      float* row = scores + r * block_keys;
      if (adjust && r < real_rows)
        adjust_scores(row, key0, keys, options_, mask_, s_.score_rows[t + r]);
      std::fill(row + keys, row + padded_keys, minus_infinity);
      const float row_max =
          maxima_hold ? xsimd::reduce_max(largest[r]) : block_max(row, padded_keys);
      rescale[r] = online_softmax_update(row, padded_keys, row_max, s_.row_stats[t + r]);
    }
    accumulate_tile(scores, keys, s_.values.get(), dv_padded_, rescale,
                    s_.outputs.get() + t * dv_padded_);
  }

  // y rows = outputs / row sum; a row that saw no key gets zeros.
  void finish_row_block() const {
    for (std::size_t r = 0; r < rows_; ++r)
      normalise_row(s_.outputs.get() + r * dv_padded_, s_.row_stats[r].sum, dv_,
                    a_.y + row_offset(a_.y_strides, r));
  }

  const AttentionArgs& a_;
  const AttentionShape& shape_;
  const AttentionOptions& options_;
  const AttentionMask& mask_;
  Scratch& s_;
  const std::size_t d_, dv_, dv_padded_, group_, block_rows_;
  std::size_t batch_ = 0, first_q_head_ = 0, row0_ = 0, rows_ = 0, key_limit_ = 0;
  KeyRange seen_by_all_{0, 0};  // the keys every row of the row block sees (may be empty)
};

void (*volatile const HeadGroup::block_step)(HeadGroup&, std::size_t, std::size_t) =
    [](HeadGroup& group, std::size_t key0, std::size_t keys) { group.process_block(key0, keys); };

}  // namespace

bool flash_attention(const AttentionArgs& args) {
  const AttentionShape& s = args.shape;
  const std::size_t threads = args.team ? args.team->size() : 1;
  const std::size_t rows = rows_per_block(s, threads);
  // One scratch per thread, all allocated here, on the calling thread: in the wasm threads
  // build only the calling thread's JS reads wasm memory, and it must see any growth.
  std::unique_ptr<Scratch[]> scratch(new (std::nothrow) Scratch[threads]);
  if (!scratch) return false;
  for (std::size_t t = 0; t < threads; ++t)
    if (!scratch[t].allocate_for(rows, s.head_size, round_up(s.v_head_size, tile_keys)))
      return false;
  // Task i: batch b, kv head g, row block i % blocks (each writes its own rows of y).
  const std::size_t blocks = (group_rows(s) + rows - 1) / rows;
  const auto run_task = [&](std::size_t task, std::size_t thread) {
    const std::size_t group_index = task / blocks;
    HeadGroup(args, scratch[thread], rows)
        .run(group_index / s.kv_num_heads, group_index % s.kv_num_heads, task % blocks * rows);
  };
  const std::size_t tasks = s.batch * s.kv_num_heads * blocks;
  ThreadTeam::run_on(threads > 1 ? args.team : nullptr, tasks, run_task);
  return true;
}

std::size_t flash_attention_working_bytes(const AttentionShape& s, std::size_t threads) {
  const std::size_t rows = rows_per_block(s, threads);
  std::size_t bytes = rows * (sizeof(ScoreRow) + sizeof(RowStatistics));
  for (std::size_t floats : Scratch::sizes(rows, s.head_size, round_up(s.v_head_size, tile_keys)))
    bytes += allocated_bytes(floats);
  return bytes * threads + threads * sizeof(Scratch);
}

bool attention_reference(const AttentionArgs& a) {
  const AttentionShape& s = a.shape;
  std::unique_ptr<float[]> weights(new (std::nothrow) float[s.kv_seq_len]);
  if (!weights) return false;
  const std::size_t group = s.q_num_heads / s.kv_num_heads;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.q_num_heads; ++h)
      for (std::size_t i = 0; i < s.q_seq_len; ++i) {
        score_row(a, b, h, i, ScoresMode::probabilities, weights.get());
        const float* v = a.v + b * a.v_strides.batch + (h / group) * a.v_strides.head;
        float* y = a.y + b * a.y_strides.batch + h * a.y_strides.head + i * a.y_strides.seq;
        std::fill(y, y + s.v_head_size, 0.0f);
        for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
          const float* v_row = v + j * a.v_strides.seq;
          for (std::size_t c = 0; c < s.v_head_size; ++c) y[c] += weights[j] * v_row[c];
        }
      }
  return true;
}

}  // namespace attention::kernels
