#include "kernels/decode_attention.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/score_step.hpp"
#include "kernels/visibility.hpp"

namespace attention::kernels {
namespace {

// Keys scored, softmaxed and accumulated together: a chunk's K and V rows (16 KiB each at
// D = 128) are read from the cache once and stay in L1 while every row of the group uses
// them. Measured against 64, 128 and 256 keys (Node, one core): 32 streamed caches larger than
// the last-level cache 5-15% faster and was as fast below it.
constexpr std::size_t chunk_keys = 32;
static_assert(chunk_keys % lanes == 0, "a chunk of scores holds whole vectors");

// Keys of a chunk whose values are accumulated together when a kv head serves several query
// rows (see accumulate_chunk): grouped-query decoding, 32 query heads over 8 kv heads at
// D = 128, measured 1.2-1.4x faster than with whole chunks.
constexpr std::size_t value_keys = 8;

// The scratch of one call, in one allocation: per row a chunk of scores and the running
// (unnormalised) output; and each row's running softmax statistics.
struct Scratch {
  AlignedFloats memory;
  float* scores = nullptr;                     // rows x chunk_keys
  float* outputs = nullptr;                    // rows x dv_padded
  std::unique_ptr<RowStatistics[]> row_stats;  // rows

  static std::size_t floats(std::size_t rows, std::size_t dv_padded) {
    return rows * (chunk_keys + dv_padded);
  }
  bool allocate(std::size_t rows, std::size_t dv_padded) {
    memory = allocate_floats(floats(rows, dv_padded));
    row_stats.reset(new (std::nothrow) RowStatistics[rows]);
    if (!memory || !row_stats) return false;
    scores = memory.get();
    outputs = scores + rows * chunk_keys;
    return true;
  }
};

// Bytes of keys and values one call reads (every kv head's, every batch's, kv_seq_len rows);
// SIZE_MAX when that does not fit in size_t (wasm32's is 32 bits).
std::size_t cache_bytes(const AttentionShape& s) {
  const std::size_t bytes = checked_product(
      {s.batch, s.kv_num_heads, s.kv_seq_len, s.head_size + s.v_head_size, sizeof(float)});
  return bytes == 0 ? std::numeric_limits<std::size_t>::max() : bytes;
}

// True when each cached row holds its key and then its value (KvCache's layout, kv_cache.hpp):
// a chunk's keys and values are then one run of addresses.
bool keys_and_values_share_rows(const AttentionArgs& a) {
  const AttentionShape& s = a.shape;
  return a.v == a.k + s.head_size && a.k_strides.seq == s.head_size + s.v_head_size &&
         a.v_strides.seq == a.k_strides.seq && a.v_strides.head == a.k_strides.head &&
         a.v_strides.batch == a.k_strides.batch;
}

std::size_t group_rows(const AttentionShape& s) {
  return s.q_num_heads / s.kv_num_heads * s.q_seq_len;
}

// scores[r * chunk_keys + j] = scale * q[r] . k[j] for Rows query rows and Keys keys (rows
// of k `k_stride` floats apart), d elements each: Rows x Keys accumulators, each step one
// vector of every query row times one vector of each key, so each key vector loaded feeds
// Rows multiply-adds. The d % lanes tail of each dot product is scalar.
template <std::size_t Rows, std::size_t Keys>
inline void score_keys(const float* const* q, const float* k, std::size_t k_stride, std::size_t d,
                       float scale, float* scores) {
  batch acc[Rows][Keys];
  for (auto& row : acc)
    for (auto& a : row) a = batch(0.0f);
  const std::size_t body = d - d % lanes;
  ATTENTION_NO_UNROLL
  for (std::size_t c = 0; c < body; c += lanes) {
    batch x[Rows];
    for (std::size_t r = 0; r < Rows; ++r) x[r] = batch::load_unaligned(q[r] + c);
    for (std::size_t j = 0; j < Keys; ++j) {
      const batch key = batch::load_unaligned(k + j * k_stride + c);
      for (std::size_t r = 0; r < Rows; ++r) acc[r][j] = multiply_add(x[r], key, acc[r][j]);
    }
  }
  for (std::size_t r = 0; r < Rows; ++r) {
    float dots[Keys];
    if constexpr (Keys == lanes) {
      xsimd::haddp(acc[r]).store_unaligned(dots);  // Keys sums in one vector
    } else {
      for (std::size_t j = 0; j < Keys; ++j) dots[j] = xsimd::reduce_add(acc[r][j]);
    }
    for (std::size_t j = 0; j < Keys; ++j) {
      const float* key = k + j * k_stride;
      for (std::size_t c = body; c < d; ++c) dots[j] += q[r][c] * key[c];
      scores[r * chunk_keys + j] = dots[j] * scale;
    }
  }
}

// score_keys over a chunk's `keys` keys, four at a time, then one at a time.
// score_rows and accumulate_values stay out of line: inlined into the chunk loop, their
// accumulators compete with the caller's values for V8's registers and spill (measured: the
// whole path ran slower than the tiled kernel it replaces).
template <std::size_t Rows>
__attribute__((noinline)) void score_rows(const float* const* q, const float* k,
                                          std::size_t k_stride, std::size_t d, std::size_t keys,
                                          float scale, float* scores) {
  constexpr std::size_t step = 4;
  std::size_t j = 0;
  ATTENTION_NO_UNROLL
  for (; j + step <= keys; j += step)
    score_keys<Rows, step>(q, k + j * k_stride, k_stride, d, scale, scores + j);
  ATTENTION_NO_UNROLL
  for (; j < keys; ++j) score_keys<Rows, 1>(q, k + j * k_stride, k_stride, d, scale, scores + j);
}

// outputs[r][c0 ..] += sum over j of p[r][j] * v[j][c0 ..], for Rows rows and Vecs vectors of
// value columns: Rows x Vecs accumulators, each value vector loaded once for every row.
template <std::size_t Rows, std::size_t Vecs>
__attribute__((noinline)) void accumulate_values(const float* p, std::size_t keys, const float* v,
                                                 std::size_t v_stride, float* outputs,
                                                 std::size_t dv_padded) {
  batch acc[Rows][Vecs];
  for (std::size_t r = 0; r < Rows; ++r)
    for (std::size_t i = 0; i < Vecs; ++i)
      acc[r][i] = batch::load_aligned(outputs + r * dv_padded + i * lanes);
  ATTENTION_NO_UNROLL
  for (std::size_t j = 0; j < keys; ++j, v += v_stride) {
    if constexpr (Rows == 1) {
      // One row: each value vector is used once, straight from its load.
      const batch x(p[j]);
      for (std::size_t i = 0; i < Vecs; ++i)
        acc[0][i] = multiply_add(x, batch::load_unaligned(v + i * lanes), acc[0][i]);
    } else {
      batch value[Vecs];
      for (std::size_t i = 0; i < Vecs; ++i) value[i] = batch::load_unaligned(v + i * lanes);
      for (std::size_t r = 0; r < Rows; ++r) {
        const batch x(p[r * chunk_keys + j]);
        for (std::size_t i = 0; i < Vecs; ++i) acc[r][i] = multiply_add(x, value[i], acc[r][i]);
      }
    }
  }
  for (std::size_t r = 0; r < Rows; ++r)
    for (std::size_t i = 0; i < Vecs; ++i)
      acc[r][i].store_aligned(outputs + r * dv_padded + i * lanes);
}

// One kv head of one batch, with the query rows of its group: row r is query r % S of
// query head first_q_head + r / S.
class DecodeGroup {
 public:
  DecodeGroup(const AttentionArgs& args, Scratch& scratch)
      : a_(args),
        s_(args.shape),
        scratch_(scratch),
        rows_(group_rows(s_)),
        dv_padded_(round_up(s_.v_head_size, lanes)),
        shared_rows_(keys_and_values_share_rows(args)),
        touch_(cache_bytes(s_) > (rows_ > 1 || shared_rows_ ? decode_touch_min_bytes
                                                            : decode_touch_single_row_min_bytes)),
        adjust_(scores_need_adjusting(args.options, args.mask)) {}

