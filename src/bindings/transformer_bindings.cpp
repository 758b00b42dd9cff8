// Embind registrations of the tiny transformer (transformer_call.hpp): conversions only.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "attention_call.hpp"
#include "model/transformer.hpp"
#include "transformer_call.hpp"

namespace {

namespace em = emscripten;
using attention::model::Config;

// The parameter table as JS objects { name, dims: number[], offset, count } (offsets and
// counts in floats).
em::val parameter_table(const Config& config) {
  em::val table = em::val::array();
  for (const attention::model::ParameterInfo& info : attention::model::parameter_table(config)) {
    em::val dims = em::val::array();
    for (std::size_t n : info.dims) dims.call<void>("push", static_cast<double>(n));
    em::val entry = em::val::object();
    entry.set("name", info.name);
    entry.set("dims", dims);
    entry.set("offset", static_cast<double>(info.offset));
    entry.set("count", static_cast<double>(info.count));
    table.call<void>("push", entry);
  }
  return table;
}

// Bytes for the memory checks, as doubles (no 32-bit wrap-around).
double model_bytes(const Config& config) { return attention::model::model_bytes(config); }
double call_bytes(const Config& config, std::uint32_t batch, std::uint32_t T, bool training) {
  return attention::model::call_bytes(config, batch, T, training, attention_call::threads());
}
std::string config_error(const Config& config) {
  const char* error = attention::model::config_error(config);
  return error ? error : "";
}

// The step profile as { steps, seconds: { piece name: seconds summed over the steps } }.
em::val step_profile(std::uintptr_t handle) {
  const attention::model::StepProfile profile = transformer_call::step_profile(handle);
  em::val seconds = em::val::object();
  for (std::size_t i = 0; i < attention::model::piece_count; ++i)
    seconds.set(attention::model::piece_names[i], profile.seconds[i]);
  em::val result = em::val::object();
  result.set("steps", static_cast<double>(profile.steps));
  result.set("seconds", seconds);
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(tiny_transformer) {
  em::enum_<attention::model::Positions> positions("TransformerPositions");
  for (const attention::model::PositionsChoice& p : attention::model::positions_choices)
    positions.value(p.name, p.value);
  em::value_object<Config>("TransformerConfig")
      .field("vocabSize", &Config::vocab_size)
      .field("context", &Config::context)
      .field("dModel", &Config::d_model)
      .field("layers", &Config::layers)
      .field("heads", &Config::heads)
      .field("kvHeads", &Config::kv_heads)
      .field("positions", &Config::positions)
      .field("mlpSize", &Config::mlp_size)
      .field("learningRate", &Config::learning_rate)
      .field("weightDecay", &Config::weight_decay)
      .field("seed", &Config::seed);
  using transformer_call::Created;
  using transformer_call::LoadResult;
  using transformer_call::StepResult;
  em::value_object<Created>("TransformerCreated")
      .field("handle", &Created::handle)
      .field("error", &Created::error);
  em::value_object<StepResult>("TransformerStep")
      .field("loss", &StepResult::loss)
      .field("error", &StepResult::error);
  em::value_object<LoadResult>("TransformerLoad")
      .field("error", &LoadResult::error)
      .field("index", &LoadResult::index);
  em::function("transformerConfigError", &config_error);
  em::function("transformerParameterTable", &parameter_table);
  em::function("transformerModelBytes", &model_bytes);
  em::function("transformerCallBytes", &call_bytes);
  em::function("transformerCreate", &transformer_call::create);
  em::function("transformerFree", &transformer_call::free_model);
  em::function("transformerTrainStep", &transformer_call::train_step);
  em::function("transformerForward", &transformer_call::forward);
  em::function("transformerGenerate", &transformer_call::generate);
  em::function("transformerParameterAddress", &transformer_call::parameter_address);
  em::function("transformerLoadParameters", &transformer_call::load_parameters);
  em::function("transformerProfileSteps", &transformer_call::profile_steps);
  em::function("transformerStepProfile", &step_profile);
}
