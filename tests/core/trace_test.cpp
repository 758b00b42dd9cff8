// The whole staged path: the article's example, its scaled and causal variants, and random
// shapes (not multiples of the SIMD width) against the float64 reference.
#include "trace.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include <xtensor/xmath.hpp>

#include "article.hpp"
#include "matchers.hpp"
#include "reference64.hpp"

using namespace attention;

TEST(Trace, ReproducesEveryNumberOfTheArticle) {
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value());
  EXPECT_TRUE(AllClose(t.keys, article::keys(), 1e-6));
  EXPECT_TRUE(AllClose(t.values, article::values(), 1e-6));
  EXPECT_TRUE(AllClose(t.queries, article::queries(), 1e-6));
  EXPECT_TRUE(AllClose(t.scores, article::scores(), 1e-6));
  EXPECT_TRUE(AllClose(t.weights, article::weights(), 1e-5));
  EXPECT_TRUE(AllClose(t.outputs, article::outputs(), 1e-5));
  ASSERT_EQ(t.weighted.shape(0), 3u);
  ASSERT_EQ(t.weighted.shape(1), 3u);
  ASSERT_EQ(t.weighted.shape(2), 3u);
}

TEST(Trace, ScaledByOneOverSqrtDk) {
  TraceOptions options;
  options.scale = 1.0f / std::sqrt(3.0f);
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
  EXPECT_TRUE(AllClose(t.weights, article::scaled_weights(), 1e-5));
  EXPECT_TRUE(AllClose(t.outputs, article::scaled_outputs(), 1e-5));
}

TEST(Trace, CausalFirstOutputIsTheFirstValue) {
  TraceOptions options;
  options.is_causal = true;
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
  EXPECT_FLOAT_EQ(t.outputs(0, 0), 1.0f);
  EXPECT_FLOAT_EQ(t.outputs(0, 1), 2.0f);
  EXPECT_FLOAT_EQ(t.outputs(0, 2), 3.0f);
  EXPECT_EQ(t.weights(1, 2), 0.0f);
  // Token 2 sees keys 1 and 2 only: scores 4 and 16.
  EXPECT_NEAR(t.weights(1, 1), 1.0 / (1.0 + std::exp(-12.0)), 1e-6);
}

TEST(Trace, ValueDimensionMayDifferFromKeyDimension) {
  const Matrix w_value{{1, 0, 0, 0, 1}, {0, 1, 0, 0, 1}, {0, 0, 1, 0, 1}, {0, 0, 0, 1, 1}};
  const Trace t = trace(article::inputs(), article::w_query(), article::w_key(), w_value);
  ASSERT_EQ(t.outputs.shape(1), 5u);
  ASSERT_EQ(t.weighted.shape(2), 5u);
  // Values are the inputs themselves plus their sum; outputs mix them with the same weights.
  EXPECT_NEAR(t.outputs(0, 4), 0.063379 * 2 + 0.468311 * 4 + 0.468311 * 4, 1e-5);
}

TEST(Trace, ShapeErrorsNameTheArgument) {
  EXPECT_EQ(trace_shape_error(article::inputs(), article::w_query(), article::w_key(),
                              article::w_value()),
            nullptr);
  const Matrix three_rows{{1, 0, 1}, {1, 0, 0}, {0, 0, 1}};
  EXPECT_NE(trace_shape_error(article::inputs(), three_rows, article::w_key(), article::w_value()),
            nullptr);
  const Matrix four_cols{{1, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}, {0, 1, 1, 0}};
  const char* error =
      trace_shape_error(article::inputs(), article::w_query(), four_cols, article::w_value());
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("wKey"), std::string::npos);
}

namespace {
Matrix random_matrix(std::mt19937& rng, std::size_t rows, std::size_t cols) {
  Matrix m({rows, cols});
  const auto values = reference64::random_floats(rng, rows * cols);
  std::copy(values.begin(), values.end(), m.begin());
  return m;
}
reference64::Mat to64(const Matrix& m) {
  return {m.shape(0), m.shape(1), std::vector<double>(m.begin(), m.end())};
}
}  // namespace

