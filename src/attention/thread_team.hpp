// The calling thread and a few helper threads sharing one call's independent tasks, the way
// onnxruntime's thread pool does in a cross-origin isolated page: the caller computes too,
// so a call costs no message to another thread and no copy between memories; the helpers
// only shorten it. Plain C++17 threads: natively they are the system's, in the module built
// with wasm threads (-pthread) Emscripten's pthreads, Web Workers sharing the module's memory.
//
// A call hands out tasks by an atomic counter, so a helper that wakes late finds the work
// already done and simply goes back to waiting; results never depend on which thread ran a
// task. Between calls a helper spins for a short while (the next call of a run of calls
// finds it awake), then sleeps on a condition variable.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace attention {

// Whether this build can start threads: natively yes; a WebAssembly build only when
// compiled with -pthread (the threads build; elsewhere thread creation would abort).
#if !defined(__wasm__) || defined(__EMSCRIPTEN_PTHREADS__)
#define ATTENTION_HAS_THREADS 1
#else
#define ATTENTION_HAS_THREADS 0
#endif
inline constexpr bool threads_available = ATTENTION_HAS_THREADS;

// Helpers a team may have: a bound for the callers' checks, far above any core count a page
// or a test machine offers.
inline constexpr std::size_t max_team_helpers = 63;

class ThreadTeam {
 public:
  // A team of the caller and `helpers` threads (1..max_team_helpers), or null when this
  // build has no threads or the system would not start them.
  static std::unique_ptr<ThreadTeam> start(std::size_t helpers);
  ~ThreadTeam();  // stops and joins the helpers
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  // Threads that compute: the caller and the helpers.
  std::size_t size() const { return helpers_.size() + 1; }

  // Calls work(task, thread) for every task in 0 .. tasks - 1, each exactly once, on the
  // calling thread (thread 0) and the helpers (1 .. size() - 1); returns once all are done.
  // `work` must not throw, and must not call run() itself.
  template <class Work>
  void run(std::size_t tasks, Work& work) {
    run_on(this, tasks, work);
  }

  // run(tasks, work) on `team`, or without one (null) every task on the calling thread, as
  // thread 0. Both go through one out-of-line call of the same function, so `work`'s code is
  // compiled once: a caller that called it directly when alone had it twice in the module.
  template <class Work>
  static void run_on(ThreadTeam* team, std::size_t tasks, Work& work) {
    const TaskFunction call_work = [](void* context, std::size_t task, std::size_t thread) {
      (*static_cast<Work*>(context))(task, thread);
    };
    run_tasks_on(team, tasks, call_work, const_cast<void*>(static_cast<const void*>(&work)));
  }

 private:
  using TaskFunction = void (*)(void* context, std::size_t task, std::size_t thread);

  ThreadTeam() = default;
  void run_tasks(std::size_t tasks, TaskFunction function, void* context);
  static void run_tasks_on(ThreadTeam* team, std::size_t tasks, TaskFunction function,
                           void* context);
  void helper_loop(std::size_t thread);
  // Claims and runs tasks of `call` (a call number) until none is left, or until the caller
  // has moved on to a newer call (whose tasks this thread must not run with its copy of an
  // older call's function).
  void work_on(std::uint32_t call, TaskFunction function, void* context, std::size_t tasks,
               std::size_t thread);

  // Published under `mutex_` for each call, read by helpers under it.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint32_t call_ = 0;  // the newest call's number
  TaskFunction function_ = nullptr;
  void* context_ = nullptr;
  std::size_t tasks_ = 0;
  bool stopping_ = false;

  // The newest call's number, readable without the lock (helpers spin on it).
  std::atomic<std::uint32_t> published_{0};
  // High 32 bits: the call number; low 32 bits: the next task to hand out. Tagging the
  // counter with the call makes a helper holding an older call's function unable to claim a
  // task of the newer one.
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::size_t> finished_{0};  // tasks of the current call done
  std::vector<std::thread> helpers_;
};

}  // namespace attention
