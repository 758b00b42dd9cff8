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

// The whole ONNX Attention operator (opsets 23 to 25), float64, on canonical 4-D tensors:
// q [batch, hq, s, d], k [batch, hkv, t, d] and v [batch, hkv, t, dv] hold every key (a past
// cache already concatenated in front), and the result y is [batch, hq, s, dv], scores
// [batch, hq, s, t]. Written from the spec's wording, apart from the kernels.
struct Problem {
  std::size_t batch = 1, hq = 1, hkv = 1, s = 1, t = 1, d = 1, dv = 1;
  std::vector<float> q, k, v;
  double scale = 1.0;
  bool causal = false;
  double softcap = 0.0;
  long long left = -1, right = -1;        // windows, -1 = unbounded
  std::size_t past = 0;                   // past_key's length P
  std::vector<long long> nonpad;          // nonpad_kv_seqlen, empty when absent
  int mask_kind = 0;                      // 0 none, 1 boolean, 2 additive
  std::vector<std::size_t> mask_dims;     // rank 1..4
  std::vector<double> mask;               // row-major over mask_dims; boolean as 0 / 1
  bool mask_last_dim_broadcasts = false;  // attention(): a last dim of 1 repeats
  int qk_mode = 0;                        // what `scores` holds, 0..3
};

struct Result {
  std::vector<double> y, scores;
};

// The bias of key j for query i of head h in batch b: -inf where hidden (causal, windows,
// nonpad lengths, the mask's zeros or its short last dim), else an additive mask's value.
inline double bias_of(const Problem& p, std::size_t b, std::size_t h, std::size_t i,
                      std::size_t j) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t rank = p.mask_dims.size();
  const long long offset = p.nonpad.empty() ? (long long)p.past : p.nonpad[b] - (long long)p.s;
  const long long pos = (long long)i + offset;
  double bias = 0;
  const long long jj = (long long)j;
  if (p.causal && jj > pos) bias = -inf;
  if (p.left >= 0 && jj < pos - p.left) bias = -inf;
  if (p.right >= 0 && jj > pos + p.right) bias = -inf;
  if (!p.nonpad.empty() && jj >= p.nonpad[b]) bias = -inf;
  if (p.mask_kind != 0) {
    // Right-aligned broadcast; the last dim is either padded with -inf or repeated.
    const std::size_t index[4] = {b, h, i, j};
    std::size_t at = 0;
    bool beyond = false;
    for (std::size_t a = 0; a < rank; ++a) {
      const std::size_t dim = p.mask_dims[a], axis = 4 - rank + a;
      std::size_t idx = index[axis];
      if (axis == 3 && !(p.mask_last_dim_broadcasts && dim == 1)) {
        if (idx >= dim) beyond = true;
      } else if (dim == 1) {
        idx = 0;
      }
      at = at * dim + (beyond ? 0 : idx);
    }
    if (beyond || (p.mask_kind == 1 && p.mask[at] == 0.0))
      bias = -inf;
    else if (p.mask_kind == 2)
      bias += p.mask[at];
  }
  return bias;
}

inline Result onnx_attention(const Problem& p) {
  const double inf = std::numeric_limits<double>::infinity();
  Result r;
  r.y.assign(p.batch * p.hq * p.s * p.dv, 0.0);
  r.scores.assign(p.batch * p.hq * p.s * p.t, 0.0);
  for (std::size_t b = 0; b < p.batch; ++b)
    for (std::size_t h = 0; h < p.hq; ++h)
      for (std::size_t i = 0; i < p.s; ++i) {
        const std::size_t g = h / (p.hq / p.hkv);
        std::vector<double> x(p.t);
        double* out = &r.scores[((b * p.hq + h) * p.s + i) * p.t];
        for (std::size_t j = 0; j < p.t; ++j) {
          double dot = 0;
          for (std::size_t c = 0; c < p.d; ++c)
            dot += double(p.q[((b * p.hq + h) * p.s + i) * p.d + c]) *
                   double(p.k[((b * p.hkv + g) * p.t + j) * p.d + c]);
          dot *= p.scale;
          if (p.qk_mode == 0) out[j] = dot;
          if (p.softcap > 0) dot = p.softcap * std::tanh(dot / p.softcap);
          if (p.qk_mode == 1) out[j] = dot;
          const double bias = bias_of(p, b, h, i, j);
          x[j] = dot + bias;
          if (p.qk_mode == 2) out[j] = x[j];
        }
        double max = -inf;
        for (double e : x) max = std::max(max, e);
        if (max == -inf) continue;  // no visible key: zeros in y and in the probabilities
        double sum = 0;
        for (double e : x) sum += std::exp(e - max);
        for (std::size_t j = 0; j < p.t; ++j) {
          const double w = std::exp(x[j] - max) / sum;
          if (p.qk_mode == 3) out[j] = w;
          for (std::size_t c = 0; c < p.dv; ++c)
            r.y[((b * p.hq + h) * p.s + i) * p.dv + c] +=
                w * double(p.v[((b * p.hkv + g) * p.t + j) * p.dv + c]);
        }
      }
  return r;
}

