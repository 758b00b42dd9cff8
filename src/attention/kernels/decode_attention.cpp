#include "kernels/decode_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <xsimd/xsimd.hpp>

#include "kernels/exp2.hpp"
#include "kernels/visibility.hpp"

// Keep clang from unrolling the register-blocked loops: unrolled, V8 runs out of its ~15
// usable vector registers and spills (the same finding as the tiled kernel's).
#if defined(__clang__)
#define DECODE_NO_UNROLL _Pragma("clang loop unroll_count(1)")
#else
#define DECODE_NO_UNROLL
#endif

namespace attention::kernels {
namespace {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;
// Keys scored, softmaxed and accumulated together: a chunk's K and V rows (16 KiB each at
// D = 128) are read from the cache once and stay in L1 while every row of the group uses
// them. Measured against 64, 128 and 256 keys (Node, one core): 32 streamed caches larger than
// the last-level cache 5-15% faster and was as fast below it.
constexpr std::size_t chunk_keys = 32;
static_assert(chunk_keys % lanes == 0, "a chunk of scores holds whole vectors");
constexpr float log2e = 1.44269504088896340736f;
constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

constexpr std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// The scratch of one call, in one allocation: per row a chunk of scores, the running
// (unnormalised) output, the running maximum and sum.
struct Scratch {
  struct Free {
    void operator()(float* p) const { xsimd::aligned_free(p); }
  };
  std::unique_ptr<float[], Free> memory;
  float* scores = nullptr;   // rows x chunk_keys
  float* outputs = nullptr;  // rows x dv_padded
  float* row_max = nullptr;  // rows
  float* row_sum = nullptr;  // rows

