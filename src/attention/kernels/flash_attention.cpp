#include "kernels/flash_attention.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/scores.hpp"
#include "kernels/visibility.hpp"

namespace attention::kernels {
namespace {

// A register tile is 2 rows x 4 vectors: 8 accumulators, 4 vectors of keys (or values) and a
// splat fit the ~15 vector registers V8 has, and each splat feeds 4 multiply-adds. Measured in
// Node against 4 rows x 2 vectors: 72-74% vs 70-72% of the SIMD128 peak; 12 accumulators
// spill, and so does going two steps at a time (clang hoists the second step's loads).
constexpr std::size_t tile_rows = 2;          // query rows in one register tile
constexpr std::size_t tile_keys = 4 * lanes;  // keys (or value columns) in one register tile
constexpr std::size_t block_keys = 64;        // keys per packed K/V block
constexpr std::size_t block_rows = 128;       // query rows that reuse one packed K/V block
static_assert(block_keys % tile_keys == 0, "a key block holds whole register tiles");
static_assert(block_rows % tile_rows == 0, "a row block holds whole register tiles");

using Buffer = AlignedFloats;

// All the memory one call needs: O(rows * (head_size + v_head_size)), whatever S and T are,
// where rows = min(block_rows, the rows of one head group): decoding (S = 1) allocates and
// packs for the few rows it has, not for a whole block.
struct Scratch {
  Buffer queries;        // rows x d: the block's query rows, tile by tile, interleaved
  Buffer outputs;        // rows x dv_padded: running (unnormalised) softmax . values
  Buffer keys;           // block_keys x d, packed as d x tile_keys panels, one per tile of keys
  Buffer values;         // block_keys x dv_padded
  Buffer scores;         // tile_rows x block_keys: scores, then probabilities, of one tile
  Buffer probabilities;  // block_keys x tile_rows: the same probabilities, interleaved
  std::unique_ptr<KeyRange[]> visible;         // rows: the keys each row may see by position
  std::unique_ptr<RowStatistics[]> row_stats;  // rows: each row's running softmax max and sum

  // Floats of each buffer, in the order above; one list serves allocation and the byte count.
  static std::array<std::size_t, 6> sizes(std::size_t rows, std::size_t d, std::size_t dv_padded) {
    return {rows * d,
            rows * dv_padded,
            block_keys * d,
            block_keys * dv_padded,
            tile_rows * block_keys,
            block_keys * tile_rows};
  }

