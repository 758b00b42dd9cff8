#include "model/sampling.hpp"

#include <algorithm>
#include <cmath>

namespace attention::model {

std::int32_t choose_token(const float* logits, std::size_t V, const Sampling& sampling,
                          SplitMix64& random, std::int32_t* order) {
  const auto allowed = [&](std::size_t i) { return !sampling.banned || !sampling.banned[i]; };
  if (sampling.temperature == 0.0f) {
    std::size_t best = V;
    for (std::size_t i = 0; i < V; ++i)
      if (allowed(i) && (best == V || logits[i] > logits[best])) best = i;
    return static_cast<std::int32_t>(best);
  }
  std::size_t candidates = V;
  if (sampling.banned)
    candidates = static_cast<std::size_t>(std::count_if(sampling.banned, sampling.banned + V,
                                                        [](std::uint8_t ban) { return ban == 0; }));
  // The candidates, best first (ties: the lower id first): all of them in id order when
  // top_k keeps them all, else the top_k best by insertion (K is small where it matters).
  const std::size_t K =
      sampling.top_k == 0 || sampling.top_k > candidates ? candidates : sampling.top_k;
  const bool ranked = K < candidates;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < V; ++i) {
    if (!allowed(i)) continue;
    if (ranked && kept == K && !(logits[i] > logits[order[K - 1]])) continue;
    std::size_t at = kept < K ? kept++ : K - 1;
    for (; ranked && at > 0 && logits[i] > logits[order[at - 1]]; --at) order[at] = order[at - 1];
    order[at] = static_cast<std::int32_t>(i);
  }
  double largest = logits[order[0]];
  for (std::size_t k = 1; k < K; ++k) largest = std::max(largest, double(logits[order[k]]));
  const double temperature = sampling.temperature;
  double total = 0.0;
  for (std::size_t k = 0; k < K; ++k) total += std::exp((logits[order[k]] - largest) / temperature);
  // 53 random bits: a double uniform in [0, 1), scaled to the total weight.
  const double target = static_cast<double>(random.next() >> 11) * 0x1.0p-53 * total;
  double sum = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    sum += std::exp((logits[order[k]] - largest) / temperature);
    if (target < sum) return order[k];
  }
  return order[K - 1];  // only when rounding left the target at the very top
}

}  // namespace attention::model