  void run(std::size_t b, std::size_t g) {
    const std::size_t group = s_.q_num_heads / s_.kv_num_heads;
    KeyRange seen{key_limit(a_, b), 0};
    for (std::size_t r = 0; r < rows_; ++r) {
      const std::size_t head = g * group + r / s_.q_seq_len, i = r % s_.q_seq_len;
      q_[r] = a_.q + b * a_.q_strides.batch + head * a_.q_strides.head + i * a_.q_strides.seq;
      y_[r] = a_.y + b * a_.y_strides.batch + head * a_.y_strides.head + i * a_.y_strides.seq;
      rows_at_[r] = score_row_of(a_, b, head, i);
      const KeyRange& v = rows_at_[r].visible;
      if (v.begin < v.end) {
        seen.begin = std::min(seen.begin, v.begin);
        seen.end = std::max(seen.end, v.end);
      }
      scratch_.row_stats[r] = RowStatistics();
    }
    std::fill(scratch_.outputs, scratch_.outputs + rows_ * dv_padded_, 0.0f);
    const float* k_head = a_.k + b * a_.k_strides.batch + g * a_.k_strides.head;
    const float* v_head = a_.v + b * a_.v_strides.batch + g * a_.v_strides.head;
    // Only the keys some row can see are read.
    for (std::size_t key0 = seen.begin; key0 < seen.end; key0 += chunk_keys) {
      const std::size_t keys = std::min(chunk_keys, seen.end - key0);
      if (touch_ && shared_rows_) {
        touch_rows(k_head + key0 * a_.k_strides.seq, 1, 0, keys * a_.k_strides.seq);
      } else if (touch_) {
        touch_rows(k_head + key0 * a_.k_strides.seq, keys, a_.k_strides.seq, s_.head_size);
        touch_rows(v_head + key0 * a_.v_strides.seq, keys, a_.v_strides.seq, s_.v_head_size);
      }
      score_chunk(k_head + key0 * a_.k_strides.seq, keys);
      for (std::size_t r = 0; r < rows_; ++r) {
        float* row = scratch_.scores + r * chunk_keys;
        if (adjust_ || !sees_all(r, key0, keys))
          adjust_row(r, row, key0, keys);
        else
          std::fill(row + keys, row + chunk_keys, minus_infinity);
        update_row(r, row, keys);
      }
      accumulate_chunk(v_head + key0 * a_.v_strides.seq, keys);
    }
    finish();
  }