  bool allocate_for(std::size_t rows, std::size_t d, std::size_t dv_padded) {
    const auto n = sizes(rows, d, dv_padded);
    Buffer* buffers[6] = {&queries, &outputs, &keys, &values, &scores, &probabilities};
    for (std::size_t i = 0; i < 6; ++i) {
      *buffers[i] = allocate_floats(n[i]);
      if (!*buffers[i]) return false;
    }
    visible.reset(new (std::nothrow) KeyRange[rows]);
    row_stats.reset(new (std::nothrow) RowStatistics[rows]);
    return visible != nullptr && row_stats != nullptr;
  }
};

// Query rows per row block for this shape: a whole block, or the rows of one head group.
std::size_t rows_per_block(const AttentionShape& s) {
  const std::size_t group_rows = s.q_num_heads / s.kv_num_heads * s.q_seq_len;
  return std::min(block_rows, round_up(group_rows, tile_rows));
}

// Both micro-kernels read their splats from tiles stored interleaved, (element, row): the two
// rows' values sit side by side, so one address serves both splats of a step.

// scores (tile_rows x tile_keys, row stride block_keys) = queries . panel * scale, where
// queries (d x tile_rows) is one interleaved tile of query rows and panel (d x tile_keys) one
// packed tile of keys. Eight accumulators: two rows times four vectors of keys; each step
// multiplies a splat of one query element by a vector of keys. The scale is applied to the
// finished dot products, as the definition does, so no scaled intermediate can overflow where
// the scores themselves would not.
//
// Kept out of line: inlined into process_tile, its eight accumulators and four key vectors
// compete with the caller's values for V8's registers and spill: measured in Node, the whole
// kernel ran far slower.
__attribute__((noinline)) void score_tile(const float* queries, std::size_t d, const float* panel,
                                          float scale, float* scores) {
  batch s00(0.0f), s01(0.0f), s02(0.0f), s03(0.0f), s10(0.0f), s11(0.0f), s12(0.0f), s13(0.0f);
  const auto step = [&](const float* k, const float* q) {
    const batch k0 = batch::load_aligned(k), k1 = batch::load_aligned(k + lanes);
    const batch k2 = batch::load_aligned(k + 2 * lanes), k3 = batch::load_aligned(k + 3 * lanes);
    batch x(q[0]);
    s00 = multiply_add(x, k0, s00);
    s01 = multiply_add(x, k1, s01);
    s02 = multiply_add(x, k2, s02);
    s03 = multiply_add(x, k3, s03);
    x = batch(q[1]);
    s10 = multiply_add(x, k0, s10);
    s11 = multiply_add(x, k1, s11);
    s12 = multiply_add(x, k2, s12);
    s13 = multiply_add(x, k3, s13);
  };
  const float* q = queries;
  const float* k = panel;
  ATTENTION_NO_UNROLL
  for (std::size_t c = 0; c < d; ++c, q += tile_rows, k += tile_keys) step(k, q);
  const batch x(scale);
  float* row1 = scores + block_keys;
  (s00 * x).store_aligned(scores);
  (s01 * x).store_aligned(scores + lanes);
  (s02 * x).store_aligned(scores + 2 * lanes);
  (s03 * x).store_aligned(scores + 3 * lanes);
  (s10 * x).store_aligned(row1);
  (s11 * x).store_aligned(row1 + lanes);
  (s12 * x).store_aligned(row1 + 2 * lanes);
  (s13 * x).store_aligned(row1 + 3 * lanes);
}

// outputs (tile_rows x dv_padded) += probabilities . values, where probabilities (keys x
// tile_rows) is interleaved and values is (keys x dv_padded); four vectors of value columns at
// a time: eight accumulators, each step a splat of one probability times a vector of values.
inline void accumulate_tile(const float* probabilities, std::size_t keys, const float* values,
                            std::size_t dv_padded, float* outputs) {
  float* o0 = outputs;
  float* o1 = o0 + dv_padded;
  for (std::size_t c = 0; c < dv_padded; c += tile_keys) {
    batch a00 = batch::load_aligned(o0 + c), a01 = batch::load_aligned(o0 + c + lanes);
    batch a02 = batch::load_aligned(o0 + c + 2 * lanes);
    batch a03 = batch::load_aligned(o0 + c + 3 * lanes);
    batch a10 = batch::load_aligned(o1 + c), a11 = batch::load_aligned(o1 + c + lanes);
    batch a12 = batch::load_aligned(o1 + c + 2 * lanes);
    batch a13 = batch::load_aligned(o1 + c + 3 * lanes);
    const auto step = [&](const float* v, const float* p) {
      const batch v0 = batch::load_aligned(v), v1 = batch::load_aligned(v + lanes);
      const batch v2 = batch::load_aligned(v + 2 * lanes), v3 = batch::load_aligned(v + 3 * lanes);
      batch x(p[0]);
      a00 = multiply_add(x, v0, a00);
      a01 = multiply_add(x, v1, a01);
      a02 = multiply_add(x, v2, a02);
      a03 = multiply_add(x, v3, a03);
      x = batch(p[1]);
      a10 = multiply_add(x, v0, a10);
      a11 = multiply_add(x, v1, a11);
      a12 = multiply_add(x, v2, a12);
      a13 = multiply_add(x, v3, a13);
    };
    const float* p = probabilities;
    const float* v = values + c;
    ATTENTION_NO_UNROLL
    for (std::size_t j = 0; j < keys; ++j, p += tile_rows, v += dv_padded) step(v, p);
    a00.store_aligned(o0 + c);
    a01.store_aligned(o0 + c + lanes);
    a02.store_aligned(o0 + c + 2 * lanes);
    a03.store_aligned(o0 + c + 3 * lanes);
    a10.store_aligned(o1 + c);
    a11.store_aligned(o1 + c + lanes);
    a12.store_aligned(o1 + c + 2 * lanes);
    a13.store_aligned(o1 + c + 3 * lanes);
  }
}

// One kv head with the query heads it serves, walked as one matrix of rows = group * S (row
// r is query r % S of head first_q_head + r / S), so each packed K/V block is read once for
// all of them (grouped-query attention reads each kv head once per group).
class HeadGroup {
 public:
  HeadGroup(const AttentionArgs& args, Scratch& scratch, RowStatistics* stats_out)
      : a_(args),
        shape_(args.shape),
        options_(args.options),
        mask_(args.mask),
        s_(scratch),
        d_(shape_.head_size),
        dv_(shape_.v_head_size),
        dv_padded_(round_up(dv_, tile_keys)),
        group_(shape_.q_num_heads / shape_.kv_num_heads),
        block_rows_(rows_per_block(shape_)),
        stats_out_(stats_out) {}

