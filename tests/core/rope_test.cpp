// RoPE: the vector kernels against their scalar reference and against a float64 rotation written
// here apart from them; the backward against the float64 reference and finite differences; the
// property RoPE exists for (a query-key dot product depends only on the distance).
#include "rope.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "reference64.hpp"

using namespace attention;

namespace {

// One test shape: B, H, S, D, R, the pairing, 3-D or 4-D storage, with or without position ids.
struct Shape {
  std::size_t batch, heads, seq, head_size, rotary_dim;
  bool interleaved, three_d, with_positions;
};

RopeLayout layout_of(const Shape& s) {
  RopeLayout l{s.batch, s.heads, s.seq, s.head_size, s.rotary_dim, s.interleaved, 0, 0, 0};
  const auto d = static_cast<std::ptrdiff_t>(s.head_size), h = static_cast<std::ptrdiff_t>(s.heads),
             n = static_cast<std::ptrdiff_t>(s.seq);
  if (s.three_d) {  // [B, S, H * D]
    l.batch_stride = n * h * d, l.head_stride = d, l.seq_stride = h * d;
  } else {  // [B, H, S, D]
    l.batch_stride = h * n * d, l.head_stride = n * d, l.seq_stride = d;
  }
  return l;
}

std::size_t elements(const Shape& s) { return s.batch * s.heads * s.seq * s.head_size; }

// The arguments of one call: x, caches of `rows` rows, position ids when the shape has them.
struct Inputs {
  std::vector<float> x, cos, sin;
  std::vector<std::int64_t> positions;
  const std::int64_t* position_ids() const {
    return positions.empty() ? nullptr : positions.data();
  }
};

Inputs random_inputs(std::mt19937& rng, const Shape& s) {
  Inputs in;
  in.x = reference64::random_floats(rng, elements(s));
  const std::size_t rows = s.with_positions ? 11 : s.batch * s.seq;
  in.cos.resize(rows * s.rotary_dim / 2);
  in.sin.resize(in.cos.size());
  rope_cache(rows, s.rotary_dim, 10000.0, in.cos.data(), in.sin.data());
  if (s.with_positions) {
    std::uniform_int_distribution<std::int64_t> position(0, static_cast<std::int64_t>(rows) - 1);
    for (std::size_t i = 0; i < s.batch * s.seq; ++i) in.positions.push_back(position(rng));
  }
  return in;
}

// The float64 rotation by angle sign * theta, theta from the position (not from the caches):
// the yardstick of both the forward (sign +1) and the backward (sign -1).
std::vector<double> rotate64(const Shape& s, const std::vector<float>& x,
                             const std::vector<std::int64_t>& positions, double sign) {
  const RopeLayout l = layout_of(s);
  const std::size_t half = s.rotary_dim / 2;
  std::vector<double> y(x.begin(), x.end());
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t h = 0; h < s.heads; ++h)
      for (std::size_t t = 0; t < s.seq; ++t) {
        const double p =
            positions.empty() ? double(b * s.seq + t) : double(positions[b * s.seq + t]);
        const std::ptrdiff_t at = b * l.batch_stride + h * l.head_stride + t * l.seq_stride;
        for (std::size_t i = 0; i < half; ++i) {
          const double theta =
              sign * p * std::pow(10000.0, -2.0 * double(i) / double(s.rotary_dim));
          const std::size_t ia = s.interleaved ? 2 * i : i,
                            ib = s.interleaved ? 2 * i + 1 : i + half;
          const double a = x[at + ia], bb = x[at + ib];
          y[at + ia] = a * std::cos(theta) - bb * std::sin(theta);
          y[at + ib] = bb * std::cos(theta) + a * std::sin(theta);
        }
      }
  return y;
}