// The gradients of onnx_attention's y for a loss whose gradient dL/dy is grad_y (4-D like y):
// dL/dq, dL/dk, dL/dv, in float64, from the textbook formulas one row of weights at a time.
struct Gradients {
  std::vector<double> q, k, v;
};

inline Gradients onnx_attention_backward(const Problem& p, const std::vector<float>& grad_y) {
  Gradients g{std::vector<double>(p.q.size()), std::vector<double>(p.k.size()),
              std::vector<double>(p.v.size())};
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < p.batch; ++b)
    for (std::size_t h = 0; h < p.hq; ++h)
      for (std::size_t i = 0; i < p.s; ++i) {
        const std::size_t g_head = h / (p.hq / p.hkv);
        const std::size_t qi = ((b * p.hq + h) * p.s + i) * p.d;
        const std::size_t yi = ((b * p.hq + h) * p.s + i) * p.dv;
        const auto k_at = [&](std::size_t j) { return ((b * p.hkv + g_head) * p.t + j) * p.d; };
        const auto v_at = [&](std::size_t j) { return ((b * p.hkv + g_head) * p.t + j) * p.dv; };
        // raw = scale q.k, x = softcap(raw) + bias, w = softmax(x).
        std::vector<double> raw(p.t), w(p.t), dw(p.t);
        double max = -inf;
        for (std::size_t j = 0; j < p.t; ++j) {
          double dot = 0;
          for (std::size_t c = 0; c < p.d; ++c) dot += double(p.q[qi + c]) * p.k[k_at(j) + c];
          raw[j] = dot * p.scale;
          const double capped = p.softcap > 0 ? p.softcap * std::tanh(raw[j] / p.softcap) : raw[j];
          w[j] = capped + bias_of(p, b, h, i, j);
          max = std::max(max, w[j]);
        }
        if (max == -inf) continue;  // y = 0 whatever q, k, v are: no gradient
        double sum = 0;
        for (double& e : w) sum += (e = std::exp(e - max));
        double delta = 0;  // sum over j of w_j dw_j
        for (std::size_t j = 0; j < p.t; ++j) {
          w[j] /= sum;
          for (std::size_t c = 0; c < p.dv; ++c) dw[j] += double(grad_y[yi + c]) * p.v[v_at(j) + c];
          delta += w[j] * dw[j];
        }
        for (std::size_t j = 0; j < p.t; ++j) {
          double ds = w[j] * (dw[j] - delta);
          if (p.softcap > 0) ds *= 1 - std::pow(std::tanh(raw[j] / p.softcap), 2);
          ds *= p.scale;
          for (std::size_t c = 0; c < p.d; ++c) {
            g.q[qi + c] += ds * p.k[k_at(j) + c];
            g.k[k_at(j) + c] += ds * p.q[qi + c];
          }
          for (std::size_t c = 0; c < p.dv; ++c) g.v[v_at(j) + c] += w[j] * grad_y[yi + c];
        }
      }
  return g;
}

inline std::vector<float> random_floats(std::mt19937& rng, std::size_t count, float spread = 1.0f) {
  std::normal_distribution<float> normal(0.0f, spread);
  std::vector<float> out(count);
  for (auto& x : out) x = normal(rng);
  return out;
}

// Uniform in [0, 1), as ONNX's own test cases draw their data.
inline std::vector<float> uniform_floats(std::mt19937& rng, std::size_t count) {
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> out(count);
  for (auto& x : out) x = uniform(rng);
  return out;
}

}  // namespace reference64
