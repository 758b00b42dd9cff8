// Each tuned kernel against its plain scalar reference, on sizes that hit every SIMD tail.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kernels/decode_attention.hpp"
#include "kernels/exp2.hpp"
#include "kernels/flash_attention.hpp"
#include "kernels/matmul.hpp"
#include "kernels/register_block.hpp"
#include "kernels/row_softmax.hpp"
#include "kernels/score_step.hpp"
#include "random_qkv.hpp"
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
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(kernels::exp2_fast(batch(nan)).get(0)));
  EXPECT_TRUE(std::isnan(kernels::exp2_nonpositive(batch(nan)).get(0)));
  EXPECT_EQ(kernels::exp2_nonpositive(batch(-inf)).get(0), 0.0f);
  EXPECT_FLOAT_EQ(kernels::exp2_nonpositive(batch(-3.0f)).get(0), 0.125f);
}

// Blocks of scores as the kernels hand them over: aligned, padded to whole vectors with -inf,
// some scores hidden (-inf), a first block that is wholly hidden, and a later maximum.
std::vector<std::vector<float>> score_blocks(std::mt19937& rng, std::size_t keys) {
  std::uniform_real_distribution<float> score(-8.0f, 8.0f);
  std::vector<std::vector<float>> blocks;
  for (std::size_t b = 0; b < 4; ++b) {
    std::vector<float> block(kernels::round_up(keys, kernels::lanes), kernels::minus_infinity);
    for (std::size_t j = 0; j < keys; ++j)
      if (b > 0 && j % 3 != 1) block[j] = score(rng) + float(b);
    blocks.push_back(block);
  }
  return blocks;
}

TEST(Kernels, OnlineSoftmaxUpdateMatchesScalarReference) {
  std::mt19937 rng(7);
  for (std::size_t keys : {1u, 3u, 4u, 7u, 16u, 33u, 64u}) {
    kernels::RowStatistics fast, slow;
    for (std::vector<float> block : score_blocks(rng, keys)) {
      const std::size_t padded = block.size();
      kernels::AlignedFloats row = kernels::allocate_floats(padded);
      std::copy(block.begin(), block.end(), row.get());
      const float fast_rescale = kernels::online_softmax_update(row.get(), padded, fast);
      const float slow_rescale = kernels::online_softmax_update_reference(block.data(), keys, slow);
      EXPECT_NEAR(fast_rescale, slow_rescale, 1e-6f * slow_rescale) << keys;
      EXPECT_EQ(fast.max, slow.max) << keys;
      EXPECT_NEAR(fast.sum, slow.sum, 1e-6f * slow.sum) << keys;
      for (std::size_t j = 0; j < keys; ++j) EXPECT_NEAR(row[j], block[j], 1e-6f) << keys;
      for (std::size_t j = keys; j < padded; ++j) EXPECT_EQ(row[j], 0.0f) << "padding";
    }
    EXPECT_GT(fast.sum, 0.0f);
  }
}

TEST(Kernels, OnlineSoftmaxUpdateOfHiddenRowsAndNaN) {
  kernels::AlignedFloats row = kernels::allocate_floats(kernels::lanes);
  std::fill(row.get(), row.get() + kernels::lanes, kernels::minus_infinity);
  kernels::RowStatistics stats;
  EXPECT_EQ(kernels::online_softmax_update(row.get(), kernels::lanes, stats), 1.0f);
  EXPECT_EQ(stats.sum, 0.0f);
  EXPECT_EQ(stats.max, kernels::minus_infinity);
  EXPECT_EQ(row[0], 0.0f);
  row[0] = std::numeric_limits<float>::quiet_NaN();
  kernels::online_softmax_update(row.get(), kernels::lanes, stats);
  EXPECT_TRUE(std::isnan(stats.sum));
  // A NaN among finite scores: the maximum passes it by, the sum takes it in.
  kernels::RowStatistics finite;
  std::fill(row.get(), row.get() + kernels::lanes, 1.0f);
  row[kernels::lanes - 1] = std::numeric_limits<float>::quiet_NaN();
  kernels::online_softmax_update(row.get(), kernels::lanes, finite);
  EXPECT_EQ(finite.max, 1.0f);
  EXPECT_TRUE(std::isnan(finite.sum));
}

