#include "kernels/scores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/visibility.hpp"

namespace attention::kernels {

void score_row(const AttentionArgs& a, std::size_t b, std::size_t h, std::size_t i, ScoresMode mode,
               float* row) {
  // q row [D] of (b, h, i); k rows [T, D] of kv head h / group; mask row [T], broadcast.
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();
  const AttentionShape& s = a.shape;
  const std::size_t g = h / (s.q_num_heads / s.kv_num_heads);
  const float* q = a.q + b * a.q_strides.batch + h * a.q_strides.head + i * a.q_strides.seq;
  const float* k = a.k + b * a.k_strides.batch + g * a.k_strides.head;
  const KeyRange visible = visible_keys(a.options, query_offset(a, b), key_limit(a, b), i);
  const AttentionMask& m = a.mask;
  const std::size_t mask_row = b * m.strides[0] + h * m.strides[1] + i * m.strides[2];
  const float cap = a.options.softcap;
  float max = minus_infinity;
  for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
    const float* k_row = k + j * a.k_strides.seq;
    float x = 0.0f;
    for (std::size_t c = 0; c < s.head_size; ++c) x += q[c] * k_row[c];
    x *= a.options.scale;
    if (mode != ScoresMode::raw) {
      if (cap > 0.0f) x = cap * std::tanh(x / cap);
      if (mode != ScoresMode::softcapped) {
        // The mask is read only at visible keys: beyond key_limit it may not exist.
        bool hidden = j < visible.begin || j >= visible.end;
        if (!hidden && m.kind == MaskKind::boolean)
          hidden = !m.allowed[mask_row + j * m.strides[3]];
        if (!hidden && m.kind == MaskKind::additive) x += m.bias[mask_row + j * m.strides[3]];
        if (hidden) x = minus_infinity;
        max = std::max(max, x);
      }
    }
    row[j] = x;
  }
  if (mode != ScoresMode::probabilities) return;
  if (max == minus_infinity) {  // no visible key: zeros, not 0/0
    std::fill(row, row + s.kv_seq_len, 0.0f);
    return;
  }
  float sum = 0.0f;
  for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
    row[j] = std::exp(row[j] - max);
    sum += row[j];
  }
  for (std::size_t j = 0; j < s.kv_seq_len; ++j) row[j] /= sum;
}

void write_scores(const AttentionArgs& a) {
  const AttentionShape& s = a.shape;
  float* row = a.scores;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.q_num_heads; ++h)
      for (std::size_t i = 0; i < s.q_seq_len; ++i, row += s.kv_seq_len)
        score_row(a, b, h, i, a.scores_mode, row);
}

}  // namespace attention::kernels
