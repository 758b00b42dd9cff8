// The whole tiny transformer (src/attention/model/transformer.hpp): its logits and attention
// against the float64 reference, every parameter's gradient against float64 central finite
// differences, bit-for-bit determinism, refused steps that change nothing, greedy decoding
// through the key/value cache against the batch forward, heads switched off by a mask,
// sampling with temperature and top-k, a task it must learn, and training shared by a thread
// team giving the bits of one thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "model/transformer.hpp"
#include "model_reference64.hpp"
#include "thread_team.hpp"

namespace {

using namespace attention::model;
using reference64::Vec;
using Tokens = std::vector<std::int32_t>;

std::unique_ptr<TinyTransformer> make(const Config& config) {
  std::string error;
  auto model = TinyTransformer::create(config, &error);
  EXPECT_TRUE(model) << error;
  return model;
}

std::map<std::string, Vec> named_parameters(TinyTransformer& model) {
  std::map<std::string, Vec> named;
  for (const ParameterInfo& info : model.parameters()) {
    const float* data = model.parameter_data() + info.offset;
    named[info.name] = Vec(data, data + info.count);
  }
  return named;
}

// A deterministic batch: tokens from a little LCG, targets the next token (-1 at each end).
void batch_of(std::size_t B, std::size_t T, std::uint32_t V, std::uint32_t seed, Tokens* tokens,
              Tokens* targets) {
  tokens->resize(B * T);
  targets->resize(B * T);
  std::uint32_t state = seed * 2654435761u + 1;
  for (auto& t : *tokens)
    t = static_cast<std::int32_t>(((state = state * 1664525u + 1013904223u) >> 16) % V);
  for (std::size_t n = 0; n < B * T; ++n) (*targets)[n] = (n % T + 1 < T) ? (*tokens)[n + 1] : -1;
}

Config small_config(Positions positions, std::uint32_t mlp, std::uint32_t kv_heads) {
  Config c;
  c.vocab_size = 5;
  c.context = 5;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 2;
  c.kv_heads = kv_heads;
  c.positions = positions;
  c.mlp_size = mlp;
  c.learning_rate = 0.01f;
  c.seed = 7;
  return c;
}

TEST(ModelTransformer, NamesEveryParameterWithItsDims) {
  const Config c = small_config(Positions::learned, 12, 1);
  const std::vector<ParameterInfo> table = parameter_table(c);
  std::map<std::string, std::vector<std::size_t>> dims;
  std::size_t offset = 0;
  for (const ParameterInfo& info : table) {
    EXPECT_EQ(info.offset, offset) << info.name;
    offset += info.count;
    dims[info.name] = info.dims;
  }
  EXPECT_EQ(table.size(), 2u + 2 * 12 + 3);
  EXPECT_EQ(dims["embedding.tokens"], (std::vector<std::size_t>{5, 8}));
  EXPECT_EQ(dims["embedding.positions"], (std::vector<std::size_t>{5, 8}));
  EXPECT_EQ(dims["layers.1.attention.wq"], (std::vector<std::size_t>{8, 8}));
  EXPECT_EQ(dims["layers.1.attention.wk"], (std::vector<std::size_t>{8, 4}));
  EXPECT_EQ(dims["layers.0.mlp.w1"], (std::vector<std::size_t>{8, 12}));
  EXPECT_EQ(dims["layers.0.mlp.b2"], (std::vector<std::size_t>{8}));
  EXPECT_EQ(dims["unembedding"], (std::vector<std::size_t>{8, 5}));
  EXPECT_EQ(parameter_table(small_config(Positions::none, 0, 2)).size(), 1u + 2 * 6 + 3);
}

// Learned positions start as sinusoids, not random rows: row t is cos(t theta_i) in the first
// half of the columns and sin(t theta_i) in the second, theta_i geometric from 1 radian per
// position down to 1 radian over the context (theta_i = C^(-i / (D / 2 - 1))). The same for
// every seed; an odd D gives the cosines the extra column.
TEST(ModelTransformer, LearnedPositionsStartAsSinusoidsFromOneRadianPerPositionToOnePerContext) {
  for (const std::uint32_t D : {8u, 7u}) {
    Config c = small_config(Positions::learned, 0, 1);
    c.d_model = D;
    c.heads = 1;
    auto model = make(c);
    const Vec positions = named_parameters(*model)["embedding.positions"];
    const std::size_t C = c.context, half = (D + 1) / 2;
    for (std::size_t t = 0; t < C; ++t)
      for (std::size_t i = 0; i < D; ++i) {
        const std::size_t pair = i < half ? i : i - half;
        const double theta =
            std::pow(static_cast<double>(C), -static_cast<double>(pair) / (half - 1));
        const double expected = i < half ? std::cos(t * theta) : std::sin(t * theta);
        EXPECT_NEAR(positions[t * D + i], expected, 1e-6)
            << "D " << D << ", row " << t << ", column " << i;
      }
    c.seed = 8;
    EXPECT_EQ(named_parameters(*make(c))["embedding.positions"], positions);
  }
}

TEST(ModelTransformer, RefusesConfigsThatCannotWork) {
  Config c = small_config(Positions::learned, 0, 2);
  c.heads = 3;
  EXPECT_STREQ(config_error(c), "heads must divide d_model");
  c = small_config(Positions::learned, 0, 2);
  c.kv_heads = 3;
  c.heads = 4;
  EXPECT_STREQ(config_error(c), "kv_heads must divide heads");
  c = small_config(Positions::learned, 0, 2);
  c.learning_rate = NAN;
  EXPECT_NE(config_error(c), nullptr);
  c = small_config(Positions::learned, 0, 2);
  c.vocab_size = 1u << 31;
  c.d_model = 1u << 10;
  std::string error;
  EXPECT_FALSE(TinyTransformer::create(c, &error));
  EXPECT_EQ(error, "the parameters would not fit in memory");
}

TEST(ModelTransformer, LogitsAndAttentionMatchTheFloat64Reference) {
  for (const Config& c :
       {small_config(Positions::learned, 12, 1), small_config(Positions::none, 0, 2),
        small_config(Positions::rope, 12, 1), small_config(Positions::alibi, 12, 1)}) {
    auto model = make(c);
    Tokens tokens, targets;
    const std::size_t B = 3, T = 4;
    batch_of(B, T, c.vocab_size, 1, &tokens, &targets);
    std::vector<float> logits(B * T * c.vocab_size), att(c.layers * B * c.heads * T * T);
    ASSERT_EQ(model->forward(tokens.data(), B, T, logits.data(), att.data()), "");
    Vec att64;
    const Vec logits64 = reference64::model_logits(c, named_parameters(*model), tokens, T, &att64);
    for (std::size_t i = 0; i < logits.size(); ++i) EXPECT_NEAR(logits[i], logits64[i], 2e-5);
    for (std::size_t i = 0; i < att.size(); ++i) EXPECT_NEAR(att[i], att64[i], 1e-5);
  }
}

// Every parameter of small configs (learned positions, an MLP and grouped kv heads;
// attention-only without positions; RoPE with an MLP and grouped kv heads), against central
// differences of the float64 loss. Relative error |g - fd| / max(|fd|, 1e-3): gradients below 1e-3
// are held to 1e-6 absolute.
TEST(ModelTransformer, EveryGradientMatchesFloat64FiniteDifferences) {
  for (const Config& c :
       {small_config(Positions::learned, 12, 1), small_config(Positions::none, 0, 2),
        small_config(Positions::rope, 12, 1), small_config(Positions::alibi, 12, 1)}) {
    auto model = make(c);
    Tokens tokens, targets;
    const std::size_t B = 2, T = 4;
    batch_of(B, T, c.vocab_size, 2, &tokens, &targets);
    targets[2] = -1;
    double loss = 0;
    ASSERT_EQ(model->compute_gradients(tokens.data(), targets.data(), B, T, &loss), "");
    std::map<std::string, Vec> named = named_parameters(*model);
    EXPECT_NEAR(loss,
                reference64::cross_entropy(reference64::model_logits(c, named, tokens, T), targets,
                                           c.vocab_size),
                1e-5);
    double worst = 0;
    std::string worst_at;
    for (const ParameterInfo& info : model->parameters()) {
      const auto f = [&](const Vec& values) {
        std::map<std::string, Vec> changed = named;
        changed[info.name] = values;
        return reference64::cross_entropy(reference64::model_logits(c, changed, tokens, T), targets,
                                          c.vocab_size);
      };
      const Vec fd = reference64::numerical_gradient(f, named[info.name]);
      for (std::size_t i = 0; i < info.count; ++i) {
        const double g = model->gradient_data()[info.offset + i];
        const double error = std::abs(g - fd[i]) / std::max(std::abs(fd[i]), 1e-3);
        if (error > worst) worst = error, worst_at = info.name + "[" + std::to_string(i) + "]";
      }
    }
    EXPECT_LE(worst, 1e-3) << worst_at;
    RecordProperty("worst_relative_error_" + std::to_string(static_cast<int>(c.positions)),
                   std::to_string(worst) + " at " + worst_at);
    std::printf("[ gradient check ] positions %d, mlp %u: worst relative error %.2e at %s\n",
                static_cast<int>(c.positions), c.mlp_size, worst, worst_at.c_str());
  }
}

TEST(ModelTransformer, TheSameSeedAndBatchesGiveTheSameLossesBitForBit) {
  const Config c = small_config(Positions::learned, 12, 1);
  auto a = make(c), b = make(c);
  Config other = c;
  other.seed = 8;
  auto different = make(other);
  for (std::uint32_t step = 0; step < 5; ++step) {
    Tokens tokens, targets;
    batch_of(4, 5, c.vocab_size, step, &tokens, &targets);
    double la = 0, lb = 0, ld = 0;
    ASSERT_EQ(a->train_step(tokens.data(), targets.data(), 4, 5, &la), "");
    ASSERT_EQ(b->train_step(tokens.data(), targets.data(), 4, 5, &lb), "");
    ASSERT_EQ(different->train_step(tokens.data(), targets.data(), 4, 5, &ld), "");
    EXPECT_EQ(std::memcmp(&la, &lb, sizeof la), 0) << "step " << step;
    if (step == 0) EXPECT_NE(la, ld);
  }
  EXPECT_EQ(std::memcmp(a->parameter_data(), b->parameter_data(), a->parameter_count() * 4), 0);
}

// A team's threads take chunks of rows, of kv heads and of elements (model/parallel.hpp): each
// number is still computed by one thread as one thread would, so every loss, gradient and
// parameter is the same bits. Rows, heads (grouped, with RoPE) and elements enough that every
// stage splits into several chunks.
TEST(ModelTransformer, TrainingWithAThreadTeamGivesTheBitsOfOneThread) {
  Config c = small_config(Positions::rope, 40, 2);
  c.context = 24;
  c.d_model = 16;
  c.heads = 4;
  c.vocab_size = 11;
  auto alone = make(c), shared = make(c);
  std::unique_ptr<attention::ThreadTeam> team = attention::ThreadTeam::start(2);
  ASSERT_TRUE(team);
  const std::size_t B = 6, T = 24;
  for (std::uint32_t step = 0; step < 3; ++step) {
    Tokens tokens, targets;
    batch_of(B, T, c.vocab_size, step, &tokens, &targets);
    double one = 0, three = 0;
    ASSERT_EQ(alone->train_step(tokens.data(), targets.data(), B, T, &one), "");
    ASSERT_EQ(shared->train_step(tokens.data(), targets.data(), B, T, &three, team.get()), "");
    EXPECT_EQ(std::memcmp(&one, &three, sizeof one), 0) << "step " << step;
    const std::size_t P = alone->parameter_count();
    EXPECT_EQ(std::memcmp(alone->gradient_data(), shared->gradient_data(), P * 4), 0)
        << "step " << step;
    EXPECT_EQ(std::memcmp(alone->parameter_data(), shared->parameter_data(), P * 4), 0)
        << "step " << step;
  }
}

TEST(ModelTransformer, ANonFiniteStepIsRefusedAndChangesNothing) {
  const Config c = small_config(Positions::learned, 12, 1);
  auto a = make(c), twin = make(c);
  Tokens tokens, targets;
  batch_of(2, 5, c.vocab_size, 3, &tokens, &targets);
  double loss = 0;
  ASSERT_EQ(a->train_step(tokens.data(), targets.data(), 2, 5, &loss), "");
  ASSERT_EQ(twin->train_step(tokens.data(), targets.data(), 2, 5, &loss), "");
  // An infinite weight makes the loss NaN: refused, and the parameters untouched.
  float& weight = a->parameter_data()[a->parameters().back().offset];
  const float saved = weight;
  weight = INFINITY;
  std::vector<float> before(a->parameter_data(), a->parameter_data() + a->parameter_count());
  EXPECT_NE(a->train_step(tokens.data(), targets.data(), 2, 5, &loss), "");
  EXPECT_EQ(std::memcmp(before.data(), a->parameter_data(), before.size() * 4), 0);
  EXPECT_EQ(a->steps(), 1u);
  // Restored, it goes on exactly as its twin: the AdamW moments were not touched either.
  weight = saved;
  batch_of(2, 5, c.vocab_size, 4, &tokens, &targets);
  double la = 0, lt = 0;
  ASSERT_EQ(a->train_step(tokens.data(), targets.data(), 2, 5, &la), "");
  ASSERT_EQ(twin->train_step(tokens.data(), targets.data(), 2, 5, &lt), "");
  EXPECT_EQ(la, lt);
  EXPECT_EQ(std::memcmp(a->parameter_data(), twin->parameter_data(), before.size() * 4), 0);
  // All targets -1: nothing to learn from, refused.
  const Tokens none(10, -1);
  EXPECT_EQ(a->train_step(tokens.data(), none.data(), 2, 5, &la),
            "no target counts (every target is -1)");
}

TEST(ModelTransformer, GenerateEqualsTheArgmaxOfForwardOverTheGrowingPrefix) {
  for (const Config& c :
       {small_config(Positions::learned, 12, 1), small_config(Positions::none, 0, 2),
        small_config(Positions::rope, 12, 1), small_config(Positions::alibi, 12, 1)}) {
    auto model = make(c);
    for (std::uint32_t step = 0; step < 20; ++step) {
      Tokens tokens, targets;
      batch_of(4, 5, c.vocab_size, step, &tokens, &targets);
      double loss = 0;
      ASSERT_EQ(model->train_step(tokens.data(), targets.data(), 4, 5, &loss), "");
    }
    const Tokens prompt = {3, 1};
    Tokens generated(4);
    ASSERT_EQ(model->generate(prompt.data(), 2, 4, generated.data()), "");
    Tokens sequence = prompt;
    for (std::size_t i = 0; i < 4; ++i) {
      const std::size_t T = sequence.size();
      std::vector<float> logits(T * c.vocab_size);
      ASSERT_EQ(model->forward(sequence.data(), 1, T, logits.data(), nullptr), "");
      const float* last = logits.data() + (T - 1) * c.vocab_size;
      const auto argmax =
          static_cast<std::int32_t>(std::max_element(last, last + c.vocab_size) - last);
      EXPECT_EQ(generated[i], argmax) << "token " << i;
      sequence.push_back(argmax);
    }
    EXPECT_EQ(model->generate(prompt.data(), 2, 5, generated.data()),
              "the prompt and the new tokens but the last must fit in the context");
  }
}

// A model trained a little, so that its heads and logits differ from one another.
std::unique_ptr<TinyTransformer> trained(const Config& c, std::uint32_t steps = 20) {
  auto model = make(c);
  for (std::uint32_t step = 0; step < steps; ++step) {
    Tokens tokens, targets;
    batch_of(4, 5, c.vocab_size, step, &tokens, &targets);
    double loss = 0;
    EXPECT_EQ(model->train_step(tokens.data(), targets.data(), 4, 5, &loss), "");
  }
  return model;
}

// The logits at the prompt's last position (V numbers): what its first generated token is
// drawn from.
std::vector<float> last_logits(TinyTransformer& model, const Tokens& prompt) {
  const std::size_t V = model.config().vocab_size;
  std::vector<float> logits(prompt.size() * V);
  EXPECT_EQ(model.forward(prompt.data(), 1, prompt.size(), logits.data(), nullptr), "");
  return std::vector<float>(logits.end() - std::ptrdiff_t(V), logits.end());
}

TEST(ModelTransformer, AHeadMaskMatchesTheFloat64ReferenceAndAllOnesIsNoMask) {
  for (const Config& c :
       {small_config(Positions::learned, 12, 1), small_config(Positions::rope, 0, 2)}) {
    auto model = trained(c);
    Tokens tokens, targets;
    const std::size_t B = 2, T = 5, V = c.vocab_size;
    batch_of(B, T, c.vocab_size, 7, &tokens, &targets);
    std::vector<float> plain(B * T * V), ones(B * T * V), masked(B * T * V);
    const std::vector<float> all_on(c.layers * c.heads, 1.0f), mask = {1.0f, 0.0f, 0.5f, 1.0f};
    ASSERT_EQ(model->forward(tokens.data(), B, T, plain.data(), nullptr), "");
    ASSERT_EQ(model->forward(tokens.data(), B, T, ones.data(), nullptr, all_on.data()), "");
    EXPECT_EQ(std::memcmp(plain.data(), ones.data(), plain.size() * 4), 0);
    ASSERT_EQ(model->forward(tokens.data(), B, T, masked.data(), nullptr, mask.data()), "");
    const Vec mask64(mask.begin(), mask.end());
    const Vec logits64 =
        reference64::model_logits(c, named_parameters(*model), tokens, T, nullptr, &mask64);
    double moved = 0;
    for (std::size_t i = 0; i < masked.size(); ++i) {
      EXPECT_NEAR(masked[i], logits64[i], 2e-5);
      moved = std::max(moved, std::abs(double(masked[i]) - plain[i]));
    }
    EXPECT_GT(moved, 1e-3);  // switching a head off changes what the model predicts
  }
}

TEST(ModelTransformer, SwitchingAHeadOffEqualsZeroingItsRowsOfWo) {
  const Config c = small_config(Positions::learned, 12, 2);
  auto model = trained(c);
  Tokens tokens, targets;
  const std::size_t T = 5, V = c.vocab_size, H = c.heads, d = c.d_model / H;
  batch_of(1, T, c.vocab_size, 3, &tokens, &targets);
  for (std::size_t off = 0; off < c.layers * H; ++off) {
    std::vector<float> mask(c.layers * H, 1.0f), masked(T * V), zeroed(T * V);
    mask[off] = 0.0f;
    ASSERT_EQ(model->forward(tokens.data(), 1, T, masked.data(), nullptr, mask.data()), "");
    const std::vector<float> kept(model->parameter_data(),
                                  model->parameter_data() + model->parameter_count());
    std::vector<float> without = kept;
    const std::size_t l = off / H, h = off % H;
    for (const ParameterInfo& info : model->parameters())
      if (info.name == "layers." + std::to_string(l) + ".attention.wo")
        std::fill_n(without.begin() + info.offset + h * d * c.d_model, d * c.d_model, 0.0f);
    std::size_t bad = 0;
    ASSERT_EQ(model->load_parameters(without.data(), without.size(), &bad), "");
    ASSERT_EQ(model->forward(tokens.data(), 1, T, zeroed.data(), nullptr), "");
    ASSERT_EQ(model->load_parameters(kept.data(), kept.size(), &bad), "");
    for (std::size_t i = 0; i < masked.size(); ++i)
      EXPECT_EQ(masked[i], zeroed[i]) << "head " << off << ", logit " << i;
  }
}

TEST(ModelTransformer, GenerateWithAHeadMaskFollowsTheMaskedForward) {
  const Config c = small_config(Positions::rope, 12, 1);
  auto model = trained(c);
  const std::vector<float> mask = {0.0f, 1.0f, 1.0f, 0.0f};
  const Tokens prompt = {2, 4};
  Tokens generated(3);
  ASSERT_EQ(model->generate(prompt.data(), 2, 3, generated.data(), {}, mask.data()), "");
  Tokens sequence = prompt;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t T = sequence.size();
    std::vector<float> logits(T * c.vocab_size);
    ASSERT_EQ(model->forward(sequence.data(), 1, T, logits.data(), nullptr, mask.data()), "");
    const float* last = logits.data() + (T - 1) * c.vocab_size;
    const auto argmax =
        static_cast<std::int32_t>(std::max_element(last, last + c.vocab_size) - last);
    EXPECT_EQ(generated[i], argmax) << "token " << i;
    sequence.push_back(argmax);
  }
}