// The same floats, NaN included (EXPECT_EQ would call two NaNs different).
::testing::AssertionResult same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t j = 0; j < a.size(); ++j)
    if (!(a[j] == b[j] || (std::isnan(a[j]) && std::isnan(b[j]))))
      return ::testing::AssertionFailure() << "element " << j << ": " << a[j] << " vs " << b[j];
  return ::testing::AssertionSuccess();
}

// The score step every kernel shares, against its one-score-at-a-time reference: rows that
// start anywhere among the keys (a kernel's block or chunk), visible ranges inside, across or
// outside them, both kinds of mask (a row of its own or broadcast over the keys), the softcap
// on and off, ALiBi on and off, and scores that are NaN or infinite.
TEST(Kernels, AdjustScoresMatchesScalarReference) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> uniform(-6.0f, 6.0f);
  const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(), kernels::minus_infinity, -0.0f};
  constexpr std::size_t total_keys = 80;
  std::vector<std::uint8_t> allowed(2 * total_keys);
  std::vector<float> bias(2 * total_keys);
  for (std::size_t j = 0; j < allowed.size(); ++j) {
    allowed[j] = rng() % 3 != 0;
    bias[j] = j % 7 == 0 ? kernels::minus_infinity : uniform(rng);
  }
  for (int round = 0; round < 400; ++round) {
    const std::size_t keys = 1 + rng() % 40, key0 = rng() % (total_keys - keys);
    AttentionOptions o;
    o.softcap = round % 3 == 0 ? 0.0f : 0.5f + float(rng() % 8);
    AttentionMask mask;
    mask.kind = MaskKind(round % 3);
    mask.allowed = allowed.data();
    mask.bias = bias.data();
    mask.strides[3] = round % 5 == 0 ? 0 : 1;  // 0: one value broadcast over the keys
    kernels::ScoreRow at;
    at.visible.begin = rng() % total_keys;
    at.visible.end = at.visible.begin + rng() % (total_keys - at.visible.begin + 1);
    at.position = std::int64_t(rng() % total_keys);
    at.mask_row = rng() % 2 * total_keys;
    o.alibi = round % 4 != 1;
    at.slope = round % 8 == 0 ? 0.0f : uniform(rng) / 8.0f;
    std::vector<float> row(keys);
    for (float& x : row) x = rng() % 10 == 0 ? special[rng() % 4] : uniform(rng);
    std::vector<float> fast = row, slow = row, fast_capped(keys), slow_capped(keys);
    kernels::adjust_scores(fast.data(), key0, keys, o, mask, at, fast_capped.data());
    kernels::adjust_scores_reference(slow.data(), key0, keys, o, mask, at, slow_capped.data());
    SCOPED_TRACE(testing::Message() << "round " << round);
    ASSERT_TRUE(same_floats(fast, slow));
    ASSERT_TRUE(same_floats(fast_capped, slow_capped));
    // Its derivative: from the kept softcapped scores, against the one from the raw ones.
    std::vector<float> ds(keys), ds_slow;
    for (std::size_t j = 0; j < keys; ++j) ds[j] = std::isinf(fast[j]) ? 0.0f : uniform(rng);
    ds_slow = ds;
    kernels::adjust_scores_backward(ds.data(), fast_capped.data(), keys, o);
    kernels::adjust_scores_backward_reference(ds_slow.data(), row.data(), keys, o);
    for (std::size_t j = 0; j < keys; ++j) {
      if (std::isnan(ds_slow[j])) {
        EXPECT_TRUE(std::isnan(ds[j])) << j;
      } else {
        EXPECT_NEAR(ds[j], ds_slow[j], 1e-6f * (1.0f + std::fabs(ds_slow[j]))) << j;
      }
    }
  }
}

