// Where the time of a training step goes, piece by piece: the benchmark turns this on for a
// few steps of its own (bench/train-node.mjs) to print the split next to ms/step. Off (a null
// pointer) by default, when each piece costs one untaken branch; on, two clock reads per
// piece. Timing never changes what is computed: the losses are the same bits either way.
#pragma once

#include <chrono>
#include <cstddef>

namespace attention::model {

// The pieces of a step, forward then backward; "layer norm" counts every LayerNorm (two per
// layer and the final one), "mlp" the two MLP products and the GELU between them.
enum class Piece : std::size_t {
  embedding,
  layer_norm,
  qkv,
  rope,
  attention,
  output_projection,
  residual,
  mlp,
  unembedding,
  loss,
  loss_backward,
  unembedding_backward,
  mlp_backward,
  residual_backward,
  output_projection_backward,
  attention_backward,
  rope_backward,
  qkv_backward,
  layer_norm_backward,
  embedding_backward,
  zero_gradients,  // the gradient arenas cleared before the backward accumulates into them
  optimiser,       // the finite-gradient check and AdamW
  count
};
inline constexpr std::size_t piece_count = static_cast<std::size_t>(Piece::count);

// The pieces' names, in enum order (the benchmark's row labels).
inline constexpr const char* piece_names[piece_count] = {
    "embedding",
    "layer norm",
    "QKV projection",
    "RoPE",
    "attention",
    "output projection",
    "residual",
    "MLP",
    "unembedding",
    "loss",
    "loss backward",
    "unembedding backward",
    "MLP backward",
    "residual backward",
    "output projection backward",
    "attention backward",
    "RoPE backward",
    "QKV projection backward",
    "layer norm backward",
    "embedding backward",
    "zero gradients",
    "optimiser",
};

// Seconds spent in each piece, summed over `steps` training steps.
struct StepProfile {
  double seconds[piece_count] = {};
  std::size_t steps = 0;
};

// Adds the time from its construction to its destruction to one piece (nothing when the
// profile is null).
class PieceTimer {
 public:
  PieceTimer(StepProfile* profile, Piece piece) : profile_(profile), piece_(piece) {
    if (profile_) start_ = std::chrono::steady_clock::now();
  }
  ~PieceTimer() {
    if (!profile_) return;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    profile_->seconds[static_cast<std::size_t>(piece_)] += elapsed.count();
  }
  PieceTimer(const PieceTimer&) = delete;
  PieceTimer& operator=(const PieceTimer&) = delete;

 private:
  StepProfile* profile_;
  Piece piece_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace attention::model
