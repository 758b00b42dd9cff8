// The JS layer's RoPE calls as plain numbers: rope_bindings.cpp registers RopeCall and
// RopeCacheCall as Embind value_objects (JS objects with the fields below). No Emscripten
// header here, so the native tests and the fuzzer drive these same entry points.
//
// RopeCall (onnxRotaryEmbedding):
// JS field       type                 meaning (every field is required)
// x, y           number               byte addresses of float32 [B, H, S, D] tensors in
//                                     `layout`; y may equal x (rotated in place)
// cosCache,      number               byte addresses of float32 caches, cacheRows rows of
//   sinCache                          rotaryDim / 2 numbers
// positionIds    number               0, or the byte address of batch * seq int64 row numbers
//                                     (then each must be below cacheRows); 0: row b * seq + s
// batch, heads,  number (uint32)      B, H, S (0 is allowed: nothing to rotate)
//   seq
// headSize       number (uint32)      D
// rotaryDim      number (uint32)      R, even, 2 <= R <= D; dims past R are copied
// interleaved    boolean              pairs (2i, 2i+1); otherwise (i, i + R/2)
// layout         Module.Layout        bhsd = [B, H, S, D] (4-D), bshd = [B, S, H * D] (3-D)
// cacheRows      number (uint32)      rows of each cache
//
// RopeCacheCall (rotaryCaches): cosCache, sinCache (byte addresses of length * rotaryDim / 2
// floats each), length, rotaryDim (even, >= 2), base (> 0, finite).
//
// Validation: the JS layer checks every argument first, in ONNX's names. These entry points
// check again only what memory safety needs (rope_error in rope.hpp: sizes, the rotary dim,
// every position id against the caches' rows) and return a neutral message; never abort.
#pragma once

#include <cstdint>
#include <string>

#include "attention.hpp"

namespace attention_call {

struct RopeCall {
  std::uintptr_t x = 0, y = 0, cos_cache = 0, sin_cache = 0, position_ids = 0;
  std::uint32_t batch = 1, heads = 1, seq = 1, head_size = 2, rotary_dim = 2;
  bool interleaved = false;
  attention::Layout layout = attention::Layout::bhsd;
  std::uint32_t cache_rows = 1;
};

// Rotates x into y: "" on success, else a neutral message saying what is wrong.
std::string run_rope(const RopeCall& call);

struct RopeCacheCall {
  std::uintptr_t cos_cache = 0, sin_cache = 0;
  std::uint32_t length = 1, rotary_dim = 2;
  double base = 10000.0;
};

// Fills both caches: "" on success, else a neutral message.
std::string run_rope_cache(const RopeCacheCall& call);

}  // namespace attention_call
