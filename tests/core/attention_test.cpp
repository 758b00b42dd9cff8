// attention() with ONNX semantics against the float64 reference, and its shape rules.
#include "attention.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "article.hpp"
#include "random_qkv.hpp"
#include "reference64.hpp"
#include "trace.hpp"

using namespace attention;

namespace {
// Expands a mask given by strides to the full [batch, q_heads, q_seq, kv_seq] for reference64.
std::vector<double> expand_mask(const AttentionMask& mask, const AttentionShape& s) {
  std::vector<double> out(s.batch * s.q_num_heads * s.q_seq_len * s.kv_seq_len, 0.0);
  std::size_t at = 0;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.q_num_heads; ++h)
      for (std::size_t i = 0; i < s.q_seq_len; ++i)
        for (std::size_t j = 0; j < s.kv_seq_len; ++j) {
          const std::size_t src =
              b * mask.strides[0] + h * mask.strides[1] + i * mask.strides[2] + j * mask.strides[3];
          out[at++] =
              mask.kind == MaskKind::boolean ? double(mask.allowed[src]) : double(mask.bias[src]);
        }
  return out;
}

void check_against_float64(const AttentionShape& s, const AttentionOptions& o, std::mt19937& rng,
                           const AttentionMask& mask = {}) {
  const auto [q, k, v] = random_qkv(rng, s);
  std::vector<float> y(s.batch * s.q_num_heads * s.q_seq_len * s.v_head_size);
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), mask, s, o, y.data()), Status::ok);
  const int kind = mask.kind == MaskKind::none ? 0 : mask.kind == MaskKind::boolean ? 1 : 2;
  const auto expected = reference64::onnx_attention(
      q, k, v, s.batch, s.q_num_heads, s.kv_num_heads, s.q_seq_len, s.kv_seq_len, s.head_size,
      s.v_head_size, o.scale, o.is_causal, o.softcap, kind,
      kind ? expand_mask(mask, s) : std::vector<double>{});
  for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], expected[i], 1e-4) << "index " << i;
}
}  // namespace

TEST(Attention, ArticleExampleMatchesTheTrace) {
  // One head: q, k, v are the article's queries, keys and values; scale 1 as in the article.
  const Matrix q = article::queries(), k = article::keys(), v = article::values();
  AttentionShape s{1, 1, 1, 3, 3, 3, 3};
  AttentionOptions o;
  o.scale = 1.0f;
  std::vector<float> y(9);
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), {}, s, o, y.data()), Status::ok);
  const Matrix expected = article::outputs();
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(y[i], expected.flat(i), 1e-5);
}

TEST(Attention, RandomConfigurationsMatchFloat64) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> seq(1, 70), size(1, 70), pick(0, 3);
  for (int round = 0; round < 40; ++round) {
    AttentionShape s;
    s.batch = 1 + pick(rng) % 2;
    s.kv_num_heads = 1 + pick(rng) % 3;
    s.q_num_heads = s.kv_num_heads * (1 + pick(rng));
    s.q_seq_len = seq(rng);
    s.kv_seq_len = seq(rng);
    s.head_size = size(rng);
    s.v_head_size = round % 2 ? s.head_size : size(rng);
    AttentionOptions o;
    o.scale = 1.0f / std::sqrt(float(s.head_size));
    o.is_causal = round % 4 == 1;
    o.softcap = round % 5 == 2 ? 1.5f : 0.0f;
    SCOPED_TRACE(testing::Message() << "round " << round);
    check_against_float64(s, o, rng);
  }
}

TEST(Attention, MasksOfEveryRankBroadcast) {
  std::mt19937 rng(6);
  const AttentionShape s{2, 4, 2, 5, 11, 9, 6};
  AttentionOptions o;
  o.scale = 0.4f;
  const std::vector<std::vector<std::size_t>> shapes = {{11},          {1},           {5, 11},
                                                        {5, 1},        {4, 5, 11},    {4, 1, 11},
                                                        {2, 1, 1, 11}, {2, 4, 5, 11}, {1, 4, 1, 1}};
  for (const auto& dims : shapes) {
    std::size_t count = 1;
    for (auto d : dims) count *= d;
    std::vector<std::uint8_t> allowed(count);
    for (std::size_t i = 0; i < count; ++i) allowed[i] = (i * 2654435761u >> 7) % 3 != 0;
    allowed[0] = 1;
    AttentionMask mask;
    mask.kind = MaskKind::boolean;
    mask.allowed = allowed.data();
    ASSERT_EQ(broadcast_mask_strides(dims.data(), dims.size(), s, MaskKeys::broadcast, mask),
              nullptr);
    check_against_float64(s, o, rng, mask);
    const auto bias = reference64::random_floats(rng, count, 2.0f);
    AttentionMask additive;
    additive.kind = MaskKind::additive;
    additive.bias = bias.data();
    ASSERT_EQ(broadcast_mask_strides(dims.data(), dims.size(), s, MaskKeys::broadcast, additive),
              nullptr);
    check_against_float64(s, o, rng, additive);
  }
}

