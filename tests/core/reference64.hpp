// A plain float64 self-attention, written apart from the kernels: the tests' yardstick.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace reference64 {

struct Mat {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;
  double at(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
};

inline Mat matmul(const Mat& a, const Mat& b) {
  Mat c{a.rows, b.cols, std::vector<double>(a.rows * b.cols, 0.0)};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t p = 0; p < a.cols; ++p)
      for (std::size_t j = 0; j < b.cols; ++j) c.data[i * b.cols + j] += a.at(i, p) * b.at(p, j);
  return c;
}

// outputs of self-attention; weights (n x n) returned through the pointer when given.
inline Mat self_attention(const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv, double scale,
                          bool causal, Mat* weights_out = nullptr) {
  const Mat q = matmul(x, wq), k = matmul(x, wk), v = matmul(x, wv);
  const std::size_t n = x.rows;
  Mat w{n, n, std::vector<double>(n * n, 0.0)};
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> s(n);
    double max = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
      double dot = 0;
      for (std::size_t c = 0; c < q.cols; ++c) dot += q.at(i, c) * k.at(j, c);
      s[j] = (causal && j > i) ? -std::numeric_limits<double>::infinity() : dot * scale;
      max = std::max(max, s[j]);
    }
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += std::exp(s[j] - max);
    for (std::size_t j = 0; j < n; ++j) w.data[i * n + j] = std::exp(s[j] - max) / sum;
  }
  if (weights_out) *weights_out = w;
  return matmul(w, v);
}

// ONNX Attention (opset 23), 4-D, float64. mask_kind: 0 none, 1 boolean, 2 additive; the
// mask is given already broadcast to [batch, q_heads, q_seq, kv_seq]. Fully masked rows: 0.
inline std::vector<double> onnx_attention(const std::vector<float>& q, const std::vector<float>& k,
                                          const std::vector<float>& v, std::size_t batch,
                                          std::size_t hq, std::size_t hkv, std::size_t sq,
                                          std::size_t skv, std::size_t d, std::size_t dv,
                                          double scale, bool causal, double softcap, int mask_kind,
                                          const std::vector<double>& mask) {
  std::vector<double> y(batch * hq * sq * dv, 0.0);
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t h = 0; h < hq; ++h) {
      const std::size_t g = h / (hq / hkv);
      for (std::size_t i = 0; i < sq; ++i) {
        std::vector<double> s(skv);
        double max = -inf;
        for (std::size_t j = 0; j < skv; ++j) {
          double dot = 0;
          for (std::size_t c = 0; c < d; ++c)
            dot += double(q[((b * hq + h) * sq + i) * d + c]) *
                   double(k[((b * hkv + g) * skv + j) * d + c]);
          dot *= scale;
          if (softcap > 0) dot = softcap * std::tanh(dot / softcap);
          if (causal && j > i) dot = -inf;
          const double m = mask_kind ? mask[((b * hq + h) * sq + i) * skv + j] : 0.0;
          if (mask_kind == 1 && m == 0.0) dot = -inf;
          if (mask_kind == 2) dot += m;
          s[j] = dot;
          max = std::max(max, dot);
        }
        if (max == -inf) continue;
        double sum = 0;
        for (std::size_t j = 0; j < skv; ++j) sum += std::exp(s[j] - max);
        for (std::size_t j = 0; j < skv; ++j) {
          const double w = std::exp(s[j] - max) / sum;
          for (std::size_t c = 0; c < dv; ++c)
            y[((b * hq + h) * sq + i) * dv + c] +=
                w * double(v[((b * hkv + g) * skv + j) * dv + c]);
        }
      }
    }
  return y;
}

inline std::vector<float> random_floats(std::mt19937& rng, std::size_t count, float spread = 1.0f) {
  std::normal_distribution<float> normal(0.0f, spread);
  std::vector<float> out(count);
  for (auto& x : out) x = normal(rng);
  return out;
}

}  // namespace reference64
