#include "kv_cache_call.hpp"

namespace kv_cache_call {
namespace {

attention::KvCache* cache_at(std::uintptr_t handle) {
  return reinterpret_cast<attention::KvCache*>(handle);
}
const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }
float* writable(std::uintptr_t address) { return reinterpret_cast<float*>(address); }
attention::AttentionShape shape_of(const KvCacheSpec& s) {
  attention::AttentionShape shape;
  shape.batch = s.batch;
  shape.kv_num_heads = s.kv_num_heads;
  shape.head_size = s.head_size;
  shape.v_head_size = s.v_head_size;
  return shape;
}
std::string message(const char* error) { return error ? error : ""; }

}  // namespace

std::uintptr_t create(const KvCacheSpec& spec) {
  return reinterpret_cast<std::uintptr_t>(
      attention::KvCache::create(shape_of(spec), spec.capacity).release());
}

double bytes(const KvCacheSpec& spec) {
  return double(attention::KvCache::bytes_for(shape_of(spec), spec.capacity));
}

void free(std::uintptr_t cache) { delete cache_at(cache); }

KvAppendResult append(const KvAppendCall& call) {
  attention::KvCache* cache = cache_at(call.cache);
  const char* error = cache->append(floats(call.k), floats(call.v), call.rows);
  return {message(error), double(cache->length())};
}

const char* attend_message(const KvAttendCall& call) {
  attention::KvAttendOptions o;
  o.q_num_heads = call.q_num_heads;
  o.q_seq_len = call.q_seq_len;
  o.options = call.options;
  return cache_at(call.cache)->attend(floats(call.q), o, writable(call.y));
}

std::string attend(const KvAttendCall& call) { return message(attend_message(call)); }

double length(std::uintptr_t cache) { return double(cache_at(cache)->length()); }
double capacity(std::uintptr_t cache) { return double(cache_at(cache)->capacity()); }
void reset(std::uintptr_t cache) { cache_at(cache)->reset(); }
void truncate(std::uintptr_t cache, std::uint32_t length) { cache_at(cache)->truncate(length); }
void copy_keys(std::uintptr_t cache, std::uintptr_t out) {
  cache_at(cache)->copy_keys(writable(out));
}
void copy_values(std::uintptr_t cache, std::uintptr_t out) {
  cache_at(cache)->copy_values(writable(out));
}

}  // namespace kv_cache_call

extern "C" const char* kv_cache_call_attend(const kv_cache_call::KvAttendCall* call) {
  return kv_cache_call::attend_message(*call);
}