 private:
  // Reads one word per 64-byte line of `rows` rows (`size` floats each, `stride` apart) in
  // address order and keeps nothing: WebAssembly has no prefetch, and this is its stand-in.
  // The chunk's lines are all requested back to back, as one sequential stream, before the
  // scoring and accumulating loops (whose loads jump between rows) need them. Why above
  // decode_touch_min_bytes with several rows (Node, CPU time, interleaved against the build
  // without it, machine heavily loaded): 32q/8kv heads at D = 128, L = 2048 (16 and 64 MiB)
  // ran 1.1-1.35x faster; caches of 1-2 MiB, which stay in the core's own caches between
  // calls, ran 5-25% slower with it. Why one row per kv head (8 heads at D = 64) waits for
  // decode_touch_single_row_min_bytes (Node, pinned, two builds interleaved, four runs): at
  // 64 and 128 MiB (B = 4 L = 4096, B = 1 L = 32768) it ran 1.08-1.55x faster; at 16 MiB
  // (B = 1 L = 4096, B = 4 L = 1024) it was within the noise, up to 11% slower.
  // Touching the next chunk instead of the current one measured 12-25% slower.
  // Where keys and values share rows (the resident cache), a chunk's K and V are one run of
  // addresses, touched in one pass, and one row per kv head touches from decode_touch_min_bytes
  // too (KvCache.attend(), Node, CPU time, pinned, interleaved with separate K and V touched
  // from 32 MiB, three or four runs): 8 heads at D = 64, B = 1 L = 4096 and B = 4 L = 1024
  // (16 MiB) 1.2-1.5x faster, B = 4 L = 4096 (64 MiB) 1.15-1.25x; 32q/8kv heads at D = 128
  // 1.1-1.2x. A cache of exactly 4 MiB (B = 1 L = 1024) is not touched (the bound is
  // strict): touching its one row per head ran 9% slower.
  void touch_rows(const float* p, std::size_t rows, std::size_t stride, std::size_t size) {
    constexpr std::size_t line = 16;  // floats per 64-byte cache line
    std::uint32_t bits = 0;
    for (std::size_t j = 0; j < rows; ++j, p += stride)
      for (std::size_t c = 0; c < size; c += line) {
        std::uint32_t word;
        std::memcpy(&word, p + c, sizeof word);
        bits |= word;
      }
    sink_ = sink_ | bits;
  }