TEST(Attention, MaskThatDoesNotBroadcastIsRefused) {
  const AttentionShape s{2, 4, 2, 5, 11, 9, 6};
  AttentionMask m;
  const std::size_t wrong_keys[2] = {5, 10};
  EXPECT_NE(broadcast_mask_strides(wrong_keys, 2, s, MaskKeys::broadcast, m), nullptr);
  const std::size_t wrong_batch[4] = {3, 4, 5, 11};
  EXPECT_NE(broadcast_mask_strides(wrong_batch, 4, s, MaskKeys::broadcast, m), nullptr);
  const std::size_t too_many[5] = {1, 2, 4, 5, 11};
  EXPECT_NE(broadcast_mask_strides(too_many, 5, s, MaskKeys::broadcast, m), nullptr);
}

TEST(Attention, FullyMaskedRowsGiveZeros) {
  const AttentionShape s{1, 1, 1, 3, 4, 2, 2};
  const std::vector<float> q{1, 2, 3, 4, 5, 6}, k{1, 0, 0, 1, 1, 1, 2, 2},
      v{1, 2, 3, 4, 5, 6, 7, 8};
  const std::uint8_t allowed[12] = {0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0};
  AttentionMask mask;
  mask.kind = MaskKind::boolean;
  mask.allowed = allowed;
  const std::size_t dims[2] = {3, 4};
  ASSERT_EQ(broadcast_mask_strides(dims, 2, s, MaskKeys::broadcast, mask), nullptr);
  AttentionOptions o;
  std::vector<float> y(6, 99.0f);
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), mask, s, o, y.data()), Status::ok);
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_FALSE(std::isnan(y[2]));
  EXPECT_EQ(y[4], 0.0f);
  EXPECT_EQ(y[5], 0.0f);
}

TEST(Attention, ShapeErrorsSayWhatIsWrong) {
  EXPECT_EQ(attention_shape_error({1, 8, 2, 4, 4, 8, 8}), nullptr);
  EXPECT_STREQ(attention_shape_error({1, 8, 3, 4, 4, 8, 8}),
               "kv_num_heads must divide q_num_heads");
  EXPECT_STREQ(attention_shape_error({0, 8, 2, 4, 4, 8, 8}), "batch must be at least 1");
  EXPECT_STREQ(attention_shape_error({1, 8, 2, 4, 4, 0, 8}), "head_size must be at least 1");
}

TEST(Attention, NaNInTheDataPropagates) {
  const AttentionShape s{1, 1, 1, 2, 2, 1, 1};
  const std::vector<float> q{std::numeric_limits<float>::quiet_NaN(), 1.0f}, k{1, 2}, v{3, 4};
  std::vector<float> y(2);
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), {}, s, {}, y.data()), Status::ok);
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_FALSE(std::isnan(y[1]));
}

TEST(Attention, HugeScaleAndSoftcapStayFinite) {
  // scale * q.k is finite here (3e38 * 0.5); no intermediate may overflow where it is not.
  const AttentionShape s{1, 1, 1, 1, 2, 1, 1};
  const std::vector<float> q{0.5f}, k{1.0f, -1.0f}, v{3.0f, 5.0f};
  std::vector<float> y(1);
  AttentionOptions o;
  o.scale = 3e38f;
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), {}, s, o, y.data()), Status::ok);
  EXPECT_FLOAT_EQ(y[0], 3.0f);
  o.scale = 1.0f;
  o.softcap = 3e38f;  // tanh(x / cap) * cap is x for such a cap
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), {}, s, o, y.data()), Status::ok);
  EXPECT_NEAR(y[0], (3.0f * std::exp(1.0f) + 5.0f) / (std::exp(1.0f) + 1.0f), 1e-5);
}
