#include "model/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "model/parallel.hpp"
#include "model/prng.hpp"
#include "rope.hpp"

namespace attention::model {

namespace {

// The parameters (or their gradients: the same layout) as pointers into an arena.
struct LayerParameters {
  float *norm1_gain, *norm1_bias, *wq, *wk, *wv, *wo;
  float *norm2_gain, *norm2_bias, *w1, *b1, *w2, *b2;  // null without an MLP
};
struct Parameters {
  float *tokens, *positions;  // positions null unless learned
  std::vector<LayerParameters> layers;
  float *norm_gain, *norm_bias, *unembedding;
};

float* find(const std::vector<ParameterInfo>& table, float* base, const std::string& name) {
  for (const ParameterInfo& info : table)
    if (info.name == name) return base + info.offset;
  return nullptr;
}

Parameters view_parameters(const std::vector<ParameterInfo>& table, float* base,
                           std::size_t layers) {
  Parameters p;
  p.tokens = find(table, base, "embedding.tokens");
  p.positions = find(table, base, "embedding.positions");
  for (std::size_t l = 0; l < layers; ++l) {
    const std::string prefix = "layers." + std::to_string(l) + ".";
    const auto at = [&](const char* name) { return find(table, base, prefix + name); };
    p.layers.push_back({at("norm1.gain"), at("norm1.bias"), at("attention.wq"), at("attention.wk"),
                        at("attention.wv"), at("attention.wo"), at("norm2.gain"), at("norm2.bias"),
                        at("mlp.w1"), at("mlp.b1"), at("mlp.w2"), at("mlp.b2")});
  }
  p.norm_gain = find(table, base, "norm.gain");
  p.norm_bias = find(table, base, "norm.bias");
  p.unembedding = find(table, base, "unembedding");
  return p;
}

// The activations of one call with N = B * T rows (or their gradients: the same layout).
// Without rope, q_rot and k_rot are q and k; without an MLP, out is mid.
struct LayerActivations {
  float *norm1, *norm1_mean, *norm1_rstd;  // [N, D], [N], [N]
  float *q, *k, *v;                        // [N, H d], [N, Hkv d], [N, Hkv d]
  float *q_rot, *k_rot;                    // after RoPE
  float* att;                              // [B, H, T, T]
  float *heads, *proj, *mid;               // [N, H d], [N, D], [N, D]
  float *norm2, *norm2_mean, *norm2_rstd;  // MLP only: [N, D], [N], [N]
  float *hidden, *gelu, *mlp_out;          // [N, M], [N, M], [N, D]
  float* out;                              // [N, D], the next layer's input
};
struct Activations {
  float* embedded;  // [N, D]
  std::vector<LayerActivations> layers;
  float *norm, *norm_mean, *norm_rstd;  // [N, D], [N], [N]
  float *logits, *probs;                // [N, V]
  std::size_t floats = 0;
};

// Lays out the activations from `base` (counts only when base is null).
Activations layout_activations(const Config& c, std::size_t B, std::size_t T, float* base) {
  const std::size_t N = B * T, D = c.d_model, H = c.heads, d = D / H, KV = c.kv_heads * d;
  const std::size_t M = c.mlp_size, V = c.vocab_size;
  const bool rope = c.positions == Positions::rope, mlp = M > 0;
  Activations a;
  const auto take = [&](std::size_t count) {
    float* at = base ? base + a.floats : nullptr;
    a.floats += count;
    return at;
  };
  // A LayerNorm's output [N, D] and its statistics mean and rstd [N].
  const auto take_norm = [&](float*& out, float*& mean, float*& rstd) {
    out = take(N * D);
    mean = take(N);
    rstd = take(N);
  };
  a.embedded = take(N * D);
  for (std::size_t l = 0; l < c.layers; ++l) {
    LayerActivations la{};
    take_norm(la.norm1, la.norm1_mean, la.norm1_rstd);
    la.q = take(N * D);
    la.k = take(N * KV);
    la.v = take(N * KV);
    la.q_rot = rope ? take(N * D) : la.q;
    la.k_rot = rope ? take(N * KV) : la.k;
    la.att = take(B * H * T * T);
    la.heads = take(N * D);
    la.proj = take(N * D);
    la.mid = take(N * D);
    if (mlp) {
      take_norm(la.norm2, la.norm2_mean, la.norm2_rstd);
      la.hidden = take(N * M);
      la.gelu = take(N * M);
      la.mlp_out = take(N * D);
      la.out = take(N * D);
    } else {
      la.out = la.mid;
    }
    a.layers.push_back(la);
  }
  take_norm(a.norm, a.norm_mean, a.norm_rstd);
  a.logits = take(N * V);
  a.probs = take(N * V);
  return a;
}

// Zeroes the activation gradients that the backward accumulates into: all but the attention
// weights, the LayerNorm statistics and the probabilities, which have no gradient of their
// own (the weights' is scratch inside attention_backward), and RoPE's inputs, which
// rope_backward writes whole.
void zero_gradients(const Activations& g, const Config& c, std::size_t B, std::size_t T,
                    ThreadTeam* team) {
  const std::size_t N = B * T, D = c.d_model, KV = c.kv_heads * (D / c.heads), M = c.mlp_size;
  const auto zero = [team](float* x, std::size_t count) { fill_zeros(x, count, team); };
  zero(g.embedded, N * D);
  for (const LayerActivations& gl : g.layers) {
    for (float* x : {gl.norm1, gl.q_rot, gl.heads, gl.proj, gl.mid}) zero(x, N * D);
    for (float* x : {gl.k_rot, gl.v}) zero(x, N * KV);
    if (M > 0) {
      for (float* x : {gl.norm2, gl.mlp_out, gl.out}) zero(x, N * D);
      for (float* x : {gl.hidden, gl.gelu}) zero(x, N * M);
    }
  }
  zero(g.norm, N * D);
  zero(g.logits, N * c.vocab_size);
}

// Floats of scratch for linear_backward's transposed weights and for attention (each of
// `threads` threads its own).
std::size_t scratch_floats(const Config& c, std::size_t T, std::size_t threads) {
  const std::size_t D = c.d_model, M = c.mlp_size, V = c.vocab_size;
  return std::max(threads * attention_scratch_floats(T, D / c.heads), D * std::max({D, M, V}));
}

// Decoding's cache: keys and values [L, C, Hkv d] each, then one token's activations and the
// scores of one query [C].
std::size_t decode_floats(const Config& c) {
  const std::size_t kv = static_cast<std::size_t>(c.kv_heads) * (c.d_model / c.heads);
  return 2 * c.layers * c.context * kv + layout_activations(c, 1, 1, nullptr).floats + c.context;
}

// layout_activations' count in doubles, term by term, to refuse a (B, T) before any size_t
// product could wrap around (32 bits on wasm).
double activation_floats(const Config& c, double B, double T) {
  const double N = B * T, D = c.d_model, M = c.mlp_size, V = c.vocab_size;
  const double KV = c.kv_heads * (D / c.heads), H = c.heads;
  const double per_layer = N * (5 * D + 2 + 2 * KV) + B * H * T * T +
                           (c.positions == Positions::rope ? N * (D + KV) : 0) +
                           (M > 0 ? N * (3 * D + 2 + 2 * M) : 0);
  return N * D + c.layers * per_layer + N * (D + 2 + 2 * V);
}

// RoPE over a [N, heads * d] tensor: B sequences of T rows, each row every head side by side;
// every pair (i, i + d / 2) of a head rotated.
RopeLayout rope_layout(std::size_t B, std::size_t T, std::size_t heads, std::size_t d) {
  const auto stride = [](std::size_t n) { return static_cast<std::ptrdiff_t>(n); };
  return {B, heads, T, d, d, false, stride(T * heads * d), stride(d), stride(heads * d)};
}

// Learned positions' starting values, positions [C, D]: row t holds cos(t theta_i) in its first
// ceil(D / 2) columns and sin(t theta_i) in the rest, with RoPE's angles theta_i =
// base^(-2i / R) (R = D rounded up to even), the sinusoids of "Attention Is All You Need". They
// run from 1 radian per position down to 1 radian over the whole context: base = C^(R / (R - 2)),
// as Vaswani et al.'s 10000 does for contexts of about 10000. Why not random rows: a
// previous-token head (the first half of an induction head) needs one linear map taking each
// position's vector to its predecessor's; sinusoids have it from the first step (a rotation of
// each pair), random rows must first learn it, and on the induction task random rows left some
// seeds on the plateau past 2,000 steps while layer 2 settled on a weaker same-token head. The
// rows still train like any parameter. False when the scratch tables cannot be allocated.
bool sinusoid_positions(float* positions, std::size_t C, std::size_t D) {
  const std::size_t half = (D + 1) / 2, R = 2 * half;  // half cos columns, D - half sin ones
  const double base = R > 2 ? std::pow(static_cast<double>(C), R / (R - 2.0)) : 1.0;
  float* cos_table = static_cast<float*>(std::malloc(2 * C * half * sizeof(float)));
  if (!cos_table) return false;
  float* sin_table = cos_table + C * half;
  rope_cache(C, R, base, cos_table, sin_table);
  for (std::size_t t = 0; t < C; ++t)
    for (std::size_t i = 0; i < D; ++i)
      positions[t * D + i] = i < half ? cos_table[t * half + i] : sin_table[t * half + i - half];
  std::free(cos_table);
  return true;
}

template <typename T>
T* allocate(std::size_t count) {
  return static_cast<T*>(std::malloc(std::max<std::size_t>(count, 1) * sizeof(T)));
}

// The options record every layer's attention takes (attention.hpp): the score options of its
// positions choice (positions_choices), causal, q.k scaled by 1 / sqrt(d).
AttentionOptions attention_options(const Config& c) {
  AttentionOptions o = positions_choice(c.positions)->scores;
  o.scale = 1.0f / std::sqrt(static_cast<float>(c.d_model / c.heads));
  o.is_causal = true;
  return o;
}

}  // namespace

const char* config_error(const Config& c) {
  if (c.vocab_size < 1) return "vocab_size must be at least 1";
  if (c.context < 1) return "context must be at least 1";
  if (c.d_model < 1 || c.layers < 1 || c.heads < 1 || c.kv_heads < 1)
    return "d_model, layers, heads and kv_heads must be at least 1";
  if (c.d_model % c.heads != 0) return "heads must divide d_model";
  if (c.heads % c.kv_heads != 0) return "kv_heads must divide heads";
  if (!positions_choice(c.positions)) return "positions must be one of positions_choices";
  if (c.positions == Positions::rope && (c.d_model / c.heads) % 2 != 0)
    return "rope needs an even head size";
  if (!std::isfinite(c.learning_rate) || c.learning_rate < 0.0f)
    return "learning_rate must be finite and >= 0";
  if (!std::isfinite(c.weight_decay) || c.weight_decay < 0.0f)
    return "weight_decay must be finite and >= 0";
  const double D = c.d_model, M = c.mlp_size;
  const double per_layer = 4 * D + 4 * D * D + (M > 0 ? 2 * D * M + 3 * D + M : 0);
  const double parameters = c.vocab_size * D * 2 + c.context * D + c.layers * per_layer + 2 * D;
  if (4 * parameters > max_floats) return "the parameters would not fit in memory";
  if (activation_floats(c, 1, c.context) > max_floats) return "one sequence would not fit";
  return nullptr;
}

std::vector<ParameterInfo> parameter_table(const Config& c) {
  const std::size_t V = c.vocab_size, C = c.context, D = c.d_model, H = c.heads;
  const std::size_t d = D / H, KV = c.kv_heads * d, M = c.mlp_size;
  std::vector<ParameterInfo> table;
  std::size_t offset = 0;
  const auto add = [&](std::string name, std::vector<std::size_t> dims) {
    std::size_t count = 1;
    for (std::size_t n : dims) count *= n;
    table.push_back({std::move(name), std::move(dims), offset, count});
    offset += count;
  };
  add("embedding.tokens", {V, D});
  if (c.positions == Positions::learned) add("embedding.positions", {C, D});
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string prefix = "layers." + std::to_string(l) + ".";
    add(prefix + "norm1.gain", {D});
    add(prefix + "norm1.bias", {D});
    add(prefix + "attention.wq", {D, H * d});
    add(prefix + "attention.wk", {D, KV});
    add(prefix + "attention.wv", {D, KV});
    add(prefix + "attention.wo", {H * d, D});
    if (M > 0) {
      add(prefix + "norm2.gain", {D});
      add(prefix + "norm2.bias", {D});
      add(prefix + "mlp.w1", {D, M});
      add(prefix + "mlp.b1", {M});
      add(prefix + "mlp.w2", {M, D});
      add(prefix + "mlp.b2", {D});
    }
  }
  add("norm.gain", {D});
  add("norm.bias", {D});
  add("unembedding", {D, V});
  return table;
}

