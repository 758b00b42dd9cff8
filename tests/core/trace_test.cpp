// The whole staged path: the article's example, its scaled and causal variants, random
// shapes (not multiples of the SIMD width) against the float64 reference, and several heads
// (MHA, GQA, MQA, with and without W_O) against the same reference head by head; then the
// gradients, against a float64 reference and central differences.
#include "trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xview.hpp>

#include "article.hpp"
#include "grad64.hpp"
#include "kernels/score_step.hpp"
#include "matchers.hpp"
#include "matrices64.hpp"
#include "reference64.hpp"
#include "stages.hpp"

using namespace attention;
using matrices64::random_matrix;
using matrices64::to32;
using matrices64::to64;

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
  AttentionOptions options;
  options.scale = 1.0f / std::sqrt(3.0f);
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
  EXPECT_TRUE(AllClose(t.weights, article::scaled_weights(), 1e-5));
  EXPECT_TRUE(AllClose(t.outputs, article::scaled_outputs(), 1e-5));
}

TEST(Trace, CausalScoresAndMaskHideLaterKeys) {
  AttentionOptions options;
  options.is_causal = true;
  const Trace t =
      trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
  const Mask expected{{0, 1, 1}, {0, 0, 1}, {0, 0, 0}};
  EXPECT_EQ(t.mask, expected);
  EXPECT_EQ(t.scores(0, 0), 2.0f);
  EXPECT_TRUE(std::isinf(t.scores(0, 1)) && t.scores(0, 1) < 0);
  EXPECT_TRUE(std::isinf(t.scores(1, 2)) && t.scores(1, 2) < 0);
  EXPECT_EQ(t.scores(2, 1), 12.0f);
  EXPECT_FLOAT_EQ(t.weights(0, 0), 1.0f);  // the first token can only see itself
}

TEST(Trace, CausalFirstOutputIsTheFirstValue) {
  AttentionOptions options;
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

TEST(Trace, RandomShapesMatchTheFloat64Reference) {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<std::size_t> dim(1, 67);
  for (int round = 0; round < 60; ++round) {
    const std::size_t n = dim(rng), d_in = dim(rng), d_k = dim(rng), d_v = dim(rng);
    const bool causal = round % 3 == 0;
    const float scale = 1.0f / std::sqrt(float(d_k));
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, d_k),
                 wk = random_matrix(rng, d_in, d_k), wv = random_matrix(rng, d_in, d_v);
    AttentionOptions options;
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
  AttentionOptions options;
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
  AttentionOptions options;
  options.is_causal = true;
  const MultiHeadTrace heads = multi_head_trace(article::inputs(), article::w_query(),
                                                article::w_key(), w_value, nullptr, {}, options);
  const Trace& t = heads.heads[0];
  const TraceDims dims{3, 4, 3, 5};
  const auto layout = trace_layout(dims);
  std::vector<std::uint8_t> packed(trace_bytes(dims), 0xAB);
  pack_trace(heads, dims, packed.data());
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

// --- several heads ------------------------------------------------------------------------

namespace {
// The float64 reference's columns [block * w, (block + 1) * w) of m, w = m.cols / blocks.
reference64::Mat block64(const reference64::Mat& m, std::size_t block, std::size_t blocks) {
  const std::size_t w = m.cols / blocks;
  reference64::Mat out{m.rows, w, {}};
  for (std::size_t r = 0; r < m.rows; ++r)
    for (std::size_t c = 0; c < w; ++c) out.data.push_back(m.at(r, block * w + c));
  return out;
}

void expect_same_numbers(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.queries, b.queries);
  EXPECT_EQ(a.keys, b.keys);
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.scores, b.scores);
  EXPECT_EQ(a.mask, b.mask);
  EXPECT_EQ(a.row_max, b.row_max);
  EXPECT_EQ(a.exponentials, b.exponentials);
  EXPECT_EQ(a.row_sums, b.row_sums);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.weighted, b.weighted);
  EXPECT_EQ(a.outputs, b.outputs);
}
}  // namespace

