// The score step: what happens to one query row's scores between scale * q.k and the softmax,
// written once for every kernel (the tiled forward, the decode path, the backward, the scores
// output): the softcap, then the bias (an additive mask's values, ALiBi's slope times the
// distance, a boolean mask's and the positional rules' -inf), in attention.hpp's order.
// adjust_scores_backward is its derivative, for the backward; each has a plain scalar reference
// beside it that kernels_test holds it to.
//
// A row of scores here is `keys` consecutive keys key0 .. key0 + keys - 1 of one query row
// (a kernel's block, chunk or whole row); the row's own facts travel in a ScoreRow.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../attention.hpp"
#include "kernels/visibility.hpp"

namespace attention::kernels {

// One query row, as the score step needs it: the keys it may see by position, where it sits
// among the keys, and its mask's row.
struct ScoreRow {
  KeyRange visible;           // keys [begin, end) not hidden by position
  std::int64_t position = 0;  // p = i + offset, the query's position among the keys
  std::size_t mask_row = 0;   // the mask's element for this row's key 0 (broadcast strides)
  float slope = 0.0f;         // ALiBi's slope for its head (when options.alibi)
};

// The standard ALiBi slope of query head h of `heads` (the ALiBi paper; BLOOM, MPT): with n
// the largest power of two <= heads, 2^(-8 (h + 1) / n) for the first n heads, and for the
// others the odd steps of the sequence of 2n heads, 2^(-8 (2 (h - n) + 1) / (2n)).
inline float standard_alibi_slope(std::size_t h, std::size_t heads) {
  std::size_t n = 1;
  while (n * 2 <= heads) n *= 2;
  const double exponent =
      h < n ? -8.0 * double(h + 1) / double(n) : -8.0 * double(2 * (h - n) + 1) / double(2 * n);
  return float(std::exp2(exponent));
}

// Head h's ALiBi slope: the caller's, or the standard one; 0 without ALiBi.
inline float alibi_slope(const AttentionOptions& o, std::size_t h, std::size_t heads) {
  if (!o.alibi) return 0.0f;
  return o.alibi_slopes ? o.alibi_slopes[h] : standard_alibi_slope(h, heads);
}

// The ScoreRow of a query of head h of `heads` at `position` among the keys, seeing keys
// `visible` by position, mask row 0 (a call without a mask: trace(), the tiny transformer).
inline ScoreRow score_row(const AttentionOptions& o, KeyRange visible, std::int64_t position,
                          std::size_t h, std::size_t heads) {
  ScoreRow row;
  row.visible = visible;
  row.position = position;
  row.slope = alibi_slope(o, h, heads);
  return row;
}

// The ScoreRow of query i of head h in batch b.
inline ScoreRow score_row_of(const AttentionArgs& a, std::size_t b, std::size_t h, std::size_t i) {
  const std::int64_t offset = query_offset(a, b);
  const AttentionMask& m = a.mask;
  ScoreRow row = score_row(a.options, visible_keys(a.options, offset, key_limit(a, b), i),
                           std::int64_t(i) + offset, h, a.shape.q_num_heads);
  row.mask_row = b * m.strides[0] + h * m.strides[1] + i * m.strides[2];
  return row;
}

// True when adjust_scores may change a row beyond hiding keys by position: a kernel may skip
// the step for rows that see the whole block of keys when this is false.
inline bool scores_need_adjusting(const AttentionOptions& o, const AttentionMask& mask) {
  return o.softcap > 0.0f || o.alibi || mask.kind != MaskKind::none;
}

// row [keys] = cap * tanh(row / cap): the softcap. Off when cap is 0.
inline void apply_softcap(float* row, std::size_t keys, float cap) {
  if (cap > 0.0f)
    for (std::size_t j = 0; j < keys; ++j) row[j] = cap * std::tanh(row[j] / cap);
}

// The step's first part, before the bias, on scores of `keys` keys (scale * q.k on entry):
// what qk_matmul_output's "softcapped" scores hold, and what adjust_scores_backward reads
// (adjust_scores' `capped`). The part that acts on a score's value, not on its key.
inline void adjust_scores_before_bias(float* row, std::size_t keys, const AttentionOptions& o) {
  apply_softcap(row, keys, o.softcap);
}

// What adjust_scores_backward needs of one query's row, for a caller that keeps only the
// weights: the step's first part of scale * q . k_s, computed again, into capped [n] for keys
// s < n. q: the query's d numbers; key s at keys + s * stride.
inline void capped_scores(float* capped, const float* q, const float* keys, std::size_t stride,
                          std::size_t n, std::size_t d, const AttentionOptions& o) {
  for (std::size_t s = 0; s < n; ++s) {
    float dot = 0.0f;
    for (std::size_t i = 0; i < d; ++i) dot += q[i] * keys[s * stride + i];
    capped[s] = dot * o.scale;
  }
  adjust_scores_before_bias(capped, n, o);
}

// The whole step on scores of keys key0 .. key0 + keys (scale * q.k on entry): the softcap,
// then at the row's visible keys the mask (a boolean mask's 0 gives -inf, an additive mask's
// value is added) and ALiBi's slope * (key - position), and -inf at every other key. `capped`, when
// given, receives the softcapped scores (what adjust_scores_backward needs), whether the softcap is
// on or not. The mask is read at visible keys only: beyond the row's key limit it may not exist.
inline void adjust_scores(float* row, std::size_t key0, std::size_t keys, const AttentionOptions& o,
                          const AttentionMask& mask, const ScoreRow& at, float* capped = nullptr) {
  constexpr float hidden = -std::numeric_limits<float>::infinity();
  adjust_scores_before_bias(row, keys, o);
  if (capped) std::copy(row, row + keys, capped);
  const std::size_t begin = std::clamp(at.visible.begin, key0, key0 + keys) - key0;
  const std::size_t end = std::max(begin, std::clamp(at.visible.end, key0, key0 + keys) - key0);
  std::fill(row, row + begin, hidden);
  std::fill(row + end, row + keys, hidden);
  const std::size_t step = mask.strides[3];
  const std::size_t first = at.mask_row + key0 * step;
  if (mask.kind == MaskKind::boolean) {
    for (std::size_t j = begin; j < end; ++j)
      if (!mask.allowed[first + j * step]) row[j] = hidden;
  } else if (mask.kind == MaskKind::additive) {
    for (std::size_t j = begin; j < end; ++j) row[j] += mask.bias[first + j * step];
  }
  if (o.alibi) {
    const std::int64_t distance = std::int64_t(key0) - at.position;  // of key 0 of the row
    for (std::size_t j = begin; j < end; ++j)
      row[j] += at.slope * float(distance + std::int64_t(j));
  }
}

// adjust_scores, one score at a time, straight from attention.hpp's definition.
inline void adjust_scores_reference(float* row, std::size_t key0, std::size_t keys,
                                    const AttentionOptions& o, const AttentionMask& mask,
                                    const ScoreRow& at, float* capped = nullptr) {
  for (std::size_t j = 0; j < keys; ++j) {
    const std::size_t key = key0 + j;
    float x = row[j];
    if (o.softcap > 0.0f) x = o.softcap * std::tanh(x / o.softcap);
    if (capped) capped[j] = x;
    bool hidden = key < at.visible.begin || key >= at.visible.end;
    const std::size_t element = at.mask_row + key * mask.strides[3];
    if (!hidden && mask.kind == MaskKind::boolean) hidden = !mask.allowed[element];
    if (!hidden && mask.kind == MaskKind::additive) x += mask.bias[element];
    if (!hidden && o.alibi) x += at.slope * float(std::int64_t(key) - at.position);
    row[j] = hidden ? -std::numeric_limits<float>::infinity() : x;
  }
}

// True when adjust_scores_backward changes a gradient (the softcap): a caller that does not
// keep the capped scores computes them only then.
inline bool score_step_has_derivative(const AttentionOptions& o) { return o.softcap > 0.0f; }

// The step's derivative: ds [n], dL/d(adjusted score) on entry, becomes dL/d(scale * q.k).
// The bias adds constants (derivative 1), so only the softcap acts: times 1 - tanh^2
// (tanh = capped / cap, capped as adjust_scores kept it). Keys that pass no gradient (ds = 0:
// hidden ones, P = 0) stay exactly 0, whatever their score was (a hidden key's may be NaN).
inline void adjust_scores_backward(float* ds, const float* capped, std::size_t n,
                                   const AttentionOptions& o) {
  if (!score_step_has_derivative(o)) return;
  for (std::size_t j = 0; j < n; ++j) {
    const float t = capped[j] / o.softcap;
    if (ds[j] != 0.0f) ds[j] *= 1.0f - t * t;
  }
}

// adjust_scores_backward, from the raw scores' definition: d/dx cap tanh(x / cap).
inline void adjust_scores_backward_reference(float* ds, const float* raw, std::size_t n,
                                             const AttentionOptions& o) {
  for (std::size_t j = 0; j < n; ++j) {
    if (o.softcap <= 0.0f || ds[j] == 0.0f) continue;
    const float t = std::tanh(raw[j] / o.softcap);
    ds[j] *= 1.0f - t * t;
  }
}

}  // namespace attention::kernels