double model_bytes(const Config& config) {
  double count = 0;
  for (const ParameterInfo& info : parameter_table(config)) count += info.count;
  const double rope = config.positions == Positions::rope ? config.context * config.d_model : 0;
  // generate()'s cache, and its ranking of the logits (V ids).
  return 4.0 * (4 * count + rope + decode_floats(config) + config.vocab_size);
}

double call_bytes(const Config& config, std::size_t B, std::size_t T, bool training,
                  std::size_t threads) {
  // scratch_floats cannot wrap: a valid config bounds T <= C and D times M or V.
  const double acts = activation_floats(config, B, T) * (training ? 2 : 1);
  const double positions = config.positions == Positions::rope ? static_cast<double>(B) * T : 0;
  return 4.0 * (acts + static_cast<double>(scratch_floats(config, T, threads))) + 8.0 * positions;
}

// The parameters and their gradients as pointers, built once (the arena never moves).
struct TinyTransformer::Views {
  Parameters parameters, gradients;
};

TinyTransformer::TinyTransformer(const Config& config)
    : config_(config), table_(parameter_table(config)) {
  for (const ParameterInfo& info : table_) parameter_count_ += info.count;
}

TinyTransformer::~TinyTransformer() {
  std::free(params_);
  std::free(rope_cos_);
  release();
}