  // Scores of every row against `keys` keys from k: pairs of rows, then the odd row; four
  // keys at a time (lanes keys where a vector holds four), then one at a time.
  void score_chunk(const float* k, std::size_t keys) {
    const std::size_t stride = a_.k_strides.seq, d = s_.head_size;
    const float scale = a_.options.scale;
    std::size_t r = 0;
    for (; r + 2 <= rows_; r += 2)
      score_rows<2>(q_ + r, k, stride, d, keys, scale, scratch_.scores + r * chunk_keys);
    if (r < rows_)
      score_rows<1>(q_ + r, k, stride, d, keys, scale, scratch_.scores + r * chunk_keys);
  }

  // True when row r sees every key of the chunk key0 .. key0 + keys by position: when the
  // options change no score's value (adjust_ false), the score step then leaves it as it is.
  bool sees_all(std::size_t r, std::size_t key0, std::size_t keys) const {
    return rows_at_[r].visible.covers(key0, keys);
  }

  // The score step on row r's chunk of scores (masks never reach this path), then -inf in the
  // chunk's padding. Out of line, as score_rows: inlined into the chunk loop, the step's
  // branches and its bias loops cost V8's registers there (KvCache.attend(), Node, pinned,
  // interleaved with the build before the score step: 8 heads at D = 64 took 1.36x as long
  // at L = 256 and 2.0x at L = 2048 inlined, and as long as before out of line).
  __attribute__((noinline)) void adjust_row(std::size_t r, float* row, std::size_t key0,
                                            std::size_t keys) const {
    adjust_scores(row, key0, keys, a_.options, a_.mask, rows_at_[r]);
    std::fill(row + keys, row + chunk_keys, minus_infinity);
  }

  // Online softmax (row_softmax.hpp): fold this chunk's scores into the row's statistics,
  // rescale what the row has accumulated so far; the scores become probabilities in place.
  void update_row(std::size_t r, float* row, std::size_t keys) {
    const float rescale = online_softmax_update(row, round_up(keys, lanes), scratch_.row_stats[r]);
    if (rescale != 1.0f) rescale_row(scratch_.outputs + r * dv_padded_, dv_padded_, rescale);
  }

  // outputs += probabilities . v for the chunk, value_keys keys at a time. The column blocks
  // below sweep their keys one row after another; over a whole chunk that order jumps a row's
  // length (512 bytes at Dv = 128) per load and leaves the memory stream out of address order
  // (profiled: nearly half the value accumulation's time stalled on the first load of each
  // row). Over value_keys keys, a block's bytes are all read within a short span instead.
  // A single row (no grouped heads) keeps whole chunks: there the accumulators of each column
  // block would be stored and reloaded every value_keys keys, and blocks measured 4-12% slower.
  void accumulate_chunk(const float* v, std::size_t keys) {
    const std::size_t block = rows_ == 1 ? chunk_keys : value_keys;
    for (std::size_t j = 0; j < keys; j += block)
      accumulate_keys(v + j * a_.v_strides.seq, j, std::min(block, keys - j));
  }