TEST(MultiHeadTrace, OneHeadWithoutWOutIsExactlyTheSingleHeadTrace) {
  for (const bool causal : {false, true}) {
    AttentionOptions options;
    options.is_causal = causal;
    const Trace single =
        trace(article::inputs(), article::w_query(), article::w_key(), article::w_value(), options);
    const MultiHeadTrace t =
        multi_head_trace(article::inputs(), article::w_query(), article::w_key(),
                         article::w_value(), nullptr, HeadCounts{}, options);
    ASSERT_EQ(t.heads.size(), 1u);
    expect_same_numbers(t.heads[0], single);
    EXPECT_EQ(t.concat, single.outputs);
    EXPECT_EQ(t.outputs, single.outputs);
  }
  // And it packs as the single-head trace: the same fields, none of them a head's.
  const auto layout = trace_layout(TraceDims{3, 4, 3, 3, 1, 1, 0});
  std::vector<std::string> names;
  for (const TraceField& field : layout) {
    names.push_back(field.name);
    EXPECT_EQ(field.head, whole_trace) << field.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"queries", "keys", "values", "scores", "rowMax",
                                             "exponentials", "rowSums", "weights", "weighted",
                                             "outputs", "mask"}));
}

TEST(MultiHeadTrace, EachHeadIsTheSingleHeadTraceOfItsColumnBlocks) {
  std::mt19937 rng(12);
  const std::size_t n = 5, d_in = 6, heads = 4, kv_heads = 2, d_k_head = 3, d_v_head = 2;
  const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, heads * d_k_head),
               wk = random_matrix(rng, d_in, kv_heads * d_k_head),
               wv = random_matrix(rng, d_in, kv_heads * d_v_head);
  AttentionOptions options;
  options.is_causal = true;
  options.scale = 0.5f;
  const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, nullptr, {heads, kv_heads}, options);
  ASSERT_EQ(t.heads.size(), heads);
  for (std::size_t h = 0; h < heads; ++h) {
    SCOPED_TRACE(testing::Message() << "head " << h);
    const std::size_t g = h / (heads / kv_heads);  // query heads 0, 1 read kv head 0; 2, 3 kv 1
    expect_same_numbers(t.heads[h],
                        trace(x, column_block(wq, h, heads), column_block(wk, g, kv_heads),
                              column_block(wv, g, kv_heads), options));
  }
  // Query heads of one group share their kv head's keys and values; the groups differ.
  EXPECT_EQ(t.heads[0].keys, t.heads[1].keys);
  EXPECT_EQ(t.heads[2].values, t.heads[3].values);
  EXPECT_NE(t.heads[1].keys, t.heads[2].keys);
  // Without wOut the outputs are the heads' outputs side by side.
  ASSERT_EQ(t.concat.shape(1), heads * d_v_head);
  EXPECT_EQ(t.outputs, t.concat);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < d_v_head; ++c)
        EXPECT_EQ(t.concat(i, h * d_v_head + c), t.heads[h].outputs(i, c));
}

