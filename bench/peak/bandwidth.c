// The memory-bandwidth probe of the decode table: how fast one core streams a buffer as large
// as the KV cache of a case through f32x4 loads in this engine. Decoding one token reads
// every cached key and value once, so streaming the same number of bytes is the floor under
// its time (the "bandwidth limit" the decode table compares ours against).
//
// reserve(bytes) grows the instance's memory to hold a buffer of `bytes` (filled with 1.0f)
// and returns its address; stream(address, bytes) sums it with four independent f32x4
// accumulators (so the adds never wait on each other and the loads set the pace), returning
// the sum so that nothing can be optimised away.
// Built with: emcc -O3 -msimd128 --no-entry -sSTANDALONE_WASM (no imports, no libc).
#include <stddef.h>
#include <wasm_simd128.h>

extern unsigned char __heap_base;

__attribute__((export_name("reserve"))) float* reserve(size_t bytes) {
  const size_t page = 65536;
  const size_t base = ((size_t)&__heap_base + 63) & ~(size_t)63;
  const size_t have = __builtin_wasm_memory_size(0) * page;
  if (base + bytes > have) {
    if (__builtin_wasm_memory_grow(0, (base + bytes - have + page - 1) / page) == (size_t)-1)
      return 0;
  }
  float* buffer = (float*)base;
  for (size_t i = 0; i < bytes / sizeof(float); ++i) buffer[i] = 1.0f;
  return buffer;
}

__attribute__((export_name("stream"))) float stream(const float* buffer, size_t bytes) {
  v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
  const size_t floats = bytes / sizeof(float) / 16 * 16;
#pragma clang loop unroll(disable)
  for (size_t i = 0; i < floats; i += 16) {
    a0 = wasm_f32x4_add(a0, wasm_v128_load(buffer + i));
    a1 = wasm_f32x4_add(a1, wasm_v128_load(buffer + i + 4));
    a2 = wasm_f32x4_add(a2, wasm_v128_load(buffer + i + 8));
    a3 = wasm_f32x4_add(a3, wasm_v128_load(buffer + i + 12));
  }
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3));
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1) +
         wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3);
}
