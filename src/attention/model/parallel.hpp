// How the tiny transformer's stages share their work with a thread team (thread_team.hpp): a
// range of independent items (rows of a product, sequences' kv heads) cut into chunks that the
// team's threads claim one by one. Each item is computed by one thread, in the order and with
// the arithmetic of a single thread, so the results are the same bits with or without a team.
#pragma once

#include <algorithm>
#include <cstddef>

#include "thread_team.hpp"

namespace attention::model {

// Chunks per thread: a few, so that a thread slowed down (another process on its core) leaves
// its last chunks to the others.
inline constexpr std::size_t chunks_per_thread = 4;

// Threads the team computes with (1 without a team).
inline std::size_t team_size(const ThreadTeam* team) { return team ? team->size() : 1; }

// Calls body(begin, end, thread) for chunks [begin, end) covering [0, count), each a multiple
// of `grain` items (but the last), on the team's threads, or as one chunk on this thread
// without a team or when a single chunk would do. `thread` (0 .. team_size - 1) names the
// calling thread's share of per-thread scratch.
template <class Body>
void split(ThreadTeam* team, std::size_t count, std::size_t grain, Body&& body) {
  const std::size_t threads = team_size(team);
  const std::size_t grains = (count + grain - 1) / grain;
  std::size_t per_chunk = grain * std::max<std::size_t>(1, grains / (threads * chunks_per_thread));
  std::size_t chunks = (count + per_chunk - 1) / per_chunk;
  if (threads == 1 || chunks <= 1) {
    team = nullptr;  // one chunk, on this thread
    per_chunk = count;
    chunks = count > 0 ? 1 : 0;
  }
  auto work = [&](std::size_t chunk, std::size_t thread) {
    const std::size_t begin = chunk * per_chunk;
    body(begin, std::min(count, begin + per_chunk), thread);
  };
  ThreadTeam::run_on(team, chunks, work);
}

}  // namespace attention::model