// The step's first part computed again from a query and its keys (capped_scores, for a caller
// that keeps only the weights) is what adjust_scores hands out as `capped` for those scores.
TEST(Kernels, CappedScoresAreTheStepsFirstPartComputedAgain) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> uniform(-3.0f, 3.0f);
  constexpr std::size_t d = 5, n = 7, stride = 6;  // key s at keys + s * stride
  std::vector<float> q(d), keys(n * stride);
  for (float& x : q) x = uniform(rng);
  for (float& x : keys) x = uniform(rng);
  for (const float softcap : {0.0f, 1.5f}) {
    AttentionOptions o;
    o.scale = 0.7f;
    o.softcap = softcap;
    std::vector<float> scores(n), capped(n), again(n);
    for (std::size_t s = 0; s < n; ++s) {
      float dot = 0.0f;
      for (std::size_t i = 0; i < d; ++i) dot += q[i] * keys[s * stride + i];
      scores[s] = dot * o.scale;
    }
    kernels::ScoreRow at;
    at.visible.end = n;
    kernels::adjust_scores_reference(scores.data(), 0, n, o, AttentionMask{}, at, capped.data());
    kernels::capped_scores(again.data(), q.data(), keys.data(), stride, n, d, o);
    SCOPED_TRACE(testing::Message() << "softcap " << softcap);
    EXPECT_TRUE(same_floats(again, capped));
  }
}

// A key that passes no gradient (ds = 0) keeps 0 through the step's derivative, even when its
// score was NaN; the derivative of the softcap at 0 is 1, and far out it goes to 0.
TEST(Kernels, AdjustScoresBackwardKeepsZerosAndFollowsTheSoftcap) {
  AttentionOptions o;
  o.softcap = 2.0f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> capped = {nan, 0.0f, 2.0f}, ds = {0.0f, 3.0f, 3.0f};
  kernels::adjust_scores_backward(ds.data(), capped.data(), 3, o);
  EXPECT_EQ(ds, (std::vector<float>{0.0f, 3.0f, 0.0f}));
}

TEST(Kernels, RegisterBlockMatchesScalarReference) {
  using Block = kernels::RegisterBlock<2, 3>;
  constexpr std::size_t columns = Block::columns;
  std::mt19937 rng(9);
  // (a_row, a_step): rows interleaved (the forward's queries), rows a block apart (its
  // probabilities), and a second row before the first (the backward's rows of 3-D layouts).
  const std::ptrdiff_t layouts[][2] = {{1, 2}, {80, 1}, {-80, 1}};
  for (const auto& layout : layouts) {
    for (std::size_t steps : {0u, 1u, 5u, 67u}) {
      const std::ptrdiff_t a_row = layout[0];
      const std::size_t a_step = std::size_t(layout[1]), b_step = columns + kernels::lanes;
      const auto a = reference64::random_floats(rng, 2 * 80 + 2 * steps + 2);
      kernels::AlignedFloats b = kernels::allocate_floats(steps * b_step + columns);
      for (std::size_t i = 0; i < steps * b_step; ++i) b[i] = float(rng() % 2001) / 1000.0f - 1;
      const float* a0 = a.data() + (a_row < 0 ? 80 : 0);
      kernels::AlignedFloats prior = kernels::allocate_floats(2 * columns);
      for (std::size_t i = 0; i < 2 * columns; ++i) prior[i] = float(i % 7) - 3.0f;
      std::vector<float> slow(prior.get(), prior.get() + 2 * columns);
      for (float& x : slow) x *= 0.5f;
      kernels::multiply_add_steps_reference(a0, a_row, a_step, b.get(), b_step, steps, 2, columns,
                                            slow.data(), columns);

      Block block;
      block.load({prior.get(), prior.get() + columns}, {0.5f, 0.5f});
      block.multiply_add_steps(a0, a_row, a_step, b.get(), b_step, steps);
      kernels::AlignedFloats fast = kernels::allocate_floats(2 * columns);
      kernels::batch largest[2] = {kernels::batch(kernels::minus_infinity),
                                   kernels::batch(kernels::minus_infinity)};
      block.store({fast.get(), fast.get() + columns}, 2.0f, largest);
      for (std::size_t r = 0; r < 2; ++r) {
        float row_max = kernels::minus_infinity;
        for (std::size_t c = 0; c < columns; ++c) {
          const float x = fast[r * columns + c];
          ASSERT_NEAR(x, 2.0f * slow[r * columns + c], 1e-5f * (steps + 1)) << steps;
          row_max = std::max(row_max, x);
        }
        EXPECT_EQ(xsimd::reduce_max(largest[r]), row_max);
      }
    }
  }
}

