// Choosing generate()'s next token from the last row of logits [V]: greedy, or a draw from
// softmax(logits / temperature) over the top_k largest logits, by the model's own seeded
// generator (prng.hpp), so that one seed gives one text.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/prng.hpp"

namespace attention::model {

struct Sampling {
  float temperature = 0.0f;  // 0: greedy, the first of the largest logits; else > 0
  std::uint32_t top_k = 0;   // draw among the top_k largest logits; 0 (or >= V): among all
  std::uint32_t seed = 0;    // seeds the draws (unused when greedy)
  // [V] or null (none): banned[i] != 0 and id i is never chosen, greedy or drawn (a text
  // model's unknown id, say). The caller leaves at least one id unbanned.
  const std::uint8_t* banned = nullptr;
};

// The chosen id of logits [V]. order [V] is scratch. A draw takes one number from `random`;
// greedy takes none. The candidates are the ids not banned; the top_k of them are ranked by
// logit, ties by the lower id, so top_k 1 is the greedy choice; their weights
// exp((logit - largest) / temperature) are summed in double, and the draw walks them in that
// order (in id order when every candidate is kept).
std::int32_t choose_token(const float* logits, std::size_t V, const Sampling& sampling,
                          SplitMix64& random, std::int32_t* order);

}  // namespace attention::model
