// attentionBackward's core: the tuned kernel (flash_attention_backward) against its scalar
// reference and against a float64 backward (reference64::onnx_attention_backward), which
// central finite differences of the float64 forward check in turn; over every option.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "attention_backward_call.hpp"
#include "call_harness.hpp"
#include "kernels/flash_attention_backward.hpp"
#include "reference64.hpp"

using attention::kernels::AttentionBackwardArgs;
using call_harness::address;
using call_harness::close;
using reference64::Problem;

namespace {

struct Grads {
  std::string error;
  std::vector<float> q, k, v, y;
};

// The problem's masks as the call takes them (boolean bytes or additive floats).
struct MaskData {
  std::vector<std::uint8_t> allowed;
  std::vector<float> bias;
};

// A Problem as the entry point JS uses, 4-D; `into_y` also asks for the forward's y.
attention_call::AttentionBackwardCall backward_call(const Problem& p, const MaskData& mask,
                                                    const std::vector<float>& grad_y, Grads& out,
                                                    bool into_y) {
  out.q.assign(p.q.size(), -7.0f);
  out.k.assign(p.k.size(), -7.0f);
  out.v.assign(p.v.size(), -7.0f);
  out.y.assign(grad_y.size(), -7.0f);
  attention_call::AttentionBackwardCall call;
  attention_call::AttentionCall& c = call.forward;
  c.q = address(p.q);
  c.k = address(p.k);
  c.v = address(p.v);
  c.y = into_y ? address(out.y) : 0;
  c.batch = p.batch;
  c.q_num_heads = p.hq;
  c.kv_num_heads = p.hkv;
  c.q_seq_len = p.s;
  c.kv_seq_len = p.t;
  c.head_size = p.d;
  c.v_head_size = p.dv;
  c.options.scale = float(p.scale);
  c.options.is_causal = p.causal;
  c.options.softcap = float(p.softcap);
  c.options.left_window = std::int32_t(p.left);
  c.options.right_window = std::int32_t(p.right);
  if (p.mask_kind != 0) {
    c.mask_kind = p.mask_kind == 1 ? attention::MaskKind::boolean : attention::MaskKind::additive;
    c.mask = p.mask_kind == 1 ? address(mask.allowed) : address(mask.bias);
    c.mask_rank = p.mask_dims.size();
    for (std::size_t i = 0; i < p.mask_dims.size(); ++i) c.mask_dims[i] = p.mask_dims[i];
  }
  call.grad_y = address(grad_y);
  call.grad_q = address(out.q);
  call.grad_k = address(out.k);
  call.grad_v = address(out.v);
  return call;
}

MaskData mask_data(const Problem& p) {
  MaskData m;
  for (double x : p.mask) {
    m.allowed.push_back(x != 0.0);
    m.bias.push_back(float(x));
  }
  return m;
}

// Runs the tuned kernel through the JS entry point, and the scalar reference on the same
// arguments; both against the float64 backward, and the tuned y against the float64 forward.
void expect_backward_matches(const Problem& p, std::mt19937& rng, double tolerance = 2e-5) {
  const auto grad_y = reference64::random_floats(rng, p.batch * p.hq * p.s * p.dv);
  const MaskData mask = mask_data(p);
  Grads fast, slow;
  const auto fast_call = backward_call(p, mask, grad_y, fast, true);
  ASSERT_EQ(attention_call::run_backward(fast_call), "");
  AttentionBackwardArgs args;
  const auto slow_call = backward_call(p, mask, grad_y, slow, true);
  ASSERT_EQ(attention_call::to_args(slow_call.forward, args.forward), nullptr);
  args.grad_y = grad_y.data();
  args.grad_q = slow.q.data();
  args.grad_k = slow.k.data();
  args.grad_v = slow.v.data();
  ASSERT_TRUE(attention::kernels::attention_backward_reference(args));
  const reference64::Gradients want = reference64::onnx_attention_backward(p, grad_y);
  const std::vector<double> want_y = reference64::onnx_attention(p).y;
  for (const Grads* g : {&fast, &slow}) {
    const char* which = g == &fast ? "tuned" : "scalar reference";
    EXPECT_TRUE(close(g->q, want.q, tolerance)) << which << " dq";
    EXPECT_TRUE(close(g->k, want.k, tolerance)) << which << " dk";
    EXPECT_TRUE(close(g->v, want.v, tolerance)) << which << " dv";
    EXPECT_TRUE(close(g->y, want_y, tolerance)) << which << " y";
  }
}

Problem random_problem(std::mt19937& rng, std::size_t batch, std::size_t hq, std::size_t hkv,
                       std::size_t s, std::size_t t, std::size_t d, std::size_t dv) {
  Problem p;
  p.batch = batch;
  p.hq = hq;
  p.hkv = hkv;
  p.s = s;
  p.t = t;
  p.d = d;
  p.dv = dv;
  p.q = reference64::random_floats(rng, batch * hq * s * d);
  p.k = reference64::random_floats(rng, batch * hkv * t * d);
  p.v = reference64::random_floats(rng, batch * hkv * t * dv);
  p.scale = 1.0 / std::sqrt(double(d));
  p.mask_last_dim_broadcasts = true;  // attention()'s rule
  return p;
}

// A boolean mask [S, T] (rank 2: shared by batches and heads) hiding every key of row
// `hidden_row`, and some others.
void add_boolean_mask(Problem& p, std::size_t hidden_row) {
  p.mask_kind = 1;
  p.mask_dims = {p.s, p.t};
  p.mask.assign(p.s * p.t, 1.0);
  for (std::size_t i = 0; i < p.s; ++i)
    for (std::size_t j = 0; j < p.t; ++j)
      if (i == hidden_row || (i + 2 * j) % 5 == 0) p.mask[i * p.t + j] = 0.0;
}

}  // namespace

