// A tiny decoder-only transformer that trains itself: token embedding, optional learned or
// rotary positions or ALiBi's biases, L layers of pre-LayerNorm causal multi-head attention
// (grouped kv heads) and an optional GELU MLP, a final LayerNorm, an unembedding, next-token
// cross-entropy and AdamW. Built after llm.c's train_gpt2.c: the parameters, their gradients and
// the two AdamW moments each live in one arena; the activations the backward needs live in another,
// laid out for the (B, T) of the call. The stages and their shapes are in layers.hpp.
//
// Between calls a model holds its parameter arena (and RoPE's tables) only: a call's working
// memory (activations, their gradients, generate()'s key/value cache) is allocated for the call
// and freed when it returns, so one large forward() pins nothing that a later call may need.
//
// Nothing here throws or aborts: every fallible call returns "" or a message saying what was
// wrong, and a refused call changes nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention.hpp"
#include "model/layers.hpp"
#include "model/sampling.hpp"
#include "model/step_profile.hpp"

namespace attention::model {

// How a model knows where a token is (positions_choices says what each one is).
enum class Positions : std::uint32_t { learned = 0, rope = 1, none = 2, alibi = 3 };

// One positions choice: its value, its name, and the score options it sets in every layer's
// attention record (attention_options; the rest of the record is the model's own).
struct PositionsChoice {
  Positions value;
  const char* name;
  AttentionOptions scores;
};
// Every choice, one row each: the one list the bindings register and config_error accepts.
// learned: a [C, D] table added to the embeddings; rope: q and k rotated (both in
// transformer.cpp); alibi: ALiBi's standard slope_h * (s - t) on head h's scores (the score
// step); none: no positions.
inline constexpr PositionsChoice positions_choices[] = {
    {Positions::learned, "learned", {}},
    {Positions::rope, "rope", {}},
    {Positions::alibi, "alibi",
     [] {
       AttentionOptions o;
       o.alibi = true;
       return o;
     }()},
    {Positions::none, "none", {}},
};

// The row of `positions`, or nullptr when it is none of them.
inline const PositionsChoice* positions_choice(Positions positions) {
  for (const PositionsChoice& choice : positions_choices)
    if (choice.value == positions) return &choice;
  return nullptr;
}

struct Config {
  std::uint32_t vocab_size = 16;  // V
  std::uint32_t context = 32;     // C, the most tokens per sequence
  std::uint32_t d_model = 32;     // D
  std::uint32_t layers = 2;       // L
  std::uint32_t heads = 4;        // H; head size d = D / H
  std::uint32_t kv_heads = 4;     // Hkv, divides H
  Positions positions = Positions::learned;
  std::uint32_t mlp_size = 0;  // M; 0 = attention-only
  float learning_rate = 1e-3f;
  float weight_decay = 0.0f;
  std::uint32_t seed = 0;
};

/** RoPE's angle base (theta_i = p * base^(-2i / d)). */
inline constexpr double rope_base = 10000.0;
/** The most floats the parameters, or one call's activations, may take (4 GiB of them). */
inline constexpr double max_floats = 1024.0 * 1024.0 * 1024.0;

// Why `config` cannot make a model (a neutral message), or null when it can.
const char* config_error(const Config& config);

// One named parameter tensor: `count` floats at `offset` of the parameter arena.
struct ParameterInfo {
  std::string name;
  std::vector<std::size_t> dims;
  std::size_t offset = 0, count = 0;
};

// The parameters of a valid config, in arena order (the order they are initialised in):
// embedding.tokens [V, D], embedding.positions [C, D] (learned only), then per layer l:
// layers.l.norm1.{gain,bias} [D], layers.l.attention.{wq [D, H d], wk [D, Hkv d],
// wv [D, Hkv d], wo [H d, D]}, and with an MLP layers.l.norm2.{gain,bias} [D],
// layers.l.mlp.{w1 [D, M], b1 [M], w2 [M, D], b2 [D]}; then norm.{gain,bias} [D] and
// unembedding [D, V].
std::vector<ParameterInfo> parameter_table(const Config& config);

// Bytes the model holds once created (parameters, gradients, two moments) plus generate()'s
// key/value cache, and the most bytes one call with B sequences of T tokens (T <= context)
// adds while it runs (activations, and for training their gradients).
double model_bytes(const Config& config);
// `threads`: the threads of the team the call computes with (each has its own attention scratch).
double call_bytes(const Config& config, std::size_t B, std::size_t T, bool training,
                  std::size_t threads = 1);

class TinyTransformer {
 public:
  // A model initialised from config.seed; null with *error set when the config is invalid or
  // memory runs out.
  static std::unique_ptr<TinyTransformer> create(const Config& config, std::string* error);
  ~TinyTransformer();
  TinyTransformer(const TinyTransformer&) = delete;
  TinyTransformer& operator=(const TinyTransformer&) = delete;