  // Batch b, kv head g: q and y rows of its query heads, keys and values of g.
  void run(std::size_t b, std::size_t g) {
    batch_ = b;
    first_q_head_ = g * group_;
    offset_ = query_offset(a_, b);
    key_limit_ = key_limit(a_, b);
    const float* k_head = a_.k + b * a_.k_strides.batch + g * a_.k_strides.head;
    const float* v_head = a_.v + b * a_.v_strides.batch + g * a_.v_strides.head;
    const std::size_t total_rows = group_ * shape_.q_seq_len;
    for (std::size_t row0 = 0; row0 < total_rows; row0 += block_rows_) {
      const std::size_t rows = std::min(block_rows_, total_rows - row0);
      const KeyRange keys_seen = start_row_block(row0, rows);
      // Only the key blocks some row of this block can see are packed and computed.
      for (std::size_t key0 = keys_seen.begin; key0 < keys_seen.end; key0 += block_keys) {
        const std::size_t keys = std::min(block_keys, keys_seen.end - key0);
        pack_block(k_head + key0 * a_.k_strides.seq, v_head + key0 * a_.v_strides.seq, keys);
        for (std::size_t t = 0; t < rows; t += tile_rows) process_tile(t, key0, keys);
      }
      finish_row_block();
    }
  }