// Shapes whose pair counts (R/2) hit the vector body alone, the scalar tail alone and both, for
// 4- to 16-lane vectors; rotary_dim below and at head_size; every layout option.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  const std::size_t dims[][2] = {{2, 2},   {4, 4},    {6, 6},   {8, 8},   {10, 6},
                                 {16, 16}, {18, 10},  {32, 32}, {40, 24}, {64, 64},
                                 {66, 34}, {128, 64}, {96, 96}};
  for (const auto& d : dims)
    for (bool interleaved : {false, true})
      for (bool three_d : {false, true})
        for (bool with_positions : {false, true})
          out.push_back({2, 3, 5, d[0], d[1], interleaved, three_d, with_positions});
  return out;
}

std::string name(const Shape& s) {
  return "D=" + std::to_string(s.head_size) + " R=" + std::to_string(s.rotary_dim) +
         (s.interleaved ? " interleaved" : " halves") + (s.three_d ? " 3-D" : " 4-D") +
         (s.with_positions ? " position_ids" : "");
}

}  // namespace

TEST(Rope, ForwardAndBackwardMatchTheirScalarReference) {
  std::mt19937 rng(7);
  for (const Shape& s : shapes()) {
    const Inputs in = random_inputs(rng, s);
    const RopeLayout l = layout_of(s);
    std::vector<float> fast(elements(s)), slow(elements(s));
    rope_forward(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(), fast.data());
    rope_forward_reference(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(),
                           slow.data());
    for (std::size_t i = 0; i < fast.size(); ++i) ASSERT_NEAR(fast[i], slow[i], 1e-6) << name(s);
    rope_backward(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(), fast.data());
    rope_backward_reference(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(),
                            slow.data());
    for (std::size_t i = 0; i < fast.size(); ++i) ASSERT_NEAR(fast[i], slow[i], 1e-6) << name(s);
  }
}

TEST(Rope, ForwardAndBackwardMatchTheFloat64Rotation) {
  std::mt19937 rng(8);
  for (const Shape& s : shapes()) {
    const Inputs in = random_inputs(rng, s);
    const RopeLayout l = layout_of(s);
    std::vector<float> y(elements(s));
    rope_forward(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(), y.data());
    const auto forward = rotate64(s, in.x, in.positions, +1.0);
    for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], forward[i], 2e-6) << name(s);
    rope_backward(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(), y.data());
    const auto backward = rotate64(s, in.x, in.positions, -1.0);
    for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], backward[i], 2e-6) << name(s);
  }
}

TEST(Rope, BackwardIsTheGradientByFiniteDifferences) {
  // loss = sum of w * rope_forward(x); its gradient by x is rope_backward(w).
  std::mt19937 rng(9);
  for (const Shape& s :
       {Shape{1, 2, 3, 10, 6, false, false, true}, Shape{2, 1, 4, 12, 12, true, true, false}}) {
    const Inputs in = random_inputs(rng, s);
    const RopeLayout l = layout_of(s);
    const auto w = reference64::random_floats(rng, elements(s));
    std::vector<float> grad(elements(s)), y(elements(s));
    rope_backward(l, w.data(), in.cos.data(), in.sin.data(), in.position_ids(), grad.data());
    auto loss = [&](const std::vector<float>& x) {
      rope_forward(l, x.data(), in.cos.data(), in.sin.data(), in.position_ids(), y.data());
      double sum = 0;
      for (std::size_t i = 0; i < y.size(); ++i) sum += double(w[i]) * y[i];
      return sum;
    };
    const float step = 1e-2f;
    for (std::size_t i = 0; i < in.x.size(); ++i) {
      auto plus = in.x, minus = in.x;
      plus[i] += step, minus[i] -= step;
      const double numeric = (loss(plus) - loss(minus)) / (double(plus[i]) - minus[i]);
      ASSERT_NEAR(grad[i], numeric, 1e-3) << name(s) << " element " << i;
    }
  }
}