  // outputs += probabilities [first .. first + keys) . v: pairs of rows (then the odd one)
  // times four vectors of value columns (then one vector at a time, then the scalar columns).
  void accumulate_keys(const float* v, std::size_t first, std::size_t keys) {
    const std::size_t stride = a_.v_strides.seq, dv = s_.v_head_size;
    const std::size_t body = dv - dv % lanes;
    const auto columns = [&](auto rows, std::size_t r) {
      // Four vectors of columns per row: two rows x four, or one row x four. One row x eight
      // was tried: its eight value vectors, loaded before use, eight accumulators and the
      // probability leave V8 (Node 20, x64) one register short, and it kept an accumulator on
      // the stack, a load, add and store per key on the loop's critical path (profiled: 8
      // heads at D = 64, L = 1024, the path's hottest instructions).
      constexpr std::size_t R = decltype(rows)::value, wide = 4;
      const float* p = scratch_.scores + r * chunk_keys + first;
      float* out = scratch_.outputs + r * dv_padded_;
      std::size_t c = 0;
      for (; c + wide * lanes <= body; c += wide * lanes)
        accumulate_values<R, wide>(p, keys, v + c, stride, out + c, dv_padded_);
      for (; c < body; c += lanes)
        accumulate_values<R, 1>(p, keys, v + c, stride, out + c, dv_padded_);
      for (; c < dv; ++c)
        for (std::size_t i = 0; i < R; ++i) {
          float sum = 0.0f;
          for (std::size_t j = 0; j < keys; ++j) sum += p[i * chunk_keys + j] * v[j * stride + c];
          out[i * dv_padded_ + c] += sum;
        }
    };
    std::size_t r = 0;
    for (; r + 2 <= rows_; r += 2) columns(std::integral_constant<std::size_t, 2>(), r);
    if (r < rows_) columns(std::integral_constant<std::size_t, 1>(), r);
  }

  // y rows = outputs / row sum; a row that saw no key gets zeros.
  void finish() const {
    for (std::size_t r = 0; r < rows_; ++r)
      normalise_row(scratch_.outputs + r * dv_padded_, scratch_.row_stats[r].sum, s_.v_head_size,
                    y_[r]);
  }

  const AttentionArgs& a_;
  const AttentionShape& s_;
  Scratch& scratch_;
  const std::size_t rows_, dv_padded_;
  const bool shared_rows_;  // keys_and_values_share_rows
  const bool touch_;        // touch_rows each chunk's keys and values before using them
  const bool adjust_;       // the score step may change a score's value, not only hide it
  const float* q_[decode_max_rows] = {};
  float* y_[decode_max_rows] = {};
  ScoreRow rows_at_[decode_max_rows];  // each row's visible keys and position
  volatile std::uint32_t sink_ = 0;
};

}  // namespace

bool decode_applies(const AttentionArgs& args) {
  return args.mask.kind == MaskKind::none && group_rows(args.shape) <= decode_max_rows;
}

bool decode_attention(const AttentionArgs& args) {
  const AttentionShape& s = args.shape;
  Scratch scratch;
  if (!scratch.allocate(group_rows(s), round_up(s.v_head_size, lanes))) return false;
  DecodeGroup group(args, scratch);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t g = 0; g < s.kv_num_heads; ++g) group.run(b, g);
  return true;
}

std::size_t decode_working_bytes(const AttentionShape& s) {
  return allocated_bytes(Scratch::floats(group_rows(s), round_up(s.v_head_size, lanes))) +
         group_rows(s) * sizeof(RowStatistics);
}

}  // namespace attention::kernels