TEST(MultiHeadTrace, RandomShapesMatchTheFloat64Reference) {
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<std::size_t> dim(1, 9), count(1, 4);
  for (int round = 0; round < 60; ++round) {
    const std::size_t heads = count(rng);
    std::vector<std::size_t> divisors;
    for (std::size_t k = 1; k <= heads; ++k)
      if (heads % k == 0) divisors.push_back(k);
    const std::size_t kv_heads = divisors[rng() % divisors.size()];
    const std::size_t n = dim(rng), d_in = dim(rng), d_k_head = dim(rng), d_v_head = dim(rng);
    const bool causal = round % 3 == 0, with_w_out = round % 2 == 0;
    const std::size_t d_out = dim(rng);
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, heads * d_k_head),
                 wk = random_matrix(rng, d_in, kv_heads * d_k_head),
                 wv = random_matrix(rng, d_in, kv_heads * d_v_head),
                 wo = random_matrix(rng, heads * d_v_head, d_out);
    const Matrix* w_out = with_w_out ? &wo : nullptr;
    AttentionOptions options;
    options.scale = 1.0f / std::sqrt(float(d_k_head));
    options.is_causal = causal;
    SCOPED_TRACE(testing::Message() << "n=" << n << " d_in=" << d_in << " heads=" << heads
                                    << " kv_heads=" << kv_heads << " d_k_head=" << d_k_head
                                    << " d_v_head=" << d_v_head << " w_out=" << with_w_out);
    ASSERT_EQ(multi_head_shape_error(x, wq, wk, wv, w_out, {heads, kv_heads}), nullptr);
    const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, w_out, {heads, kv_heads}, options);
    // The reference: each head on its own blocks, the outputs side by side, then W_O.
    reference64::Mat concat{n, heads * d_v_head, std::vector<double>(n * heads * d_v_head)};
    const double tolerance = 2e-5 * d_in * std::sqrt(double(d_k_head));
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t g = h / (heads / kv_heads);
      reference64::Mat weights;
      const auto head = reference64::self_attention(
          to64(x), block64(to64(wq), h, heads), block64(to64(wk), g, kv_heads),
          block64(to64(wv), g, kv_heads), options.scale, causal, &weights);
      for (std::size_t i = 0; i < n * n; ++i)
        ASSERT_NEAR(t.heads[h].weights.flat(i), weights.data[i], 1e-3) << "head " << h;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < d_v_head; ++c) {
          ASSERT_NEAR(t.heads[h].outputs(i, c), head.at(i, c), tolerance) << "head " << h;
          concat.data[i * concat.cols + h * d_v_head + c] = head.at(i, c);
        }
    }
    for (std::size_t i = 0; i < concat.data.size(); ++i)
      ASSERT_NEAR(t.concat.flat(i), concat.data[i], tolerance) << "concat " << i;
    const reference64::Mat expected = with_w_out ? reference64::matmul(concat, to64(wo)) : concat;
    ASSERT_EQ(t.outputs.size(), expected.data.size());
    for (std::size_t i = 0; i < expected.data.size(); ++i)
      ASSERT_NEAR(t.outputs.flat(i), expected.data[i], tolerance * heads * d_v_head)
          << "output " << i;
  }
}

TEST(MultiHeadTrace, ShapeErrorsNameTheArgument) {
  const Matrix x = xt::ones<float>({3, 4}), w4 = xt::ones<float>({4, 4}),
               w2 = xt::ones<float>({4, 2}), w3 = xt::ones<float>({4, 3});
  const auto error_for = [&](const Matrix& wq, const Matrix& wk, const Matrix& wv,
                             const Matrix* w_out, HeadCounts counts) {
    const char* error = multi_head_shape_error(x, wq, wk, wv, w_out, counts);
    return std::string(error ? error : "");
  };
  EXPECT_EQ(error_for(w4, w2, w2, nullptr, {2, 1}), "");
  EXPECT_NE(error_for(w4, w4, w4, nullptr, {0, 1}).find("heads"), std::string::npos);
  EXPECT_NE(error_for(w4, w4, w4, nullptr, {2, 0}).find("kvHeads"), std::string::npos);
  EXPECT_NE(error_for(w4, w4, w4, nullptr, {4, 3}).find("kvHeads must divide heads"),
            std::string::npos);
  EXPECT_NE(error_for(w3, w3, w3, nullptr, {2, 2}).find("wQuery"), std::string::npos);
  EXPECT_NE(error_for(w4, w4, w2, nullptr, {2, 1}).find("wKey"), std::string::npos);
  EXPECT_NE(error_for(w4, w2, w3, nullptr, {4, 2}).find("wValue"), std::string::npos);
  const Matrix wrong_rows = xt::ones<float>({3, 5}), right_rows = xt::ones<float>({4, 5});
  EXPECT_NE(error_for(w4, w2, w2, &wrong_rows, {2, 1}).find("wOut"), std::string::npos);
  EXPECT_EQ(error_for(w4, w2, w2, &right_rows, {2, 1}), "");
}

