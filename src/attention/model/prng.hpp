// The model's own random numbers, so that a seed gives the same initial weights on every
// platform and standard library (std:: engines are portable, std:: distributions are not).
#pragma once

#include <cstdint>

namespace attention::model {

// SplitMix64: a 64-bit counter through a fixed mixing function.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-bound, bound): 24 random bits make an exact float in [0, 1), then one
  // multiply-add rounds the same way everywhere.
  float uniform(float bound) {
    const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    return (2.0f * unit - 1.0f) * bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace attention::model
