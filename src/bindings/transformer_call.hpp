// The tiny transformer's entry points as plain numbers and addresses (no Emscripten header):
// transformer_bindings.cpp registers them for src/js/tiny-transformer.mjs, and the native tests
// drive the same functions. A model is a handle: its address, 0 for none.
//
// The JS layer validates every argument first, with its users' names and wording, and sizes
// every buffer from the dims; these functions check again only what memory safety needs
// (token ranges, T <= context) and return a neutral message, "" on success. Nothing throws.
#pragma once

#include <cstdint>
#include <string>

#include "model/transformer.hpp"

namespace transformer_call {

struct Created {
  std::uintptr_t handle = 0;  // 0 when refused
  std::string error;
};
struct StepResult {
  double loss = 0.0;
  std::string error;  // "" when the step was taken
};
struct LoadResult {
  std::string error;        // "" when the parameters were loaded
  std::uint32_t index = 0;  // when refused: the first value that is not finite (or the count)
};

// A model from `config` (its parameters drawn from config.seed).
Created create(const attention::model::Config& config);
void free_model(std::uintptr_t handle);

// tokens, targets: addresses of int32 [batch, T]; one AdamW step, loss before it.
StepResult train_step(std::uintptr_t handle, std::uintptr_t tokens, std::uintptr_t targets,
                      std::uint32_t batch, std::uint32_t T);
// tokens int32 [batch, T] -> logits float32 [batch, T, V] and attention float32
// [L, batch, H, T, T] at the given addresses; head_mask: float32 [L, H] (each head's output
// times its factor, 0 = off), 0 for every head on.
std::string forward(std::uintptr_t handle, std::uintptr_t tokens, std::uint32_t batch,
                    std::uint32_t T, std::uintptr_t logits, std::uintptr_t attention,
                    std::uintptr_t head_mask);
// prompt int32 [length] -> out int32 [count]: greedy at temperature 0, else sampled from the
// top_k largest logits (0 = all) by a generator seeded with `seed`; head_mask as forward's;
// banned: uint8 [V], nonzero = that id is never chosen, 0 for none banned.
std::string generate(std::uintptr_t handle, std::uintptr_t prompt, std::uint32_t length,
                     std::uint32_t count, std::uintptr_t out, float temperature,
                     std::uint32_t top_k, std::uint32_t seed, std::uintptr_t head_mask,
                     std::uintptr_t banned);

// The parameter arena's address (tensors at the offsets of the model's parameter table, in
// floats), for copying parameters out.
std::uintptr_t parameter_address(std::uintptr_t handle);
// values: the address of `count` floats, every parameter in table order, loaded in place of
// the model's (AdamW restarts); refused whole when count is wrong or a value is not finite.
LoadResult load_parameters(std::uintptr_t handle, std::uintptr_t values, std::uint32_t count);

// The benchmark's per-piece timer of training steps (model/step_profile.hpp): on from zero, or
// off; and the times so far (all zero when off).
void profile_steps(std::uintptr_t handle, bool on);
attention::model::StepProfile step_profile(std::uintptr_t handle);

}  // namespace transformer_call