  const Config& config() const { return config_; }
  const std::vector<ParameterInfo>& parameters() const { return table_; }
  float* parameter_data() { return params_; }
  std::size_t parameter_count() const { return parameter_count_; }
  std::size_t steps() const { return step_; }

  // One AdamW step on the mean cross-entropy of tokens [B, T] against targets [B, T] (-1 = not
  // counted); *loss is that mean before the step. Refused (with everything unchanged) when the
  // loss or any gradient is not finite, or no target counts. With a team, the step's products,
  // attention, GELU and AdamW share their work among its threads: the same bits as without.
  std::string train_step(const std::int32_t* tokens, const std::int32_t* targets, std::size_t B,
                         std::size_t T, double* loss, ThreadTeam* team = nullptr);
  // Gradients of the mean cross-entropy without a step (tests read them from gradient_data()).
  std::string compute_gradients(const std::int32_t* tokens, const std::int32_t* targets,
                                std::size_t B, std::size_t T, double* loss,
                                ThreadTeam* team = nullptr);
  const float* gradient_data() const { return grads_; }

  // logits [B, T, V]; attention [L, B, H, T, T] (null to skip) of tokens [B, T]. head_mask
  // [L, H] (null: every head on) multiplies each head's output before W_O (head_mask_forward):
  // 0 switches a head off. The caller checks its values (finite, in [0, 1]).
  std::string forward(const std::int32_t* tokens, std::size_t B, std::size_t T, float* logits,
                      float* attention, const float* head_mask = nullptr);

  // Decoding: feeds prompt [length] then each new token back, one position at a time through a
  // per-layer key/value cache; writes the `count` new tokens to out, each chosen from the last
  // logits by `sampling` (greedy by default; sampling.hpp, which may ban ids), with head_mask
  // as forward's. Needs length >= 1, length + count - 1 <= C (every token but the last is
  // fed) and, with sampling.banned, at least one id not banned.
  std::string generate(const std::int32_t* prompt, std::size_t length, std::size_t count,
                       std::int32_t* out, const Sampling& sampling = {},
                       const float* head_mask = nullptr);

  // Replaces every parameter with `values` (parameter_count() floats, in table order) and
  // restarts AdamW (its moments and step count described the old parameters). Refused, with
  // nothing changed, when `count` is not parameter_count() or a value is not finite (NaN or
  // +-Inf: such a model computes NaN everywhere and never trains again); *bad is then the index
  // of the first such value (count when the count is wrong).
  std::string load_parameters(const float* values, std::size_t count, std::size_t* bad);

  // Times each piece of every training step from now on (step_profile.hpp), from zero; off
  // again with false. Off by default; the losses are the same bits either way.
  void profile_steps(bool on) { profile_.reset(on ? new StepProfile() : nullptr); }
  // The times so far, or null when off.
  const StepProfile* step_profile() const { return profile_.get(); }

 private:
  explicit TinyTransformer(const Config& config);
  // Allocates the working memory of one call on B sequences of T tokens (for training, the
  // activations' gradients too); release() frees it. Every call that prepares releases
  // before it returns (CallMemory).
  std::string prepare(std::size_t B, std::size_t T, bool training);
  void release();
  struct CallMemory;
  std::string check_tokens(const std::int32_t* tokens, const std::int32_t* targets, std::size_t B,
                           std::size_t T) const;
  void forward_pass(const std::int32_t* tokens, const float* head_mask = nullptr);
  void backward_pass(const std::int32_t* tokens, const std::int32_t* targets);
  // One token through the cache at `position`; returns its logits [V] (in the cache's memory).
  const float* decode(std::int32_t token, std::size_t position, const float* head_mask);

  struct Views;
  Config config_;
  std::vector<ParameterInfo> table_;
  std::unique_ptr<Views> views_;
  std::size_t parameter_count_ = 0;
  float* params_ = nullptr;  // one arena: parameters, gradients, first and second moments
  float* grads_ = nullptr;
  float* moment1_ = nullptr;
  float* moment2_ = nullptr;
  std::size_t step_ = 0;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;

  // The call in progress: its activations (and, when training, their gradients) for (B, T).
  float* acts_ = nullptr;
  std::size_t acts_floats_ = 0, batch_ = 0, tokens_ = 0;
  bool training_ = false;
  float* rope_cos_ = nullptr;  // [C, d / 2], rope only
  float* rope_sin_ = nullptr;
  std::int64_t* positions_ = nullptr;     // [B * T]: t of each row, rope only
  AttentionOptions attention_options_;    // every layer's attention (attention_options)
  float* cache_ = nullptr;                // generate(): keys and values [L, C, 2 Hkv d], and rows
  std::int32_t* order_ = nullptr;         // generate(): [V], sampling's ranking of the logits
  std::unique_ptr<StepProfile> profile_;  // null unless profile_steps(true)
  // The team the training call in progress shares its products and attention with (null: this
  // thread alone); the results are the same bits either way (model/parallel.hpp).
  ThreadTeam* team_ = nullptr;
};

}  // namespace attention::model