TEST(MultiHeadTrace, PackedLayoutTagsEachHeadsFieldsAndKeepsMasksLast) {
  std::mt19937 rng(7);
  const Matrix x = random_matrix(rng, 3, 4), wq = random_matrix(rng, 4, 6),
               wk = random_matrix(rng, 4, 2), wv = random_matrix(rng, 4, 3),
               wo = random_matrix(rng, 9, 5);
  AttentionOptions options;
  options.is_causal = true;
  const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, &wo, {3, 1}, options);
  const TraceDims dims{3, 4, 6, 3, 3, 1, 5};
  const auto layout = trace_layout(dims);
  std::vector<std::uint8_t> packed(trace_bytes(dims), 0xAB);
  pack_trace(t, dims, packed.data());
  ASSERT_EQ(layout.size(), 3 * 11 + 2u);  // each head's 11 fields, concat, outputs
  std::size_t expected_offset = 0;
  bool seen_mask = false;
  for (const TraceField& field : layout) {
    EXPECT_EQ(field.offset, expected_offset) << field.name;
    expected_offset += field.count * (field.element == Element::float32 ? 4 : 1);
    if (field.element == Element::uint8) seen_mask = true;
    EXPECT_FALSE(seen_mask && field.element == Element::float32) << field.name << " after a mask";
  }
  EXPECT_EQ(expected_offset, packed.size());
  const auto bytes_of = [&](const char* name, std::size_t head) {
    for (const TraceField& field : layout)
      if (std::string(field.name) == name && field.head == head) {
        const std::size_t size = field.count * (field.element == Element::float32 ? 4 : 1);
        return std::vector<std::uint8_t>(packed.begin() + field.offset,
                                         packed.begin() + field.offset + size);
      }
    ADD_FAILURE() << "no field " << name << " of head " << head;
    return std::vector<std::uint8_t>{};
  };
  const auto bytes = [](const auto& tensor) {
    const auto* first = reinterpret_cast<const std::uint8_t*>(tensor.data());
    return std::vector<std::uint8_t>(first, first + tensor.size() * sizeof(*tensor.data()));
  };
  for (std::size_t h = 0; h < 3; ++h) {
    EXPECT_EQ(bytes_of("queries", h), bytes(t.heads[h].queries)) << h;
    EXPECT_EQ(bytes_of("weighted", h), bytes(t.heads[h].weighted)) << h;
    EXPECT_EQ(bytes_of("mask", h), bytes(t.heads[h].mask)) << h;
  }
  EXPECT_EQ(bytes_of("concat", whole_trace), bytes(t.concat));
  EXPECT_EQ(bytes_of("outputs", whole_trace), bytes(t.outputs));
  EXPECT_EQ(t.outputs.shape(1), 5u);
}

TEST(MultiHeadTrace, DimsNoTraceCanHaveAreRefusedBeforeAnyLayout) {
  EXPECT_EQ(trace_dims_error(TraceDims{3, 4, 6, 3, 3, 1, 5}), nullptr);
  EXPECT_NE(trace_dims_error(TraceDims{3, 4, 6, 3, 0, 1, 0}), nullptr);
  EXPECT_NE(trace_dims_error(TraceDims{3, 4, 6, 3, 3, 2, 0}), nullptr);
  EXPECT_NE(trace_dims_error(TraceDims{3, 4, 6, 3, 4, 1, 0}), nullptr);
  EXPECT_NE(trace_dims_error(TraceDims{3, 4, 6, 3, 2, 2, 0}), nullptr);
  EXPECT_NE(trace_dims_error(TraceDims{0, 4, 6, 3, 1, 1, 0}), nullptr);
}

// --- gradients ----------------------------------------------------------------------------

namespace {

// A layer's outputs in float64: each head on its own column blocks (grad64::forward), side by
// side, times W_O when given (wo.rows == 0: none).
reference64::Mat layer64(const reference64::Mat& x, const reference64::Mat& wq,
                         const reference64::Mat& wk, const reference64::Mat& wv,
                         const reference64::Mat& wo, std::size_t heads, std::size_t kv_heads,
                         double scale, bool causal, const std::vector<double>& slopes = {}) {
  const std::size_t d_v_head = wv.cols / kv_heads;
  reference64::Mat concat = grad64::zeros(x.rows, heads * d_v_head);
  for (std::size_t h = 0; h < heads; ++h) {
    const std::size_t g = h / (heads / kv_heads);
    const grad64::Forward f =
        grad64::forward(x, block64(wq, h, heads), block64(wk, g, kv_heads),
                        block64(wv, g, kv_heads), scale, causal, slopes.empty() ? 0 : slopes[h]);
    for (std::size_t i = 0; i < x.rows; ++i)
      for (std::size_t c = 0; c < d_v_head; ++c)
        concat.data[i * concat.cols + h * d_v_head + c] = f.outputs.at(i, c);
  }
  return wo.rows ? reference64::matmul(concat, wo) : concat;
}

// Every cell within tolerance * (1 + the largest magnitude expected): names the first miss.
::testing::AssertionResult near(const Matrix& got, const reference64::Mat& want, double tolerance) {
  double scale = 1;
  for (double w : want.data) scale = std::max(scale, std::fabs(w));
  return AllClose(got, to32(want), tolerance * scale);
}

}  // namespace

