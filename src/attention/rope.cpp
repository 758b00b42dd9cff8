#include "rope.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <xsimd/xsimd.hpp>

namespace attention {
namespace {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;

// The forward pass turns each pair by +theta, the backward by -theta: the same loops with the
// sine's sign flipped (sin(-theta) = -sin(theta), cos(-theta) = cos(theta)).
enum class Turn { forward, backward };

// One pair (a, b) turned by the angle whose cosine and sine are c and s.
template <Turn turn>
inline void turn_pair(float a, float b, float c, float s, float& ya, float& yb) {
  if constexpr (turn == Turn::forward) {
    ya = a * c - b * s;
    yb = b * c + a * s;
  } else {
    ya = a * c + b * s;
    yb = b * c - a * s;
  }
}

// The caches' row (R/2 numbers) for token s of batch b.
inline std::size_t cache_row(const RopeLayout& l, const std::int64_t* position_ids, std::size_t b,
                             std::size_t s) {
  return position_ids ? static_cast<std::size_t>(position_ids[b * l.seq + s]) : b * l.seq + s;
}

// Calls visit(row of x, row of y, row of the caches) for every (b, h, s); then copies the
// dims past rotary_dim unless y is x.
template <class Visit>
void for_each_row(const RopeLayout& l, const float* x, const std::int64_t* position_ids, float* y,
                  Visit visit) {
  const std::size_t half = l.rotary_dim / 2;
  for (std::size_t b = 0; b < l.batch; ++b)
    for (std::size_t h = 0; h < l.heads; ++h)
      for (std::size_t s = 0; s < l.seq; ++s) {
        const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(b) * l.batch_stride +
                                  static_cast<std::ptrdiff_t>(h) * l.head_stride +
                                  static_cast<std::ptrdiff_t>(s) * l.seq_stride;
        const float* x_row = x + at;
        float* y_row = y + at;
        visit(x_row, y_row, cache_row(l, position_ids, b, s) * half);
        if (y_row != x_row)
          std::copy(x_row + l.rotary_dim, x_row + l.head_size, y_row + l.rotary_dim);
      }
}

// x_row, y_row (R) with pairs (i, i + R/2); c, s (R/2). Vector body over lanes pairs at a time,
// then the scalar tail. Both halves are loaded before either is stored, so y_row may be x_row.
template <Turn turn>
void turn_halves(const float* x_row, const float* c, const float* s, std::size_t half,
                 float* y_row) {
  std::size_t i = 0;
  for (; i + lanes <= half; i += lanes) {
    const batch a = batch::load_unaligned(x_row + i), b = batch::load_unaligned(x_row + half + i);
    const batch cos = batch::load_unaligned(c + i), sin = batch::load_unaligned(s + i);
    if constexpr (turn == Turn::forward) {
      (a * cos - b * sin).store_unaligned(y_row + i);
      (b * cos + a * sin).store_unaligned(y_row + half + i);
    } else {
      (a * cos + b * sin).store_unaligned(y_row + i);
      (b * cos - a * sin).store_unaligned(y_row + half + i);
    }
  }
  for (; i < half; ++i)
    turn_pair<turn>(x_row[i], x_row[half + i], c[i], s[i], y_row[i], y_row[half + i]);
}

// Lane order (1, 0, 3, 2, ...): each pair's two numbers swapped.
struct SwapPairs {
  static constexpr std::uint32_t get(std::uint32_t i, std::uint32_t) { return i ^ 1u; }
};

// (-1, +1, -1, +1, ...) for the widest vector xsimd may pick (AVX-512: 16 lanes): with the
// pairs swapped, y = x * cos + swapped(x) * (sin * sign) gives (a c - b s, b c + a s).
alignas(64) constexpr float alternating_signs[16] = {-1, 1, -1, 1, -1, 1, -1, 1,
                                                     -1, 1, -1, 1, -1, 1, -1, 1};
static_assert(lanes <= 16 && lanes % 2 == 0, "a vector holds whole pairs");

// x_row, y_row (R) with pairs (2i, 2i + 1); c, s (R/2). The vector body takes lanes pairs (two
// vectors of x) at a time: each cosine and sine duplicated into its pair's two lanes (zip),
// the pairs' numbers swapped (swizzle) and the sine's sign set per lane; then the scalar tail.
template <Turn turn>
void turn_interleaved(const float* x_row, const float* c, const float* s, std::size_t half,
                      float* y_row) {
  constexpr auto swap_pairs =
      xsimd::make_batch_constant<std::uint32_t, batch::arch_type, SwapPairs>();
  // Backward turns by -theta: the signs flipped.
  const batch sign = turn == Turn::forward ? batch::load_aligned(alternating_signs)
                                           : -batch::load_aligned(alternating_signs);
  std::size_t i = 0;
  for (; i + lanes <= half; i += lanes) {
    const batch cos = batch::load_unaligned(c + i), sin = batch::load_unaligned(s + i);
    const float* x = x_row + 2 * i;
    const batch lo = batch::load_unaligned(x), hi = batch::load_unaligned(x + lanes);
    const batch y_lo = lo * xsimd::zip_lo(cos, cos) +
                       xsimd::swizzle(lo, swap_pairs) * (xsimd::zip_lo(sin, sin) * sign);
    const batch y_hi = hi * xsimd::zip_hi(cos, cos) +
                       xsimd::swizzle(hi, swap_pairs) * (xsimd::zip_hi(sin, sin) * sign);
    y_lo.store_unaligned(y_row + 2 * i);
    y_hi.store_unaligned(y_row + 2 * i + lanes);
  }
  for (; i < half; ++i)
    turn_pair<turn>(x_row[2 * i], x_row[2 * i + 1], c[i], s[i], y_row[2 * i], y_row[2 * i + 1]);
}

template <Turn turn>
void rope_turn(const RopeLayout& l, const float* x, const float* cos_cache, const float* sin_cache,
               const std::int64_t* position_ids, float* y) {
  const std::size_t half = l.rotary_dim / 2;
  for_each_row(l, x, position_ids, y, [&](const float* x_row, float* y_row, std::size_t row) {
    if (l.interleaved)
      turn_interleaved<turn>(x_row, cos_cache + row, sin_cache + row, half, y_row);
    else
      turn_halves<turn>(x_row, cos_cache + row, sin_cache + row, half, y_row);
  });
}

// The plain loop: pair by pair, no vectors.
template <Turn turn>
void rope_turn_reference(const RopeLayout& l, const float* x, const float* cos_cache,
                         const float* sin_cache, const std::int64_t* position_ids, float* y) {
  const std::size_t half = l.rotary_dim / 2;
  for_each_row(l, x, position_ids, y, [&](const float* x_row, float* y_row, std::size_t row) {
    for (std::size_t i = 0; i < half; ++i) {
      const std::size_t a = l.interleaved ? 2 * i : i, b = l.interleaved ? 2 * i + 1 : i + half;
      turn_pair<turn>(x_row[a], x_row[b], cos_cache[row + i], sin_cache[row + i], y_row[a],
                      y_row[b]);
    }
  });
}

}  // namespace

void rope_forward(const RopeLayout& layout, const float* x, const float* cos_cache,
                  const float* sin_cache, const std::int64_t* position_ids, float* y) {
  rope_turn<Turn::forward>(layout, x, cos_cache, sin_cache, position_ids, y);
}

void rope_backward(const RopeLayout& layout, const float* grad_y, const float* cos_cache,
                   const float* sin_cache, const std::int64_t* position_ids, float* grad_x) {
  rope_turn<Turn::backward>(layout, grad_y, cos_cache, sin_cache, position_ids, grad_x);
}

void rope_forward_reference(const RopeLayout& layout, const float* x, const float* cos_cache,
                            const float* sin_cache, const std::int64_t* position_ids, float* y) {
  rope_turn_reference<Turn::forward>(layout, x, cos_cache, sin_cache, position_ids, y);
}

void rope_backward_reference(const RopeLayout& layout, const float* grad_y, const float* cos_cache,
                             const float* sin_cache, const std::int64_t* position_ids,
                             float* grad_x) {
  rope_turn_reference<Turn::backward>(layout, grad_y, cos_cache, sin_cache, position_ids, grad_x);
}

const char* rope_error(const RopeLayout& l, std::size_t cache_rows,
                       const std::int64_t* position_ids) {
  if (l.rotary_dim % 2 != 0 || l.rotary_dim < 2)
    return "the rotary dim must be even and at least 2";
  if (l.rotary_dim > l.head_size) return "the rotary dim must not exceed the head size";
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max() / sizeof(float);
  const std::size_t b = l.batch, h = l.heads, n = l.seq;
  if (b != 0 && n > most / b) return "batch * seq is more rows than memory can address";
  if (b != 0 && h != 0 && n != 0 && n > most / l.head_size / h / b)
    return "the tensor has more elements than memory can address";
  const std::size_t rows = l.batch * l.seq;
  if (cache_rows > most / (l.rotary_dim / 2))
    return "the caches have more elements than memory can address";
  if (!position_ids)
    return cache_rows < rows ? "the caches have fewer rows than batch * seq" : nullptr;
  for (std::size_t i = 0; i < rows; ++i)
    if (position_ids[i] < 0 || static_cast<std::uint64_t>(position_ids[i]) >= cache_rows)
      return "a position id is outside the caches' rows";
  return nullptr;
}

void rope_cache(std::size_t length, std::size_t rotary_dim, double base, float* cos_cache,
                float* sin_cache) {
  const std::size_t half = rotary_dim / 2;
  for (std::size_t i = 0; i < half; ++i) {
    const double frequency = std::pow(base, -2.0 * static_cast<double>(i) / rotary_dim);
    for (std::size_t p = 0; p < length; ++p) {
      const double theta = static_cast<double>(p) * frequency;
      cos_cache[p * half + i] = static_cast<float>(std::cos(theta));
      sin_cache[p * half + i] = static_cast<float>(std::sin(theta));
    }
  }
}

}  // namespace attention