std::unique_ptr<TinyTransformer> TinyTransformer::create(const Config& config, std::string* error) {
  if (const char* why = config_error(config)) {
    *error = why;
    return nullptr;
  }
  std::unique_ptr<TinyTransformer> model(new TinyTransformer(config));
  const std::size_t P = model->parameter_count_;
  model->params_ = allocate<float>(4 * P);
  const std::size_t d = config.d_model / config.heads;
  const bool rope = config.positions == Positions::rope;
  if (rope) model->rope_cos_ = allocate<float>(config.context * d);
  if (!model->params_ || (rope && !model->rope_cos_)) {
    *error = "out of memory for the parameters";
    return nullptr;
  }
  model->grads_ = model->params_ + P;
  model->moment1_ = model->grads_ + P;
  model->moment2_ = model->moment1_ + P;
  model->views_.reset(new Views{view_parameters(model->table_, model->params_, config.layers),
                                view_parameters(model->table_, model->grads_, config.layers)});
  std::fill(model->grads_, model->params_ + 4 * P, 0.0f);
  if (rope) {
    model->rope_sin_ = model->rope_cos_ + config.context * d / 2;
    rope_cache(config.context, d, rope_base, model->rope_cos_, model->rope_sin_);
  }
  model->attention_options_ = attention_options(config);
  // Gains 1, biases 0; the token embeddings uniform in [-1, 1); learned positions start as
  // sinusoids (sinusoid_positions); every matrix uniform in +-1 / sqrt(its rows), so a product
  // keeps its input's scale (PyTorch's Linear default). Drawn tensor by tensor in table order,
  // so a seed means the same numbers everywhere.
  SplitMix64 random(config.seed);
  for (const ParameterInfo& info : model->table_) {
    float* p = model->params_ + info.offset;
    const std::string& name = info.name;
    const auto ends_with = [&](const char* tail) {
      const std::size_t n = std::strlen(tail);
      return name.size() >= n && name.compare(name.size() - n, n, tail) == 0;
    };
    if (name == "embedding.positions") {
      if (!sinusoid_positions(p, config.context, config.d_model)) {
        *error = "out of memory for the parameters";
        return nullptr;
      }
    } else if (ends_with(".gain")) {
      std::fill(p, p + info.count, 1.0f);
    } else if (info.dims.size() == 1) {
      std::fill(p, p + info.count, 0.0f);
    } else {
      const bool embedding = name.compare(0, 10, "embedding.") == 0;
      const float bound = embedding ? 1.0f : 1.0f / std::sqrt(static_cast<float>(info.dims[0]));
      for (std::size_t i = 0; i < info.count; ++i) p[i] = random.uniform(bound);
    }
  }
  return model;
}