  static std::size_t floats(std::size_t rows, std::size_t dv_padded) {
    return rows * (chunk_keys + dv_padded + 2);
  }
  bool allocate(std::size_t rows, std::size_t dv_padded) {
    memory.reset(
        static_cast<float*>(xsimd::aligned_malloc(floats(rows, dv_padded) * sizeof(float), 64)));
    if (!memory) return false;
    scores = memory.get();
    outputs = scores + rows * chunk_keys;
    row_max = outputs + rows * dv_padded;
    row_sum = row_max + rows;
    return true;
  }
};

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
  DECODE_NO_UNROLL
  for (std::size_t c = 0; c < body; c += lanes) {
    batch x[Rows];
    for (std::size_t r = 0; r < Rows; ++r) x[r] = batch::load_unaligned(q[r] + c);
    for (std::size_t j = 0; j < Keys; ++j) {
      const batch key = batch::load_unaligned(k + j * k_stride + c);
      for (std::size_t r = 0; r < Rows; ++r) acc[r][j] = xsimd::fma(x[r], key, acc[r][j]);
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
  DECODE_NO_UNROLL
  for (; j + step <= keys; j += step)
    score_keys<Rows, step>(q, k + j * k_stride, k_stride, d, scale, scores + j);
  DECODE_NO_UNROLL
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
  DECODE_NO_UNROLL
  for (std::size_t j = 0; j < keys; ++j, v += v_stride) {
    if constexpr (Rows == 1) {
      // One row: each value vector is used once, straight from its load.
      const batch x(p[j]);
      for (std::size_t i = 0; i < Vecs; ++i)
        acc[0][i] = xsimd::fma(x, batch::load_unaligned(v + i * lanes), acc[0][i]);
    } else {
      batch value[Vecs];
      for (std::size_t i = 0; i < Vecs; ++i) value[i] = batch::load_unaligned(v + i * lanes);
      for (std::size_t r = 0; r < Rows; ++r) {
        const batch x(p[r * chunk_keys + j]);
        for (std::size_t i = 0; i < Vecs; ++i) acc[r][i] = xsimd::fma(x, value[i], acc[r][i]);
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
        dv_padded_(round_up(s_.v_head_size, lanes)) {}

  void run(std::size_t b, std::size_t g) {
    const std::size_t group = s_.q_num_heads / s_.kv_num_heads;
    const std::int64_t offset = query_offset(a_, b);
    const std::size_t limit = key_limit(a_, b);
    KeyRange seen{limit, 0};
    for (std::size_t r = 0; r < rows_; ++r) {
      const std::size_t head = g * group + r / s_.q_seq_len, i = r % s_.q_seq_len;
      q_[r] = a_.q + b * a_.q_strides.batch + head * a_.q_strides.head + i * a_.q_strides.seq;
      y_[r] = a_.y + b * a_.y_strides.batch + head * a_.y_strides.head + i * a_.y_strides.seq;
      visible_[r] = visible_keys(a_.options, offset, limit, i);
      if (visible_[r].begin < visible_[r].end) {
        seen.begin = std::min(seen.begin, visible_[r].begin);
        seen.end = std::max(seen.end, visible_[r].end);
      }
      scratch_.row_max[r] = minus_infinity;
      scratch_.row_sum[r] = 0.0f;
    }
    std::fill(scratch_.outputs, scratch_.outputs + rows_ * dv_padded_, 0.0f);
    const float* k_head = a_.k + b * a_.k_strides.batch + g * a_.k_strides.head;
    const float* v_head = a_.v + b * a_.v_strides.batch + g * a_.v_strides.head;
    // Only the keys some row can see are read.
    for (std::size_t key0 = seen.begin; key0 < seen.end; key0 += chunk_keys) {
      const std::size_t keys = std::min(chunk_keys, seen.end - key0);
      score_chunk(k_head + key0 * a_.k_strides.seq, keys);
      for (std::size_t r = 0; r < rows_; ++r) {
        float* row = scratch_.scores + r * chunk_keys;
        adjust_scores(row, visible_[r], key0, keys);
        update_row(r, row, keys);
      }
      accumulate_chunk(v_head + key0 * a_.v_strides.seq, keys);
    }
    finish();
  }

 private:
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

  // Softcap, then -inf outside the row's visible keys (masks never reach this path).
  void adjust_scores(float* row, const KeyRange& v, std::size_t key0, std::size_t keys) const {
    if (a_.options.softcap > 0.0f) {
      const float cap = a_.options.softcap;
      for (std::size_t j = 0; j < keys; ++j) row[j] = cap * std::tanh(row[j] / cap);
    }
    const std::size_t begin = std::clamp(v.begin, key0, key0 + keys) - key0;
    const std::size_t end = std::clamp(std::max(v.end, v.begin), key0, key0 + keys) - key0;
    std::fill(row, row + begin, minus_infinity);
    std::fill(row + std::max(begin, end), row + chunk_keys, minus_infinity);  // and the padding
  }

  // Online softmax: fold this chunk's scores into the row's running maximum and sum, rescale
  // what the row has accumulated so far, and turn the scores into probabilities in place.
  void update_row(std::size_t r, float* row, std::size_t keys) {
    const std::size_t padded = round_up(keys, lanes);
    batch chunk_max(minus_infinity);
    xsimd::batch_bool<float> nan_seen(false);
    for (std::size_t j = 0; j < padded; j += lanes) {
      const batch x = batch::load_aligned(row + j);
      chunk_max = xsimd::max(chunk_max, x);
      nan_seen = nan_seen || xsimd::isnan(x);
    }
    // A NaN score poisons its row's sum, so the row's outputs come out NaN, as IEEE would.
    if (xsimd::any(nan_seen)) scratch_.row_sum[r] = std::numeric_limits<float>::quiet_NaN();
    const float old_max = scratch_.row_max[r];
    const float new_max = std::max(old_max, xsimd::reduce_max(chunk_max));
    if (new_max == minus_infinity) {  // everything so far is hidden: nothing to add
      std::fill(row, row + padded, 0.0f);
      return;
    }
    // e^(x - max) = 2^((x - max) * log2(e)): the subtraction first, so nothing overflows.
    const batch shift(new_max), to_log2(log2e);
    batch sum(0.0f);
    for (std::size_t j = 0; j < padded; j += lanes) {
      const batch p = exp2_fast((batch::load_aligned(row + j) - shift) * to_log2);
      p.store_aligned(row + j);
      sum += p;
    }
    const float rescale = std::exp(old_max - new_max);  // 0 when old_max is -inf
    scratch_.row_sum[r] = scratch_.row_sum[r] * rescale + xsimd::reduce_add(sum);
    scratch_.row_max[r] = new_max;
    if (rescale != 1.0f) {
      float* out = scratch_.outputs + r * dv_padded_;
      for (std::size_t c = 0; c < dv_padded_; c += lanes)
        (batch::load_aligned(out + c) * batch(rescale)).store_aligned(out + c);
    }
  }

  // outputs += probabilities . v for the chunk: pairs of rows (then the odd one) times four
  // vectors of value columns (then one vector at a time, then the scalar columns).
  void accumulate_chunk(const float* v, std::size_t keys) {
    const std::size_t stride = a_.v_strides.seq, dv = s_.v_head_size;
    const std::size_t body = dv - dv % lanes;
    const auto columns = [&](auto rows, std::size_t r) {
      // Eight accumulators: two rows x four vectors, or one row x eight vectors.
      constexpr std::size_t R = decltype(rows)::value, wide = 8 / R;
      const float* p = scratch_.scores + r * chunk_keys;
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

  // y rows = outputs / row_sum; a row that saw no key has sum 0 and gets zeros.
  void finish() const {
    for (std::size_t r = 0; r < rows_; ++r) {
      const float sum = scratch_.row_sum[r];
      const float inverse = sum > 0.0f ? 1.0f / sum : (sum == 0.0f ? 0.0f : sum);
      const float* out = scratch_.outputs + r * dv_padded_;
      for (std::size_t c = 0; c < s_.v_head_size; ++c) y_[r][c] = out[c] * inverse;
    }
  }

  const AttentionArgs& a_;
  const AttentionShape& s_;
  Scratch& scratch_;
  const std::size_t rows_, dv_padded_;
  const float* q_[decode_max_rows] = {};
  float* y_[decode_max_rows] = {};
  KeyRange visible_[decode_max_rows];
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
  return Scratch::floats(group_rows(s), round_up(s.v_head_size, lanes)) * sizeof(float) + 64 + 16;
}

}  // namespace attention::kernels