TEST(Kernels, RegisterBlockLoadWithoutFactorKeepsTheRows) {
  using Block = kernels::RegisterBlock<2, 3>;
  constexpr std::size_t columns = Block::columns;
  kernels::AlignedFloats in = kernels::allocate_floats(2 * columns);
  kernels::AlignedFloats out = kernels::allocate_floats(2 * columns);
  for (std::size_t i = 0; i < 2 * columns; ++i) in[i] = float(i) * 0.25f - 3.0f;
  Block block;
  block.load({in.get(), in.get() + columns});
  block.store({out.get(), out.get() + columns});
  for (std::size_t i = 0; i < 2 * columns; ++i) ASSERT_EQ(out[i], in[i]) << i;
}

TEST(Kernels, PackPanelMatchesScalarReference) {
  std::mt19937 rng(10);
  for (std::size_t n : {1u, 3u, 4u, 5u, 16u, 67u}) {
    for (std::size_t keys : {1u, 3u, 4u, 5u, 15u, 16u, 17u, 33u}) {
      const std::size_t stride = n + 2, padded = kernels::round_up(keys, kernels::lanes);
      const std::size_t width = padded + kernels::lanes;
      const auto rows = reference64::random_floats(rng, keys * stride);
      kernels::AlignedFloats fast = kernels::allocate_floats(n * width);
      std::vector<float> slow(n * width, -7.0f);
      std::fill(fast.get(), fast.get() + n * width, -7.0f);
      kernels::pack_panel(rows.data(), stride, n, keys, padded, fast.get(), width);
      kernels::pack_panel_reference(rows.data(), stride, n, keys, padded, slow.data(), width);
      for (std::size_t i = 0; i < n * width; ++i)
        ASSERT_EQ(fast[i], slow[i]) << "n=" << n << " keys=" << keys << " at " << i;
    }
  }
}