std::string TinyTransformer::load_parameters(const float* values, std::size_t count,
                                             std::size_t* bad) {
  const std::size_t P = parameter_count_;
  if (count != P) {
    *bad = count;
    return "the parameters must be " + std::to_string(P) + " numbers, got " + std::to_string(count);
  }
  // Checked whole before anything is written: a refused load changes nothing.
  for (std::size_t i = 0; i < P; ++i) {
    if (!std::isfinite(values[i])) {
      *bad = i;
      return "a parameter is not finite";
    }
  }
  std::copy_n(values, P, params_);
  std::fill(moment1_, moment1_ + 2 * P, 0.0f);
  step_ = 0;
  beta1_power_ = beta2_power_ = 1.0;
  return "";
}

// Frees the working memory of the call it guards when that call returns, whichever way.
struct TinyTransformer::CallMemory {
  TinyTransformer& model;
  ~CallMemory() { model.release(); }
};

void TinyTransformer::release() {
  std::free(acts_);
  std::free(positions_);
  std::free(cache_);
  std::free(order_);
  acts_ = nullptr;
  positions_ = nullptr;
  cache_ = nullptr;
  order_ = nullptr;
}

std::string TinyTransformer::prepare(std::size_t B, std::size_t T, bool training) {
  if (B < 1 || T < 1 || T > config_.context) return "T must be from 1 to context, B at least 1";
  if (activation_floats(config_, static_cast<double>(B), static_cast<double>(T)) * 2 > max_floats)
    return "the activations of this batch would not fit in memory";
  const std::size_t floats = layout_activations(config_, B, T, nullptr).floats;
  const std::size_t total =
      floats * (training ? 2 : 1) + scratch_floats(config_, T, team_size(team_));
  const bool rope = config_.positions == Positions::rope;
  acts_ = allocate<float>(total);
  positions_ = rope ? allocate<std::int64_t>(B * T) : nullptr;
  if (!acts_ || (rope && !positions_)) {
    release();
    return "out of memory for the activations";
  }
  acts_floats_ = floats;
  batch_ = B;
  tokens_ = T;
  training_ = training;
  if (rope)
    for (std::size_t n = 0; n < B * T; ++n) positions_[n] = static_cast<std::int64_t>(n % T);
  return "";
}

