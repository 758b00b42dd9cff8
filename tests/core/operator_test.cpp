// The whole operator through the JS layer's entry point (attention_call::run): random
// configurations of every feature against float64, the fused kernel against the scalar
// reference, what a padded cache may hold, and every rule the core refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "attention_backward_call.hpp"
#include "attention_call.hpp"
#include "call_harness.hpp"
#include "call_layout.hpp"
#include "kernels/flash_attention.hpp"
#include "kernels/scores.hpp"
#include "kv_cache_call.hpp"
#include "reference64.hpp"

namespace {

using attention::Layout;
using attention::MaskKeys;
using attention::MaskKind;

// A random problem with every feature in play: GQA, odd sizes, long caches (several key
// blocks), decoding (S = 1), a past cache or an external one with a different valid length
// per batch (negative offsets too), windows, masks of every rank, softcap, scores modes.
reference64::Problem random_problem(std::mt19937& rng, int round) {
  auto pick = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  reference64::Problem p;
  p.batch = pick(1, 3);
  p.hkv = pick(1, 3);
  p.hq = p.hkv * pick(1, 3);
  p.s = round % 4 == 0 ? 1 : pick(1, 70);
  p.t = round % 3 == 0 ? pick(100, 300) : pick(1, 80);
  p.d = pick(1, 40);
  p.dv = round % 2 ? p.d : pick(1, 40);
  p.q = reference64::random_floats(rng, p.batch * p.hq * p.s * p.d);
  p.k = reference64::random_floats(rng, p.batch * p.hkv * p.t * p.d);
  p.v = reference64::random_floats(rng, p.batch * p.hkv * p.t * p.dv);
  p.scale = 1.0 / std::sqrt(double(p.d));
  p.causal = pick(0, 1);
  p.softcap = pick(0, 3) == 0 ? 1.5 : 0.0;
  p.left = pick(0, 2) == 0 ? long(pick(0, 40)) : -1;
  p.right = pick(0, 3) == 0 ? long(pick(0, 20)) : -1;
  switch (pick(0, 2)) {
    case 0:
      p.past = pick(0, p.t);
      break;
    case 1:
      for (std::size_t b = 0; b < p.batch; ++b) p.nonpad.push_back(long(pick(0, p.t)));
      break;
    default:
      break;
  }
  p.mask_kind = int(pick(0, 2));
  if (p.mask_kind) {
    const std::size_t rank = pick(1, 4);
    const std::size_t full[4] = {p.batch, p.hq, p.s, p.t};
    std::size_t count = 1;
    for (std::size_t a = 4 - rank; a < 4; ++a) {
      std::size_t dim = pick(0, 1) ? full[a] : 1;
      if (a == 3) dim = pick(0, 1) ? p.t : pick(1, p.t);  // ONNX: may be shorter than T
      p.mask_dims.push_back(dim);
      count *= dim;
    }
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    for (std::size_t i = 0; i < count; ++i)
      p.mask.push_back(p.mask_kind == 1 ? double(pick(0, 3) != 0) : uniform(rng));
  }
  p.qk_mode = int(pick(0, 3));
  return p;
}

TEST(Operator, RandomConfigurationsMatchFloat64InBothLayouts) {
  std::mt19937 rng(10);
  for (int round = 0; round < 80; ++round) {
    const reference64::Problem p = random_problem(rng, round);
    const reference64::Result want = reference64::onnx_attention(p);
    const bool q_3d = round % 2 == 1, kv_3d = round % 4 >= 2;
    SCOPED_TRACE(testing::Message()
                 << "round " << round << ": B=" << p.batch << " Hq=" << p.hq << " Hkv=" << p.hkv
                 << " S=" << p.s << " T=" << p.t << " D=" << p.d << " Dv=" << p.dv
                 << " past=" << p.past << " nonpad=" << p.nonpad.size() << " causal=" << p.causal
                 << " left=" << p.left << " right=" << p.right << " mask=" << p.mask_kind
                 << " rank " << p.mask_dims.size() << " qk=" << p.qk_mode << " q_3d=" << q_3d
                 << " kv_3d=" << kv_3d);
    const auto got = call_harness::run(p, q_3d, kv_3d, true);
    ASSERT_EQ(got.error, "");
    ASSERT_TRUE(call_harness::close(got.y, want.y, 1e-4)) << "y";
    ASSERT_TRUE(call_harness::close(got.scores, want.scores, 1e-4)) << "scores";
  }
}

// attention() in JS calls the core through the plain export attention_call_run, the record by
// its address: it must compute exactly what the call record does, every feature in play.
TEST(Operator, PlainExportMatchesTheCallRecordBitForBit) {
  std::mt19937 rng(12);
  for (int round = 0; round < 40; ++round) {
    const reference64::Problem p = random_problem(rng, round);
    const bool q_3d = round % 2 == 1, kv_3d = round % 4 >= 2;
    SCOPED_TRACE(testing::Message() << "round " << round);
    const auto record = call_harness::run(p, q_3d, kv_3d, true);
    const auto exported = call_harness::run(p, q_3d, kv_3d, true, true);
    ASSERT_EQ(record.error, "");
    ASSERT_EQ(exported.error, "");
    ASSERT_EQ(exported.y, record.y);
    ASSERT_EQ(exported.scores, record.scores);
  }
}

// An enum's number that names no value (JS could pass any number) is refused, nothing written.
TEST(Operator, PlainExportRefusesUnknownEnumNumbers) {
  std::vector<float> q(4, 1.0f), y(4, -7.0f);
  const auto a = call_harness::address(q), out = call_harness::address(y);
  const auto run = [&](int layout, int mask_kind, int mask_keys, int scores_mode) {
    attention_call::AttentionCall c;
    c.q = c.k = c.v = a;
    c.y = out;
    c.head_size = c.v_head_size = 4;
    c.options.scale = 0.5f;
    c.q_layout = c.kv_layout = attention::Layout(layout);
    c.mask_kind = attention::MaskKind(mask_kind);
    c.mask_keys = attention::MaskKeys(mask_keys);
    c.scores_mode = attention::ScoresMode(scores_mode);
    const char* error = attention_call_run(&c);
    return std::string(error ? error : "");
  };
  EXPECT_EQ(run(2, 0, 0, 0), "unknown layout");
  EXPECT_EQ(run(-1, 0, 0, 0), "unknown layout");
  EXPECT_EQ(run(0, 3, 0, 0), "unknown mask kind");
  EXPECT_EQ(run(0, 0, 2, 0), "unknown mask keys");
  EXPECT_EQ(run(0, 0, 0, 4), "unknown scores mode");
  EXPECT_EQ(y, std::vector<float>(4, -7.0f));
  EXPECT_EQ(run(0, 0, 0, 0), "");
  EXPECT_EQ(y, std::vector<float>(4, 1.0f));  // softmax over one key: y = v
}

// The layouts JS packs records by (call_layout.hpp) say where the compiler put each field,
// name every field each_field lists, and cover each record up to its size.
TEST(Operator, CallLayoutsDescribeEveryRecordAsCompiled) {
  using attention_call::AttentionCall;
  const std::string json = attention_call::layouts();
  const auto has = [&](const std::string& piece) { return json.find(piece) != std::string::npos; };
  const auto at = [](auto member) { return std::to_string(call_layout::offset_of(member)); };
  EXPECT_TRUE(
      has("\"AttentionOptions\":{\"size\":" + std::to_string(sizeof(attention::AttentionOptions))));
  EXPECT_TRUE(has("[\"softcap\"," + at(&attention::AttentionOptions::softcap) + ",\"f32\"]"));
  EXPECT_TRUE(
      has("[\"left_window\"," + at(&attention::AttentionOptions::left_window) + ",\"i64\"]"));
  EXPECT_TRUE(has("[\"is_causal\"," + at(&attention::AttentionOptions::is_causal) + ",\"bool\"]"));
  EXPECT_TRUE(has("[\"options\"," + at(&AttentionCall::options) + ",\"AttentionOptions\"]"));
  EXPECT_TRUE(has("[\"mask_dims\"," + at(&AttentionCall::mask_dims) + ",\"u32[4]\"]"));
  EXPECT_TRUE(has("[\"q_layout\"," + at(&AttentionCall::q_layout) + ",\"i32\"]"));
  EXPECT_TRUE(has("[\"forward\",0,\"AttentionCall\"]"));
  EXPECT_TRUE(
      has("[\"options\"," + at(&kv_cache_call::KvAttendCall::options) + ",\"AttentionOptions\"]"));
  // Every field of each record, in order, ends where the next begins (or padding does).
  std::size_t fields = 0, end = 0;
  attention::AttentionOptions::each_field([&](const char*, auto member) {
    EXPECT_GE(call_layout::offset_of(member), end);
    end = call_layout::offset_of(member) + sizeof(attention::AttentionOptions().*member);
    ++fields;
  });
  EXPECT_LE(end, sizeof(attention::AttentionOptions));
  EXPECT_GT(end + 8, sizeof(attention::AttentionOptions));  // nothing unlisted at the end
  EXPECT_EQ(fields, 7u);
}

TEST(Operator, PlainExportWorkingBytesMatchTheCallRecord) {
  attention_call::AttentionCall c;
  c.batch = 2;
  c.q_num_heads = 8;
  c.kv_num_heads = 2;
  c.q_seq_len = 300;
  c.kv_seq_len = 70;
  c.head_size = 64;
  c.v_head_size = 48;
  EXPECT_GT(attention_call::working_bytes(c), 0.0);
  EXPECT_EQ(attention_call_working_bytes(2, 8, 2, 300, 70, 64, 48),
            attention_call::working_bytes(c));
  EXPECT_EQ(attention_call_working_bytes(2, 8, 3, 300, 70, 64, 48), 0.0);  // 3 does not divide 8
}

TEST(Operator, FusedKernelMatchesScalarReference) {
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    reference64::Problem p = random_problem(rng, round);
    p.qk_mode = 0;
    // Through the harness once for the fused kernel; then the same arguments to the reference.
    std::vector<std::int32_t> nonpad(p.nonpad.begin(), p.nonpad.end());
    std::vector<std::uint8_t> allowed;
    std::vector<float> bias;
    for (double m : p.mask) {
      allowed.push_back(m != 0.0);
      bias.push_back(float(m));
    }
    attention::AttentionShape s{p.batch, p.hq, p.hkv, p.s, p.t, p.d, p.dv};
    attention::AttentionOptions o;
    o.scale = float(p.scale);
    o.is_causal = p.causal;
    o.softcap = float(p.softcap);
    o.left_window = p.left;
    o.right_window = p.right;
    std::vector<float> fast(p.batch * p.hq * p.s * p.dv, -1.0f), slow(fast.size(), -2.0f);
    attention::AttentionArgs a =
        attention::contiguous_args(p.q.data(), p.k.data(), p.v.data(), {}, s, o, fast.data());
    a.past_length = p.past;
    a.nonpad_kv_seqlen = nonpad.empty() ? nullptr : nonpad.data();
    if (p.mask_kind) {
      ASSERT_EQ(attention::broadcast_mask_strides(p.mask_dims.data(), p.mask_dims.size(), s,
                                                  MaskKeys::pad, a.mask),
                nullptr);
      a.mask.kind = p.mask_kind == 1 ? MaskKind::boolean : MaskKind::additive;
      a.mask.allowed = allowed.data();
      a.mask.bias = bias.data();
    }
    ASSERT_EQ(attention::attention_error(a), nullptr);
    ASSERT_TRUE(attention::kernels::flash_attention(a));
    a.y = slow.data();
    ASSERT_TRUE(attention::kernels::attention_reference(a));
    for (std::size_t i = 0; i < fast.size(); ++i)
      ASSERT_NEAR(fast[i], slow[i], 2e-5) << "round " << round << " index " << i;
  }
}