TEST(TraceGrad, TheFloat64ReferenceAgreesWithCentralDifferences) {
  std::mt19937 rng(31);
  for (const bool causal : {false, true}) {
    auto x = to64(random_matrix(rng, 4, 3)), wq = to64(random_matrix(rng, 3, 2)),
         wk = to64(random_matrix(rng, 3, 2)), wv = to64(random_matrix(rng, 3, 5));
    const auto g = to64(random_matrix(rng, 4, 5));
    const grad64::Backward b = grad64::backward(x, wq, wk, wv, 0.8, causal, g);
    const auto loss = [&] {
      return grad64::dot(grad64::forward(x, wq, wk, wv, 0.8, causal).outputs.data, g.data);
    };
    for (auto [m, want] : {std::pair{&x, &b.x}, {&wq, &b.wq}, {&wk, &b.wk}, {&wv, &b.wv}}) {
      const reference64::Mat numeric = grad64::central_differences(*m, loss);
      for (std::size_t i = 0; i < numeric.data.size(); ++i)
        ASSERT_NEAR(want->data[i], numeric.data[i], 1e-7) << "causal " << causal << " cell " << i;
    }
  }
}

TEST(TraceGrad, OneHeadMatchesTheFloat64ReferenceOnRandomShapes) {
  std::mt19937 rng(20261201);
  std::uniform_int_distribution<std::size_t> dim(1, 19);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = dim(rng), d_in = dim(rng), d_k = dim(rng), d_v = dim(rng);
    const bool causal = round % 2 == 0;
    const float scale = 1.0f / std::sqrt(float(d_k));
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, d_k),
                 wk = random_matrix(rng, d_in, d_k), wv = random_matrix(rng, d_in, d_v),
                 d_outputs = random_matrix(rng, n, d_v);
    SCOPED_TRACE(testing::Message() << "n=" << n << " d_in=" << d_in << " d_k=" << d_k
                                    << " d_v=" << d_v << " causal=" << causal);
    AttentionOptions options;
    options.scale = scale;
    options.is_causal = causal;
    const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, nullptr, {}, options);
    const LayerGrad g =
        multi_head_trace_backward(t, x, wq, wk, wv, nullptr, {}, options, d_outputs);
    const grad64::Backward b =
        grad64::backward(to64(x), to64(wq), to64(wk), to64(wv), scale, causal, to64(d_outputs));
    const TraceGrad& head = g.heads[0];
    EXPECT_EQ(head.outputs, d_outputs);
    EXPECT_TRUE(near(head.weights, b.weights, 1e-5));
    EXPECT_TRUE(near(head.scores, b.scores, 1e-5));
    EXPECT_TRUE(near(head.queries, b.q, 1e-5));
    EXPECT_TRUE(near(head.keys, b.k, 1e-5));
    EXPECT_TRUE(near(head.values, b.v, 1e-5));
    EXPECT_TRUE(near(g.w_query, b.wq, 1e-5));
    EXPECT_TRUE(near(g.w_key, b.wk, 1e-5));
    EXPECT_TRUE(near(g.w_value, b.wv, 1e-5));
    EXPECT_TRUE(near(g.inputs, b.x, 1e-5));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; causal && j < n; ++j) ASSERT_EQ(head.scores(i, j), 0.0f);
  }
}

