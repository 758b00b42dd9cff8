// Each stage of the tiny transformer (src/attention/model/layers.hpp): its forward against the
// float64 reference, its backward against float64 central finite differences of that
// reference, with a random upstream gradient. Plus the matmul kernel against its scalar
// reference, decoding's one-row attention against the batch's, and one AdamW step by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "kernels/score_step.hpp"
#include "model/layers.hpp"
#include "model/matmul.hpp"
#include "model/prng.hpp"
#include "model_reference64.hpp"
#include "rope.hpp"
#include "thread_team.hpp"

namespace {

using namespace attention::model;
using reference64::Vec;
using Floats = std::vector<float>;

Floats random_floats(std::size_t count, std::uint64_t seed, float bound = 1.0f) {
  SplitMix64 random(seed);
  Floats out(count);
  for (float& x : out) x = random.uniform(bound);
  return out;
}
Vec widen(const Floats& x) { return Vec(x.begin(), x.end()); }

// The options record the model's attention takes for head size d (the transformer's own).
attention::AttentionOptions model_options(std::size_t d, bool alibi = false, float softcap = 0) {
  attention::AttentionOptions o;
  o.scale = 1.0f / std::sqrt(static_cast<float>(d));
  o.is_causal = true;
  o.alibi = alibi;
  o.softcap = softcap;
  return o;
}

// Every element within atol + rtol * |expected|; reports the worst one.
void expect_close(const Floats& actual, const Vec& expected, double atol, double rtol,
                  const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double excess = std::abs(actual[i] - expected[i]) - (atol + rtol * std::abs(expected[i]));
    if (i == 0 || excess > worst) worst = excess, at = i;
  }
  EXPECT_LE(worst, 0.0) << what << ": element " << at << " is " << actual[at] << ", expected "
                        << expected[at];
}

TEST(ModelMatmul, MatchesTheScalarReferenceOnOddSizesAndAccumulates) {
  // 33 rows and more: b read from packed panels; inner 300: two panels' depths.
  for (std::size_t rows : {1u, 3u, 4u, 7u, 33u})
    for (std::size_t inner : {1u, 5u, 16u, 300u})
      // Past 3 vectors of the widest native SIMD too (16 lanes): every block width and a tail;
      // 9 vectors of 16 lanes: two packed panels of 4 vectors and one vector after them.
      for (std::size_t cols :
           {1u, 3u, 4u, 9u, 17u, 33u, 13u * 4u + 3u, 3u * 16u + 2u * 16u + 5u, 9u * 16u + 5u}) {
        const Floats a = random_floats(rows * inner, 1), b = random_floats(inner * cols, 2);
        for (bool accumulate : {false, true}) {
          Floats tuned = random_floats(rows * cols, 3), plain = tuned;
          matmul(a.data(), b.data(), tuned.data(), rows, inner, cols, accumulate);
          matmul_reference(a.data(), b.data(), plain.data(), rows, inner, cols, accumulate);
          for (std::size_t i = 0; i < tuned.size(); ++i)
            ASSERT_NEAR(tuned[i], plain[i], 1e-5f) << rows << "x" << inner << "x" << cols;
        }
      }
}

// An empty inner dimension: c = a . b is zeros, c += a . b leaves c, however many rows.
TEST(ModelMatmul, AnEmptyInnerDimensionGivesZeros) {
  const Floats a(1, 1.0f), b(1, 1.0f);  // never read
  for (std::size_t rows : {3u, 33u})
    for (bool accumulate : {false, true}) {
      const Floats before = random_floats(rows * 70, 3);
      Floats c = before;
      matmul(a.data(), b.data(), c.data(), rows, 0, 70, accumulate);
      for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], accumulate ? before[i] : 0.0f) << rows << " rows, element " << i;
    }
}

TEST(ModelMatmul, TransposedAMatchesItsScalarReference) {
  for (std::size_t rows : {1u, 4u, 6u, 17u})
    for (std::size_t inner : {1u, 7u, 300u})
      for (std::size_t cols : {2u, 8u, 19u, 3u * 16u + 2u * 16u + 5u}) {
        const Floats a = random_floats(inner * rows, 1), b = random_floats(inner * cols, 2);
        for (bool accumulate : {false, true}) {
          Floats tuned = random_floats(rows * cols, 3), plain = tuned;
          matmul_transposed_a(a.data(), b.data(), tuned.data(), rows, inner, cols, accumulate);
          matmul_transposed_a_reference(a.data(), b.data(), plain.data(), rows, inner, cols,
                                        accumulate);
          for (std::size_t i = 0; i < tuned.size(); ++i)
            ASSERT_NEAR(tuned[i], plain[i], 1e-5f) << rows << "x" << inner << "x" << cols;
        }
      }
}

