#include "kv_cache.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <xsimd/xsimd.hpp>

namespace attention {
namespace {

constexpr std::size_t alignment = 64;
constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

// Strides of a [batch, heads, rows, row_floats] block: the cache's rows (rows = capacity,
// row_floats = D + Dv) or a caller's contiguous keys or values (row_floats = D or Dv).
Strides bhsd(std::size_t heads, std::size_t rows, std::size_t row_floats) {
  return layout_strides(Layout::bhsd, heads, rows, row_floats);
}

}  // namespace

void KvCache::Free::operator()(float* p) const { xsimd::aligned_free(p); }

KvCache::Storage KvCache::allocate(std::size_t floats) {
  return Storage(static_cast<float*>(xsimd::aligned_malloc(floats * sizeof(float), alignment)));
}

std::size_t KvCache::bytes_for(const AttentionShape& s, std::size_t capacity) {
  const std::size_t k =
      checked_product({s.batch, s.kv_num_heads, capacity, s.head_size, sizeof(float)});
  const std::size_t v =
      checked_product({s.batch, s.kv_num_heads, capacity, s.v_head_size, sizeof(float)});
  if (k == 0 || v == 0 || k > size_max - v) return 0;
  return k + v;
}

KvCache::KvCache(const AttentionShape& shape, std::size_t capacity, Storage rows)
    : shape_(shape), capacity_(capacity), rows_(std::move(rows)) {}

Strides KvCache::strides() const {
  return bhsd(shape_.kv_num_heads, capacity_, shape_.head_size + shape_.v_head_size);
}

KvCache::~KvCache() = default;

std::unique_ptr<KvCache> KvCache::create(const AttentionShape& s, std::size_t capacity) {
  if (s.head_size == 0 || s.v_head_size == 0 || bytes_for(s, capacity) == 0) return nullptr;
  Storage rows = allocate(s.batch * s.kv_num_heads * capacity * (s.head_size + s.v_head_size));
  if (!rows) return nullptr;
  return std::unique_ptr<KvCache>(new (std::nothrow) KvCache(s, capacity, std::move(rows)));
}

bool KvCache::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return true;
  if (bytes_for(shape_, capacity) == 0) return false;
  const std::size_t row_floats = shape_.head_size + shape_.v_head_size;
  Storage rows = allocate(shape_.batch * shape_.kv_num_heads * capacity * row_floats);
  if (!rows) return false;
  copy_rows(rows_.get(), strides(), rows.get(), bhsd(shape_.kv_num_heads, capacity, row_floats),
            shape_.batch, shape_.kv_num_heads, length_, row_floats);
  rows_ = std::move(rows);
  capacity_ = capacity;
  return true;
}

const char* KvCache::append(const float* k, const float* v, std::size_t rows) {
  if (rows > size_max - length_) return "the cache cannot hold that many rows";
  const std::size_t needed = length_ + rows;
  if (needed > capacity_) {
    const std::size_t doubled = capacity_ > size_max / 2 ? needed : 2 * capacity_;
    if (!reserve(std::max(doubled, needed)) && !reserve(needed))
      return "out of memory for the cache to grow";
  }
  const std::size_t B = shape_.batch, H = shape_.kv_num_heads, D = shape_.head_size;
  const Strides cache = strides();
  float* end = rows_.get() + length_ * cache.seq;
  copy_rows(k, bhsd(H, rows, D), end, cache, B, H, rows, D);
  copy_rows(v, bhsd(H, rows, shape_.v_head_size), end + D, cache, B, H, rows, shape_.v_head_size);
  length_ = needed;
  return nullptr;
}

const char* KvCache::attend(const float* q, const KvAttendOptions& o, float* y) const {
  if (length_ == 0) return "the cache is empty";
  if (o.q_seq_len > length_) return "more queries than cached rows";
  AttentionShape s = shape_;
  s.q_num_heads = o.q_num_heads;
  s.q_seq_len = o.q_seq_len;
  s.kv_seq_len = length_;
  if (const char* error = attention_shape_error(s)) return error;
  const float* keys = rows_.get();
  AttentionArgs a = contiguous_args(q, keys, keys + s.head_size, {}, s, o.options, y);
  a.k_strides = a.v_strides = strides();
  a.past_length = length_ - o.q_seq_len;
  return status_message(attention(a), a);
}

void KvCache::copy_keys(float* out) const {
  const std::size_t H = shape_.kv_num_heads, D = shape_.head_size;
  copy_rows(rows_.get(), strides(), out, bhsd(H, length_, D), shape_.batch, H, length_, D);
}

void KvCache::copy_values(float* out) const {
  const std::size_t H = shape_.kv_num_heads, Dv = shape_.v_head_size;
  copy_rows(rows_.get() + shape_.head_size, strides(), out, bhsd(H, length_, Dv), shape_.batch, H,
            length_, Dv);
}

}  // namespace attention
