#include "thread_team.hpp"

#include <limits>
#include <system_error>

namespace attention {
namespace {

// Checks of the call number a helper makes before it sleeps (well under a millisecond), so
// that the next call of a run of calls may find it awake. Measured with the wasm threads
// build, 2 threads, Node and Chromium: 0, 2^12, 2^16 and 2^20 checks gave the same times
// within the noise, calls back to back and 3 ms apart (N = 256 and 64, 8 heads); kept short,
// so that an idle helper soon stops taking a core.
constexpr std::uint32_t spins_before_sleep = 1u << 16;

constexpr std::uint64_t tagged(std::uint32_t call, std::uint32_t task) {
  return (std::uint64_t(call) << 32) | task;
}

}  // namespace

std::unique_ptr<ThreadTeam> ThreadTeam::start(std::size_t helpers) {
  if (helpers < 1 || helpers > max_team_helpers) return nullptr;
#if !ATTENTION_HAS_THREADS
  return nullptr;  // creating a thread would abort; and the helpers' code stays out of the build
#else
  std::unique_ptr<ThreadTeam> team(new ThreadTeam());
#if defined(__cpp_exceptions)
  try {
#endif
    team->helpers_.reserve(helpers);
    for (std::size_t i = 1; i <= helpers; ++i)
      team->helpers_.emplace_back([t = team.get(), i] { t->helper_loop(i); });
#if defined(__cpp_exceptions)
  } catch (const std::system_error&) {
    return nullptr;  // the destructor joins the helpers that did start
  }
#endif
  return team;
#endif
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    published_.store(call_ + 1, std::memory_order_release);  // ends any helper's spin
  }
  wake_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

void ThreadTeam::run_tasks_on(ThreadTeam* team, std::size_t tasks, TaskFunction function,
                              void* context) {
  if (team) return team->run_tasks(tasks, function, context);
  for (std::size_t task = 0; task < tasks; ++task) function(context, task, 0);
}

void ThreadTeam::run_tasks(std::size_t tasks, TaskFunction function, void* context) {
  if (tasks == 0) return;
  if (tasks > std::numeric_limits<std::uint32_t>::max()) {
    // More tasks than the tagged counter holds (never, for the kernels' task counts): the
    // caller runs them alone.
    for (std::size_t task = 0; task < tasks; ++task) function(context, task, 0);
    return;
  }
  std::uint32_t call;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    call = ++call_;
    function_ = function;
    context_ = context;
    tasks_ = tasks;
    finished_.store(0, std::memory_order_relaxed);
    next_.store(tagged(call, 0), std::memory_order_relaxed);
    published_.store(call, std::memory_order_release);
  }
  wake_.notify_all();
  work_on(call, function, context, tasks, 0);
  // The helpers' last tasks: a short wait, the caller having done its share.
  while (finished_.load(std::memory_order_acquire) < tasks) {
  }
}

void ThreadTeam::work_on(std::uint32_t call, TaskFunction function, void* context,
                         std::size_t tasks, std::size_t thread) {
  std::uint64_t next = next_.load(std::memory_order_relaxed);
  for (;;) {
    if (std::uint32_t(next >> 32) != call) return;  // a newer call: not ours to run
    const std::uint32_t task = std::uint32_t(next);
    if (task >= tasks) return;
    if (!next_.compare_exchange_weak(next, next + 1, std::memory_order_acquire,
                                     std::memory_order_relaxed))
      continue;  // `next` now holds the current value
    function(context, task, thread);
    finished_.fetch_add(1, std::memory_order_release);
    next = next_.load(std::memory_order_relaxed);
  }
}

void ThreadTeam::helper_loop(std::size_t thread) {
  std::uint32_t seen = 0;
  for (;;) {
    for (std::uint32_t spin = 0;
         spin < spins_before_sleep && published_.load(std::memory_order_acquire) == seen; ++spin) {
    }
    TaskFunction function;
    void* context;
    std::size_t tasks;
    std::uint32_t call;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || call_ != seen; });
      if (stopping_) return;
      call = seen = call_;
      function = function_;
      context = context_;
      tasks = tasks_;
    }
    work_on(call, function, context, tasks, thread);
  }
}

}  // namespace attention
