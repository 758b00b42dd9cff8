// Each stage of the article, on the article's own numbers; then each stage backwards.
#include "stages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

#include "article.hpp"
#include "grad64.hpp"
#include "matchers.hpp"
#include "matrices64.hpp"

using namespace attention;
using matrices64::random_matrix;
using matrices64::to32;
using matrices64::to64;

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

// --- each stage backwards ----------------------------------------------------------------
// Each `_backward` twin against two yardsticks: the float64 reference's gradients (grad64.hpp)
// for the same intermediates, and central differences of the float stage itself (of the loss
// sum(g (.) stage(input)), whose gradient is what the twin returns for d_result = g).

namespace {

// n x n, 1 where key j comes after query i (a causal trace's mask).
Mask later_keys(std::size_t n) {
  Mask mask = xt::zeros<std::uint8_t>({n, n});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) mask(i, j) = 1;
  return mask;
}

// sum over cells of g (.) result, in double.
template <class G, class R>
double loss_of(const G& g, const R& result) {
  double sum = 0;
  for (std::size_t i = 0; i < result.size(); ++i) sum += double(g.flat(i)) * result.flat(i);
  return sum;
}

// Central differences of stage(m) against d_result, in float, cell by cell of m (a step of
// 1e-2: the stages are linear or smooth, and float rounding stays far below the tolerance).
template <class Stage, class G>
Matrix differences(Matrix m, const G& d_result, Stage stage) {
  const float h = 1e-2f;
  Matrix grad(m.shape());
  for (std::size_t i = 0; i < m.size(); ++i) {
    const float kept = m.flat(i);
    m.flat(i) = kept + h;
    const double up = loss_of(d_result, stage(m));
    m.flat(i) = kept - h;
    const double down = loss_of(d_result, stage(m));
    m.flat(i) = kept;
    grad.flat(i) = float((up - down) / (2.0 * h));
  }
  return grad;
}

// One head's problem: x (5 x 4), W_Q, W_K (4 x 3), W_V (4 x 2), causal, scale 0.7, with the
// float64 reference run forwards and backwards from a random d_outputs (5 x 2).
struct Problem {
  std::mt19937 rng{2026};
  Matrix x = random_matrix(rng, 5, 4), wq = random_matrix(rng, 4, 3), wk = random_matrix(rng, 4, 3),
         wv = random_matrix(rng, 4, 2), d_outputs = random_matrix(rng, 5, 2);
  float scale = 0.7f;
  grad64::Forward f = grad64::forward(to64(x), to64(wq), to64(wk), to64(wv), scale, true);
  grad64::Backward b =
      grad64::backward(to64(x), to64(wq), to64(wk), to64(wv), scale, true, to64(d_outputs));
};

}  // namespace

TEST(StagesBackward, ProjectionGivesBothOperandsGradients) {
  Problem p;
  const ProjectGrad g = project_backward(p.x, p.wv, to32(p.b.v));
  EXPECT_TRUE(AllClose(g.weights, to32(p.b.wv), 1e-5));
  const Matrix d_values = to32(p.b.v);
  EXPECT_TRUE(AllClose(
      g.inputs, differences(p.x, d_values, [&](const Matrix& x) { return project(x, p.wv); }),
      1e-3));
  EXPECT_TRUE(AllClose(
      g.weights, differences(p.wv, d_values, [&](const Matrix& w) { return project(p.x, w); }),
      1e-3));
}

TEST(StagesBackward, ScoresGiveQueriesAndKeysTheirGradientsTimesTheScale) {
  Problem p;
  const Matrix q = to32(p.f.q), k = to32(p.f.k), d_scores = to32(p.b.scores);
  const ScoresGrad g = attention_scores_backward(q, k, p.scale, d_scores);
  EXPECT_TRUE(AllClose(g.queries, to32(p.b.q), 1e-5));
  EXPECT_TRUE(AllClose(g.keys, to32(p.b.k), 1e-5));
  const auto scores_of_q = [&](const Matrix& m) { return attention_scores(m, k, p.scale); };
  const auto scores_of_k = [&](const Matrix& m) { return attention_scores(q, m, p.scale); };
  EXPECT_TRUE(AllClose(g.queries, differences(q, d_scores, scores_of_q), 1e-3));
  EXPECT_TRUE(AllClose(g.keys, differences(k, d_scores, scores_of_k), 1e-3));
}

TEST(StagesBackward, MaskPassesNoGradientWhereItHides) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Matrix d_scores{{1, nan, 3}, {4, 5, nan}, {7, 8, 9}};
  apply_mask_backward(d_scores, later_keys(3));
  EXPECT_EQ(d_scores, (Matrix{{1, 0, 0}, {4, 5, 0}, {7, 8, 9}}));
}

TEST(StagesBackward, SoftmaxRowByRow) {
  Problem p;
  const Matrix weights = to32(p.f.weights), d_weights = to32(p.b.weights);
  Matrix d_scores = softmax_rows_backward(weights, d_weights);
  apply_mask_backward(d_scores, later_keys(5));
  EXPECT_TRUE(AllClose(d_scores, to32(p.b.scores), 1e-5));
  // Without a mask, on finite scores, against the softmax itself.
  const Matrix scores = random_matrix(p.rng, 4, 6), g = random_matrix(p.rng, 4, 6);
  EXPECT_TRUE(AllClose(softmax_rows_backward(softmax_rows(scores), g),
                       differences(scores, g, [](const Matrix& s) { return softmax_rows(s); }),
                       1e-3));
  // Adding the same number to every gradient of a row moves no score: the weights sum to 1.
  const Matrix shifted = g + 5.0f;
  EXPECT_TRUE(AllClose(softmax_rows_backward(softmax_rows(scores), shifted),
                       softmax_rows_backward(softmax_rows(scores), g), 1e-5));
}