std::string TinyTransformer::check_tokens(const std::int32_t* tokens, const std::int32_t* targets,
                                          std::size_t B, std::size_t T) const {
  const auto V = static_cast<std::int32_t>(config_.vocab_size);
  for (std::size_t n = 0; n < B * T; ++n) {
    if (tokens[n] < 0 || tokens[n] >= V) return "a token is outside [0, vocab_size)";
    if (targets && (targets[n] < -1 || targets[n] >= V))
      return "a target is outside [-1, vocab_size)";
  }
  return "";
}

void TinyTransformer::forward_pass(const std::int32_t* tokens, const float* head_mask) {
  const Config& c = config_;
  const std::size_t B = batch_, T = tokens_, N = B * T, D = c.d_model, H = c.heads;
  const std::size_t Hkv = c.kv_heads, d = D / H, KV = Hkv * d, M = c.mlp_size;
  const Parameters& p = views_->parameters;
  const Activations a = layout_activations(c, B, T, acts_);
  float* scratch = acts_ + acts_floats_ * (training_ ? 2 : 1);
  StepProfile* profile = profile_.get();
  ThreadTeam* team = team_;

  {
    PieceTimer timer(profile, Piece::embedding);
    embedding_forward(a.embedded, tokens, p.tokens, p.positions, B, T, D);
  }
  const float* x = a.embedded;
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerParameters& lp = p.layers[l];
    const LayerActivations& la = a.layers[l];
    {
      PieceTimer timer(profile, Piece::layer_norm);
      layer_norm_forward(la.norm1, la.norm1_mean, la.norm1_rstd, x, lp.norm1_gain, lp.norm1_bias, N,
                         D, team);
    }
    {
      PieceTimer timer(profile, Piece::qkv);
      linear_forward(la.q, la.norm1, lp.wq, nullptr, N, D, H * d, team);
      linear_forward(la.k, la.norm1, lp.wk, nullptr, N, D, KV, team);
      linear_forward(la.v, la.norm1, lp.wv, nullptr, N, D, KV, team);
    }
    if (c.positions == Positions::rope) {
      PieceTimer timer(profile, Piece::rope);
      rope_forward(rope_layout(B, T, H, d), la.q, rope_cos_, rope_sin_, positions_, la.q_rot);
      rope_forward(rope_layout(B, T, Hkv, d), la.k, rope_cos_, rope_sin_, positions_, la.k_rot);
    }
    {
      PieceTimer timer(profile, Piece::attention);
      attention_forward(la.heads, la.att, la.q_rot, la.k_rot, la.v, B, T, H, Hkv, d, scratch,
                        attention_options_, team);
      if (head_mask) head_mask_forward(la.heads, head_mask + l * H, N, H, d);
    }
    {
      PieceTimer timer(profile, Piece::output_projection);
      linear_forward(la.proj, la.heads, lp.wo, nullptr, N, H * d, D, team);
    }
    {
      PieceTimer timer(profile, Piece::residual);
      residual_forward(la.mid, x, la.proj, N * D, team);
    }
    if (M > 0) {
      {
        PieceTimer timer(profile, Piece::layer_norm);
        layer_norm_forward(la.norm2, la.norm2_mean, la.norm2_rstd, la.mid, lp.norm2_gain,
                           lp.norm2_bias, N, D, team);
      }
      {
        PieceTimer timer(profile, Piece::mlp);
        linear_forward(la.hidden, la.norm2, lp.w1, lp.b1, N, D, M, team);
        split(team, N * M, element_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
          gelu_forward(la.gelu + i0, la.hidden + i0, i1 - i0);
        });
        linear_forward(la.mlp_out, la.gelu, lp.w2, lp.b2, N, M, D, team);
      }
      PieceTimer timer(profile, Piece::residual);
      residual_forward(la.out, la.mid, la.mlp_out, N * D, team);
    }
    x = la.out;
  }
  {
    PieceTimer timer(profile, Piece::layer_norm);
    layer_norm_forward(a.norm, a.norm_mean, a.norm_rstd, x, p.norm_gain, p.norm_bias, N, D, team);
  }
  PieceTimer timer(profile, Piece::unembedding);
  linear_forward(a.logits, a.norm, p.unembedding, nullptr, N, D, c.vocab_size, team);
}