TEST(AttentionBackward, MatchesFloat64OnOddSizes) {
  std::mt19937 rng(11);
  for (std::size_t s : {1u, 5u, 70u})
    for (std::size_t t : {1u, 9u, 65u, 130u})
      for (std::size_t d : {3u, 16u}) {
        Problem p = random_problem(rng, 1, 2, 2, s, t, d, d == 3 ? 7 : 16);
        p.causal = (s + t) % 2 == 1;
        SCOPED_TRACE(::testing::Message() << "s=" << s << " t=" << t << " d=" << d);
        expect_backward_matches(p, rng);
      }
}

TEST(AttentionBackward, GroupedAndMultiQueryHeadsSumIntoTheirKvHead) {
  std::mt19937 rng(12);
  expect_backward_matches(random_problem(rng, 2, 6, 2, 13, 21, 8, 5), rng);  // GQA, batch 2
  Problem mqa = random_problem(rng, 1, 4, 1, 67, 67, 12, 20);                // MQA
  mqa.causal = true;
  expect_backward_matches(mqa, rng);
}

TEST(AttentionBackward, SoftcapByTheChainRule) {
  std::mt19937 rng(13);
  Problem p = random_problem(rng, 1, 2, 1, 9, 70, 6, 6);
  p.q = reference64::random_floats(rng, p.q.size(), 3.0f);  // scores large enough to bend
  p.softcap = 2.0;
  expect_backward_matches(p, rng);
  p.causal = true;
  expect_backward_matches(p, rng);
}

TEST(AttentionBackward, BooleanMaskWithAFullyMaskedRowGivesItZeroGradients) {
  std::mt19937 rng(14);
  Problem p = random_problem(rng, 2, 2, 2, 6, 66, 5, 3);
  add_boolean_mask(p, 2);
  expect_backward_matches(p, rng);
  // Row 2 of every head sees nothing: y = 0 there and its q gets no gradient.
  const MaskData mask = mask_data(p);
  const auto grad_y = reference64::random_floats(rng, p.batch * p.hq * p.s * p.dv);
  Grads g;
  ASSERT_EQ(attention_call::run_backward(backward_call(p, mask, grad_y, g, false)), "");
  for (std::size_t bh = 0; bh < p.batch * p.hq; ++bh)
    for (std::size_t c = 0; c < p.d; ++c) EXPECT_EQ(g.q[(bh * p.s + 2) * p.d + c], 0.0f);
}

TEST(AttentionBackward, AdditiveMaskBroadcastOverBatchAndHeads) {
  std::mt19937 rng(15);
  Problem p = random_problem(rng, 2, 4, 2, 7, 11, 4, 9);
  p.mask_kind = 2;
  p.mask_dims = {4, 1, 11};  // per head, the same for every query row, broadcast over batch
  p.mask.resize(4 * 11);
  std::uniform_real_distribution<double> bias(-2.0, 2.0);
  for (double& m : p.mask) m = bias(rng);
  p.mask[3] = -std::numeric_limits<double>::infinity();
  p.causal = true;
  expect_backward_matches(p, rng);
}

