// Each tuned kernel against its plain scalar reference, on sizes that hit every SIMD tail.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kernels/exp2.hpp"
#include "kernels/flash_attention.hpp"
#include "kernels/matmul.hpp"
#include "reference64.hpp"

using namespace attention;

TEST(Kernels, MatmulMatchesScalarReferenceOnOddSizes) {
  std::mt19937 rng(1);
  for (std::size_t rows : {1u, 3u, 5u}) {
    for (std::size_t inner : {1u, 4u, 7u, 33u}) {
      for (std::size_t cols : {1u, 3u, 4u, 5u, 8u, 9u, 17u, 67u}) {
        const auto a = reference64::random_floats(rng, rows * inner);
        const auto b = reference64::random_floats(rng, inner * cols);
        std::vector<float> fast(rows * cols), slow(rows * cols);
        kernels::matmul(a.data(), b.data(), fast.data(), rows, inner, cols);
        kernels::matmul_reference(a.data(), b.data(), slow.data(), rows, inner, cols);
        for (std::size_t i = 0; i < fast.size(); ++i)
          ASSERT_NEAR(fast[i], slow[i], 1e-5 * inner) << rows << "x" << inner << "x" << cols;
        // b viewed as (cols x inner) for the transposed product
        kernels::matmul_transposed_b(a.data(), b.data(), fast.data(), rows, inner, cols);
        kernels::matmul_transposed_b_reference(a.data(), b.data(), slow.data(), rows, inner, cols);
        for (std::size_t i = 0; i < fast.size(); ++i)
          ASSERT_NEAR(fast[i], slow[i], 1e-5 * inner) << rows << "x" << inner << "x" << cols;
      }
    }
  }
}

TEST(Kernels, Exp2FastIsWithinTwoTenMillionthsRelative) {
  using batch = xsimd::batch<float>;
  double worst = 0;
  for (float x = -125.0f; x <= 127.0f; x += 0.01171875f) {
    const float fast = kernels::exp2_fast(batch(x)).get(0);
    const double exact = std::exp2(double(x));
    worst = std::max(worst, std::fabs(fast - exact) / exact);
  }
  EXPECT_LT(worst, 2e-7);
}

TEST(Kernels, Exp2FastGivesZeroForMinusInfinityAndNoOverflow) {
  using batch = xsimd::batch<float>;
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(kernels::exp2_fast(batch(-inf)).get(0), 0.0f);
  EXPECT_EQ(kernels::exp2_fast(batch(-200.0f)).get(0), 0.0f);
  EXPECT_TRUE(std::isfinite(kernels::exp2_fast(batch(500.0f)).get(0)));
  EXPECT_EQ(kernels::exp2_fast(batch(0.0f)).get(0), 1.0f);
  EXPECT_FLOAT_EQ(kernels::exp2_fast(batch(10.0f)).get(0), 1024.0f);
}

namespace {
struct Case {
  AttentionShape shape;
  AttentionOptions options;
};

void expect_flash_matches_reference(const Case& c, std::mt19937& rng,
                                    const AttentionMask& mask = {}) {
  const auto& s = c.shape;
  const auto q =
      reference64::random_floats(rng, s.batch * s.q_num_heads * s.q_seq_len * s.head_size);
  const auto k =
      reference64::random_floats(rng, s.batch * s.kv_num_heads * s.kv_seq_len * s.head_size);
  const auto v =
      reference64::random_floats(rng, s.batch * s.kv_num_heads * s.kv_seq_len * s.v_head_size);
  std::vector<float> fast(s.batch * s.q_num_heads * s.q_seq_len * s.v_head_size, -1.0f);
  std::vector<float> slow(fast.size(), -2.0f);
  ASSERT_TRUE(kernels::flash_attention(
      contiguous_args(q.data(), k.data(), v.data(), mask, s, c.options, fast.data())));
  ASSERT_TRUE(kernels::attention_reference(
      contiguous_args(q.data(), k.data(), v.data(), mask, s, c.options, slow.data())));
  for (std::size_t i = 0; i < fast.size(); ++i)
    ASSERT_NEAR(fast[i], slow[i], 2e-5)
        << "index " << i << " q_seq=" << s.q_seq_len << " kv_seq=" << s.kv_seq_len
        << " d=" << s.head_size << " dv=" << s.v_head_size;
}
}  // namespace

TEST(Kernels, FlashAttentionMatchesScalarReferenceOnOddSizes) {
  std::mt19937 rng(2);
  for (std::size_t q_seq : {1u, 3u, 4u, 5u, 63u, 130u}) {
    for (std::size_t kv_seq : {1u, 7u, 8u, 9u, 64u, 65u, 200u}) {
      for (std::size_t d : {1u, 3u, 16u, 67u}) {
        Case c;
        c.shape.q_seq_len = q_seq;
        c.shape.kv_seq_len = kv_seq;
        c.shape.head_size = d;
        c.shape.v_head_size = (d * 7) % 13 + 1;
        c.options.scale = 1.0f / std::sqrt(float(d));
        c.options.is_causal = (q_seq + kv_seq) % 2 == 0;
        expect_flash_matches_reference(c, rng);
      }
    }
  }
}

TEST(Kernels, FlashAttentionGroupedHeadsSoftcapAndBatches) {
  std::mt19937 rng(3);
  Case c;
  c.shape = {3, 6, 2, 37, 41, 24, 10};
  c.options.scale = 0.3f;
  c.options.softcap = 2.5f;
  expect_flash_matches_reference(c, rng);
  c.options.is_causal = true;
  c.shape = {2, 4, 1, 129, 70, 8, 33};  // multi-query, row blocks cross head boundaries
  expect_flash_matches_reference(c, rng);
}

TEST(Kernels, FlashAttentionWithBroadcastMasks) {
  std::mt19937 rng(4);
  Case c;
  c.shape = {2, 4, 2, 9, 75, 12, 5};
  c.options.scale = 0.25f;
  // Boolean mask [batch, 1, 1, kv_seq]: a padding mask per batch.
  std::vector<std::uint8_t> allowed(2 * 75);
  for (std::size_t i = 0; i < allowed.size(); ++i) allowed[i] = (i * 7919 % 5) != 0;
  AttentionMask mask;
  mask.kind = MaskKind::boolean;
  mask.allowed = allowed.data();
  const std::size_t dims[4] = {2, 1, 1, 75};
  ASSERT_EQ(broadcast_mask_strides(dims, 4, c.shape, MaskKeys::broadcast, mask), nullptr);
  expect_flash_matches_reference(c, rng, mask);
  // Additive mask [q_seq, kv_seq], broadcast over batch and heads.
  const auto bias = reference64::random_floats(rng, 9 * 75, 3.0f);
  AttentionMask additive;
  additive.kind = MaskKind::additive;
  additive.bias = bias.data();
  const std::size_t dims2[2] = {9, 75};
  ASSERT_EQ(broadcast_mask_strides(dims2, 2, c.shape, MaskKeys::broadcast, additive), nullptr);
  expect_flash_matches_reference(c, rng, additive);
}
