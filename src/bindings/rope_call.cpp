#include "rope_call.hpp"

#include <cmath>
#include <cstddef>

#include "rope.hpp"

namespace attention_call {

std::string run_rope(const RopeCall& call) {
  if (!call.x || !call.y || !call.cos_cache || !call.sin_cache) return "a tensor's address is 0";
  if (call.layout != attention::Layout::bhsd && call.layout != attention::Layout::bshd)
    return "unknown layout";
  const attention::Strides strides =
      attention::layout_strides(call.layout, call.heads, call.seq, call.head_size);
  const attention::RopeLayout layout{call.batch,
                                     call.heads,
                                     call.seq,
                                     call.head_size,
                                     call.rotary_dim,
                                     call.interleaved,
                                     static_cast<std::ptrdiff_t>(strides.batch),
                                     static_cast<std::ptrdiff_t>(strides.head),
                                     static_cast<std::ptrdiff_t>(strides.seq)};
  const auto* position_ids = reinterpret_cast<const std::int64_t*>(call.position_ids);
  if (const char* error = attention::rope_error(layout, call.cache_rows, position_ids))
    return error;
  attention::rope_forward(layout, reinterpret_cast<const float*>(call.x),
                          reinterpret_cast<const float*>(call.cos_cache),
                          reinterpret_cast<const float*>(call.sin_cache), position_ids,
                          reinterpret_cast<float*>(call.y));
  return "";
}

std::string run_rope_cache(const RopeCacheCall& call) {
  if (!call.cos_cache || !call.sin_cache) return "a cache's address is 0";
  if (call.rotary_dim % 2 != 0 || call.rotary_dim < 2)
    return "the rotary dim must be even and at least 2";
  if (!(call.base > 0.0) || !std::isfinite(call.base))
    return "the base must be positive and finite";
  if (double(call.length) * (call.rotary_dim / 2) * sizeof(float) > double(SIZE_MAX))
    return "the caches have more elements than memory can address";
  attention::rope_cache(call.length, call.rotary_dim, call.base,
                        reinterpret_cast<float*>(call.cos_cache),
                        reinterpret_cast<float*>(call.sin_cache));
  return "";
}

}  // namespace attention_call