// A key every row's mask hides, whose value row overflows dP = dO . v (two entries of 2e38
// against dO = 1): its P is 0 in every row, and it must enter no row's sums. It did: D_i summed
// P o dP over it, 0 * inf = NaN, and every row's gradQ and gradK came back NaN, though the
// forward's output and the exact gradients are finite (issue 29).
TEST(AttentionBackward, AHiddenKeyWithAHugeValueRowPoisonsNoRow) {
  std::mt19937 rng(19);
  for (bool causal : {false, true}) {
    Problem p = random_problem(rng, 1, 2, 1, 9, 40, 6, 4);
    p.causal = causal;
    const std::size_t hidden = 3;
    p.mask_kind = 1;
    p.mask_dims = {p.s, p.t};
    p.mask.assign(p.s * p.t, 1.0);
    for (std::size_t i = 0; i < p.s; ++i) p.mask[i * p.t + hidden] = 0.0;
    p.v[hidden * p.dv] = 2e38f;
    p.v[hidden * p.dv + 1] = 2e38f;
    const MaskData mask = mask_data(p);
    const std::vector<float> grad_y(p.batch * p.hq * p.s * p.dv, 1.0f);
    const reference64::Gradients want = reference64::onnx_attention_backward(p, grad_y);
    Grads fast, slow;
    ASSERT_EQ(attention_call::run_backward(backward_call(p, mask, grad_y, fast, true)), "");
    AttentionBackwardArgs args;
    const auto slow_call = backward_call(p, mask, grad_y, slow, true);
    ASSERT_EQ(attention_call::to_args(slow_call.forward, args.forward), nullptr);
    args.grad_y = grad_y.data();
    args.grad_q = slow.q.data();
    args.grad_k = slow.k.data();
    args.grad_v = slow.v.data();
    ASSERT_TRUE(attention::kernels::attention_backward_reference(args));
    for (const Grads* g : {&fast, &slow}) {
      const char* which = g == &fast ? "tuned" : "scalar reference";
      EXPECT_TRUE(close(g->q, want.q, 2e-5)) << which << " dq, causal " << causal;
      EXPECT_TRUE(close(g->k, want.k, 2e-5)) << which << " dk, causal " << causal;
      EXPECT_TRUE(close(g->v, want.v, 2e-5)) << which << " dv, causal " << causal;
    }
  }
}

// One tile of queries, then several (the kernel's tiles are 32 rows, its pairs of rows take
// their own key spans, its key tiles of 16 only the rows that see them), with tiles that
// straddle two query heads of a group; windows, then causal, then both.
TEST(AttentionBackward, WindowsHideKeysFromTheGradientsToo) {
  std::mt19937 rng(16);
  Problem small = random_problem(rng, 1, 2, 2, 20, 20, 8, 8);
  small.left = 3;
  small.right = 1;
  expect_backward_matches(small, rng);
  Problem p = random_problem(rng, 1, 4, 2, 101, 150, 16, 12);
  p.left = 37;
  p.right = 5;
  expect_backward_matches(p, rng);
  p.left = -1;
  p.right = -1;
  p.causal = true;
  expect_backward_matches(p, rng);
  p.left = 21;
  expect_backward_matches(p, rng);
}

TEST(AttentionBackward, Float64BackwardMatchesCentralFiniteDifferences) {
  // The yardstick checked on its own: L = sum(grad_y o y), each input nudged both ways.
  std::mt19937 rng(17);
  Problem p = random_problem(rng, 2, 4, 2, 3, 5, 3, 2);
  p.causal = true;
  p.softcap = 1.5;
  add_boolean_mask(p, 1);
  p.mask_dims = {1, 1, p.s, p.t};
  const auto grad_y = reference64::random_floats(rng, p.batch * p.hq * p.s * p.dv);
  const auto loss = [&](const Problem& x) {
    const std::vector<double> y = reference64::onnx_attention(x).y;
    double sum = 0;
    for (std::size_t i = 0; i < y.size(); ++i) sum += grad_y[i] * y[i];
    return sum;
  };
  const reference64::Gradients g = reference64::onnx_attention_backward(p, grad_y);
  // The tensors are float, so the nudge is one a float holds exactly around each value.
  const auto check = [&](std::vector<float> Problem::*tensor, const std::vector<double>& want) {
    for (std::size_t i = 0; i < (p.*tensor).size(); ++i) {
      Problem up = p, down = p;
      const float h = 1.0f / 1024;
      (up.*tensor)[i] += h;
      (down.*tensor)[i] -= h;
      const double h_exact = double((up.*tensor)[i]) - double((down.*tensor)[i]);
      EXPECT_NEAR((loss(up) - loss(down)) / h_exact, want[i], 1e-5) << i;
    }
  };
  check(&Problem::q, g.q);
  check(&Problem::k, g.k);
  check(&Problem::v, g.v);
}

TEST(AttentionBackward, RefusesMissingGradientsAndScores) {
  std::mt19937 rng(18);
  const Problem p = random_problem(rng, 1, 1, 1, 2, 2, 2, 2);
  const auto grad_y = reference64::random_floats(rng, 4);
  Grads g;
  auto call = backward_call(p, MaskData(), grad_y, g, false);
  call.grad_k = 0;
  EXPECT_NE(attention_call::run_backward(call), "");
  call = backward_call(p, MaskData(), grad_y, g, false);
  call.forward.scores = address(g.y);
  EXPECT_NE(attention_call::run_backward(call), "");
  call = backward_call(p, MaskData(), grad_y, g, false);
  call.forward.kv_num_heads = 3;  // does not divide
  EXPECT_NE(attention_call::run_backward(call), "");
  EXPECT_EQ(g.q[0], -7.0f) << "a refused call writes nothing";
}
