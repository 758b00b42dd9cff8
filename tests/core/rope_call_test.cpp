// The JS layer's RoPE entry points (rope_call.hpp): what they refuse (every rule memory safety
// needs, each position id included), and the 3-D layout giving the 4-D result.
#include "rope_call.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "call_harness.hpp"
#include "reference64.hpp"
#include "rope.hpp"

using attention_call::RopeCall;
using call_harness::address;

namespace {

// B = 2, H = 3, S = 4, D = 8, R = 8, caches of 10 rows, position ids from 0 to 9.
struct Fixture {
  std::vector<float> x, y, cos, sin;
  std::vector<std::int64_t> ids{0, 3, 9, 1, 2, 2, 5, 7};
  RopeCall call;
  Fixture() {
    std::mt19937 rng(3);
    x = reference64::random_floats(rng, 2 * 3 * 4 * 8);
    y.assign(x.size(), -7.0f);
    cos.resize(10 * 4);
    sin.resize(10 * 4);
    attention_call::run_rope_cache({address(cos), address(sin), 10, 8, 10000.0});
    call.x = address(x);
    call.y = address(y);
    call.cos_cache = address(cos);
    call.sin_cache = address(sin);
    call.position_ids = address(ids);
    call.batch = 2, call.heads = 3, call.seq = 4, call.head_size = 8, call.rotary_dim = 8;
    call.cache_rows = 10;
  }
};

}  // namespace

TEST(RopeCall, RotatesLikeTheCoreAndTheThreeDLayoutGivesTheSame) {
  Fixture f;
  ASSERT_EQ(attention_call::run_rope(f.call), "");
  std::vector<float> expected(f.x.size());
  const attention::RopeLayout four_d{2, 3, 4, 8, 8, false, 3 * 4 * 8, 4 * 8, 8};
  attention::rope_forward_reference(four_d, f.x.data(), f.cos.data(), f.sin.data(), f.ids.data(),
                                    expected.data());
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(f.y[i], expected[i], 1e-6);

  auto x3 = call_harness::relayout(f.x, 2, 3, 4, 8, true);
  f.call.x = f.call.y = address(x3);  // in place
  f.call.layout = attention::Layout::bshd;
  ASSERT_EQ(attention_call::run_rope(f.call), "");
  const auto back = call_harness::relayout(x3, 2, 3, 4, 8, false);
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(back[i], expected[i], 1e-6);
}

TEST(RopeCall, RefusesWhatWouldReadOutOfBoundsAndWritesNothing) {
  Fixture f;
  const auto refused = [&](RopeCall call, const char* expected) {
    EXPECT_EQ(attention_call::run_rope(call), expected);
    for (float v : f.y) ASSERT_EQ(v, -7.0f) << expected;
  };
  RopeCall c = f.call;
  c.rotary_dim = 7;
  refused(c, "the rotary dim must be even and at least 2");
  c.rotary_dim = 0;
  refused(c, "the rotary dim must be even and at least 2");
  c.rotary_dim = 10;
  refused(c, "the rotary dim must not exceed the head size");
  c = f.call;
  c.cache_rows = 9;  // id 9 no longer a row
  refused(c, "a position id is outside the caches' rows");
  f.ids[5] = -1;
  refused(f.call, "a position id is outside the caches' rows");
  c = f.call;
  c.position_ids = 0;
  c.cache_rows = 7;  // below batch * seq = 8
  refused(c, "the caches have fewer rows than batch * seq");
  c = f.call;
  c.batch = c.seq = 0xffffffffu;
  refused(c, "batch * seq is more rows than memory can address");
  c.batch = c.seq = 0xffffu;
  c.heads = c.head_size = 0xffffffffu;
  refused(c, "the tensor has more elements than memory can address");
  c = f.call;
  c.cos_cache = 0;
  refused(c, "a tensor's address is 0");
}

TEST(RopeCall, CacheCallRefusesBadArguments) {
  std::vector<float> cos(8), sin(8);
  attention_call::RopeCacheCall c{address(cos), address(sin), 4, 4, 10000.0};
  EXPECT_EQ(attention_call::run_rope_cache(c), "");
  EXPECT_EQ(cos[0], 1.0f);
  c.rotary_dim = 3;
  EXPECT_EQ(attention_call::run_rope_cache(c), "the rotary dim must be even and at least 2");
  c.rotary_dim = 4;
  for (double base : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    c.base = base;
    EXPECT_EQ(attention_call::run_rope_cache(c), "the base must be positive and finite");
  }
}
