// A key/value cache that stays next to the kernel across the steps of decoding: each step
// appends its new keys and values, and the kernel reads every earlier one where it lies.
// Nothing of size O(cache) is copied per step (onnxAttention's past_* / present_* copy the
// whole cache in and out on every call; this is the resident alternative).
//
// Dimensions: batch B, kv_num_heads Hkv, head_size D (keys), v_head_size Dv (values),
// capacity C (rows held per head before it must grow), length T (rows in use, T <= C).
// Storage, for each (b, h), C rows of D + Dv floats, contiguous: each row is its key (D
// floats) and then its value (Dv):
//   rows [B, Hkv, C, D + Dv]
// so the key of row t of head h in batch b is at ((b * Hkv + h) * C + t) * (D + Dv) and its
// value D floats further. The kernel reads the first T rows of each head (keys and values with
// the same strides, a row stride of D + Dv and a head stride of C * (D + Dv)): one step's keys
// and values are then one run of memory per head, which the decode kernel streams in address
// order (decode_attention.cpp), where separate key and value blocks were two streams.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>

#include "attention.hpp"

namespace attention {

// What attend() needs besides the queries: the query heads (a multiple of kv_num_heads) and
// the options. The queries are the last q_seq_len positions of the cache (bottom-right
// aligned: query i sits at position T - S + i), which is where a decoding step's new keys
// went just before.
struct KvAttendOptions {
  std::size_t q_num_heads = 1;
  std::size_t q_seq_len = 1;
  AttentionOptions options;  // the options record (attention.hpp)
};

class KvCache {
 public:
  // An empty cache for `capacity` rows per head (at least 1), or nullptr when the shape is
  // invalid or the memory cannot be allocated. A cache's shape is the key/value side of an
  // AttentionShape: batch, kv_num_heads, head_size and v_head_size. Its query side is not
  // read (each attend() brings the queries' heads and length; the cache knows its own T).
  static std::unique_ptr<KvCache> create(const AttentionShape& shape, std::size_t capacity);
  ~KvCache();
  KvCache(const KvCache&) = delete;
  KvCache& operator=(const KvCache&) = delete;

  // Appends `rows` new rows per head: k [B, Hkv, rows, D] and v [B, Hkv, rows, Dv], contiguous.
  // When they do not fit, the cache grows first (to twice its capacity, or to exactly what
  // is needed when that is more or when doubling cannot be allocated). Returns why it could
  // not append ("out of memory ..."), or nullptr; on error nothing changes.
  const char* append(const float* k, const float* v, std::size_t rows);

  // y [B, q_num_heads, S, Dv] = attention of q [B, q_num_heads, S, D] (contiguous) over the
  // T cached rows. Returns why it cannot (S > T, heads that kv_num_heads does not divide,
  // out of memory for the kernel's scratch), or nullptr.
  const char* attend(const float* q, const KvAttendOptions& options, float* y) const;

  // The T cached rows, contiguous: keys [B, Hkv, T, D] and values [B, Hkv, T, Dv] (ONNX's
  // present_key / present_value).
  void copy_keys(float* out) const;
  void copy_values(float* out) const;

  // Forgets every row (keeps the memory).
  void reset() { length_ = 0; }

  // Keeps the first `length` rows of each head and forgets the rest (e.g. the rows of draft
  // tokens a speculative decoder rejected); a length at or beyond length() changes nothing.
  void truncate(std::size_t length) { length_ = std::min(length_, length); }

  // Grows to hold at least `capacity` rows per head; false (nothing changed) when the memory
  // cannot be allocated.
  bool reserve(std::size_t capacity);

  std::size_t length() const { return length_; }
  std::size_t capacity() const { return capacity_; }
  const AttentionShape& shape() const { return shape_; }

  // Bytes of keys and values a cache of this shape holds for `capacity` rows, or 0 when that
  // does not fit in size_t.
  static std::size_t bytes_for(const AttentionShape& shape, std::size_t capacity);

 private:
  struct Free {
    void operator()(float* p) const;
  };
  using Storage = std::unique_ptr<float[], Free>;
  KvCache(const AttentionShape& shape, std::size_t capacity, Storage rows);
  static Storage allocate(std::size_t floats);
  // Strides of rows_ as [B, Hkv, C, D + Dv].
  Strides strides() const;

  AttentionShape shape_;
  std::size_t capacity_ = 0, length_ = 0;
  Storage rows_;  // [B, Hkv, C, D + Dv]: each row is its key, then its value
};

}  // namespace attention
