// The cache's entry points as JS calls them (kv_cache_call.hpp): one append crosses once and
// grows by the cache's own rule; attend takes the options record; errors come back as neutral
// messages, and a refused call leaves the cache as it was.
#include "kv_cache_call.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "attention_call.hpp"
#include "reference64.hpp"

namespace {

std::uintptr_t address(const float* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Appends `rows` rows of [1 head, rows, size] from k and v through the entry point.
// Returns the error ("" = appended), after checking the length it reports.
std::string append(std::uintptr_t cache, const std::vector<float>& k, const std::vector<float>& v,
                   std::uint32_t rows) {
  const double before = kv_cache_call::length(cache);
  const kv_cache_call::KvAppendResult result =
      kv_cache_call::append({cache, address(k.data()), address(v.data()), rows});
  EXPECT_EQ(result.length, result.error.empty() ? before + rows : before);
  return result.error;
}

}  // namespace

TEST(KvCacheCall, AppendGrowsToTwiceTheCapacityOrExactlyWhatIsNeeded) {
  const std::uintptr_t cache = kv_cache_call::create({1, 1, 2, 3, 1});
  ASSERT_NE(cache, 0u);
  const std::vector<float> k(2 * 5, 0.5f), v(3 * 5, 0.25f);
  EXPECT_EQ(append(cache, k, v, 3), "");  // 3 > twice 1: exactly 3
  EXPECT_EQ(kv_cache_call::capacity(cache), 3);
  EXPECT_EQ(append(cache, k, v, 1), "");  // 4 <= twice 3: 6
  EXPECT_EQ(kv_cache_call::capacity(cache), 6);
  EXPECT_EQ(kv_cache_call::length(cache), 4);
  kv_cache_call::free(cache);
}

TEST(KvCacheCall, AttendWithTheOptionsRecordEqualsAttentionOverThePrefix) {
  std::mt19937 rng(5);
  const std::uint32_t kv_heads = 2, q_heads = 4, d = 3, dv = 2, rows = 7, s = 2;
  const std::uintptr_t cache = kv_cache_call::create({1, kv_heads, d, dv, 2});
  const auto k = reference64::random_floats(rng, kv_heads * rows * d);
  const auto v = reference64::random_floats(rng, kv_heads * rows * dv);
  ASSERT_EQ(append(cache, k, v, rows), "");
  const auto q = reference64::random_floats(rng, q_heads * s * d);
  std::vector<float> y(q_heads * s * dv, -1.0f), want(y.size(), -2.0f);
  kv_cache_call::KvAttendCall call;
  call.cache = cache;
  call.q = address(q.data());
  call.y = address(y.data());
  call.q_num_heads = q_heads;
  call.q_seq_len = s;
  call.options.scale = 0.7f;
  call.options.is_causal = true;
  call.options.left_window = 3;
  ASSERT_EQ(kv_cache_call::attend(call), "");

  const attention::AttentionShape shape{1, q_heads, kv_heads, s, rows, d, dv};
  attention::AttentionArgs a = attention::contiguous_args(q.data(), k.data(), v.data(), {}, shape,
                                                          call.options, want.data());
  a.past_length = rows - s;
  ASSERT_EQ(attention::attention(a), attention::Status::ok);
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_FLOAT_EQ(y[i], want[i]) << i;

  std::vector<float> keys(k.size());
  kv_cache_call::copy_keys(cache, address(keys.data()));
  EXPECT_EQ(keys, k);
  kv_cache_call::free(cache);
}

TEST(KvCacheCall, RefusedCallsSayWhyAndChangeNothing) {
  EXPECT_EQ(kv_cache_call::create({1, 1, 0, 1, 4}), 0u);
  EXPECT_EQ(kv_cache_call::bytes({1, 1, 4, 2, 8}), 8 * (4 + 2) * 4);
  const std::uintptr_t cache = kv_cache_call::create({1, 1, 1, 1, 4});
  const std::vector<float> one(1, 1.0f);
  std::vector<float> y(4);
  kv_cache_call::KvAttendCall call;
  call.cache = cache;
  call.q = address(one.data());
  call.y = address(y.data());
  EXPECT_EQ(kv_cache_call::attend(call), "the cache is empty");
  ASSERT_EQ(append(cache, one, one, 1), "");
  call.q_seq_len = 2;
  EXPECT_EQ(kv_cache_call::attend(call), "more queries than cached rows");
  call.q_seq_len = 1;
  call.options.left_window = -2;
  EXPECT_EQ(kv_cache_call::attend(call), "the left window must be -1 (unbounded) or more");
  EXPECT_EQ(kv_cache_call::length(cache), 1);
  EXPECT_EQ(kv_cache_call::capacity(cache), 4);
  kv_cache_call::free(cache);
}

// ONNX's present_key = concat(past, new), built by the same row copy as the cache's appends:
// equal to the concatenation element by element, the new rows read in either layout.
TEST(PresentCall, ConcatenatesPastAndNewRowsPerHeadInEitherLayout) {
  const std::uint32_t batch = 2, heads = 3, past_rows = 4, rows = 2, size = 5;
  const std::uint32_t total = past_rows + rows;
  std::vector<float> past(batch * heads * past_rows * size), next(batch * heads * rows * size);
  for (std::size_t i = 0; i < past.size(); ++i) past[i] = float(i);
  for (std::size_t i = 0; i < next.size(); ++i) next[i] = -float(i) - 1;
  for (const attention::Layout layout : {attention::Layout::bhsd, attention::Layout::bshd}) {
    std::vector<float> out(batch * heads * total * size, 0.0f);
    attention_call::PresentCall call;
    call.past = address(past.data());
    call.next = address(next.data());
    call.out = reinterpret_cast<std::uintptr_t>(out.data());
    call.batch = batch;
    call.heads = heads;
    call.past_rows = past_rows;
    call.rows = rows;
    call.size = size;
    call.next_layout = layout;
    ASSERT_EQ(attention_call::concat_present(call), "");
    const bool bshd = layout == attention::Layout::bshd;
    for (std::uint32_t b = 0; b < batch; ++b)
      for (std::uint32_t h = 0; h < heads; ++h)
        for (std::uint32_t t = 0; t < total; ++t)
          for (std::uint32_t c = 0; c < size; ++c) {
            const std::uint32_t r = t - past_rows;  // a new row when t >= past_rows
            const float want = t < past_rows ? past[((b * heads + h) * past_rows + t) * size + c]
                               : bshd        ? next[((b * rows + r) * heads + h) * size + c]
                                             : next[((b * heads + h) * rows + r) * size + c];
            ASSERT_EQ(out[((b * heads + h) * total + t) * size + c], want)
                << b << h << t << c << bshd;
          }
  }
}

TEST(PresentCall, RefusesWhatItCannotBuildAndWritesNothing) {
  std::vector<float> out(4, 7.0f);
  attention_call::PresentCall call;
  call.next = address(out.data());
  call.out = reinterpret_cast<std::uintptr_t>(out.data());
  call.rows = 0;
  EXPECT_EQ(attention_call::concat_present(call), "every dim must be 1 or more");
  call.rows = 1;
  call.past_rows = 2;  // but no past
  EXPECT_EQ(attention_call::concat_present(call), "a buffer is missing");
  EXPECT_EQ(out, std::vector<float>(4, 7.0f));
}