TEST(TraceGrad, SeveralHeadsWithGqaAndWOutMatchCentralDifferencesOfTheFloat64Layer) {
  std::mt19937 rng(77);
  struct Case {
    std::size_t heads, kv_heads;
    bool w_out, causal;
  };
  for (const Case c : {Case{4, 2, true, true}, Case{3, 1, false, false}, Case{2, 2, true, false},
                       Case{1, 1, true, true}}) {
    const std::size_t n = 4, d_in = 3, d_k_head = 2, d_v_head = 2, d_out = 3;
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, c.heads * d_k_head),
                 wk = random_matrix(rng, d_in, c.kv_heads * d_k_head),
                 wv = random_matrix(rng, d_in, c.kv_heads * d_v_head),
                 wo = random_matrix(rng, c.heads * d_v_head, d_out);
    const Matrix* w_out = c.w_out ? &wo : nullptr;
    const Matrix d_outputs = random_matrix(rng, n, c.w_out ? d_out : c.heads * d_v_head);
    AttentionOptions options;
    options.scale = 0.6f;
    options.is_causal = c.causal;
    SCOPED_TRACE(testing::Message() << "heads=" << c.heads << " kv_heads=" << c.kv_heads
                                    << " w_out=" << c.w_out << " causal=" << c.causal);
    const HeadCounts counts{c.heads, c.kv_heads};
    const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, w_out, counts, options);
    const LayerGrad g =
        multi_head_trace_backward(t, x, wq, wk, wv, w_out, counts, options, d_outputs);
    auto x64 = to64(x), wq64 = to64(wq), wk64 = to64(wk), wv64 = to64(wv);
    auto wo64 = c.w_out ? to64(wo) : reference64::Mat{};
    const auto loss = [&] {
      return grad64::dot(
          layer64(x64, wq64, wk64, wv64, wo64, c.heads, c.kv_heads, 0.6, c.causal).data,
          to64(d_outputs).data);
    };
    EXPECT_TRUE(near(g.inputs, grad64::central_differences(x64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_query, grad64::central_differences(wq64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_key, grad64::central_differences(wk64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_value, grad64::central_differences(wv64, loss), 1e-5));
    if (c.w_out) EXPECT_TRUE(near(g.w_out, grad64::central_differences(wo64, loss), 1e-5));
    // A group's query heads show their kv head's one gradient, the sum of their parts.
    const std::size_t group = c.heads / c.kv_heads;
    for (std::size_t h = 0; h < c.heads; ++h) {
      EXPECT_EQ(g.heads[h].keys, g.heads[h - h % group].keys) << h;
      EXPECT_EQ(g.heads[h].values, g.heads[h - h % group].values) << h;
    }
  }
}

TEST(TraceGrad, ALearningStepMovesTheArticlesFirstOutputTowardATarget) {
  // loss = 1/2 |output_1 - target|^2, so the gradient of the outputs is output_1 - target in
  // row 1 and 0 elsewhere; a step W <- W - eta * dW of every weight lowers the loss.
  const Matrix target{{2, 7, 2}};
  const float eta = 0.01f;
  Matrix wq = article::w_query(), wk = article::w_key(), wv = article::w_value();
  const auto output_1 = [&] {
    const MultiHeadTrace t = multi_head_trace(article::inputs(), wq, wk, wv, nullptr, {}, {});
    return Matrix(xt::view(t.outputs, xt::range(0, 1), xt::all()));
  };
  const auto distance = [&](const Matrix& output) {
    return double(xt::norm_l2(output - target)());
  };
  const Matrix before = output_1();
  Matrix d_outputs = xt::zeros<float>({3, 3});
  xt::view(d_outputs, 0, xt::all()) = xt::view(before - target, 0, xt::all());
  const MultiHeadTrace t = multi_head_trace(article::inputs(), wq, wk, wv, nullptr, {}, {});
  const LayerGrad g =
      multi_head_trace_backward(t, article::inputs(), wq, wk, wv, nullptr, {}, {}, d_outputs);
  // The gradient of the loss with respect to output 1 is the distance to the target itself.
  EXPECT_TRUE(AllClose(g.heads[0].outputs, d_outputs, 0));
  EXPECT_TRUE(AllClose(before, Matrix{{1.936621f, 6.683105f, 1.595068f}}, 1e-5));
  wq -= eta * g.w_query;
  wk -= eta * g.w_key;
  wv -= eta * g.w_value;
  const Matrix after = output_1();
  const double loss_before = 0.5 * std::pow(distance(before), 2);
  const double loss_after = 0.5 * std::pow(distance(after), 2);
  std::printf(
      "article, target [2, 7, 2], eta %.2f: output 1 [%.6f, %.6f, %.6f] -> [%.6f, %.6f, %.6f], "
      "distance %.6f -> %.6f, loss %.6f -> %.6f\n",
      eta, before(0, 0), before(0, 1), before(0, 2), after(0, 0), after(0, 1), after(0, 2),
      distance(before), distance(after), loss_before, loss_after);
  EXPECT_LT(distance(after), distance(before));
  // To first order a step of eta lowers the loss by eta * |dW|^2 (summed over the weights).
  const double predicted =
      eta * double(xt::sum(g.w_query * g.w_query)() + xt::sum(g.w_key * g.w_key)() +
                   xt::sum(g.w_value * g.w_value)());
  EXPECT_NEAR(loss_before - loss_after, predicted, 0.1 * predicted);
}

TEST(TraceGrad, PackedWithoutGradientsExactlyAsBeforeAndWithThemBeforeTheMasks) {
  for (const TraceDims plain : {TraceDims{3, 4, 3, 5}, TraceDims{3, 4, 6, 3, 3, 1, 5}}) {
    TraceDims with = plain;
    with.with_grad = true;
    const auto without_grad = trace_layout(plain), layout = trace_layout(with);
    for (const TraceField& field : without_grad) EXPECT_FALSE(field.grad) << field.name;
    // The values and masks keep their order, shapes and heads; the gradients go in between.
    std::vector<std::string> values_kept;
    for (const TraceField& field : layout)
      if (!field.grad) values_kept.push_back(field.name);
    ASSERT_EQ(values_kept.size(), without_grad.size());
    for (std::size_t i = 0; i < without_grad.size(); ++i)
      EXPECT_EQ(values_kept[i], without_grad[i].name);
    EXPECT_EQ(std::string(layout.back().name), "mask");
    EXPECT_GT(trace_bytes(with), trace_bytes(plain));
  }
  std::vector<std::string> single;
  for (const TraceField& field : trace_layout(TraceDims{3, 4, 3, 3, 1, 1, 0, true}))
    if (field.grad) {
      single.push_back(field.name);
      EXPECT_EQ(field.head, whole_trace);
    }
  EXPECT_EQ(single, (std::vector<std::string>{"outputs", "weighted", "weights", "scores", "queries",
                                              "keys", "values", "wQuery", "wKey", "wValue", "x"}));
  // pack_trace writes each gradient where its field says.
  std::mt19937 rng(5);
  const Matrix x = random_matrix(rng, 3, 4), wq = random_matrix(rng, 4, 6),
               wk = random_matrix(rng, 4, 2), wv = random_matrix(rng, 4, 3),
               wo = random_matrix(rng, 9, 5), d_outputs = random_matrix(rng, 3, 5);
  const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, &wo, {3, 1}, {});
  const LayerGrad g = multi_head_trace_backward(t, x, wq, wk, wv, &wo, {3, 1}, {}, d_outputs);
  const TraceDims dims{3, 4, 6, 3, 3, 1, 5, true};
  std::vector<std::uint8_t> packed(trace_bytes(dims), 0xAB);
  pack_trace(t, dims, packed.data(), &g);
  const auto floats = [&](const char* name, std::size_t head) {
    for (const TraceField& field : trace_layout(dims))
      if (field.grad && std::string(field.name) == name && field.head == head) {
        std::vector<float> values(field.count);
        std::memcpy(values.data(), packed.data() + field.offset, field.count * 4);
        return values;
      }
    ADD_FAILURE() << "no gradient " << name;
    return std::vector<float>{};
  };
  const auto flat = [](const auto& m) { return std::vector<float>(m.begin(), m.end()); };
  EXPECT_EQ(floats("wOut", whole_trace), flat(g.w_out));
  EXPECT_EQ(floats("x", whole_trace), flat(g.inputs));
  EXPECT_EQ(floats("wKey", whole_trace), flat(g.w_key));
  EXPECT_EQ(floats("weighted", 2), flat(g.heads[2].weighted));
  EXPECT_EQ(floats("scores", 1), flat(g.heads[1].scores));
}