void TinyTransformer::backward_pass(const std::int32_t* tokens, const std::int32_t* targets) {
  const Config& c = config_;
  const std::size_t B = batch_, T = tokens_, N = B * T, D = c.d_model, H = c.heads;
  const std::size_t Hkv = c.kv_heads, d = D / H, KV = Hkv * d, M = c.mlp_size;
  const std::size_t V = c.vocab_size;
  const Parameters& p = views_->parameters;
  const Parameters& dp = views_->gradients;
  const Activations a = layout_activations(c, B, T, acts_);
  const Activations g = layout_activations(c, B, T, acts_ + acts_floats_);
  float* scratch = acts_ + 2 * acts_floats_;
  StepProfile* profile = profile_.get();
  ThreadTeam* team = team_;
  {
    PieceTimer timer(profile, Piece::zero_gradients);
    fill_zeros(grads_, parameter_count_, team);
    zero_gradients(g, c, B, T, team);
  }
  {
    PieceTimer timer(profile, Piece::loss_backward);
    cross_entropy_backward(g.logits, a.probs, targets, N, V);
  }
  {
    PieceTimer timer(profile, Piece::unembedding_backward);
    linear_backward(g.norm, dp.unembedding, nullptr, g.logits, a.norm, p.unembedding, N, D, V,
                    scratch, team);
  }
  const std::size_t L = c.layers;
  {
    PieceTimer timer(profile, Piece::layer_norm_backward);
    layer_norm_backward(g.layers[L - 1].out, dp.norm_gain, dp.norm_bias, g.norm,
                        a.layers[L - 1].out, p.norm_gain, a.norm_mean, a.norm_rstd, N, D, team);
  }
  for (std::size_t l = L; l-- > 0;) {
    const LayerParameters &lp = p.layers[l], &dlp = dp.layers[l];
    const LayerActivations &la = a.layers[l], &gl = g.layers[l];
    const float* x = l == 0 ? a.embedded : a.layers[l - 1].out;
    float* dx = l == 0 ? g.embedded : g.layers[l - 1].out;
    if (M > 0) {
      {
        PieceTimer timer(profile, Piece::residual_backward);
        residual_backward(gl.mid, gl.mlp_out, gl.out, N * D, team);
      }
      {
        PieceTimer timer(profile, Piece::mlp_backward);
        linear_backward(gl.gelu, dlp.w2, dlp.b2, gl.mlp_out, la.gelu, lp.w2, N, M, D, scratch,
                        team);
        split(team, N * M, element_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
          gelu_backward(gl.hidden + i0, gl.gelu + i0, la.hidden + i0, i1 - i0);
        });
        linear_backward(gl.norm2, dlp.w1, dlp.b1, gl.hidden, la.norm2, lp.w1, N, D, M, scratch,
                        team);
      }
      PieceTimer timer(profile, Piece::layer_norm_backward);
      layer_norm_backward(gl.mid, dlp.norm2_gain, dlp.norm2_bias, gl.norm2, la.mid, lp.norm2_gain,
                          la.norm2_mean, la.norm2_rstd, N, D, team);
    }
    {
      PieceTimer timer(profile, Piece::residual_backward);
      residual_backward(dx, gl.proj, gl.mid, N * D, team);
    }
    {
      PieceTimer timer(profile, Piece::output_projection_backward);
      linear_backward(gl.heads, dlp.wo, nullptr, gl.proj, la.heads, lp.wo, N, H * d, D, scratch,
                      team);
    }
    {
      PieceTimer timer(profile, Piece::attention_backward);
      attention_backward(gl.q_rot, gl.k_rot, gl.v, gl.heads, la.q_rot, la.k_rot, la.v, la.att, B, T,
                         H, Hkv, d, scratch, attention_options_, team);
    }
    if (c.positions == Positions::rope) {
      PieceTimer timer(profile, Piece::rope_backward);
      rope_backward(rope_layout(B, T, H, d), gl.q_rot, rope_cos_, rope_sin_, positions_, gl.q);
      rope_backward(rope_layout(B, T, Hkv, d), gl.k_rot, rope_cos_, rope_sin_, positions_, gl.k);
    }
    {
      PieceTimer timer(profile, Piece::qkv_backward);
      linear_backward(gl.norm1, dlp.wq, nullptr, gl.q, la.norm1, lp.wq, N, D, H * d, scratch, team);
      linear_backward(gl.norm1, dlp.wk, nullptr, gl.k, la.norm1, lp.wk, N, D, KV, scratch, team);
      linear_backward(gl.norm1, dlp.wv, nullptr, gl.v, la.norm1, lp.wv, N, D, KV, scratch, team);
    }
    PieceTimer timer(profile, Piece::layer_norm_backward);
    layer_norm_backward(dx, dlp.norm1_gain, dlp.norm1_bias, gl.norm1, x, lp.norm1_gain,
                        la.norm1_mean, la.norm1_rstd, N, D, team);
  }
  PieceTimer timer(profile, Piece::embedding_backward);
  embedding_backward(dp.tokens, dp.positions, g.embedded, tokens, B, T, D);
}