 private:
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
    for (std::size_t r = 0; r < padded; ++r) {
      // Row r is lane r % tile_rows of its tile: element c at tile + c * tile_rows + lane.
      float* dst = s_.queries.get() + (r - r % tile_rows) * d_ + r % tile_rows;
      const float* src = r < rows ? a_.q + row_offset(a_.q_strides, r) : nullptr;
      for (std::size_t c = 0; c < d_; ++c) dst[c * tile_rows] = src ? src[c] : 0.0f;
      s_.row_stats[r] = RowStatistics();
      if (r < rows) {
        const KeyRange v = visible_keys(options_, offset_, key_limit_, query_index(r));
        s_.visible[r] = v;
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
    for (std::size_t kt = 0; kt < padded_keys; kt += tile_keys) {
      float* panel = s_.keys.get() + kt * d_;
      for (std::size_t jj = 0; jj < tile_keys; ++jj) {
        const std::size_t j = kt + jj;
        const float* src = j < keys ? k_block + j * a_.k_strides.seq : nullptr;
        for (std::size_t c = 0; c < d_; ++c) panel[c * tile_keys + jj] = src ? src[c] : 0.0f;
      }
    }
    for (std::size_t j = 0; j < keys; ++j) {
      float* dst = s_.values.get() + j * dv_padded_;
      const float* src = v_block + j * a_.v_strides.seq;
      std::copy(src, src + dv_, dst);
      std::fill(dst + dv_, dst + dv_padded_, 0.0f);
    }
  }

  void process_tile(std::size_t t, std::size_t key0, std::size_t keys) {
    const std::size_t real_rows = std::min(tile_rows, rows_ - t);
    // Decided per tile, not per element: skip a block no row of the tile sees; mask element
    // by element only where a row's visible range ends inside the block.
    bool any_sees = false, straddles = false;
    for (std::size_t r = t; r < t + real_rows; ++r) {
      const KeyRange v = s_.visible[r];
      if (v.begin < key0 + keys && v.end > key0 && v.begin < v.end) any_sees = true;
      if (v.begin > key0 || v.end < key0 + keys) straddles = true;
    }
    if (!any_sees) return;
    const std::size_t padded_keys = round_up(keys, tile_keys);
    float* scores = s_.scores.get();
    for (std::size_t kt = 0; kt < padded_keys; kt += tile_keys)
      score_tile(s_.queries.get() + t * d_, d_, s_.keys.get() + kt * d_, options_.scale,
                 scores + kt);

    const bool adjust = options_.softcap > 0.0f || mask_.kind != MaskKind::none || straddles;
    for (std::size_t r = 0; r < tile_rows; ++r) {
      float* row = scores + r * block_keys;
      if (adjust && r < real_rows) adjust_scores(row, t + r, key0, keys);
      std::fill(row + keys, row + padded_keys, minus_infinity);
      update_row(t + r, row, padded_keys);
    }
    accumulate_tile(s_.probabilities.get(), keys, s_.values.get(), dv_padded_,
                    s_.outputs.get() + t * dv_padded_);
  }

  // Softcap, then the masks, then -inf outside the row's visible keys, on one row of scores.
  void adjust_scores(float* row, std::size_t r, std::size_t key0, std::size_t keys) const {
    if (options_.softcap > 0.0f) apply_softcap(row, keys, options_.softcap);
    const std::size_t mask_row = batch_ * mask_.strides[0] + query_head(r) * mask_.strides[1] +
                                 query_index(r) * mask_.strides[2] + key0 * mask_.strides[3];
    hide_scores(row, keys, key0, s_.visible[r], mask_, mask_row);
  }

  // Online softmax (row_softmax.hpp): fold this block's scores into the row's statistics,
  // rescale what the row has accumulated so far, and write its probabilities, interleaved,
  // for accumulate_tile.
  void update_row(std::size_t r, float* row, std::size_t padded_keys) {
    const float rescale = online_softmax_update(row, padded_keys, s_.row_stats[r]);
    float* interleaved = s_.probabilities.get() + r % tile_rows;
    for (std::size_t j = 0; j < padded_keys; ++j) interleaved[j * tile_rows] = row[j];
    if (rescale != 1.0f) rescale_row(s_.outputs.get() + r * dv_padded_, dv_padded_, rescale);
  }

  // y rows = outputs / row sum; a row that saw no key gets zeros. The statistics too, when
  // asked for.
  void finish_row_block() const {
    for (std::size_t r = 0; r < rows_; ++r) {
      normalise_row(s_.outputs.get() + r * dv_padded_, s_.row_stats[r].sum, dv_,
                    a_.y + row_offset(a_.y_strides, r));
      if (stats_out_) {
        const std::size_t row = (batch_ * shape_.q_num_heads + query_head(r)) * shape_.q_seq_len;
        stats_out_[row + query_index(r)] = s_.row_stats[r];
      }
    }
  }

  const AttentionArgs& a_;
  const AttentionShape& shape_;
  const AttentionOptions& options_;
  const AttentionMask& mask_;
  Scratch& s_;
  const std::size_t d_, dv_, dv_padded_, group_, block_rows_;
  RowStatistics* const stats_out_;  // [batch, q_num_heads, S], or null
  std::size_t batch_ = 0, first_q_head_ = 0, row0_ = 0, rows_ = 0, key_limit_ = 0;
  std::int64_t offset_ = 0;
};

}  // namespace

bool flash_attention(const AttentionArgs& args) {
  return flash_attention_with_statistics(args, nullptr);
}

bool flash_attention_with_statistics(const AttentionArgs& args, RowStatistics* stats) {
  const AttentionShape& s = args.shape;
  Scratch scratch;
  if (!scratch.allocate_for(rows_per_block(s), s.head_size, round_up(s.v_head_size, tile_keys)))
    return false;
  HeadGroup group(args, scratch, stats);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t g = 0; g < s.kv_num_heads; ++g) group.run(b, g);
  return true;
}

std::size_t flash_attention_working_bytes(const AttentionShape& s) {
  const std::size_t rows = rows_per_block(s);
  std::size_t bytes = rows * (sizeof(KeyRange) + sizeof(RowStatistics));
  for (std::size_t floats : Scratch::sizes(rows, s.head_size, round_up(s.v_head_size, tile_keys)))
    bytes += allocated_bytes(floats);
  return bytes;
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
