#include "kv_cache.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <xsimd/xsimd.hpp>

namespace attention {
namespace {

constexpr std::size_t alignment = 64;
constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

// Copies `rows` rows of `size` floats for every (b, h) from a [heads, from_rows, size] layout
// at `from` to a [heads, to_rows, size] layout at `to`, starting at row `at` there.
void copy_heads(const float* from, std::size_t from_rows, float* to, std::size_t to_rows,
                std::size_t at, std::size_t heads, std::size_t rows, std::size_t size) {
  copy_rows(from, layout_strides(Layout::bhsd, heads, from_rows, size), to + at * size,
            layout_strides(Layout::bhsd, heads, to_rows, size), 1, heads, rows, size);
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

KvCache::KvCache(const AttentionShape& shape, std::size_t capacity, Storage keys, Storage values)
    : shape_(shape), capacity_(capacity), keys_(std::move(keys)), values_(std::move(values)) {}

KvCache::~KvCache() = default;

std::unique_ptr<KvCache> KvCache::create(const AttentionShape& s, std::size_t capacity) {
  if (s.head_size == 0 || s.v_head_size == 0 || bytes_for(s, capacity) == 0) return nullptr;
  const std::size_t rows = s.batch * s.kv_num_heads * capacity;
  Storage keys = allocate(rows * s.head_size);
  Storage values = keys ? allocate(rows * s.v_head_size) : nullptr;
  if (!values) return nullptr;
  return std::unique_ptr<KvCache>(new (std::nothrow)
                                      KvCache(s, capacity, std::move(keys), std::move(values)));
}

bool KvCache::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return true;
  if (bytes_for(shape_, capacity) == 0) return false;
  const std::size_t heads = shape_.batch * shape_.kv_num_heads;
  Storage keys = allocate(heads * capacity * shape_.head_size);
  Storage values = keys ? allocate(heads * capacity * shape_.v_head_size) : nullptr;
  if (!values) return false;
  copy_heads(keys_.get(), capacity_, keys.get(), capacity, 0, heads, length_, shape_.head_size);
  copy_heads(values_.get(), capacity_, values.get(), capacity, 0, heads, length_,
             shape_.v_head_size);
  keys_ = std::move(keys);
  values_ = std::move(values);
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
  const std::size_t heads = shape_.batch * shape_.kv_num_heads;
  copy_heads(k, rows, keys_.get(), capacity_, length_, heads, rows, shape_.head_size);
  copy_heads(v, rows, values_.get(), capacity_, length_, heads, rows, shape_.v_head_size);
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
  AttentionArgs a = contiguous_args(q, keys_.get(), values_.get(), {}, s, o.options, y);
  a.k_strides = layout_strides(Layout::bhsd, s.kv_num_heads, capacity_, s.head_size);
  a.v_strides = layout_strides(Layout::bhsd, s.kv_num_heads, capacity_, s.v_head_size);
  a.past_length = length_ - o.q_seq_len;
  return status_message(attention(a), a);
}

void KvCache::copy_keys(float* out) const {
  copy_heads(keys_.get(), capacity_, out, length_, 0, shape_.batch * shape_.kv_num_heads, length_,
             shape_.head_size);
}

void KvCache::copy_values(float* out) const {
  copy_heads(values_.get(), capacity_, out, length_, 0, shape_.batch * shape_.kv_num_heads, length_,
             shape_.v_head_size);
}

}  // namespace attention