std::string TinyTransformer::compute_gradients(const std::int32_t* tokens,
                                               const std::int32_t* targets, std::size_t B,
                                               std::size_t T, double* loss, ThreadTeam* team) {
  team_ = team;
  struct Alone {  // the team is this call's only
    ThreadTeam*& team;
    ~Alone() { team = nullptr; }
  } alone{team_};
  if (std::string error = prepare(B, T, true); !error.empty()) return error;
  CallMemory call{*this};
  if (std::string error = check_tokens(tokens, targets, B, T); !error.empty()) return error;
  if (std::none_of(targets, targets + B * T, [](std::int32_t t) { return t >= 0; }))
    return "no target counts (every target is -1)";
  forward_pass(tokens);
  const Activations a = layout_activations(config_, B, T, acts_);
  {
    PieceTimer timer(profile_.get(), Piece::loss);
    *loss = cross_entropy_forward(a.probs, a.logits, targets, B * T, config_.vocab_size, team_);
  }
  backward_pass(tokens, targets);
  return "";
}

std::string TinyTransformer::train_step(const std::int32_t* tokens, const std::int32_t* targets,
                                        std::size_t B, std::size_t T, double* loss,
                                        ThreadTeam* team) {
  double value = 0.0;
  if (std::string error = compute_gradients(tokens, targets, B, T, &value, team); !error.empty())
    return error;
  PieceTimer timer(profile_.get(), Piece::optimiser);
  // Check before touching anything, so a refused step leaves parameters and moments as they were.
  if (!std::isfinite(value)) return "the loss is not finite (" + std::to_string(value) + ")";
  for (std::size_t i = 0; i < parameter_count_; ++i)
    if (!std::isfinite(grads_[i])) return "a gradient is not finite";
  ++step_;
  beta1_power_ *= 0.9;
  beta2_power_ *= 0.999;
  const AdamW hyper{config_.learning_rate, 0.9f, 0.999f, 1e-8f, config_.weight_decay};
  split(team, parameter_count_, element_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
    adamw_update(params_ + i0, moment1_ + i0, moment2_ + i0, grads_ + i0, i1 - i0, hyper,
                 beta1_power_, beta2_power_);
  });
  if (profile_) ++profile_->steps;
  *loss = value;
  return "";
}

std::string TinyTransformer::forward(const std::int32_t* tokens, std::size_t B, std::size_t T,
                                     float* logits, float* attention, const float* head_mask) {
  if (std::string error = prepare(B, T, false); !error.empty()) return error;
  CallMemory call{*this};
  if (std::string error = check_tokens(tokens, nullptr, B, T); !error.empty()) return error;
  forward_pass(tokens, head_mask);
  const Activations a = layout_activations(config_, B, T, acts_);
  std::copy_n(a.logits, B * T * config_.vocab_size, logits);
  if (attention) {
    const std::size_t per_layer = B * config_.heads * T * T;
    for (std::size_t l = 0; l < config_.layers; ++l)
      std::copy_n(a.layers[l].att, per_layer, attention + l * per_layer);
  }
  return "";
}