// Views into wider rows (one head of a [N, heads * d] tensor): only the viewed numbers change.
TEST(ModelMatmul, StridedViewsMatchTheScalarReference) {
  const std::size_t rows = 7, inner = 5, cols = 9;
  const Strides strides{inner + 3, cols + 2, cols + 4};
  const Floats a = random_floats(rows * strides.a, 30), b = random_floats(inner * strides.b, 31);
  const Floats at = random_floats(inner * (rows + 1), 32);
  for (bool transposed : {false, true}) {
    Floats tuned = random_floats(rows * strides.c, 33), plain = tuned;
    if (transposed) {
      matmul_transposed_a(at.data(), b.data(), tuned.data(), rows, inner, cols, true,
                          {rows + 1, strides.b, strides.c});
      matmul_transposed_a_reference(at.data(), b.data(), plain.data(), rows, inner, cols, true,
                                    {rows + 1, strides.b, strides.c});
    } else {
      matmul(a.data(), b.data(), tuned.data(), rows, inner, cols, true, strides);
      matmul_reference(a.data(), b.data(), plain.data(), rows, inner, cols, true, strides);
    }
    const Floats untouched = random_floats(rows * strides.c, 33);
    for (std::size_t i = 0; i < tuned.size(); ++i) {
      ASSERT_NEAR(tuned[i], plain[i], 1e-5f) << i;
      if (i % strides.c >= cols) ASSERT_EQ(tuned[i], untouched[i]) << "outside the view: " << i;
    }
  }
}

// Whatever the tile, and whether b is read in place or from packed panels (many rows, a deep
// inner dimension), a row's numbers are the same bits.
TEST(ModelMatmul, ARowGivesTheSameBitsAloneOrInABatch) {
  for (std::size_t rows : {6u, 40u})
    for (std::size_t inner : {13u, 300u})
      for (std::size_t cols : {11u, 70u}) {
        const Floats a = random_floats(rows * inner, 4), b = random_floats(inner * cols, 5);
        Floats batch(rows * cols), single(cols);
        matmul(a.data(), b.data(), batch.data(), rows, inner, cols, false);
        matmul(a.data() + 5 * inner, b.data(), single.data(), 1, inner, cols, false);
        for (std::size_t j = 0; j < cols; ++j)
          EXPECT_EQ(single[j], batch[5 * cols + j]) << rows << "x" << inner << "x" << cols;
      }
}

TEST(ModelStages, EmbeddingBackwardMatchesFiniteDifferences) {
  const std::size_t B = 2, T = 3, D = 4, V = 5, C = 4;
  const std::vector<std::int32_t> tokens = {1, 4, 1, 0, 1, 3};
  const Floats wte = random_floats(V * D, 6), wpe = random_floats(C * D, 7);
  const Floats dout = random_floats(B * T * D, 8);
  Floats out(B * T * D), dwte(V * D, 0.0f), dwpe(C * D, 0.0f);
  embedding_forward(out.data(), tokens.data(), wte.data(), wpe.data(), B, T, D);
  Vec wpe64 = widen(wpe);
  expect_close(out, reference64::embedding(tokens, widen(wte), &wpe64, T, D), 1e-6, 0, "out");
  embedding_backward(dwte.data(), dwpe.data(), dout.data(), tokens.data(), B, T, D);
  const auto loss_wte = [&](const Vec& w) {
    return reference64::weighted_sum(widen(dout), reference64::embedding(tokens, w, &wpe64, T, D));
  };
  const auto loss_wpe = [&](const Vec& w) {
    return reference64::weighted_sum(widen(dout),
                                     reference64::embedding(tokens, widen(wte), &w, T, D));
  };
  expect_close(dwte, reference64::numerical_gradient(loss_wte, widen(wte)), 1e-5, 1e-5, "dwte");
  expect_close(dwpe, reference64::numerical_gradient(loss_wpe, wpe64), 1e-5, 1e-5, "dwpe");
}