TEST(Operator, PaddedKeysOfAnExternalCacheAreNeverRead) {
  // An external cache holds garbage beyond each batch's valid length; it must not matter.
  std::mt19937 rng(12);
  reference64::Problem p;
  p.batch = 3;
  p.hq = 4;
  p.hkv = 2;
  p.s = 1;
  p.t = 200;
  p.d = 16;
  p.dv = 12;
  p.causal = true;
  p.scale = 0.25;
  p.nonpad = {0, 70, 131};
  p.q = reference64::random_floats(rng, p.batch * p.hq * p.s * p.d);
  p.k = reference64::random_floats(rng, p.batch * p.hkv * p.t * p.d);
  p.v = reference64::random_floats(rng, p.batch * p.hkv * p.t * p.dv);
  const reference64::Result want = reference64::onnx_attention(p);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t b = 0; b < p.batch; ++b)
    for (std::size_t g = 0; g < p.hkv; ++g)
      for (std::size_t j = std::size_t(p.nonpad[b]); j < p.t; ++j) {
        for (std::size_t c = 0; c < p.d; ++c) p.k[((b * p.hkv + g) * p.t + j) * p.d + c] = nan;
        for (std::size_t c = 0; c < p.dv; ++c) p.v[((b * p.hkv + g) * p.t + j) * p.dv + c] = nan;
      }
  const auto got = call_harness::run(p, false, false, false);
  ASSERT_EQ(got.error, "");
  EXPECT_TRUE(call_harness::close(got.y, want.y, 1e-5));
  // Batch 0 has no valid key: its rows are zeros.
  for (std::size_t i = 0; i < p.hq * p.dv; ++i) EXPECT_EQ(got.y[i], 0.0f);
}

