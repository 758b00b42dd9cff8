// Which keys a query row may see by position: the rules of causal, the windows, the external
// cache's valid length and a mask's key columns, folded into one range of keys per row. The
// fused kernel skips whole key blocks outside a row block's ranges and masks element by
// element only in blocks that straddle a range's edge; the scores pass reads the same ranges.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../attention.hpp"

namespace attention::kernels {

// Keys [begin, end) are visible to a row by position (empty when begin == end).
struct KeyRange {
  std::size_t begin = 0, end = 0;

  // True when the range holds every key of key0 .. key0 + keys - 1 (a kernel's block or chunk).
  bool covers(std::size_t key0, std::size_t keys) const {
    return begin <= key0 && key0 + keys <= end;
  }
};

// Where query 0 of batch b sits among the keys: past_length, or nonpad_kv_seqlen[b] - S.
inline std::int64_t query_offset(const AttentionArgs& a, std::size_t b) {
  if (a.nonpad_kv_seqlen)
    return std::int64_t(a.nonpad_kv_seqlen[b]) - std::int64_t(a.shape.q_seq_len);
  return std::int64_t(a.past_length);
}

// Keys at or beyond this are hidden from every row of batch b (padding, short masks).
inline std::size_t key_limit(const AttentionArgs& a, std::size_t b) {
  std::size_t limit = a.shape.kv_seq_len;
  if (a.nonpad_kv_seqlen) limit = std::min(limit, std::size_t(std::max(a.nonpad_kv_seqlen[b], 0)));
  if (a.mask.kind != MaskKind::none) limit = std::min(limit, a.mask.key_columns);
  return limit;
}

// The visible keys of query i, given its batch's offset and key limit.
inline KeyRange visible_keys(const AttentionOptions& o, std::int64_t offset, std::size_t limit,
                             std::size_t i) {
  // Windows wider than any position can reach are unbounded; capping them keeps the
  // arithmetic far from int64 overflow.
  constexpr std::int64_t reach = std::int64_t(1) << 40;
  const std::int64_t p = std::int64_t(i) + offset;
  std::int64_t lo = 0, hi = std::int64_t(limit);
  if (o.is_causal) hi = std::min(hi, p + 1);
  if (o.right_window >= 0) hi = std::min(hi, p + std::min(o.right_window, reach) + 1);
  if (o.left_window >= 0) lo = std::max(lo, p - std::min(o.left_window, reach));
  lo = std::min(lo, std::int64_t(limit));
  hi = std::max(hi, lo);
  return {std::size_t(lo), std::size_t(hi)};
}

}  // namespace attention::kernels