TEST(ModelStages, LayerNormBackwardMatchesFiniteDifferences) {
  const std::size_t N = 5, D = 7;
  const Floats x = random_floats(N * D, 9, 2.0f), gain = random_floats(D, 10),
               bias = random_floats(D, 11), dout = random_floats(N * D, 12);
  Floats out(N * D), mean(N), rstd(N), dx(N * D, 0.0f), dgain(D, 0.0f), dbias(D, 0.0f);
  layer_norm_forward(out.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), N,
                     D);
  expect_close(out, reference64::layer_norm(widen(x), widen(gain), widen(bias), D), 1e-5, 1e-5,
               "out");
  layer_norm_backward(dx.data(), dgain.data(), dbias.data(), dout.data(), x.data(), gain.data(),
                      mean.data(), rstd.data(), N, D);
  const Vec up = widen(dout);
  const auto f = [&](const Vec& x64, const Vec& g64, const Vec& b64) {
    return reference64::weighted_sum(up, reference64::layer_norm(x64, g64, b64, D));
  };
  expect_close(dx,
               reference64::numerical_gradient(
                   [&](const Vec& v) { return f(v, widen(gain), widen(bias)); }, widen(x)),
               1e-4, 1e-4, "dx");
  expect_close(dgain,
               reference64::numerical_gradient(
                   [&](const Vec& v) { return f(widen(x), v, widen(bias)); }, widen(gain)),
               1e-4, 1e-4, "dgain");
  expect_close(dbias,
               reference64::numerical_gradient(
                   [&](const Vec& v) { return f(widen(x), widen(gain), v); }, widen(bias)),
               1e-4, 1e-4, "dbias");
}

// With a team, LayerNorm's rows are shared out, and its backward's dgain and dbias go by
// chunks of columns: the bits of one thread, with a width that ends in a scalar tail.
TEST(ModelStages, LayerNormWithATeamGivesTheBitsOfOneThread) {
  std::unique_ptr<attention::ThreadTeam> team = attention::ThreadTeam::start(1);
  ASSERT_TRUE(team);
  const std::size_t N = 70, D = 5 * xsimd::batch<float>::size + 3;
  const Floats x = random_floats(N * D, 41, 2.0f), gain = random_floats(D, 42),
               bias = random_floats(D, 43), dout = random_floats(N * D, 44);
  Floats out1(N * D), mean1(N), rstd1(N), dx1(N * D, 0.5f), dgain1(D, 0.25f), dbias1(D, 0.0f);
  Floats out2 = out1, mean2 = mean1, rstd2 = rstd1, dx2 = dx1, dgain2 = dgain1, dbias2 = dbias1;
  layer_norm_forward(out1.data(), mean1.data(), rstd1.data(), x.data(), gain.data(), bias.data(), N,
                     D);
  layer_norm_forward(out2.data(), mean2.data(), rstd2.data(), x.data(), gain.data(), bias.data(), N,
                     D, team.get());
  EXPECT_EQ(out1, out2);
  EXPECT_EQ(mean1, mean2);
  EXPECT_EQ(rstd1, rstd2);
  layer_norm_backward(dx1.data(), dgain1.data(), dbias1.data(), dout.data(), x.data(), gain.data(),
                      mean1.data(), rstd1.data(), N, D);
  layer_norm_backward(dx2.data(), dgain2.data(), dbias2.data(), dout.data(), x.data(), gain.data(),
                      mean2.data(), rstd2.data(), N, D, team.get());
  EXPECT_EQ(dx1, dx2);
  EXPECT_EQ(dgain1, dgain2);
  EXPECT_EQ(dbias1, dbias2);
}

