// Each stage of the article, on the article's own numbers.
#include "stages.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "article.hpp"
#include "matchers.hpp"

using namespace attention;

TEST(Stages, ProjectionsGiveTheArticlesKeysValuesAndQueries) {
  EXPECT_TRUE(AllClose(project(article::inputs(), article::w_key()), article::keys(), 1e-6));
  EXPECT_TRUE(AllClose(project(article::inputs(), article::w_value()), article::values(), 1e-6));
  EXPECT_TRUE(AllClose(project(article::inputs(), article::w_query()), article::queries(), 1e-6));
}

TEST(Stages, ScoresAreQueriesDottedWithEveryKey) {
  const Matrix scores = attention_scores(article::queries(), article::keys(), 1.0f);
  EXPECT_TRUE(AllClose(scores, article::scores(), 1e-6));
  // Input 1's query against every key, as the article's step 4 prints it.
  EXPECT_FLOAT_EQ(scores(0, 0), 2.0f);
  EXPECT_FLOAT_EQ(scores(0, 1), 4.0f);
  EXPECT_FLOAT_EQ(scores(0, 2), 4.0f);
}

TEST(Stages, ScaleMultipliesEveryScore) {
  const Matrix scores = attention_scores(article::queries(), article::keys(), 0.5f);
  EXPECT_FLOAT_EQ(scores(1, 1), 8.0f);
}

TEST(Stages, SoftmaxGivesTheExactWeightsAndRowsSumToOne) {
  const Matrix weights = softmax_rows(article::scores());
  EXPECT_TRUE(AllClose(weights, article::weights(), 1e-5));
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_NEAR(weights(i, 0) + weights(i, 1) + weights(i, 2), 1.0, 1e-6);
}

TEST(Stages, SoftmaxIsStableForHugeScores) {
  const Matrix weights = softmax_rows(Matrix{{1000.0f, 1000.0f, -1000.0f}});
  EXPECT_NEAR(weights(0, 0), 0.5, 1e-6);
  EXPECT_NEAR(weights(0, 1), 0.5, 1e-6);
  EXPECT_EQ(weights(0, 2), 0.0f);
}

TEST(Stages, FullyMaskedSoftmaxRowIsZerosNotNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const Matrix weights = softmax_rows(Matrix{{-inf, -inf}, {0.0f, -inf}});
  EXPECT_EQ(weights(0, 0), 0.0f);
  EXPECT_EQ(weights(0, 1), 0.0f);
  EXPECT_EQ(weights(1, 0), 1.0f);
  EXPECT_EQ(weights(1, 1), 0.0f);
}

TEST(Stages, CausalMaskHidesLaterKeys) {
  Matrix scores = article::scores();
  apply_causal_mask(scores);
  EXPECT_EQ(scores(0, 0), 2.0f);
  EXPECT_TRUE(std::isinf(scores(0, 1)) && scores(0, 1) < 0);
  EXPECT_TRUE(std::isinf(scores(1, 2)) && scores(1, 2) < 0);
  EXPECT_EQ(scores(2, 1), 12.0f);
  const Matrix weights = softmax_rows(scores);
  EXPECT_FLOAT_EQ(weights(0, 0), 1.0f);  // the first token can only see itself
}

TEST(Stages, WeightedValuesScaleEachValueRow) {
  const Tensor3 weighted = weight_values(article::weights(), article::values());
  ASSERT_EQ(weighted.shape(0), 3u);
  ASSERT_EQ(weighted.shape(2), 3u);
  // weighted[0][1] = 0.468311 * [2, 8, 0]
  EXPECT_NEAR(weighted(0, 1, 0), 0.936622, 1e-5);
  EXPECT_NEAR(weighted(0, 1, 1), 3.746488, 1e-5);
  EXPECT_EQ(weighted(0, 1, 2), 0.0f);
}

TEST(Stages, ArticlesRoundedSoftmaxGivesExactlyItsOutput) {
  // The article prints softmax [0.0, 0.5, 0.5] and output [2.0, 7.0, 1.5].
  const Matrix rounded{{0.0f, 0.5f, 0.5f}};
  const Matrix values = article::values();
  const Tensor3 weighted = weight_values(rounded, values);
  EXPECT_EQ(weighted(0, 0, 0), 0.0f);
  EXPECT_EQ(weighted(0, 1, 1), 4.0f);
  EXPECT_EQ(weighted(0, 2, 2), 1.5f);
  const Matrix output = sum_weighted_values(weighted);
  EXPECT_EQ(output(0, 0), 2.0f);
  EXPECT_EQ(output(0, 1), 7.0f);
  EXPECT_EQ(output(0, 2), 1.5f);
}

TEST(Stages, OutputsAreTheSumOfWeightedValues) {
  const Matrix outputs = sum_weighted_values(weight_values(article::weights(), article::values()));
  EXPECT_TRUE(AllClose(outputs, article::outputs(), 2e-5));
}

TEST(Stages, SoftmaxPropagatesNaNAndInfinityInsteadOfHidingThem) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Matrix weights = softmax_rows(Matrix{{1.0f, nan, 2.0f}, {inf, 0.0f, 1.0f}});
  for (std::size_t j = 0; j < 3; ++j) EXPECT_TRUE(std::isnan(weights(0, j))) << j;
  EXPECT_TRUE(std::isnan(weights(1, 0)));  // e^(inf - inf), as IEEE arithmetic has it
}

TEST(Stages, SoftmaxStagesShowTheirWork) {
  // Query 1 of the article: scores [2, 4, 4].
  const Matrix scores{{2, 4, 4}};
  const Vector maxima = row_maxima(scores);
  EXPECT_EQ(maxima(0), 4.0f);
  const Matrix exponentials = shifted_exponentials(scores, maxima);
  EXPECT_NEAR(exponentials(0, 0), std::exp(-2.0), 1e-7);
  EXPECT_EQ(exponentials(0, 1), 1.0f);
  const Vector sums = row_sums(exponentials);
  EXPECT_NEAR(sums(0), 2.0 + std::exp(-2.0), 1e-6);
  const Matrix weights = normalise_rows(exponentials, sums);
  EXPECT_TRUE(AllClose(weights, Matrix{{0.063379, 0.468311, 0.468311}}, 1e-5));
}

TEST(Stages, CausalMaskMarksEveryLaterKey) {
  const Mask mask = causal_mask(3);
  const Mask expected{{0, 1, 1}, {0, 0, 1}, {0, 0, 0}};
  EXPECT_EQ(mask, expected);
}

TEST(Stages, ColumnBlocksSplitAMatrixAndConcatenationJoinsItBack) {
  const Matrix w{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  const Matrix second_of_three{{3, 4}, {9, 10}};
  EXPECT_EQ(column_block(w, 1, 3), second_of_three);
  EXPECT_EQ(column_block(w, 0, 1), w);
  std::vector<Matrix> blocks;
  for (std::size_t b = 0; b < 3; ++b) blocks.push_back(column_block(w, b, 3));
  EXPECT_EQ(concatenate_columns(blocks), w);
  // Blocks of different widths, as long as the rows agree.
  const Matrix joined = concatenate_columns({Matrix{{1}, {2}}, Matrix{{3, 4, 5}, {6, 7, 8}}});
  EXPECT_EQ(joined, (Matrix{{1, 3, 4, 5}, {2, 6, 7, 8}}));
}
