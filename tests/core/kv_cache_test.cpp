// The resident key/value cache: appended step by step (growing past its capacity), attending
// from it equals attention() over the same keys concatenated into one contiguous tensor.
#include "kv_cache.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "reference64.hpp"

using namespace attention;

namespace {
// Rows [from, to) of every head of x [heads, total, size], as [heads, to - from, size].
std::vector<float> rows_of(const std::vector<float>& x, std::size_t heads, std::size_t total,
                           std::size_t size, std::size_t from, std::size_t to) {
  std::vector<float> out;
  for (std::size_t h = 0; h < heads; ++h)
    out.insert(out.end(), x.begin() + (h * total + from) * size,
               x.begin() + (h * total + to) * size);
  return out;
}
}  // namespace

TEST(KvCache, GrownStepByStepEqualsAttentionOverTheWholePrefix) {
  std::mt19937 rng(11);
  AttentionShape shape;  // the cache reads its key/value side: batch 2, 2 kv heads, D = 5, Dv = 3
  shape.batch = 2;
  shape.kv_num_heads = 2;
  shape.head_size = 5;
  shape.v_head_size = 3;
  const std::size_t q_heads = 6, total = 90, heads = shape.batch * shape.kv_num_heads;
  const auto k = reference64::random_floats(rng, heads * total * shape.head_size);
  const auto v = reference64::random_floats(rng, heads * total * shape.v_head_size);
  auto cache = KvCache::create(shape, 4);
  ASSERT_NE(cache, nullptr);
  std::size_t t = 0;
  for (std::size_t step = 0; t < total; ++step) {
    const std::size_t rows = std::min<std::size_t>(step % 4 + 1, total - t);  // 1..4 new rows
    const auto k_new = rows_of(k, heads, total, shape.head_size, t, t + rows);
    const auto v_new = rows_of(v, heads, total, shape.v_head_size, t, t + rows);
    ASSERT_EQ(cache->append(k_new.data(), v_new.data(), rows), nullptr);
    t += rows;
    ASSERT_EQ(cache->length(), t);
    ASSERT_GE(cache->capacity(), t);

    KvAttendOptions o;
    o.q_num_heads = q_heads;
    o.q_seq_len = rows;
    o.options.scale = 0.4f;
    o.options.is_causal = true;
    const auto q = reference64::random_floats(rng, shape.batch * q_heads * rows * shape.head_size);
    std::vector<float> y(shape.batch * q_heads * rows * shape.v_head_size, -1.0f);
    ASSERT_EQ(cache->attend(q.data(), o, y.data()), nullptr);

    const auto k_all = rows_of(k, heads, total, shape.head_size, 0, t);
    const auto v_all = rows_of(v, heads, total, shape.v_head_size, 0, t);
    std::vector<float> want(y.size(), -2.0f);
    AttentionShape s{shape.batch, q_heads,         shape.kv_num_heads, rows,
                     t,           shape.head_size, shape.v_head_size};
    AttentionArgs a =
        contiguous_args(q.data(), k_all.data(), v_all.data(), {}, s, o.options, want.data());
    a.past_length = t - rows;
    ASSERT_EQ(attention::attention(a), Status::ok);
    for (std::size_t i = 0; i < y.size(); ++i) ASSERT_FLOAT_EQ(y[i], want[i]) << "t=" << t;

    std::vector<float> present(k_all.size());
    cache->copy_keys(present.data());
    ASSERT_EQ(present, k_all);
    std::vector<float> present_v(v_all.size());
    cache->copy_values(present_v.data());
    ASSERT_EQ(present_v, v_all);
  }
}

TEST(KvCache, RefusesWhatItCannotDoAndChangesNothing) {
  EXPECT_EQ(KvCache::create({1, 1, 4, 4}, 0), nullptr);
  EXPECT_EQ(KvCache::create({1, 1, 0, 4}, 8), nullptr);
  EXPECT_EQ(KvCache::bytes_for({1u << 30, 1u << 30, 1u << 30, 1}, 1u << 30), 0u);
  auto cache = KvCache::create({1, 2, 4, 4}, 8);
  ASSERT_NE(cache, nullptr);
  std::vector<float> q(3 * 4, 0.5f), y(3 * 4);
  KvAttendOptions o;
  o.q_num_heads = 3;  // not a multiple of the 2 kv heads
  EXPECT_STREQ(cache->attend(q.data(), o, y.data()), "the cache is empty");
  std::vector<float> kv(2 * 4, 1.0f);
  ASSERT_EQ(cache->append(kv.data(), kv.data(), 1), nullptr);
  EXPECT_STREQ(cache->attend(q.data(), o, y.data()), "kv_num_heads must divide q_num_heads");
  o.q_num_heads = 2;
  o.q_seq_len = 2;
  EXPECT_STREQ(cache->attend(q.data(), o, y.data()), "more queries than cached rows");
  ASSERT_EQ(cache->append(kv.data(), kv.data(), 1), nullptr);
  cache->truncate(5);  // beyond the length: nothing changes
  EXPECT_EQ(cache->length(), 2u);
  cache->truncate(1);
  EXPECT_EQ(cache->length(), 1u);
  cache->reset();
  EXPECT_EQ(cache->length(), 0u);
  EXPECT_EQ(cache->capacity(), 8u);
}