const float* TinyTransformer::decode(std::int32_t token, std::size_t position,
                                     const float* head_mask) {
  // One token at `position`: the forward's stages on a single row, with attention over the
  // cached keys and values of positions 0 .. position.
  const Config& c = config_;
  const std::size_t D = c.d_model, H = c.heads, Hkv = c.kv_heads, d = D / H, KV = Hkv * d;
  const std::size_t M = c.mlp_size, C = c.context;
  const Parameters& p = views_->parameters;
  float* keys = cache_;
  float* values = keys + c.layers * C * KV;
  const Activations a = layout_activations(c, 1, 1, values + c.layers * C * KV);
  float* scores = values + c.layers * C * KV + a.floats;
  const std::int64_t row = static_cast<std::int64_t>(position);  // RoPE's row of the caches

  // With T = 1 the embedding reads position row 0 of the table it is given: hand it row p.
  embedding_forward(a.embedded, &token, p.tokens,
                    p.positions ? p.positions + position * D : nullptr, 1, 1, D);
  const float* x = a.embedded;
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerParameters& lp = p.layers[l];
    const LayerActivations& la = a.layers[l];
    float* layer_keys = keys + l * C * KV;
    float* layer_values = values + l * C * KV;
    layer_norm_forward(la.norm1, la.norm1_mean, la.norm1_rstd, x, lp.norm1_gain, lp.norm1_bias, 1,
                       D);
    linear_forward(la.q, la.norm1, lp.wq, nullptr, 1, D, H * d);
    linear_forward(la.k, la.norm1, lp.wk, nullptr, 1, D, KV);
    linear_forward(la.v, la.norm1, lp.wv, nullptr, 1, D, KV);
    if (c.positions == Positions::rope) {
      rope_forward(rope_layout(1, 1, H, d), la.q, rope_cos_, rope_sin_, &row, la.q_rot);
      rope_forward(rope_layout(1, 1, Hkv, d), la.k, rope_cos_, rope_sin_, &row, la.k_rot);
    }
    std::copy_n(la.k_rot, KV, layer_keys + position * KV);
    std::copy_n(la.v, KV, layer_values + position * KV);
    attention_decode_row(la.heads, la.q_rot, layer_keys, layer_values, position + 1, H, Hkv, d,
                         scores, attention_options_);
    if (head_mask) head_mask_forward(la.heads, head_mask + l * H, 1, H, d);
    linear_forward(la.proj, la.heads, lp.wo, nullptr, 1, H * d, D);
    residual_forward(la.mid, x, la.proj, D);
    if (M > 0) {
      layer_norm_forward(la.norm2, la.norm2_mean, la.norm2_rstd, la.mid, lp.norm2_gain,
                         lp.norm2_bias, 1, D);
      linear_forward(la.hidden, la.norm2, lp.w1, lp.b1, 1, D, M);
      gelu_forward(la.gelu, la.hidden, M);
      linear_forward(la.mlp_out, la.gelu, lp.w2, lp.b2, 1, M, D);
      residual_forward(la.out, la.mid, la.mlp_out, D);
    }
    x = la.out;
  }
  layer_norm_forward(a.norm, a.norm_mean, a.norm_rstd, x, p.norm_gain, p.norm_bias, 1, D);
  linear_forward(a.logits, a.norm, p.unembedding, nullptr, 1, D, c.vocab_size);
  return a.logits;
}

std::string TinyTransformer::generate(const std::int32_t* prompt, std::size_t length,
                                      std::size_t count, std::int32_t* out,
                                      const Sampling& sampling, const float* head_mask) {
  if (length < 1) return "the prompt must hold at least one token";
  if (count > 0 && length + count - 1 > config_.context)
    return "the prompt and the new tokens but the last must fit in the context";
  if (length > config_.context) return "the prompt must fit in the context";
  if (!(sampling.temperature >= 0.0f) || !std::isfinite(sampling.temperature))
    return "the temperature must be finite and >= 0";
  if (sampling.banned && std::all_of(sampling.banned, sampling.banned + config_.vocab_size,
                                     [](std::uint8_t ban) { return ban != 0; }))
    return "every token id is banned: at least one must be left to choose";
  if (std::string error = check_tokens(prompt, nullptr, 1, length); !error.empty()) return error;
  if (count == 0) return "";
  cache_ = allocate<float>(decode_floats(config_));
  order_ = allocate<std::int32_t>(config_.vocab_size);
  CallMemory call{*this};
  if (!cache_ || !order_) return "out of memory for the key/value cache";
  SplitMix64 random(sampling.seed);
  const float* logits = nullptr;
  for (std::size_t t = 0; t < length; ++t) logits = decode(prompt[t], t, head_mask);
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = choose_token(logits, config_.vocab_size, sampling, random, order_);
    if (i + 1 < count) logits = decode(out[i], length + i, head_mask);
  }
  return "";
}

}  // namespace attention::model
