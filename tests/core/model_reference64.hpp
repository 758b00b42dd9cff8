// The tiny transformer again, in float64 and plain loops, written apart from src/attention/model:
// the tests' yardstick for every stage's forward, for central finite differences of every
// backward, and for the whole model's loss. Same dimensions and layouts as layers.hpp
// (rows n = b * T + t, weights [in, out]).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/transformer.hpp"

namespace reference64 {

using Vec = std::vector<double>;

inline Vec embedding(const std::vector<std::int32_t>& tokens, const Vec& wte, const Vec* wpe,
                     std::size_t T, std::size_t D) {
  Vec out(tokens.size() * D);
  for (std::size_t n = 0; n < tokens.size(); ++n)
    for (std::size_t i = 0; i < D; ++i)
      out[n * D + i] = wte[tokens[n] * D + i] + (wpe ? (*wpe)[(n % T) * D + i] : 0.0);
  return out;
}

inline Vec layer_norm(const Vec& x, const Vec& gain, const Vec& bias, std::size_t D) {
  Vec out(x.size());
  for (std::size_t n = 0; n < x.size() / D; ++n) {
    double mean = 0, var = 0;
    for (std::size_t i = 0; i < D; ++i) mean += x[n * D + i] / D;
    for (std::size_t i = 0; i < D; ++i) var += (x[n * D + i] - mean) * (x[n * D + i] - mean) / D;
    const double rstd = 1.0 / std::sqrt(var + attention::model::layer_norm_epsilon);
    for (std::size_t i = 0; i < D; ++i)
      out[n * D + i] = (x[n * D + i] - mean) * rstd * gain[i] + bias[i];
  }
  return out;
}

// x [N, I] . w [I, O] (+ bias [O]).
inline Vec linear(const Vec& x, const Vec& w, const Vec* bias, std::size_t I, std::size_t O) {
  const std::size_t N = x.size() / I;
  Vec out(N * O);
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t o = 0; o < O; ++o) {
      double sum = bias ? (*bias)[o] : 0.0;
      for (std::size_t i = 0; i < I; ++i) sum += x[n * I + i] * w[i * O + o];
      out[n * O + o] = sum;
    }
  return out;
}

// The ALiBi paper's slopes for H heads (its get_slopes): 2^(-8 (i + 1) / n) for the largest
// power of two n <= H, then every other slope of the 2n-head sequence.
inline Vec alibi_slopes(std::size_t H) {
  std::size_t n = 1;
  while (n * 2 <= H) n *= 2;
  Vec slopes;
  for (std::size_t i = 0; i < n; ++i) slopes.push_back(std::pow(2.0, -8.0 * double(i + 1) / n));
  for (std::size_t i = 0; slopes.size() < H; i += 2)
    slopes.push_back(std::pow(2.0, -8.0 * double(i + 1) / double(2 * n)));
  return slopes;
}

// Causal attention with grouped kv heads; att [B, H, T, T] when given; with `alibi` (H
// slopes), head h's score of key s for query t gets alibi[h] * (s - t); with softcap > 0 the
// scaled score x becomes softcap * tanh(x / softcap) first.
inline Vec attention(const Vec& q, const Vec& k, const Vec& v, std::size_t B, std::size_t T,
                     std::size_t H, std::size_t Hkv, std::size_t d, Vec* att = nullptr,
                     const Vec* alibi = nullptr, double softcap = 0.0) {
  Vec out(B * T * H * d, 0.0);
  if (att) att->assign(B * H * T * T, 0.0);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t g = h / (H / Hkv);
      for (std::size_t t = 0; t < T; ++t) {
        Vec w(t + 1);
        double max = -1e300, sum = 0;
        for (std::size_t s = 0; s <= t; ++s) {
          double dot = 0;
          for (std::size_t i = 0; i < d; ++i)
            dot += q[((b * T + t) * H + h) * d + i] * k[((b * T + s) * Hkv + g) * d + i];
          const double x = softcap > 0 ? softcap * std::tanh(dot * scale / softcap) : dot * scale;
          w[s] = x + (alibi ? (*alibi)[h] * (double(s) - double(t)) : 0.0);
          max = std::max(max, w[s]);
        }
        for (double& x : w) sum += (x = std::exp(x - max));
        for (std::size_t s = 0; s <= t; ++s) {
          w[s] /= sum;
          if (att) (*att)[((b * H + h) * T + t) * T + s] = w[s];
          for (std::size_t i = 0; i < d; ++i)
            out[((b * T + t) * H + h) * d + i] += w[s] * v[((b * T + s) * Hkv + g) * d + i];
        }
      }
    }
  return out;
}