namespace {
struct Case {
  AttentionShape shape;
  AttentionOptions options;
};

void expect_flash_matches_reference(const Case& c, std::mt19937& rng,
                                    const AttentionMask& mask = {}) {
  const auto& s = c.shape;
  const auto [q, k, v] = random_qkv(rng, s);
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

namespace {
// The decode path against the scalar reference, on a cache read where it lies: k and v are
// the first kv_seq_len rows of a longer buffer (capacity rows per head), as a resident cache
// holds them, and the queries sit at offset past_length.
void expect_decode_matches_reference(const AttentionShape& s, const AttentionOptions& options,
                                     std::size_t past_length, std::size_t capacity,
                                     std::mt19937& rng, const std::int32_t* nonpad = nullptr,
                                     bool shared_rows = false) {
  const auto q =
      reference64::random_floats(rng, s.batch * s.q_num_heads * s.q_seq_len * s.head_size);
  const auto k = reference64::random_floats(rng, s.batch * s.kv_num_heads * capacity * s.head_size);
  const auto v =
      reference64::random_floats(rng, s.batch * s.kv_num_heads * capacity * s.v_head_size);
  std::vector<float> fast(s.batch * s.q_num_heads * s.q_seq_len * s.v_head_size, -1.0f);
  std::vector<float> slow(fast.size(), -2.0f);
  AttentionArgs a = contiguous_args(q.data(), k.data(), v.data(), {}, s, options, fast.data());
  a.k_strides = layout_strides(Layout::bhsd, s.kv_num_heads, capacity, s.head_size);
  a.v_strides = layout_strides(Layout::bhsd, s.kv_num_heads, capacity, s.v_head_size);
  // shared_rows: the same keys and values, each row its key then its value (KvCache's layout).
  std::vector<float> rows;
  if (shared_rows) {
    const std::size_t row = s.head_size + s.v_head_size;
    rows.resize(s.batch * s.kv_num_heads * capacity * row);
    const Strides to = layout_strides(Layout::bhsd, s.kv_num_heads, capacity, row);
    copy_rows(k.data(), a.k_strides, rows.data(), to, s.batch, s.kv_num_heads, capacity,
              s.head_size);
    copy_rows(v.data(), a.v_strides, rows.data() + s.head_size, to, s.batch, s.kv_num_heads,
              capacity, s.v_head_size);
    a.k = rows.data();
    a.v = rows.data() + s.head_size;
    a.k_strides = a.v_strides = to;
  }
  a.past_length = past_length;
  a.nonpad_kv_seqlen = nonpad;
  ASSERT_EQ(attention_error(a), nullptr);
  ASSERT_TRUE(kernels::decode_applies(a));
  ASSERT_TRUE(kernels::decode_attention(a));
  a.y = slow.data();
  ASSERT_TRUE(kernels::attention_reference(a));
  for (std::size_t i = 0; i < fast.size(); ++i)
    ASSERT_NEAR(fast[i], slow[i], 2e-5)
        << "index " << i << " heads " << s.q_num_heads << "/" << s.kv_num_heads
        << " S=" << s.q_seq_len << " T=" << s.kv_seq_len << " d=" << s.head_size
        << " dv=" << s.v_head_size << " past=" << past_length;
}
}  // namespace

TEST(Kernels, DecodeMatchesScalarReferenceOnOddSizesAndLongCaches) {
  std::mt19937 rng(5);
  for (std::size_t d : {1u, 3u, 4u, 64u, 65u, 127u, 128u}) {
    for (std::size_t kv_seq : {1u, 2u, 63u, 64u, 65u, 300u, 2100u}) {
      AttentionShape s{1, 2, 2, 1, kv_seq, d, (d * 5) % 131 + 1};
      AttentionOptions o;
      o.scale = 1.0f / std::sqrt(float(d));
      o.is_causal = kv_seq % 2 == 1;
      expect_decode_matches_reference(s, o, kv_seq - 1, kv_seq + 7, rng);
    }
  }
}

TEST(Kernels, DecodeGroupsOfQueryHeadsShareOneReadOfTheirKvHead) {
  std::mt19937 rng(6);
  // (q heads, kv heads, S): multi-head, grouped 4:1 (odd row left over with S = 3), 8:1
  // (16 rows, the most the path takes), multi-query with a short draft.
  const std::size_t configs[][3] = {{8, 8, 1}, {8, 2, 1}, {4, 1, 3}, {16, 2, 2}, {5, 1, 3}};
  for (const auto& c : configs) {
    AttentionShape s{2, c[0], c[1], c[2], 777, 65, 33};
    AttentionOptions o;
    o.scale = 0.125f;
    o.is_causal = true;
    expect_decode_matches_reference(s, o, 777 - c[2], 1000, rng);
  }
}

TEST(Kernels, DecodeOverCachesBeyondTheTouchSizesMatchesTheReference) {
  std::mt19937 rng(8);
  // Keys of 128 floats and values of 127, so each chunk is touched first; a window keeps some
  // chunks unread. 4 query rows per kv head over 4500 keys: 9.2 MB, past the size from which
  // groups touch; one row per kv head, 4 heads over 9000 keys: 36.7 MB, past the larger size
  // from which single rows do; one row per kv head where each row holds its key then its value
  // (the resident cache's layout, touched as one run), 4 heads over 2100 keys: 8.6 MB.
  const struct {
    AttentionShape shape;
    std::size_t touch_bytes;
    bool shared_rows;
  } cases[] = {{{1, 8, 2, 1, 4500, 128, 127}, kernels::decode_touch_min_bytes, false},
               {{1, 4, 4, 1, 9000, 128, 127}, kernels::decode_touch_single_row_min_bytes, false},
               {{1, 4, 4, 1, 2100, 128, 127}, kernels::decode_touch_min_bytes, true}};
  for (const auto& c : cases) {
    const AttentionShape& s = c.shape;
    ASSERT_GT(s.kv_num_heads * s.kv_seq_len * (s.head_size + s.v_head_size) * sizeof(float),
              c.touch_bytes);
    AttentionOptions o;
    o.scale = 1.0f / std::sqrt(128.0f);
    o.is_causal = true;
    const std::size_t past = s.kv_seq_len - 1, capacity = s.kv_seq_len + 100;
    expect_decode_matches_reference(s, o, past, capacity, rng, nullptr, c.shared_rows);
    o.left_window = 1000;
    expect_decode_matches_reference(s, o, past, capacity, rng, nullptr, c.shared_rows);
  }
}

TEST(Kernels, DecodeHonoursWindowsSoftcapAndNonpadLengths) {
  std::mt19937 rng(7);
  AttentionShape s{3, 6, 3, 2, 500, 24, 10};
  AttentionOptions o;
  o.scale = 0.3f;
  o.is_causal = true;
  o.softcap = 2.5f;
  o.left_window = 100;
  expect_decode_matches_reference(s, o, 498, 512, rng);
  o.softcap = 0.0f;
  o.left_window = -1;
  o.right_window = 0;
  o.is_causal = false;
  const std::int32_t nonpad[3] = {0, 1, 433};  // an empty sequence gives zeros, not NaN
  expect_decode_matches_reference(s, o, 0, 500, rng, nonpad);
}

// ALiBi in the tiled kernel (row blocks that cross heads, positions past the first block) and
// in the decode path (a past length: the query's position is not its row), the standard
// slopes and the caller's, against the scalar reference.
TEST(Kernels, AlibiInTheTiledAndDecodeKernels) {
  std::mt19937 rng(9);
  Case c;
  c.shape = {2, 6, 3, 130, 150, 16, 8};
  c.options.scale = 0.25f;
  c.options.alibi = true;
  expect_flash_matches_reference(c, rng);
  c.options.is_causal = true;
  c.options.softcap = 3.0f;
  expect_flash_matches_reference(c, rng);
  const float slopes[6] = {0.5f, -0.25f, 0.0f, 1.0f, 0.01f, 2.0f};
  c.options.alibi_slopes = slopes;
  expect_flash_matches_reference(c, rng);
  AttentionShape s{2, 6, 2, 2, 300, 24, 10};
  expect_decode_matches_reference(s, c.options, 298, 320, rng);
  c.options.alibi_slopes = nullptr;
  expect_decode_matches_reference(s, c.options, 100, 300, rng);
}

// The standard slopes, as the paper's code makes them: 2^-1 .. 2^-8 for 8 heads; for 6, the
// 4-head ones (2^-2 .. 2^-8), then every other one of the 8-head sequence (2^-1, 2^-3).
TEST(Kernels, StandardAlibiSlopesAreThePapers) {
  for (std::size_t h = 0; h < 8; ++h)
    EXPECT_EQ(kernels::standard_alibi_slope(h, 8), std::exp2(-float(h + 1)));
  const float six[6] = {0.25f, 0.0625f, 0.015625f, 0.00390625f, std::exp2(-1.0f), std::exp2(-3.0f)};
  for (std::size_t h = 0; h < 6; ++h) EXPECT_EQ(kernels::standard_alibi_slope(h, 6), six[h]) << h;
  EXPECT_EQ(kernels::standard_alibi_slope(0, 1), std::exp2(-8.0f));
}

TEST(Kernels, DecodeLeavesMasksAndLongQueriesToTheTiledKernel) {
  AttentionShape s{1, 8, 1, 2, 100, 16, 16};  // 16 rows per group: decode
  float x = 0;
  AttentionArgs a = contiguous_args(&x, &x, &x, {}, s, {}, &x);
  EXPECT_TRUE(kernels::decode_applies(a));
  a.shape.q_seq_len = 3;  // 24 rows
  EXPECT_FALSE(kernels::decode_applies(a));
  a.shape.q_seq_len = 1;
  std::uint8_t allowed = 1;
  a.mask.kind = MaskKind::boolean;
  a.mask.allowed = &allowed;
  EXPECT_FALSE(kernels::decode_applies(a));
}
