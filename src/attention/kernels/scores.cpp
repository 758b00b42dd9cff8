#include "kernels/scores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/score_step.hpp"

namespace attention::kernels {

void score_row(const AttentionArgs& a, std::size_t b, std::size_t h, std::size_t i, ScoresMode mode,
               float* row) {
  // q row [D] of (b, h, i); k rows [T, D] of kv head h / group; row [T].
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();
  const AttentionShape& s = a.shape;
  const std::size_t g = h / (s.q_num_heads / s.kv_num_heads);
  const float* q = a.q + b * a.q_strides.batch + h * a.q_strides.head + i * a.q_strides.seq;
  const float* k = a.k + b * a.k_strides.batch + g * a.k_strides.head;
  for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
    const float* k_row = k + j * a.k_strides.seq;
    float x = 0.0f;
    for (std::size_t c = 0; c < s.head_size; ++c) x += q[c] * k_row[c];
    row[j] = x * a.options.scale;
  }
  // The score step (score_step.hpp), as far as `mode` asks.
  if (mode == ScoresMode::raw) return;
  if (mode == ScoresMode::softcapped)
    return adjust_scores_before_bias(row, s.kv_seq_len, a.options);
  adjust_scores(row, 0, s.kv_seq_len, a.options, a.mask, score_row_of(a, b, h, i));
  if (mode != ScoresMode::probabilities) return;
  float max = minus_infinity;  // of the scores that are not NaN
  for (std::size_t j = 0; j < s.kv_seq_len; ++j) max = std::max(max, row[j]);
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