TEST(ModelTransformer, SamplingIsSeededAndTopKOneIsGreedy) {
  const Config c = small_config(Positions::learned, 12, 1);
  auto model = trained(c);
  const Tokens prompt = {1};
  Tokens greedy(4), top1(4), a(4), b(4);
  ASSERT_EQ(model->generate(prompt.data(), 1, 4, greedy.data()), "");
  ASSERT_EQ(model->generate(prompt.data(), 1, 4, top1.data(), {2.0f, 1, 9}), "");
  EXPECT_EQ(top1, greedy);
  bool differs = false;
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    ASSERT_EQ(model->generate(prompt.data(), 1, 4, a.data(), {1.5f, 0, seed}), "");
    ASSERT_EQ(model->generate(prompt.data(), 1, 4, b.data(), {1.5f, 0, seed}), "");
    EXPECT_EQ(a, b) << "seed " << seed;
    differs = differs || a != greedy;
  }
  EXPECT_TRUE(differs);  // at temperature 1.5 some seed leaves the greedy path
  EXPECT_EQ(model->generate(prompt.data(), 1, 4, a.data(), {-1.0f, 0, 0}),
            "the temperature must be finite and >= 0");
}

// Over many seeds, the first sampled token's frequencies are softmax(logits / temperature)
// over the top k, and a token outside the top k never comes.
TEST(ModelTransformer, SamplesFollowTheTemperedSoftmaxOfTheTopK) {
  const Config c = small_config(Positions::none, 0, 2);
  auto model = trained(c);
  const Tokens prompt = {0, 3};
  const std::size_t V = c.vocab_size;
  const std::vector<float> logits = last_logits(*model, prompt);
  const float* last = logits.data();
  std::vector<std::int32_t> rank(V);
  for (std::size_t i = 0; i < V; ++i) rank[i] = std::int32_t(i);
  std::sort(rank.begin(), rank.end(), [last](auto x, auto y) { return last[x] > last[y]; });
  const float temperature = 0.7f;
  const std::size_t k = 3, draws = 4000;
  std::vector<double> expected(V, 0.0);
  double total = 0;
  for (std::size_t j = 0; j < k; ++j)
    total += std::exp((last[rank[j]] - last[rank[0]]) / double(temperature));
  for (std::size_t j = 0; j < k; ++j)
    expected[rank[j]] = std::exp((last[rank[j]] - last[rank[0]]) / double(temperature)) / total;
  std::vector<double> seen(V, 0.0);
  for (std::uint32_t seed = 0; seed < draws; ++seed) {
    std::int32_t token = -1;
    ASSERT_EQ(model->generate(prompt.data(), 2, 1, &token, {temperature, k, seed}), "");
    seen[token] += 1.0 / draws;
  }
  for (std::size_t i = 0; i < V; ++i) {
    if (expected[i] == 0.0) {
      EXPECT_EQ(seen[i], 0.0) << "token " << i << " is not in the top " << k;
    } else {  // 5 standard deviations of a frequency over 4000 draws
      EXPECT_NEAR(seen[i], expected[i], 5 * std::sqrt(expected[i] * (1 - expected[i]) / draws))
          << "token " << i;
    }
  }
}

