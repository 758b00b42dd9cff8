#include "transformer_call.hpp"

#include "attention_call.hpp"

namespace transformer_call {

namespace {

using attention::model::TinyTransformer;

TinyTransformer* model(std::uintptr_t handle) { return reinterpret_cast<TinyTransformer*>(handle); }
const std::int32_t* ints(std::uintptr_t address) {
  return reinterpret_cast<const std::int32_t*>(address);
}
// An optional array: address 0 is none (null).
const float* floats(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

}  // namespace

Created create(const attention::model::Config& config) {
  Created created;
  created.handle =
      reinterpret_cast<std::uintptr_t>(TinyTransformer::create(config, &created.error).release());
  return created;
}

void free_model(std::uintptr_t handle) { delete model(handle); }

StepResult train_step(std::uintptr_t handle, std::uintptr_t tokens, std::uintptr_t targets,
                      std::uint32_t batch, std::uint32_t T) {
  StepResult result;
  // With the module's team, if set_threads started one (the wasm threads build).
  result.error = model(handle)->train_step(ints(tokens), ints(targets), batch, T, &result.loss,
                                           attention_call::shared_team());
  return result;
}

std::string forward(std::uintptr_t handle, std::uintptr_t tokens, std::uint32_t batch,
                    std::uint32_t T, std::uintptr_t logits, std::uintptr_t attention,
                    std::uintptr_t head_mask) {
  return model(handle)->forward(ints(tokens), batch, T, reinterpret_cast<float*>(logits),
                                reinterpret_cast<float*>(attention), floats(head_mask));
}

std::string generate(std::uintptr_t handle, std::uintptr_t prompt, std::uint32_t length,
                     std::uint32_t count, std::uintptr_t out, float temperature,
                     std::uint32_t top_k, std::uint32_t seed, std::uintptr_t head_mask,
                     std::uintptr_t banned) {
  const attention::model::Sampling sampling{temperature, top_k, seed,
                                            reinterpret_cast<const std::uint8_t*>(banned)};
  return model(handle)->generate(ints(prompt), length, count, reinterpret_cast<std::int32_t*>(out),
                                 sampling, floats(head_mask));
}

std::uintptr_t parameter_address(std::uintptr_t handle) {
  return reinterpret_cast<std::uintptr_t>(model(handle)->parameter_data());
}

LoadResult load_parameters(std::uintptr_t handle, std::uintptr_t values, std::uint32_t count) {
  LoadResult result;
  std::size_t bad = 0;
  result.error =
      model(handle)->load_parameters(reinterpret_cast<const float*>(values), count, &bad);
  result.index = static_cast<std::uint32_t>(bad);
  return result;
}

void profile_steps(std::uintptr_t handle, bool on) { model(handle)->profile_steps(on); }

attention::model::StepProfile step_profile(std::uintptr_t handle) {
  const attention::model::StepProfile* profile = model(handle)->step_profile();
  return profile ? *profile : attention::model::StepProfile{};
}

}  // namespace transformer_call