TEST(ModelStages, LayerNormMatchesItsScalarReferenceOnOddWidths) {
  const std::size_t N = 3;
  for (std::size_t D : {1u, 3u, 7u, 16u, 19u, 32u}) {
    const Floats x = random_floats(N * D, 50 + D, 3.0f), gain = random_floats(D, 51),
                 bias = random_floats(D, 52), dout = random_floats(N * D, 53);
    Floats out(N * D), mean(N), rstd(N), plain_out(N * D), plain_mean(N), plain_rstd(N);
    layer_norm_forward(out.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), N,
                       D);
    layer_norm_forward_reference(plain_out.data(), plain_mean.data(), plain_rstd.data(), x.data(),
                                 gain.data(), bias.data(), N, D);
    for (std::size_t i = 0; i < N * D; ++i) ASSERT_NEAR(out[i], plain_out[i], 1e-5f) << D;
    Floats dx = random_floats(N * D, 54), dgain = random_floats(D, 55),
           dbias = random_floats(D, 56);
    Floats plain_dx = dx, plain_dgain = dgain, plain_dbias = dbias;
    layer_norm_backward(dx.data(), dgain.data(), dbias.data(), dout.data(), x.data(), gain.data(),
                        mean.data(), rstd.data(), N, D);
    layer_norm_backward_reference(plain_dx.data(), plain_dgain.data(), plain_dbias.data(),
                                  dout.data(), x.data(), gain.data(), mean.data(), rstd.data(), N,
                                  D);
    for (std::size_t i = 0; i < N * D; ++i) ASSERT_NEAR(dx[i], plain_dx[i], 1e-5f) << D;
    for (std::size_t i = 0; i < D; ++i) {
      ASSERT_NEAR(dgain[i], plain_dgain[i], 1e-5f) << D;
      ASSERT_NEAR(dbias[i], plain_dbias[i], 1e-5f) << D;
    }
  }
}

TEST(ModelStages, LinearBackwardMatchesFiniteDifferences) {
  const std::size_t N = 6, I = 5, O = 9;
  const Floats x = random_floats(N * I, 13), w = random_floats(I * O, 14),
               bias = random_floats(O, 15), dout = random_floats(N * O, 16);
  Floats out(N * O), dx(N * I, 0.0f), dw(I * O, 0.0f), dbias(O, 0.0f);
  Floats scratch(I * O);
  linear_forward(out.data(), x.data(), w.data(), bias.data(), N, I, O);
  Vec bias64 = widen(bias);
  expect_close(out, reference64::linear(widen(x), widen(w), &bias64, I, O), 1e-5, 1e-5, "out");
  linear_backward(dx.data(), dw.data(), dbias.data(), dout.data(), x.data(), w.data(), N, I, O,
                  scratch.data());
  const Vec up = widen(dout);
  const auto f = [&](const Vec& x64, const Vec& w64, const Vec& b64) {
    return reference64::weighted_sum(up, reference64::linear(x64, w64, &b64, I, O));
  };
  expect_close(dx,
               reference64::numerical_gradient([&](const Vec& v) { return f(v, widen(w), bias64); },
                                               widen(x)),
               1e-4, 1e-4, "dx");
  expect_close(dw,
               reference64::numerical_gradient([&](const Vec& v) { return f(widen(x), v, bias64); },
                                               widen(w)),
               1e-4, 1e-4, "dw");
  expect_close(dbias,
               reference64::numerical_gradient(
                   [&](const Vec& v) { return f(widen(x), widen(w), v); }, bias64),
               1e-4, 1e-4, "dbias");
}

// With a team, linear_backward splits dw by columns in whole panels (x's rows no more than
// twice dout's) or by rows (the MLP's down projection): either way every gradient is the bits
// of one thread. Shapes of both kinds, several panels and a part of one, and more rows than a
// slice of the dw loop.
TEST(ModelStages, LinearBackwardWithATeamGivesTheBitsOfOneThread) {
  std::unique_ptr<attention::ThreadTeam> team = attention::ThreadTeam::start(1);
  ASSERT_TRUE(team);
  const std::size_t N = 150;
  for (const auto [I, O] : {std::pair<std::size_t, std::size_t>{20, 3 * panel_columns + 5},
                            {7 * panel_columns + 3, 2 * panel_columns + 1}}) {
    const Floats x = random_floats(N * I, 31), w = random_floats(I * O, 32),
                 dout = random_floats(N * O, 33);
    Floats dx1(N * I, 0.5f), dw1(I * O, 0.25f), db1(O, 0.0f), scratch(I * O);
    Floats dx2 = dx1, dw2 = dw1, db2 = db1;
    linear_backward(dx1.data(), dw1.data(), db1.data(), dout.data(), x.data(), w.data(), N, I, O,
                    scratch.data());
    linear_backward(dx2.data(), dw2.data(), db2.data(), dout.data(), x.data(), w.data(), N, I, O,
                    scratch.data(), team.get());
    EXPECT_EQ(dx1, dx2) << I << " x " << O;
    EXPECT_EQ(dw1, dw2) << I << " x " << O;
    EXPECT_EQ(db1, db2) << I << " x " << O;
    // And the team's dw is the product's: x^T . dout added to what dw held.
    Floats expected(I * O, 0.25f);
    matmul_transposed_a_reference(x.data(), dout.data(), expected.data(), I, N, O, true);
    expect_close(dw2, widen(expected), 1e-4, 1e-4, "dw");
  }
}