// A banned id is never chosen: greedy takes the best id left, a draw never lands on one, even
// when the banned id holds nearly all the probability; banning every id is refused.
TEST(ModelTransformer, BannedIdsAreNeverChosen) {
  const Config c = small_config(Positions::none, 0, 2);
  auto model = trained(c);
  const Tokens prompt = {0, 3};
  const std::size_t V = c.vocab_size;
  const std::vector<float> logits = last_logits(*model, prompt);
  const float* last = logits.data();
  const auto best = std::int32_t(std::max_element(last, last + V) - last);
  std::vector<std::uint8_t> banned(V, 0);
  banned[std::size_t(best)] = 1;
  std::int32_t token = -1;
  Sampling greedy;
  greedy.banned = banned.data();
  ASSERT_EQ(model->generate(prompt.data(), 2, 1, &token, greedy), "");
  std::int32_t second = -1;
  for (std::size_t i = 0; i < V; ++i)
    if (std::int32_t(i) != best && (second < 0 || last[i] > last[second])) second = std::int32_t(i);
  EXPECT_EQ(token, second);
  // A temperature so low that the best id would be drawn every time were it allowed.
  for (std::uint32_t seed = 0; seed < 200; ++seed) {
    for (std::uint32_t k : {0u, 1u, 2u}) {
      ASSERT_EQ(model->generate(prompt.data(), 2, 1, &token, {0.05f, k, seed, banned.data()}), "");
      EXPECT_NE(token, best) << "seed " << seed << ", top_k " << k;
    }
  }
  std::fill(banned.begin(), banned.end(), std::uint8_t(1));
  EXPECT_EQ(model->generate(prompt.data(), 2, 1, &token, {1.0f, 0, 0, banned.data()}),
            "every token id is banned: at least one must be left to choose");
}

// A task only attention with positions can solve: the target is the previous token. One layer,
// a few hundred steps, and the loss falls from about log V far below.
TEST(ModelTransformer, LearnsToRepeatThePreviousToken) {
  Config c;
  c.vocab_size = 8;
  c.context = 8;
  c.d_model = 16;
  c.layers = 1;
  c.heads = 2;
  c.kv_heads = 2;
  c.learning_rate = 0.01f;
  c.seed = 1;
  auto model = make(c);
  double first = 0, last = 0;
  for (std::uint32_t step = 0; step < 300; ++step) {
    Tokens tokens, targets;
    batch_of(8, 8, c.vocab_size, step, &tokens, &targets);
    for (std::size_t n = 0; n < targets.size(); ++n) targets[n] = n % 8 == 0 ? -1 : tokens[n - 1];
    double loss = 0;
    ASSERT_EQ(model->train_step(tokens.data(), targets.data(), 8, 8, &loss), "");
    if (step == 0) first = loss;
    last = loss;
  }
  EXPECT_NEAR(first, std::log(8.0), 0.7);
  EXPECT_LT(last, 0.1);
}

}  // namespace
