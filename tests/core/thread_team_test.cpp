// ThreadTeam: every task runs once, on the caller and the helpers, call after call; and the
// tiled kernel computes the same output, bit for bit, with a team as without one.
#include "thread_team.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "attention.hpp"
#include "attention_call.hpp"
#include "random_qkv.hpp"
#include "reference64.hpp"

using namespace attention;

TEST(ThreadTeam, RunsEveryTaskOnceCallAfterCall) {
  const auto team = ThreadTeam::start(3);
  ASSERT_NE(team, nullptr);
  EXPECT_EQ(team->size(), 4u);
  for (std::size_t tasks : {0u, 1u, 2u, 7u, 64u, 1000u, 3u}) {
    std::vector<std::atomic<int>> runs(tasks);
    std::atomic<bool> bad_thread{false};
    auto work = [&](std::size_t task, std::size_t thread) {
      runs[task].fetch_add(1);
      if (thread >= 4) bad_thread = true;
    };
    team->run(tasks, work);
    for (std::size_t i = 0; i < tasks; ++i) ASSERT_EQ(runs[i].load(), 1) << "task " << i;
    EXPECT_FALSE(bad_thread);
  }
}

TEST(ThreadTeam, HelpersTakeAShare) {
  // Tasks slow enough that the helpers wake before the caller is done: more than one thread
  // runs them.
  const auto team = ThreadTeam::start(2);
  ASSERT_NE(team, nullptr);
  std::mutex m;
  std::set<std::size_t> threads;
  auto work = [&](std::size_t, std::size_t thread) {
    volatile double x = 0;
    for (int i = 0; i < 2000000; ++i) x = x + 1e-9;
    std::lock_guard<std::mutex> lock(m);
    threads.insert(thread);
  };
  team->run(32, work);
  EXPECT_GT(threads.size(), 1u);
}

TEST(ThreadTeam, RefusesHelperCountsOutsideItsBounds) {
  EXPECT_EQ(ThreadTeam::start(0), nullptr);
  EXPECT_EQ(ThreadTeam::start(max_team_helpers + 1), nullptr);
}

TEST(ThreadTeam, ManyShortCallsInARow) {
  // Calls that end before a helper wakes: the next call must not hand a helper's stale copy
  // of the previous call any task.
  const auto team = ThreadTeam::start(2);
  ASSERT_NE(team, nullptr);
  std::atomic<long> sum{0};
  for (int call = 0; call < 20000; ++call) {
    std::vector<int> values = {call, 1, 2};
    auto work = [&](std::size_t task, std::size_t) { sum.fetch_add(values[task]); };
    team->run(values.size(), work);
  }
  EXPECT_EQ(sum.load(), 20000L * 19999 / 2 + 20000L * 3);
}

namespace {

// y of one call on the caller alone and on a team of `threads`: equal bit for bit.
void expect_same_with_team(const AttentionShape& s, const AttentionOptions& o,
                           std::size_t threads) {
  std::mt19937 rng(unsigned(s.q_seq_len * 31 + s.q_num_heads * 7 + threads));
  const auto [q, k, v] = random_qkv(rng, s);
  const std::size_t n = s.batch * s.q_num_heads * s.q_seq_len * s.v_head_size;
  std::vector<float> alone(n), shared(n, -1.0f);
  AttentionArgs args = contiguous_args(q.data(), k.data(), v.data(), {}, s, o, alone.data());
  ASSERT_EQ(attention::attention(args), Status::ok);
  const auto team = ThreadTeam::start(threads - 1);
  ASSERT_NE(team, nullptr);
  args.y = shared.data();
  args.team = team.get();
  ASSERT_EQ(attention::attention(args), Status::ok);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(shared[i], alone[i])
        << "index " << i << ", S " << s.q_seq_len << ", heads " << s.q_num_heads << ", causal "
        << o.is_causal << ", window " << o.left_window << ", threads " << threads;
}

}  // namespace

TEST(ThreadTeam, AttentionOnATeamEqualsTheCallerAlone) {
  AttentionOptions plain;
  plain.scale = 0.125f;
  AttentionOptions causal = plain;
  causal.is_causal = true;
  AttentionOptions windowed = plain;
  windowed.left_window = 37;
  windowed.softcap = 5.0f;
  // One head split into row blocks, several heads, grouped queries, odd sizes, a causal mask
  // whose edge falls inside blocks, a decode-sized call (the decode path, no team).
  const AttentionShape shapes[] = {
      {1, 1, 1, 256, 256, 64, 64}, {1, 8, 8, 256, 256, 64, 64}, {2, 4, 2, 129, 200, 24, 40},
      {1, 3, 1, 77, 77, 17, 9},    {1, 2, 2, 1, 300, 64, 64},
  };
  for (const AttentionShape& s : shapes)
    for (const AttentionOptions* o : {&plain, &causal, &windowed})
      for (std::size_t threads : {2u, 3u}) expect_same_with_team(s, *o, threads);
}

TEST(ThreadTeam, TheCallLayerStartsAndStopsTheModulesTeam) {
  using attention_call::set_threads;
  ASSERT_EQ(attention_call::threads(), 1u);
  EXPECT_STREQ(set_threads(0), "threads must be from 1 to 64");
  EXPECT_STREQ(set_threads(65), "threads must be from 1 to 64");
  EXPECT_EQ(attention_call::threads(), 1u);  // refused: nothing changed

  std::vector<float> q(8 * 256 * 64), y1(q.size()), y3(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = float(std::sin(0.37 * double(i)));
  attention_call::AttentionCall call;
  call.q_num_heads = call.kv_num_heads = 8;
  call.q_seq_len = call.kv_seq_len = 256;
  call.head_size = call.v_head_size = 64;
  call.options.scale = 0.125f;
  call.q = call.k = call.v = reinterpret_cast<std::uintptr_t>(q.data());
  call.y = reinterpret_cast<std::uintptr_t>(y1.data());
  ASSERT_EQ(attention_call::run(call), "");
  const double one_thread_bytes = attention_call::working_bytes(call);

  ASSERT_EQ(set_threads(3), nullptr);
  EXPECT_EQ(attention_call::threads(), 3u);
  EXPECT_GT(attention_call::working_bytes(call), 2.5 * one_thread_bytes);  // a scratch each
  call.y = reinterpret_cast<std::uintptr_t>(y3.data());
  ASSERT_EQ(attention_call::run(call), "");
  EXPECT_EQ(y3, y1);

  ASSERT_EQ(set_threads(1), nullptr);
  EXPECT_EQ(attention_call::threads(), 1u);
  EXPECT_EQ(attention_call::working_bytes(call), one_thread_bytes);
}
