// A plain float64 self-attention forwards and backwards, written apart from the core's stages
// (loops, no xtensor): the gradient tests' yardstick. Its own gradients are checked against
// central differences of its forward pass (trace_test.cpp), so the two checks together pin
// the core's `_backward` stages.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "reference64.hpp"

namespace grad64 {

using reference64::Mat;

inline Mat zeros(std::size_t rows, std::size_t cols) {
  return {rows, cols, std::vector<double>(rows * cols, 0.0)};
}

inline Mat transpose(const Mat& m) {
  Mat t = zeros(m.cols, m.rows);
  for (std::size_t i = 0; i < m.rows; ++i)
    for (std::size_t j = 0; j < m.cols; ++j) t.data[j * m.rows + i] = m.at(i, j);
  return t;
}

// Every intermediate of one head: x (n x d_in) . W -> q, k (n x d_k), v (n x d_v);
// scores (n x n, -inf where causal hides, plus ALiBi's alibi_slope * (j - i)), weights (n x n),
// outputs (n x d_v).
struct Forward {
  Mat q, k, v, scores, weights, outputs;
};

inline Forward forward(const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv, double scale,
                       bool causal, double alibi_slope = 0.0) {
  Forward f;
  f.q = reference64::matmul(x, wq);
  f.k = reference64::matmul(x, wk);
  f.v = reference64::matmul(x, wv);
  const std::size_t n = x.rows;
  f.scores = reference64::matmul(f.q, transpose(f.k));
  f.weights = zeros(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    double max = -std::numeric_limits<double>::infinity(), sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double& s = f.scores.data[i * n + j];
      s = (causal && j > i) ? -std::numeric_limits<double>::infinity()
                            : s * scale + alibi_slope * (double(j) - double(i));
      max = std::max(max, s);
    }
    for (std::size_t j = 0; j < n; ++j) sum += std::exp(f.scores.at(i, j) - max);
    for (std::size_t j = 0; j < n; ++j)
      f.weights.data[i * n + j] = std::exp(f.scores.at(i, j) - max) / sum;
  }
  f.outputs = reference64::matmul(f.weights, f.v);
  return f;
}

// The gradient of a loss with respect to every intermediate and input of one head, from the
// gradient of its outputs. weighted is n x n x d_v, flat.
struct Backward {
  Mat outputs, weights, scores, q, k, v, wq, wk, wv, x;
  std::vector<double> weighted;
};

inline Backward backward(const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv, double scale,
                         bool causal, const Mat& d_outputs) {
  const Forward f = forward(x, wq, wk, wv, scale, causal);
  const std::size_t n = x.rows, d_v = wv.cols;
  Backward b;
  b.outputs = d_outputs;
  b.weighted.resize(n * n * d_v);
  b.weights = zeros(n, n);
  b.v = zeros(n, d_v);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t c = 0; c < d_v; ++c) {
        const double g = d_outputs.at(i, c);  // outputs[i] = sum_j weights[i][j] * v[j]
        b.weighted[(i * n + j) * d_v + c] = g;
        b.weights.data[i * n + j] += g * f.v.at(j, c);
        b.v.data[j * d_v + c] += g * f.weights.at(i, j);
      }
  b.scores = zeros(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (causal && j > i) continue;  // a hidden score is a constant
      // d weights[i][k] / d scores[i][j] = weights[i][k] * ((k == j) - weights[i][j])
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k)
        sum += b.weights.at(i, k) * f.weights.at(i, k) * ((k == j) - f.weights.at(i, j));
      b.scores.data[i * n + j] = sum;
    }
  Mat d_raw = b.scores;  // with respect to q . k^T, before the scale
  for (double& s : d_raw.data) s *= scale;
  b.q = reference64::matmul(d_raw, f.k);
  b.k = reference64::matmul(transpose(d_raw), f.q);
  const Mat xt = transpose(x);
  b.wq = reference64::matmul(xt, b.q);
  b.wk = reference64::matmul(xt, b.k);
  b.wv = reference64::matmul(xt, b.v);
  b.x = reference64::matmul(b.q, transpose(wq));
  const Mat from_k = reference64::matmul(b.k, transpose(wk));
  const Mat from_v = reference64::matmul(b.v, transpose(wv));
  for (std::size_t i = 0; i < b.x.data.size(); ++i) b.x.data[i] += from_k.data[i] + from_v.data[i];
  return b;
}

// sum over cells of a (.) b: the loss whose gradient with respect to `a` is `b`.
inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// Central differences of loss(m) with respect to every cell of m (changed and restored).
template <class Loss>
Mat central_differences(Mat& m, Loss loss, double h = 1e-6) {
  Mat grad = zeros(m.rows, m.cols);
  for (std::size_t i = 0; i < m.data.size(); ++i) {
    const double kept = m.data[i];
    m.data[i] = kept + h;
    const double up = loss();
    m.data[i] = kept - h;
    const double down = loss();
    m.data[i] = kept;
    grad.data[i] = (up - down) / (2 * h);
  }
  return grad;
}

}  // namespace grad64