// RoPE, non-interleaved (pairs i and i + d / 2), on [N, heads * d] rows at position n % T.
inline Vec rope(const Vec& x, std::size_t T, std::size_t heads, std::size_t d) {
  Vec out(x);
  for (std::size_t n = 0; n < x.size() / (heads * d); ++n)
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t i = 0; i < d / 2; ++i) {
        const double theta =
            static_cast<double>(n % T) * std::pow(attention::model::rope_base, -2.0 * i / d);
        const std::size_t a = (n * heads + h) * d + i, b = a + d / 2;
        out[a] = x[a] * std::cos(theta) - x[b] * std::sin(theta);
        out[b] = x[b] * std::cos(theta) + x[a] * std::sin(theta);
      }
  return out;
}

inline Vec gelu(const Vec& x) {
  Vec out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = 0.5 * x[i] *
             (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) *
                            (x[i] + 0.044715 * x[i] * x[i] * x[i])));
  return out;
}

inline Vec add(const Vec& a, const Vec& b) {
  Vec out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  return out;
}

// Mean over rows with target >= 0 of -log softmax(logits)[target].
inline double cross_entropy(const Vec& logits, const std::vector<std::int32_t>& targets,
                            std::size_t V) {
  double total = 0;
  std::size_t counted = 0;
  for (std::size_t n = 0; n < targets.size(); ++n) {
    if (targets[n] < 0) continue;
    double max = -1e300, sum = 0;
    for (std::size_t i = 0; i < V; ++i) max = std::max(max, logits[n * V + i]);
    for (std::size_t i = 0; i < V; ++i) sum += std::exp(logits[n * V + i] - max);
    total += std::log(sum) - (logits[n * V + targets[n]] - max);
    ++counted;
  }
  return total / counted;
}

// The whole model: logits [B * T, V] (and attention [L, B, H, T, T] when asked) from named
// parameters; head_mask [L, H], when given, multiplies each head's output before W_O.
inline Vec model_logits(const attention::model::Config& c, const std::map<std::string, Vec>& p,
                        const std::vector<std::int32_t>& tokens, std::size_t T,
                        Vec* attention_out = nullptr, const Vec* head_mask = nullptr) {
  using attention::model::Positions;
  const std::size_t D = c.d_model, H = c.heads, Hkv = c.kv_heads, d = D / H, KV = Hkv * d;
  const std::size_t B = tokens.size() / T, M = c.mlp_size;
  const auto P = [&](const std::string& name) -> const Vec& { return p.at(name); };
  Vec x = embedding(tokens, P("embedding.tokens"),
                    c.positions == Positions::learned ? &P("embedding.positions") : nullptr, T, D);
  if (attention_out) attention_out->clear();
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string at = "layers." + std::to_string(l) + ".";
    const Vec n1 = layer_norm(x, P(at + "norm1.gain"), P(at + "norm1.bias"), D);
    Vec q = linear(n1, P(at + "attention.wq"), nullptr, D, D);
    Vec k = linear(n1, P(at + "attention.wk"), nullptr, D, KV);
    const Vec v = linear(n1, P(at + "attention.wv"), nullptr, D, KV);
    if (c.positions == Positions::rope) {
      q = rope(q, T, H, d);
      k = rope(k, T, Hkv, d);
    }
    Vec att;
    const Vec slopes = alibi_slopes(H);
    Vec heads = attention(q, k, v, B, T, H, Hkv, d, &att,
                          c.positions == Positions::alibi ? &slopes : nullptr);
    if (head_mask)
      for (std::size_t i = 0; i < heads.size(); ++i) heads[i] *= (*head_mask)[l * H + i / d % H];
    if (attention_out) attention_out->insert(attention_out->end(), att.begin(), att.end());
    x = add(x, linear(heads, P(at + "attention.wo"), nullptr, D, D));
    if (M > 0) {
      const Vec n2 = layer_norm(x, P(at + "norm2.gain"), P(at + "norm2.bias"), D);
      const Vec hidden = gelu(linear(n2, P(at + "mlp.w1"), &P(at + "mlp.b1"), D, M));
      x = add(x, linear(hidden, P(at + "mlp.w2"), &P(at + "mlp.b2"), M, D));
    }
  }
  const Vec n = layer_norm(x, P("norm.gain"), P("norm.bias"), D);
  return linear(n, P("unembedding"), nullptr, D, c.vocab_size);
}

// Central finite differences of f at x: (f(x + h e_i) - f(x - h e_i)) / 2h for each i.
inline Vec numerical_gradient(const std::function<double(const Vec&)>& f, Vec x, double h = 1e-6) {
  Vec grad(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + h;
    const double plus = f(x);
    x[i] = saved - h;
    const double minus = f(x);
    x[i] = saved;
    grad[i] = (plus - minus) / (2 * h);
  }
  return grad;
}

// sum(weights * values): turns a stage's output into the scalar whose gradient is its backward
// with upstream gradient `weights`.
inline double weighted_sum(const Vec& weights, const Vec& values) {
  double sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) sum += weights[i] * values[i];
  return sum;
}

}  // namespace reference64