TEST(Rope, InPlaceGivesTheSameAsOutOfPlace) {
  std::mt19937 rng(10);
  for (const Shape& s : shapes()) {
    const Inputs in = random_inputs(rng, s);
    const RopeLayout l = layout_of(s);
    std::vector<float> apart(elements(s)), in_place = in.x;
    rope_forward(l, in.x.data(), in.cos.data(), in.sin.data(), in.position_ids(), apart.data());
    rope_forward(l, in_place.data(), in.cos.data(), in.sin.data(), in.position_ids(),
                 in_place.data());
    ASSERT_EQ(apart, in_place) << name(s);
    rope_backward(l, in_place.data(), in.cos.data(), in.sin.data(), in.position_ids(),
                  in_place.data());
    for (std::size_t i = 0; i < in_place.size(); ++i)
      ASSERT_NEAR(in_place[i], in.x[i], 1e-5) << name(s) << ": backward undoes forward";
  }
}

TEST(Rope, DimsPastRotaryDimAreCopiedAndPairsKeepTheirLength) {
  std::mt19937 rng(11);
  const Shape s{1, 2, 6, 20, 8, false, true, false};
  const Inputs in = random_inputs(rng, s);
  std::vector<float> y(elements(s));
  rope_forward(layout_of(s), in.x.data(), in.cos.data(), in.sin.data(), nullptr, y.data());
  for (std::size_t row = 0; row < s.heads * s.seq; ++row) {
    const float* x_row = in.x.data() + row * s.head_size;
    const float* y_row = y.data() + row * s.head_size;
    for (std::size_t d = s.rotary_dim; d < s.head_size; ++d) EXPECT_EQ(y_row[d], x_row[d]);
    for (std::size_t i = 0; i < s.rotary_dim / 2; ++i)
      EXPECT_NEAR(std::hypot(y_row[i], y_row[i + 4]), std::hypot(x_row[i], x_row[i + 4]), 1e-5);
  }
}

TEST(Rope, QueryKeyDotProductDependsOnlyOnTheirDistance) {
  // The same query at position p and key at position p + 3 score the same for every p.
  std::mt19937 rng(12);
  const std::size_t d = 16, length = 40;
  std::vector<float> cos(length * d / 2), sin(cos.size());
  rope_cache(length, d, 10000.0, cos.data(), sin.data());
  const auto q = reference64::random_floats(rng, d), k = reference64::random_floats(rng, d);
  for (bool interleaved : {false, true}) {
    const RopeLayout one_row{1, 1, 1, d, d, interleaved, 0, 0, 0};
    std::vector<double> dots;
    for (std::int64_t p = 0; p + 3 < std::int64_t(length); p += 6) {
      std::vector<float> q_at(d), k_at(d);
      const std::int64_t key_position = p + 3;
      rope_forward(one_row, q.data(), cos.data(), sin.data(), &p, q_at.data());
      rope_forward(one_row, k.data(), cos.data(), sin.data(), &key_position, k_at.data());
      double dot = 0;
      for (std::size_t i = 0; i < d; ++i) dot += double(q_at[i]) * k_at[i];
      dots.push_back(dot);
    }
    for (double dot : dots) EXPECT_NEAR(dot, dots.front(), 1e-4) << interleaved;
  }
}

TEST(Rope, CacheHoldsCosAndSinOfPositionTimesFrequency) {
  const std::size_t length = 4096, rotary = 64, half = rotary / 2;
  std::vector<float> cos(length * half), sin(cos.size());
  rope_cache(length, rotary, 500000.0, cos.data(), sin.data());
  for (std::size_t i = 0; i < half; ++i) {
    EXPECT_EQ(cos[i], 1.0f);
    EXPECT_EQ(sin[i], 0.0f);
  }
  for (std::size_t p : {1u, 17u, 4095u})
    for (std::size_t i : {0u, 1u, 31u}) {
      const double theta = double(p) * std::pow(500000.0, -2.0 * double(i) / rotary);
      EXPECT_FLOAT_EQ(cos[p * half + i], float(std::cos(theta))) << p << " " << i;
      EXPECT_FLOAT_EQ(sin[p * half + i], float(std::sin(theta))) << p << " " << i;
    }
}