TEST(StagesBackward, WeightingGivesWeightsAndValuesTheirGradients) {
  Problem p;
  const Matrix weights = to32(p.f.weights), values = to32(p.f.v);
  Tensor3 d_weighted({5, 5, 2});
  std::copy(p.b.weighted.begin(), p.b.weighted.end(), d_weighted.begin());
  const WeightValuesGrad g = weight_values_backward(weights, values, d_weighted);
  EXPECT_TRUE(AllClose(g.weights, to32(p.b.weights), 1e-5));
  EXPECT_TRUE(AllClose(g.values, to32(p.b.v), 1e-5));
  // Against differences, with a d_weighted that is not the same for every key.
  Tensor3 g3({5, 5, 2});
  const auto r = reference64::random_floats(p.rng, g3.size());
  std::copy(r.begin(), r.end(), g3.begin());
  const WeightValuesGrad h = weight_values_backward(weights, values, g3);
  const auto of_weights = [&](const Matrix& w) { return weight_values(w, values); };
  const auto of_values = [&](const Matrix& v) { return weight_values(weights, v); };
  EXPECT_TRUE(AllClose(h.weights, differences(weights, g3, of_weights), 1e-3));
  EXPECT_TRUE(AllClose(h.values, differences(values, g3, of_values), 1e-3));
}

TEST(StagesBackward, SumHandsEachOutputsGradientToEveryWeightedRow) {
  Problem p;
  const Tensor3 d_weighted = sum_weighted_values_backward(p.d_outputs, 5);
  ASSERT_EQ(d_weighted.shape(), (std::array<std::size_t, 3>{5, 5, 2}));
  for (std::size_t i = 0; i < d_weighted.size(); ++i)
    ASSERT_EQ(d_weighted.flat(i), float(p.b.weighted[i])) << i;
}

TEST(StagesBackward, ColumnBlocksAddBackAndConcatenationCutsBack) {
  const Matrix d_block{{1, 2}, {3, 4}};
  Matrix d_weights = xt::zeros<float>({2, 6});
  column_block_backward(d_block, 1, 3, d_weights);
  column_block_backward(d_block, 1, 3, d_weights);  // a kv head read by two query heads
  EXPECT_EQ(d_weights, (Matrix{{0, 0, 2, 4, 0, 0}, {0, 0, 6, 8, 0, 0}}));
  const Matrix w{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  const std::vector<Matrix> blocks = concatenate_columns_backward(w, {1, 3, 2});
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[1], (Matrix{{2, 3, 4}, {8, 9, 10}}));
  EXPECT_EQ(concatenate_columns(blocks), w);
}

TEST(StagesBackward, TheSoftmaxsOwnStagesComposeToItsBackward) {
  Problem p;
  const Matrix scores = random_matrix(p.rng, 4, 6), d_weights = random_matrix(p.rng, 4, 6);
  const Vector maxima = row_maxima(scores);
  const Matrix exponentials = shifted_exponentials(scores, maxima);
  const Vector sums = row_sums(exponentials);
  const Matrix weights = normalise_rows(exponentials, sums);
  // Backwards through the stages: normalise, then the sums, then the exponentials.
  const NormaliseGrad normalise = normalise_rows_backward(exponentials, sums, d_weights);
  const Matrix d_exponentials = normalise.exponentials + row_sums_backward(normalise.sums, 6);
  const Matrix d_scores = shifted_exponentials_backward(exponentials, d_exponentials);
  EXPECT_TRUE(AllClose(d_scores, softmax_rows_backward(weights, d_weights), 1e-6));
  // Each twin against central differences of its own stage.
  const auto of_exponentials = [&](const Matrix& e) { return normalise_rows(e, sums); };
  EXPECT_TRUE(AllClose(normalise.exponentials,
                       differences(exponentials, d_weights, of_exponentials), 1e-3));
  const Matrix sums_as_column = xt::view(sums, xt::all(), xt::newaxis());
  const auto of_sums = [&](const Matrix& s) {
    return normalise_rows(exponentials, Vector(xt::view(s, xt::all(), 0)));
  };
  EXPECT_TRUE(AllClose(Matrix(xt::view(normalise.sums, xt::all(), xt::newaxis())),
                       differences(sums_as_column, d_weights, of_sums), 1e-3));
  const Vector d_sums = xt::view(d_weights, xt::all(), 0);
  const auto sums_of = [](const Matrix& e) { return row_sums(e); };
  EXPECT_TRUE(
      AllClose(row_sums_backward(d_sums, 6), differences(exponentials, d_sums, sums_of), 1e-3));
  const auto of_scores = [&](const Matrix& s) { return shifted_exponentials(s, maxima); };
  EXPECT_TRUE(AllClose(shifted_exponentials_backward(exponentials, d_exponentials),
                       differences(scores, d_exponentials, of_scores), 1e-3));
  // A row that sums to 0 (fully masked) passes no gradient, not NaN.
  const NormaliseGrad masked = normalise_rows_backward(Matrix{{0, 0}}, Vector{0}, Matrix{{1, 2}});
  EXPECT_EQ(masked.exponentials, (Matrix{{0, 0}}));
  EXPECT_EQ(masked.sums(0), 0.0f);
}