// Grouped heads (4 query heads over 2 kv heads), an odd T, and a head size that is not a
// multiple of the SIMD width.
TEST(ModelStages, AttentionBackwardMatchesFiniteDifferences) {
  const std::size_t B = 2, T = 5, H = 4, Hkv = 2, d = 3, N = B * T;
  const Floats q = random_floats(N * H * d, 17), k = random_floats(N * Hkv * d, 18),
               v = random_floats(N * Hkv * d, 19), dout = random_floats(N * H * d, 20);
  Floats out(N * H * d), att(B * H * T * T), scratch(attention_scratch_floats(T, d));
  attention_forward(out.data(), att.data(), q.data(), k.data(), v.data(), B, T, H, Hkv, d,
                    scratch.data(), model_options(d));
  Vec att64;
  expect_close(out, reference64::attention(widen(q), widen(k), widen(v), B, T, H, Hkv, d, &att64),
               1e-5, 1e-5, "out");
  expect_close(att, att64, 1e-6, 1e-5, "att");
  Floats dq(q.size(), 0.0f), dk(k.size(), 0.0f), dv(v.size(), 0.0f);
  attention_backward(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(), v.data(),
                     att.data(), B, T, H, Hkv, d, scratch.data(), model_options(d));
  const Vec up = widen(dout);
  const auto f = [&](const Vec& q64, const Vec& k64, const Vec& v64) {
    return reference64::weighted_sum(up, reference64::attention(q64, k64, v64, B, T, H, Hkv, d));
  };
  expect_close(dq,
               reference64::numerical_gradient(
                   [&](const Vec& x) { return f(x, widen(k), widen(v)); }, widen(q)),
               1e-4, 1e-4, "dq");
  expect_close(dk,
               reference64::numerical_gradient(
                   [&](const Vec& x) { return f(widen(q), x, widen(v)); }, widen(k)),
               1e-4, 1e-4, "dk");
  expect_close(dv,
               reference64::numerical_gradient(
                   [&](const Vec& x) { return f(widen(q), widen(k), x); }, widen(v)),
               1e-4, 1e-4, "dv");
}

// RoPE as the model applies it: [N, heads * d] rows, pairs (i, i + d / 2), position t of each
// sequence (the caches' row t).
TEST(ModelStages, RopeOnTheModelsLayoutMatchesFiniteDifferences) {
  const std::size_t B = 2, T = 5, heads = 3, d = 4, C = 8;
  const Floats x = random_floats(B * T * heads * d, 26), dout = random_floats(x.size(), 27);
  Floats cos_cache(C * d / 2), sin_cache(C * d / 2), out(x.size()), dx(x.size());
  attention::rope_cache(C, d, attention::model::rope_base, cos_cache.data(), sin_cache.data());
  std::vector<std::int64_t> positions(B * T);
  for (std::size_t n = 0; n < B * T; ++n) positions[n] = static_cast<std::int64_t>(n % T);
  const auto stride = [](std::size_t n) { return static_cast<std::ptrdiff_t>(n); };
  const attention::RopeLayout layout{
      B, heads, T, d, d, false, stride(T * heads * d), stride(d), stride(heads * d)};
  attention::rope_forward(layout, x.data(), cos_cache.data(), sin_cache.data(), positions.data(),
                          out.data());
  expect_close(out, reference64::rope(widen(x), T, heads, d), 1e-6, 1e-5, "out");
  attention::rope_backward(layout, dout.data(), cos_cache.data(), sin_cache.data(),
                           positions.data(), dx.data());
  const auto f = [&](const Vec& v) {
    return reference64::weighted_sum(widen(dout), reference64::rope(v, T, heads, d));
  };
  expect_close(dx, reference64::numerical_gradient(f, widen(x)), 1e-5, 1e-4, "dx");
}

