// The tiny transformer's native-testable entry points (src/bindings/transformer_call.hpp), as
// the Embind bindings call them: addresses in, messages out, nothing thrown.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "transformer_call.hpp"

namespace {

using attention::model::Config;

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

Config tiny() {
  Config c;
  c.vocab_size = 4;
  c.context = 4;
  c.d_model = 4;
  c.layers = 1;
  c.heads = 2;
  c.kv_heads = 1;
  c.learning_rate = 0.05f;
  return c;
}

TEST(ModelCall, TrainsForwardsAndGeneratesThroughAddresses) {
  const transformer_call::Created created = transformer_call::create(tiny());
  ASSERT_NE(created.handle, 0u) << created.error;
  const std::vector<std::int32_t> tokens = {0, 1, 2, 3, 3, 2, 1, 0};
  const std::vector<std::int32_t> targets = {1, 2, 3, -1, 2, 1, 0, -1};
  double first = 0;
  for (int step = 0; step < 30; ++step) {
    const transformer_call::StepResult result = transformer_call::train_step(
        created.handle, address(tokens.data()), address(targets.data()), 2, 4);
    ASSERT_EQ(result.error, "");
    if (step == 0) first = result.loss;
    if (step == 29) EXPECT_LT(result.loss, first);
  }
  std::vector<float> logits(2 * 4 * 4), att(2 * 2 * 4 * 4);
  EXPECT_EQ(transformer_call::forward(created.handle, address(tokens.data()), 2, 4,
                                      address(logits.data()), address(att.data()), 0),
            "");
  std::vector<std::int32_t> out(3);
  EXPECT_EQ(transformer_call::generate(created.handle, address(tokens.data()), 1, 3,
                                       address(out.data()), 0.0f, 0, 0, 0, 0),
            "");
  for (std::int32_t token : out) EXPECT_TRUE(token >= 0 && token < 4);
  transformer_call::free_model(created.handle);
}

TEST(ModelCall, RefusesWhatMemorySafetyNeedsWithAMessage) {
  Config bad = tiny();
  bad.heads = 3;
  const transformer_call::Created refused = transformer_call::create(bad);
  EXPECT_EQ(refused.handle, 0u);
  EXPECT_EQ(refused.error, "heads must divide d_model");

  const transformer_call::Created created = transformer_call::create(tiny());
  const std::vector<std::int32_t> tokens = {0, 9, 2, 3};
  const std::vector<std::int32_t> targets = {1, 2, 3, -1};
  EXPECT_EQ(transformer_call::train_step(created.handle, address(tokens.data()),
                                         address(targets.data()), 1, 4)
                .error,
            "a token is outside [0, vocab_size)");
  const std::vector<std::int32_t> five = {0, 1, 2, 3, 0};
  std::vector<float> logits(5 * 4);
  EXPECT_EQ(transformer_call::forward(created.handle, address(five.data()), 1, 5,
                                      address(logits.data()), 0, 0),
            "T must be from 1 to context, B at least 1");
  transformer_call::free_model(created.handle);
}

TEST(ModelCall, LoadsParametersWholeOrRefusesNonFiniteOnesChangingNothing) {
  const transformer_call::Created created = transformer_call::create(tiny());
  ASSERT_NE(created.handle, 0u) << created.error;
  std::size_t count = 0;
  for (const auto& info : attention::model::parameter_table(tiny())) count += info.count;
  const auto* arena =
      reinterpret_cast<const float*>(transformer_call::parameter_address(created.handle));
  const std::vector<float> original(arena, arena + count);
  const auto unchanged = [&] {
    EXPECT_EQ(std::memcmp(arena, original.data(), count * sizeof(float)), 0);
  };

  std::vector<float> values(count, 0.5f);
  for (const float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity()}) {
    for (const std::size_t at : {std::size_t{0}, count / 2, count - 1}) {
      std::vector<float> poisoned = values;
      poisoned[at] = bad;
      const transformer_call::LoadResult refused = transformer_call::load_parameters(
          created.handle, address(poisoned.data()), static_cast<std::uint32_t>(count));
      EXPECT_EQ(refused.error, "a parameter is not finite");
      EXPECT_EQ(refused.index, at);
      unchanged();
    }
  }
  const transformer_call::LoadResult short_by_one = transformer_call::load_parameters(
      created.handle, address(values.data()), static_cast<std::uint32_t>(count - 1));
  EXPECT_NE(short_by_one.error, "");
  EXPECT_EQ(short_by_one.index, count - 1);
  unchanged();

  // Accepted: every value in place, and the model trains from there.
  values[count - 1] = std::numeric_limits<float>::max();
  EXPECT_EQ(transformer_call::load_parameters(created.handle, address(values.data()),
                                              static_cast<std::uint32_t>(count))
                .error,
            "");
  EXPECT_EQ(std::memcmp(arena, values.data(), count * sizeof(float)), 0);
  values[count - 1] = 0.5f;
  transformer_call::load_parameters(created.handle, address(values.data()),
                                    static_cast<std::uint32_t>(count));
  const std::vector<std::int32_t> tokens = {0, 1, 2, 3};
  const std::vector<std::int32_t> targets = {1, 2, 3, 0};
  EXPECT_EQ(transformer_call::train_step(created.handle, address(tokens.data()),
                                         address(targets.data()), 1, 4)
                .error,
            "");
  transformer_call::free_model(created.handle);
}

TEST(ModelCall, TimesEachPieceOfAStepWithoutChangingTheLosses) {
  using attention::model::Piece;
  const auto seconds = [](const attention::model::StepProfile& p, Piece piece) {
    return p.seconds[static_cast<std::size_t>(piece)];
  };
  const transformer_call::Created plain = transformer_call::create(tiny());
  const transformer_call::Created timed = transformer_call::create(tiny());
  transformer_call::profile_steps(timed.handle, true);
  const std::vector<std::int32_t> tokens = {0, 1, 2, 3, 3, 2, 1, 0};
  const std::vector<std::int32_t> targets = {1, 2, 3, -1, 2, 1, 0, -1};
  for (int step = 0; step < 5; ++step) {
    const double a = transformer_call::train_step(plain.handle, address(tokens.data()),
                                                  address(targets.data()), 2, 4)
                         .loss;
    const double b = transformer_call::train_step(timed.handle, address(tokens.data()),
                                                  address(targets.data()), 2, 4)
                         .loss;
    EXPECT_EQ(a, b) << "step " << step;
  }
  const attention::model::StepProfile profile = transformer_call::step_profile(timed.handle);
  EXPECT_EQ(profile.steps, 5u);
  for (Piece piece : {Piece::qkv, Piece::attention, Piece::attention_backward, Piece::optimiser})
    EXPECT_GT(seconds(profile, piece), 0.0)
        << attention::model::piece_names[static_cast<int>(piece)];
  // Learned positions and no MLP: those pieces never ran.
  EXPECT_EQ(seconds(profile, Piece::rope), 0.0);
  EXPECT_EQ(seconds(profile, Piece::mlp_backward), 0.0);
  EXPECT_EQ(transformer_call::step_profile(plain.handle).steps, 0u);
  transformer_call::profile_steps(timed.handle, false);
  EXPECT_EQ(transformer_call::step_profile(timed.handle).steps, 0u);
  transformer_call::free_model(plain.handle);
  transformer_call::free_model(timed.handle);
}

}  // namespace