// ALiBi in the trace: head h's scores are scale * q.k + slope_h * (j - i), the rest follows.
// The standard slopes and given ones, against the float64 reference head by head (scores,
// weights, outputs), and the gradients against central differences of the float64 layer.
TEST(TraceAlibi, EveryHeadsScoresWeightsAndOutputsMatchTheFloat64Reference) {
  std::mt19937 rng(20261205);
  for (int round = 0; round < 12; ++round) {
    const std::size_t heads = 1 + round % 5, kv_heads = heads % 2 == 0 ? 2 : 1;
    const std::size_t n = 2 + round % 6, d_in = 3, d_k_head = 2 + round % 3, d_v_head = 3;
    const bool causal = round % 2 == 1, given = round % 3 == 0;
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, heads * d_k_head),
                 wk = random_matrix(rng, d_in, kv_heads * d_k_head),
                 wv = random_matrix(rng, d_in, kv_heads * d_v_head);
    std::vector<float> slopes(heads);
    for (std::size_t h = 0; h < heads; ++h) slopes[h] = given ? 0.3f * float(h) - 0.4f : 0.0f;
    AttentionOptions options;
    options.scale = 0.7f;
    options.is_causal = causal;
    options.alibi = true;
    options.alibi_slopes = given ? slopes.data() : nullptr;
    SCOPED_TRACE(testing::Message() << "n=" << n << " heads=" << heads << " causal=" << causal
                                    << " given slopes=" << given);
    const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, nullptr, {heads, kv_heads}, options);
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t g = h / (heads / kv_heads);
      // The standard slope, from the paper's formula in float64 (heads a power of two:
      // 2^(-8(h+1)/n)).
      const double slope = given ? slopes[h] : kernels::alibi_slope(options, h, heads);
      if (!given && (heads & (heads - 1)) == 0)
        EXPECT_DOUBLE_EQ(slope, std::exp2(-8.0 * double(h + 1) / double(heads))) << "head " << h;
      const grad64::Forward f =
          grad64::forward(to64(x), block64(to64(wq), h, heads), block64(to64(wk), g, kv_heads),
                          block64(to64(wv), g, kv_heads), 0.7, causal, slope);
      for (std::size_t i = 0; i < n * n; ++i) {
        if (std::isinf(f.scores.data[i])) {
          EXPECT_TRUE(std::isinf(t.heads[h].scores.flat(i)) && t.heads[h].scores.flat(i) < 0);
          continue;
        }
        ASSERT_NEAR(t.heads[h].scores.flat(i), f.scores.data[i], 1e-5) << "head " << h;
        ASSERT_NEAR(t.heads[h].weights.flat(i), f.weights.data[i], 1e-5) << "head " << h;
      }
      EXPECT_TRUE(near(t.heads[h].outputs, f.outputs, 1e-5)) << "head " << h;
    }
  }
}