TEST(Trace, RandomShapesMatchTheFloat64Reference) {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<std::size_t> dim(1, 67);
  for (int round = 0; round < 60; ++round) {
    const std::size_t n = dim(rng), d_in = dim(rng), d_k = dim(rng), d_v = dim(rng);
    const bool causal = round % 3 == 0;
    const float scale = 1.0f / std::sqrt(float(d_k));
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, d_k),
                 wk = random_matrix(rng, d_in, d_k), wv = random_matrix(rng, d_in, d_v);
    TraceOptions options;
    options.scale = scale;
    options.is_causal = causal;
    const Trace t = trace(x, wq, wk, wv, options);
    reference64::Mat weights;
    const auto expected =
        reference64::self_attention(to64(x), to64(wq), to64(wk), to64(wv), scale, causal, &weights);
    SCOPED_TRACE(testing::Message() << "n=" << n << " d_in=" << d_in << " d_k=" << d_k
                                    << " d_v=" << d_v << " causal=" << causal);
    // Tolerance relative to the size of the numbers: sums of d_in products of N(0,1) values.
    const double tolerance = 2e-5 * d_in * std::sqrt(double(d_k));
    for (std::size_t i = 0; i < n * d_v; ++i)
      ASSERT_NEAR(t.outputs.flat(i), expected.data[i], tolerance) << "output " << i;
    for (std::size_t i = 0; i < n * n; ++i)
      ASSERT_NEAR(t.weights.flat(i), weights.data[i], 1e-3) << "weight " << i;
  }
}

TEST(Trace, KeepsTheSoftmaxIntermediatesAndTheMask) {
  TraceOptions options;
  options.is_causal = true;
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
  // Query 2 sees keys 1 and 2 (scores 4 and 16): max 16, e^(4-16) and e^0, their sum.
  EXPECT_EQ(t.mask(1, 0), 0);
  EXPECT_EQ(t.mask(1, 2), 1);
  EXPECT_FLOAT_EQ(t.row_max(1), 16.0f);
  EXPECT_NEAR(t.exponentials(1, 0), std::exp(-12.0), 1e-9);
  EXPECT_FLOAT_EQ(t.exponentials(1, 1), 1.0f);
  EXPECT_EQ(t.exponentials(1, 2), 0.0f);
  EXPECT_NEAR(t.row_sums(1), 1.0 + std::exp(-12.0), 1e-6);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      EXPECT_FLOAT_EQ(t.weights(i, j), t.exponentials(i, j) / t.row_sums(i)) << i << "," << j;
}

TEST(Trace, WithoutTheMaskNothingIsHidden) {
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value());
  EXPECT_EQ(xt::sum(t.mask)(), 0u);
  // The article's query 1: scores [2, 4, 4], max 4, exponentials [e^-2, 1, 1].
  EXPECT_FLOAT_EQ(t.row_max(0), 4.0f);
  EXPECT_NEAR(t.exponentials(0, 0), std::exp(-2.0), 1e-7);
  EXPECT_NEAR(t.row_sums(0), 2.0 + std::exp(-2.0), 1e-6);
}

TEST(Trace, PackedLayoutMatchesWhatPackTraceWrites) {
  const Matrix w_value{{1, 0, 0, 0, 1}, {0, 1, 0, 0, 1}, {0, 0, 1, 0, 1}, {0, 0, 0, 1, 1}};
  TraceOptions options;
  options.is_causal = true;
  const Trace t = trace(article::inputs(), article::w_query(), article::w_key(), w_value, options);
  const TraceDims dims{3, 4, 3, 5};
  const auto layout = trace_layout(dims);
  std::vector<std::uint8_t> packed(trace_bytes(dims), 0xAB);
  pack_trace(t, packed.data());
  // Every byte is written once: fields follow each other without gaps or overlaps.
  std::size_t expected_offset = 0;
  for (const TraceField& field : layout) {
    EXPECT_EQ(field.offset, expected_offset) << field.name;
    expected_offset += field.count * (field.element == Element::float32 ? 4 : 1);
    if (field.element == Element::float32) EXPECT_EQ(field.offset % 4, 0u) << field.name;
  }
  EXPECT_EQ(expected_offset, packed.size());
  const auto floats_of = [&](const char* name) {
    for (const TraceField& field : layout) {
      if (std::string(field.name) != name) continue;
      std::vector<float> values(field.count);
      std::memcpy(values.data(), packed.data() + field.offset, field.count * 4);
      return values;
    }
    ADD_FAILURE() << "no field " << name;
    return std::vector<float>{};
  };
  EXPECT_EQ(floats_of("outputs"), std::vector<float>(t.outputs.begin(), t.outputs.end()));
  EXPECT_EQ(floats_of("weighted"), std::vector<float>(t.weighted.begin(), t.weighted.end()));
  EXPECT_EQ(floats_of("rowSums"), std::vector<float>(t.row_sums.begin(), t.row_sums.end()));
  const TraceField& mask = layout.back();
  ASSERT_EQ(std::string(mask.name), "mask");
  EXPECT_EQ(std::vector<std::uint8_t>(packed.begin() + mask.offset, packed.end()),
            std::vector<std::uint8_t>(t.mask.begin(), t.mask.end()));
}