TEST(ModelStages, CausalSoftmaxRowMatchesItsReference) {
  const std::size_t T = 13;
  for (std::size_t n = 1; n <= T; ++n) {
    Floats tuned = random_floats(T, 40 + n, 20.0f), plain = tuned;
    causal_softmax_row(tuned.data(), n, T, 0.3f);
    causal_softmax_row_reference(plain.data(), n, T, 0.3f);
    for (std::size_t s = 0; s < T; ++s) ASSERT_NEAR(tuned[s], plain[s], 1e-6f) << n << ", " << s;
    for (std::size_t s = n; s < T; ++s) ASSERT_EQ(tuned[s], 0.0f);
  }
}

TEST(ModelStages, DecodingAttentionEqualsTheBatchsLastRow) {
  const std::size_t T = 6, H = 4, Hkv = 2, d = 5;
  const Floats q = random_floats(T * H * d, 21), k = random_floats(T * Hkv * d, 22),
               v = random_floats(T * Hkv * d, 23);
  Floats out(T * H * d), att(H * T * T), scratch(attention_scratch_floats(T, d));
  attention_forward(out.data(), att.data(), q.data(), k.data(), v.data(), 1, T, H, Hkv, d,
                    scratch.data(), model_options(d));
  for (std::size_t n = 1; n <= T; ++n) {
    Floats row(H * d), scores(n);
    attention_decode_row(row.data(), q.data() + (n - 1) * H * d, k.data(), v.data(), n, H, Hkv, d,
                         scores.data(), model_options(d));
    for (std::size_t i = 0; i < H * d; ++i)
      EXPECT_NEAR(row[i], out[(n - 1) * H * d + i], 1e-6f) << "row " << n - 1;
  }
}

TEST(ModelStages, GeluMatchesTheTanhFormAndItsBackwardFiniteDifferences) {
  const std::size_t count = 41;
  Floats x(count);
  for (std::size_t i = 0; i < count; ++i) x[i] = -5.0f + 0.25f * static_cast<float>(i);
  const Floats dout = random_floats(count, 24);
  Floats out(count), dx(count, 0.0f);
  gelu_forward(out.data(), x.data(), count);
  expect_close(out, reference64::gelu(widen(x)), 1e-6, 1e-5, "out");
  gelu_backward(dx.data(), dout.data(), x.data(), count);
  const auto f = [&](const Vec& v) {
    return reference64::weighted_sum(widen(dout), reference64::gelu(v));
  };
  expect_close(dx, reference64::numerical_gradient(f, widen(x)), 1e-5, 1e-4, "dx");
}

TEST(ModelStages, GeluVectorBodyMatchesItsReferenceAcrossTheRange) {
  // 37 numbers: nine vectors and a tail, from deep in the negative flat part (where 1 + tanh
  // cancels) to the linear part.
  const std::size_t count = 37;
  Floats x(count);
  for (std::size_t i = 0; i < count; ++i) x[i] = -9.0f + 0.5f * static_cast<float>(i);
  const Floats dout = random_floats(count, 26);
  Floats tuned(count), plain(count), tuned_dx(count, 0.5f), plain_dx(count, 0.5f);
  gelu_forward(tuned.data(), x.data(), count);
  gelu_forward_reference(plain.data(), x.data(), count);
  gelu_backward(tuned_dx.data(), dout.data(), x.data(), count);
  gelu_backward_reference(plain_dx.data(), dout.data(), x.data(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_NEAR(tuned[i], plain[i], 1e-6f + 1e-6f * std::abs(plain[i])) << "x = " << x[i];
    // The reference's 1 - tanh^2 u cancels near |u| = 5: a few 1e-6 of its own error there.
    EXPECT_NEAR(tuned_dx[i], plain_dx[i], 4e-6f + 1e-5f * std::abs(plain_dx[i])) << "x = " << x[i];
  }
}

TEST(ModelStages, AdamWVectorPassMatchesTheScalarReference) {
  const std::size_t count = 37;  // vectors and a tail
  Floats p = random_floats(count, 27), m = random_floats(count, 28, 0.1f), v(count);
  const Floats start_v = random_floats(count, 29, 0.01f);
  for (std::size_t i = 0; i < count; ++i) v[i] = std::abs(start_v[i]);
  Floats plain_p = p, plain_m = m, plain_v = v;
  const AdamW hyper{0.01f, 0.9f, 0.999f, 1e-8f, 0.1f};
  double b1 = 1.0, b2 = 1.0;
  for (std::uint64_t step = 1; step <= 3; ++step) {
    const Floats g = random_floats(count, 30 + step);
    b1 *= 0.9, b2 *= 0.999;
    adamw_update(p.data(), m.data(), v.data(), g.data(), count, hyper, b1, b2);
    adamw_update_reference(plain_p.data(), plain_m.data(), plain_v.data(), g.data(), count, hyper,
                           b1, b2);
  }
  // The same expression: the same bits on SIMD128 (no fused multiply-add); a native compiler
  // may fuse a product into a sum in one of the two: a rounding of the larger term apart.
  const auto close = [](float a, float b) {
    return std::abs(a - b) <= 1e-7f + 1e-6f * std::abs(b);
  };
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_PRED2(close, p[i], plain_p[i]) << i;
    EXPECT_PRED2(close, m[i], plain_m[i]) << i;
    EXPECT_PRED2(close, v[i], plain_v[i]) << i;
  }
}