TEST(TraceAlibi, TheGradientsMatchCentralDifferencesOfTheFloat64Layer) {
  std::mt19937 rng(2026);
  for (const bool causal : {false, true}) {
    const std::size_t heads = 4, kv_heads = 2, n = 5, d_in = 3, d_k_head = 2, d_v_head = 2;
    const Matrix x = random_matrix(rng, n, d_in), wq = random_matrix(rng, d_in, heads * d_k_head),
                 wk = random_matrix(rng, d_in, kv_heads * d_k_head),
                 wv = random_matrix(rng, d_in, kv_heads * d_v_head);
    const Matrix d_outputs = random_matrix(rng, n, heads * d_v_head);
    AttentionOptions options;
    options.scale = 0.6f;
    options.is_causal = causal;
    options.alibi = true;
    std::vector<double> slopes;
    for (std::size_t h = 0; h < heads; ++h)
      slopes.push_back(kernels::alibi_slope(options, h, heads));
    const HeadCounts counts{heads, kv_heads};
    const MultiHeadTrace t = multi_head_trace(x, wq, wk, wv, nullptr, counts, options);
    const LayerGrad g =
        multi_head_trace_backward(t, x, wq, wk, wv, nullptr, counts, options, d_outputs);
    auto x64 = to64(x), wq64 = to64(wq), wk64 = to64(wk), wv64 = to64(wv);
    const auto loss = [&] {
      return grad64::dot(
          layer64(x64, wq64, wk64, wv64, {}, heads, kv_heads, 0.6, causal, slopes).data,
          to64(d_outputs).data);
    };
    SCOPED_TRACE(causal ? "causal" : "not causal");
    EXPECT_TRUE(near(g.inputs, grad64::central_differences(x64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_query, grad64::central_differences(wq64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_key, grad64::central_differences(wk64, loss), 1e-5));
    EXPECT_TRUE(near(g.w_value, grad64::central_differences(wv64, loss), 1e-5));
  }
}