TEST(Operator, DecodingTokenByTokenEqualsFullCausalAttention) {
  // Step t reads query t and the first t + 1 keys where they lie in the full buffers (past
  // length t), and must give row t of one causal pass over the whole sequence.
  std::mt19937 rng(14);
  const std::size_t n = 150, hq = 4, hkv = 2, d = 24, dv = 20;
  const attention::AttentionShape full{1, hq, hkv, n, n, d, dv};
  attention::AttentionOptions o;
  o.scale = 0.2f;
  o.is_causal = true;
  const auto q = reference64::random_floats(rng, hq * n * d);
  const auto k = reference64::random_floats(rng, hkv * n * d);
  const auto v = reference64::random_floats(rng, hkv * n * dv);
  std::vector<float> prefill(hq * n * dv), decoded(hq * n * dv, -1.0f);
  ASSERT_EQ(attention::attention(q.data(), k.data(), v.data(), {}, full, o, prefill.data()),
            attention::Status::ok);
  for (std::size_t t = 0; t < n; ++t) {
    attention::AttentionArgs a =
        attention::contiguous_args(q.data(), k.data(), v.data(), {}, full, o, decoded.data());
    a.shape.q_seq_len = 1;
    a.shape.kv_seq_len = t + 1;
    a.past_length = t;
    a.q = q.data() + t * d;  // strides stay those of the full buffers
    a.y = decoded.data() + t * dv;
    ASSERT_EQ(attention::attention(a), attention::Status::ok) << "step " << t;
  }
  for (std::size_t i = 0; i < prefill.size(); ++i)
    ASSERT_NEAR(decoded[i], prefill[i], 1e-5) << "index " << i;
}