TEST(ModelStages, CrossEntropySkipsUncountedTargetsAndItsBackwardMatchesFiniteDifferences) {
  const std::size_t N = 5, V = 7;
  const std::vector<std::int32_t> targets = {3, -1, 0, 6, -1};
  const Floats logits = random_floats(N * V, 25, 3.0f);
  Floats probs(N * V), dlogits(N * V, 0.0f);
  const double loss = cross_entropy_forward(probs.data(), logits.data(), targets.data(), N, V);
  EXPECT_NEAR(loss, reference64::cross_entropy(widen(logits), targets, V), 1e-6);
  cross_entropy_backward(dlogits.data(), probs.data(), targets.data(), N, V);
  const auto f = [&](const Vec& v) { return reference64::cross_entropy(v, targets, V); };
  expect_close(dlogits, reference64::numerical_gradient(f, widen(logits)), 1e-5, 1e-4, "dlogits");
  for (std::size_t i = 0; i < V; ++i) EXPECT_EQ(dlogits[1 * V + i], 0.0f) << "row 1 is not counted";
}

// The loss sums its rows in blocks fixed by the row count: with a team it is the bits of one
// thread, and both match the float64 reference, over rows enough for many blocks.
TEST(ModelStages, CrossEntropyWithATeamGivesTheBitsOfOneThread) {
  std::unique_ptr<attention::ThreadTeam> team = attention::ThreadTeam::start(1);
  ASSERT_TRUE(team);
  const std::size_t N = 1000, V = 37;
  std::vector<std::int32_t> targets(N);
  for (std::size_t n = 0; n < N; ++n) targets[n] = n % 11 == 0 ? -1 : std::int32_t(n * 7 % V);
  const Floats logits = random_floats(N * V, 26, 4.0f);
  Floats alone(N * V), shared(N * V);
  const double one = cross_entropy_forward(alone.data(), logits.data(), targets.data(), N, V);
  const double two =
      cross_entropy_forward(shared.data(), logits.data(), targets.data(), N, V, team.get());
  EXPECT_EQ(std::memcmp(&one, &two, sizeof one), 0);
  EXPECT_EQ(alone, shared);
  EXPECT_NEAR(one, reference64::cross_entropy(widen(logits), targets, V), 1e-6);
}

