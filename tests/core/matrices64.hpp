// The tests' matrices: seeded random ones for the core (float Matrix), and conversions to and
// from the float64 reference's Mat (reference64.hpp), so a core result meets its yardstick.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "reference64.hpp"
#include "tensor.hpp"

namespace matrices64 {

// rows x cols numbers from reference64::random_floats.
inline attention::Matrix random_matrix(std::mt19937& rng, std::size_t rows, std::size_t cols) {
  attention::Matrix m({rows, cols});
  const auto values = reference64::random_floats(rng, rows * cols);
  std::copy(values.begin(), values.end(), m.begin());
  return m;
}

inline reference64::Mat to64(const attention::Matrix& m) {
  return {m.shape(0), m.shape(1), std::vector<double>(m.begin(), m.end())};
}

inline attention::Matrix to32(const reference64::Mat& m) {
  attention::Matrix out({m.rows, m.cols});
  std::copy(m.data.begin(), m.data.end(), out.begin());
  return out;
}

}  // namespace matrices64