TEST(Operator, NegativeOffsetLeavesLeadingRowsEmpty) {
  // nonpad 2 with 5 queries: offset -3, so queries 0..2 see no key under causal.
  std::mt19937 rng(13);
  reference64::Problem p;
  p.s = 5;
  p.t = 6;
  p.d = 4;
  p.dv = 3;
  p.causal = true;
  p.nonpad = {2};
  p.q = reference64::random_floats(rng, p.s * p.d);
  p.k = reference64::random_floats(rng, p.t * p.d);
  p.v = reference64::random_floats(rng, p.t * p.dv);
  p.qk_mode = 3;
  const auto got = call_harness::run(p, false, false, true);
  ASSERT_EQ(got.error, "");
  for (std::size_t i = 0; i < 3 * p.dv; ++i) EXPECT_EQ(got.y[i], 0.0f);
  for (std::size_t i = 0; i < 3 * p.t; ++i) EXPECT_EQ(got.scores[i], 0.0f);
  // Query 3 sits at position 0 and sees key 0 alone; query 4 sees keys 0 and 1.
  for (std::size_t c = 0; c < p.dv; ++c) EXPECT_FLOAT_EQ(got.y[3 * p.dv + c], p.v[c]);
  EXPECT_FLOAT_EQ(got.scores[3 * p.t], 1.0f);
  EXPECT_NEAR(got.scores[4 * p.t] + got.scores[4 * p.t + 1], 1.0f, 1e-6);
}