TEST(ModelStages, AdamWFirstStepMatchesAHandComputation) {
  // Step 1: m = 0.1 g, v = 0.001 g^2, m_hat = g, v_hat = g^2, so each parameter moves by
  // lr (g / (|g| + eps) + wd p).
  Floats p = {1.0f, -2.0f, 0.5f}, m(3, 0.0f), v(3, 0.0f);
  const Floats g = {0.5f, -0.25f, 0.0f};
  const AdamW hyper{0.1f, 0.9f, 0.999f, 1e-8f, 0.01f};
  adamw_update(p.data(), m.data(), v.data(), g.data(), 3, hyper, 0.9, 0.999);
  EXPECT_NEAR(p[0], 1.0 - 0.1 * (0.5 / (0.5 + 1e-8) + 0.01 * 1.0), 1e-6);
  EXPECT_NEAR(p[1], -2.0 - 0.1 * (-0.25 / (0.25 + 1e-8) + 0.01 * -2.0), 1e-6);
  EXPECT_NEAR(p[2], 0.5 - 0.1 * (0.0 + 0.01 * 0.5), 1e-6);
  EXPECT_NEAR(m[0], 0.05, 1e-7);
  EXPECT_NEAR(v[1], 0.001 * 0.0625, 1e-9);
  // Step 2 with the same gradient: m = 0.19 g, v = 0.001999 g^2; corrections 1 - 0.81 and
  // 1 - 0.998001 give m_hat = g, v_hat = g^2 again.
  const float before = p[0];
  adamw_update(p.data(), m.data(), v.data(), g.data(), 3, hyper, 0.81, 0.998001);
  EXPECT_NEAR(p[0], before - 0.1 * (0.5 / (0.5 + 1e-8) + 0.01 * before), 1e-6);
}

}  // namespace

// The score step in the model's attention (its options record): ALiBi with the paper's slopes
// (written in float64 by the reference), and a softcap, whose derivative the backward applies
// from the scores it computes again. The forward against the float64 reference, the backward
// against finite differences of it, and decoding equal to the batch's last row.
TEST(ModelStages, ScoreStepAttentionMatchesTheFloat64ReferenceAndItsFiniteDifferences) {
  const std::size_t B = 2, T = 6, H = 6, Hkv = 3, d = 3, N = B * T;
  const Floats q = random_floats(N * H * d, 51, 1.5f), k = random_floats(N * Hkv * d, 52, 1.5f),
               v = random_floats(N * Hkv * d, 53), dout = random_floats(N * H * d, 54);
  const Vec slopes64 = reference64::alibi_slopes(H);
  for (std::size_t h = 0; h < H; ++h)
    EXPECT_NEAR(attention::kernels::standard_alibi_slope(h, H), slopes64[h], 1e-7) << "slope " << h;
  struct Case {
    bool alibi;
    float softcap;
  };
  for (const Case c : {Case{true, 0.0f}, Case{false, 1.5f}, Case{true, 1.5f}}) {
    SCOPED_TRACE(testing::Message() << "alibi " << c.alibi << ", softcap " << c.softcap);
    const attention::AttentionOptions options = model_options(d, c.alibi, c.softcap);
    const Vec* slopes = c.alibi ? &slopes64 : nullptr;
    Floats out(N * H * d), att(B * H * T * T), scratch(attention_scratch_floats(T, d));
    attention_forward(out.data(), att.data(), q.data(), k.data(), v.data(), B, T, H, Hkv, d,
                      scratch.data(), options);
    Vec att64;
    expect_close(out,
                 reference64::attention(widen(q), widen(k), widen(v), B, T, H, Hkv, d, &att64,
                                        slopes, c.softcap),
                 1e-5, 1e-5, "out");
    expect_close(att, att64, 1e-6, 1e-5, "att");
    Floats dq(q.size(), 0.0f), dk(k.size(), 0.0f), dv(v.size(), 0.0f);
    attention_backward(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(), v.data(),
                       att.data(), B, T, H, Hkv, d, scratch.data(), options);
    const auto f = [&](const Vec& q64, const Vec& k64, const Vec& v64) {
      return reference64::weighted_sum(
          widen(dout),
          reference64::attention(q64, k64, v64, B, T, H, Hkv, d, nullptr, slopes, c.softcap));
    };
    expect_close(dq,
                 reference64::numerical_gradient(
                     [&](const Vec& x) { return f(x, widen(k), widen(v)); }, widen(q)),
                 1e-4, 1e-4, "dq");
    expect_close(dk,
                 reference64::numerical_gradient(
                     [&](const Vec& x) { return f(widen(q), x, widen(v)); }, widen(k)),
                 1e-4, 1e-4, "dk");
    for (std::size_t n = 1; n <= T; ++n) {
      Floats row(H * d), scores(n);
      attention_decode_row(row.data(), q.data() + (n - 1) * H * d, k.data(), v.data(), n, H, Hkv, d,
                           scores.data(), options);
      for (std::size_t i = 0; i < H * d; ++i)
        EXPECT_NEAR(row[i], out[(n - 1) * H * d + i], 1e-6f) << "row " << n - 1;
    }
  }
}
