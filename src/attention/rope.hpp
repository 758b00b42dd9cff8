// Rotary position embedding (RoPE): each pair of a head's first rotary_dim numbers is rotated by
// an angle that grows with the token's position, so a query-key dot product depends on how far
// apart the two tokens are, not on where they are. Pair i of the row at position p turns by
//   theta_i = p * base^(-2i / rotary_dim),  i < rotary_dim / 2,
//   (y_a, y_b) = (x_a cos theta_i - x_b sin theta_i,  x_b cos theta_i + x_a sin theta_i).
// Which two numbers form pair i: (2i, 2i + 1) when interleaved (GPT-J), else (i, i + rotary_dim
// / 2) (GPT-NeoX, Llama: the row's two halves). The numbers past rotary_dim are copied.
//
// Dimensions: B batch, H heads, S seq (tokens), D head_size, R rotary_dim (even, 2 <= R <= D),
// R/2 pairs. The angles come as caches of cos and sin, one row of R/2 numbers per position.
//
// Each function has a vector body (xsimd) with a scalar tail; the *_reference twins are the
// plain scalar loops they are tested against.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention {

// Where x (and y, same layout) lives: [batch, heads, seq, head_size] addressed by strides in
// floats, so both ONNX layouts (4-D [B, H, S, D] and 3-D [B, S, H*D]) need no transposition.
// A row's head_size numbers are contiguous.
struct RopeLayout {
  std::size_t batch, heads, seq, head_size;
  std::size_t rotary_dim;  // even, 2 <= rotary_dim <= head_size; dims past it are copied
  bool interleaved;        // pairs (2i, 2i+1); otherwise (i, i + rotary_dim / 2)
  std::ptrdiff_t batch_stride, head_stride, seq_stride;  // in floats
};

// x [B, H, S, D] (strided), cos_cache, sin_cache [rows, R/2], position_ids [B, S] or null
// -> y [B, H, S, D] (strided like x): every row rotated by its position's angles.
// Row of the caches for (b, s): position_ids[b * seq + s] when position_ids is not null, else
// row b * seq + s (ONNX's form without position_ids, where the caches are [B, S, R/2]). The
// caller keeps every position id within the caches' rows. y may equal x (in place).
void rope_forward(const RopeLayout& layout, const float* x, const float* cos_cache,
                  const float* sin_cache, const std::int64_t* position_ids, float* y);

// grad_y [B, H, S, D], caches, position_ids as rope_forward -> grad_x [B, H, S, D].
// The rotation is orthogonal, so its gradient is the inverse rotation: grad_x = R(-theta)
// grad_y, and the copied dims pass their gradient through. grad_x may equal grad_y.
void rope_backward(const RopeLayout& layout, const float* grad_y, const float* cos_cache,
                   const float* sin_cache, const std::int64_t* position_ids, float* grad_x);

// -> cos_cache, sin_cache [length, R/2]: row p holds cos and sin of theta_i = p * base^(-2i / R),
// computed in double and rounded once to float (angles reach length radians, where a float
// product would already be off in the third digit).
void rope_cache(std::size_t length, std::size_t rotary_dim, double base, float* cos_cache,
                float* sin_cache);

// Why these arguments are unsafe to run, or nullptr: rotary_dim odd, below 2 or above
// head_size; an element count beyond size_t; caches of `cache_rows` rows too short for batch *
// seq rows without position_ids, or a position id outside 0..cache_rows-1 (each one is read).
// Messages are neutral (no API's argument names): the caller's layer owns the wording.
const char* rope_error(const RopeLayout& layout, std::size_t cache_rows,
                       const std::int64_t* position_ids);

// The plain scalar loops rope_forward and rope_backward are tested against: same arguments,
// same results up to rounding.
void rope_forward_reference(const RopeLayout& layout, const float* x, const float* cos_cache,
                            const float* sin_cache, const std::int64_t* position_ids, float* y);
void rope_backward_reference(const RopeLayout& layout, const float* grad_y, const float* cos_cache,
                             const float* sin_cache, const std::int64_t* position_ids,
                             float* grad_x);

}  // namespace attention