TEST(Operator, SoftcapWithMinusInfinityMaskStaysFinite) {
  reference64::Problem p;
  p.s = 2;
  p.t = 3;
  p.d = 2;
  p.dv = 2;
  p.q = {1, 2, 3, 4};
  p.k = {1, 0, 0, 1, 1, 1};
  p.v = {1, 2, 3, 4, 5, 6};
  p.softcap = 0.5;
  p.mask_kind = 2;
  p.mask_dims = {2, 3};
  const double inf = std::numeric_limits<double>::infinity();
  p.mask = {-inf, 0.0, -inf, -inf, -inf, -inf};  // row 1 sees nothing
  p.qk_mode = 2;
  const auto got = call_harness::run(p, false, false, true);
  ASSERT_EQ(got.error, "");
  EXPECT_FLOAT_EQ(got.y[0], 3.0f);
  EXPECT_FLOAT_EQ(got.y[1], 4.0f);
  EXPECT_EQ(got.y[2], 0.0f);
  EXPECT_EQ(got.y[3], 0.0f);
  EXPECT_EQ(got.scores[0], -std::numeric_limits<float>::infinity());
  EXPECT_FLOAT_EQ(got.scores[1], float(0.5 * std::tanh(2.0 / std::sqrt(1.0) / 0.5)));
}

TEST(Operator, ScoresModeRawIsBeforeSoftcap) {
  // Mode 0 is scale * q.k even with softcap on; mode 1 is after it.
  reference64::Problem p;
  p.s = 1;
  p.t = 2;
  p.d = 1;
  p.dv = 1;
  p.q = {2};
  p.k = {3, -1};
  p.v = {1, 1};
  p.scale = 0.5;
  p.softcap = 1.0;
  p.qk_mode = 0;
  auto got = call_harness::run(p, false, false, true);
  EXPECT_FLOAT_EQ(got.scores[0], 3.0f);
  EXPECT_FLOAT_EQ(got.scores[1], -1.0f);
  p.qk_mode = 1;
  got = call_harness::run(p, false, false, true);
  EXPECT_FLOAT_EQ(got.scores[0], std::tanh(3.0f));
  EXPECT_FLOAT_EQ(got.scores[1], std::tanh(-1.0f));
}

// A valid call over small buffers, for the refusals below to break one rule at a time.
struct ValidCall {
  std::vector<float> q = std::vector<float>(2 * 4 * 3 * 5, 0.5f);
  std::vector<float> kv = std::vector<float>(2 * 2 * 7 * 5, 0.25f);
  std::vector<float> y = std::vector<float>(2 * 4 * 3 * 5, 9.0f);
  std::vector<std::int32_t> nonpad = {3, 7};
  std::vector<float> mask = std::vector<float>(2 * 4 * 3 * 7, 0.0f);
  attention_call::AttentionCall call;
  ValidCall() {
    call.q = call_harness::address(q);
    call.k = call.v = call_harness::address(kv);
    call.y = call_harness::address(y);
    call.batch = 2;
    call.q_num_heads = 4;
    call.kv_num_heads = 2;
    call.q_seq_len = 3;
    call.kv_seq_len = 7;
    call.head_size = call.v_head_size = 5;
    call.mask_kind = MaskKind::additive;
    call.mask = call_harness::address(mask);
    call.mask_rank = 4;
    call.mask_dims = {2, 4, 3, 7};
  }
};

TEST(Operator, EveryRuleTheCoreChecksIsRefusedWithoutWriting) {
  EXPECT_EQ(attention_call::run(ValidCall().call), "");
  const std::vector<std::pair<const char*, void (*)(attention_call::AttentionCall&)>> breaks = {
      {"batch 0", [](auto& c) { c.batch = 0; }},
      {"q heads 0", [](auto& c) { c.q_num_heads = 0; }},
      {"kv heads 0", [](auto& c) { c.kv_num_heads = 0; }},
      {"kv heads not dividing", [](auto& c) { c.kv_num_heads = 3; }},
      {"S 0", [](auto& c) { c.q_seq_len = 0; }},
      {"T 0", [](auto& c) { c.kv_seq_len = 0; }},
      {"D 0", [](auto& c) { c.head_size = 0; }},
      {"Dv 0", [](auto& c) { c.v_head_size = 0; }},
      {"no q", [](auto& c) { c.q = 0; }},
      {"no y", [](auto& c) { c.y = 0; }},
      {"left window -2", [](auto& c) { c.options.left_window = -2; }},
      {"right window -2", [](auto& c) { c.options.right_window = -2; }},
      {"past beyond T", [](auto& c) { c.past_length = 8; }},
      {"mask rank 0", [](auto& c) { c.mask_rank = 0; }},
      {"mask rank 5", [](auto& c) { c.mask_rank = 5; }},
      {"mask batch 3", [](auto& c) { c.mask_dims[0] = 3; }},
      {"mask heads 2", [](auto& c) { c.mask_dims[1] = 2; }},
      {"mask rows 2", [](auto& c) { c.mask_dims[2] = 2; }},
      {"mask keys 8", [](auto& c) { c.mask_dims[3] = 8; }},
      {"broadcast mask keys 6", [](auto& c) { c.mask_dims[3] = 6; }},
      {"mask without data", [](auto& c) { c.mask = 0; }},
      {"shape beyond the address space",
       [](auto& c) {
         c.batch = c.q_num_heads = c.q_seq_len = 0xffff0000u;
         c.kv_num_heads = 1;
       }},
  };
  for (const auto& [what, change] : breaks) {
    ValidCall v;
    v.call.mask_keys =
        std::string(what) == "broadcast mask keys 6" ? MaskKeys::broadcast : MaskKeys::pad;
    change(v.call);
    EXPECT_NE(attention_call::run(v.call), "") << what;
    for (float y : v.y) ASSERT_EQ(y, 9.0f) << what << ": y was written";
  }
  // The external cache's rules.
  for (std::int32_t bad : {-1, 8}) {
    ValidCall v;
    v.nonpad[1] = bad;
    v.call.nonpad_kv_seqlen = call_harness::address(v.nonpad);
    EXPECT_NE(attention_call::run(v.call), "") << "nonpad " << bad;
  }
  ValidCall both;
  both.call.nonpad_kv_seqlen = call_harness::address(both.nonpad);
  EXPECT_EQ(attention_call::run(both.call), "");
  both.call.past_length = 1;
  EXPECT_EQ(attention_call::run(both.call),
            "a past length and per-batch key counts cannot be combined");
}

TEST(Operator, MessagesAreNeutral) {
  ValidCall v;
  v.call.kv_num_heads = 3;
  EXPECT_EQ(attention_call::run(v.call), "kv_num_heads must divide q_num_heads");
  v = ValidCall();
  v.call.mask_dims[3] = 9;
  EXPECT_EQ(attention_call::run(v.call), "the mask's last dim must be kv_seq_len or 1");
}

TEST(Operator, DecodingNeedsLessWorkingMemoryThanPrefill) {
  attention_call::AttentionCall c;
  c.q_num_heads = c.kv_num_heads = 8;
  c.head_size = c.v_head_size = 64;
  c.kv_seq_len = 4096;
  c.q_seq_len = 1;
  const double decode = attention_call::working_bytes(c);
  c.q_seq_len = 4096;
  const double prefill = attention_call::working_bytes(c);
  EXPECT_GT(decode, 0.0);
  EXPECT_LT(decode * 2, prefill);
  c.kv_num_heads = 3;
  EXPECT_EQ(attention_call::working_bytes(c), 0.0);  // an invalid shape allocates nothing
}

}  // namespace
