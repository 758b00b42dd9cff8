// Every case of ONNX's own test file for the Attention operator (shapes and attributes as
// there, data from our generator), through the JS layer's entry point, against float64.
// The cases are read from tests/data/onnx-attention-cases.json, the list the JS suites read too.
// float16 cases run in float32 here: the JS layer converts float16 in and out.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "call_harness.hpp"
#include "reference64.hpp"

namespace {

enum Mask { none, boolean, additive };

// One case as the entry point sees it: the sizes the ONNX tensors' dims imply.
struct OnnxCase {
  std::string name;
  std::size_t batch, q_heads, kv_heads, q_seq, kv_seq, past, head_size, v_head_size;
  bool three_d;
  Mask mask;
  std::vector<std::size_t> mask_dims;
  bool causal;
  double scale;  // 0: ONNX's default 1/sqrt(head_size)
  double softcap;
  long long left, right;
  std::vector<long long> nonpad;
  int qk_mode;  // -1: qk_matmul_output not requested
};

// A case of the JSON list: { name, inputs: { NAME: { dims, type } }, nonpad?, attributes,
// outputs: [{ name }] }. 4-D Q is [batch, q_heads, S, D], K [batch, kv_heads, L, D] and V
// [batch, kv_heads, L, Dv]; 3-D ones are [batch, S, heads * D], with the heads in attributes.
OnnxCase case_of(const nlohmann::json& spec) {
  const auto& inputs = spec.at("inputs");
  const auto& attributes = spec.at("attributes");
  const auto dims = [&](const char* input) {
    return inputs.at(input).at("dims").get<std::vector<std::size_t>>();
  };
  const auto attribute = [&](const char* key, auto fallback) {
    return attributes.value(key, fallback);
  };
  OnnxCase c{};
  c.name = spec.at("name").get<std::string>();
  const auto q = dims("Q"), k = dims("K"), v = dims("V");
  c.three_d = q.size() == 3;
  c.batch = q[0];
  if (c.three_d) {
    c.q_heads = attribute("q_num_heads", std::size_t{0});
    c.kv_heads = attribute("kv_num_heads", std::size_t{0});
    c.q_seq = q[1];
    c.kv_seq = k[1];
    c.head_size = q[2] / c.q_heads;
    c.v_head_size = v[2] / c.kv_heads;
  } else {
    c.q_heads = q[1];
    c.kv_heads = k[1];
    c.q_seq = q[2];
    c.kv_seq = k[2];
    c.head_size = q[3];
    c.v_head_size = v[3];
  }
  c.past = inputs.contains("past_key") ? dims("past_key")[2] : 0;
  c.mask = none;
  if (inputs.contains("attn_mask")) {
    c.mask = inputs.at("attn_mask").at("type") == "bool" ? boolean : additive;
    c.mask_dims = dims("attn_mask");
  }
  c.causal = attribute("is_causal", 0) != 0;
  c.scale = attribute("scale", 0.0);
  c.softcap = attribute("softcap", 0.0);
  c.left = attribute("left_window_size", -1LL);
  c.right = attribute("right_window_size", -1LL);
  if (inputs.contains("nonpad_kv_seqlen"))
    c.nonpad = spec.at("nonpad").get<std::vector<long long>>();
  c.qk_mode = -1;
  for (const auto& output : spec.at("outputs"))
    if (output.at("name") == "qk_matmul_output") c.qk_mode = attribute("qk_matmul_output_mode", 0);
  return c;
}

std::vector<OnnxCase> read_cases() {
  std::ifstream file(ONNX_CASES_JSON);
  if (!file) throw std::runtime_error("cannot read " ONNX_CASES_JSON);
  const nlohmann::json list = nlohmann::json::parse(file);
  std::vector<OnnxCase> cases;
  for (const auto& spec : list.at("cases")) cases.push_back(case_of(spec));
  return cases;
}

const std::vector<OnnxCase> cases = read_cases();

// gtest names a failing case by this rather than by its bytes.
void PrintTo(const OnnxCase& c, std::ostream* os) { *os << c.name; }

bool named(const OnnxCase& c, const char* part) { return c.name.find(part) != std::string::npos; }

// The problem of one case, with data uniform in [0, 1) and masks that probe what its name
// says: a fully masked first row (nan_robustness, fullymasked), -inf in an additive mask
// (neginf), and a whole row of -inf as well (poison).
reference64::Problem problem_of(const OnnxCase& c, std::mt19937& rng) {
  reference64::Problem p;
  p.batch = c.batch;
  p.hq = c.q_heads;
  p.hkv = c.kv_heads;
  p.s = c.q_seq;
  p.t = c.past + c.kv_seq;
  p.d = c.head_size;
  p.dv = c.v_head_size;
  p.q = reference64::uniform_floats(rng, p.batch * p.hq * p.s * p.d);
  p.k = reference64::uniform_floats(rng, p.batch * p.hkv * p.t * p.d);
  p.v = reference64::uniform_floats(rng, p.batch * p.hkv * p.t * p.dv);
  p.scale = c.scale > 0 ? c.scale : 1.0 / std::sqrt(double(c.head_size));
  p.causal = c.causal;
  p.softcap = c.softcap;
  p.left = c.left;
  p.right = c.right;
  p.past = c.past;
  p.nonpad = c.nonpad;
  p.mask_kind = c.mask;
  p.mask_dims = c.mask_dims;
  p.qk_mode = c.qk_mode < 0 ? 0 : c.qk_mode;
  if (c.mask != none) {
    std::size_t count = 1;
    for (auto d : c.mask_dims) count *= d;
    const std::size_t row = c.mask_dims.back();
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (std::size_t i = 0; i < count; ++i) {
      const double u = uniform(rng);
      if (c.mask == boolean)
        p.mask.push_back(u < 0.7 ? 1.0 : 0.0);
      else
        p.mask.push_back(named(c, "neginf") && u < 0.3 ? -INFINITY : 2.0 * u - 1.0);
    }
    if (named(c, "nan_robustness") || named(c, "fullymasked"))
      for (std::size_t j = 0; j < row; ++j) p.mask[j] = 0.0;
    if (named(c, "poison"))
      for (std::size_t j = 0; j < row; ++j) p.mask[j] = -INFINITY;
  }
  return p;
}

class OnnxCaseTest : public ::testing::TestWithParam<OnnxCase> {};

TEST_P(OnnxCaseTest, MatchesFloat64) {
  const OnnxCase& c = GetParam();
  std::mt19937 rng(std::hash<std::string>{}(c.name) & 0xffffffff);
  const reference64::Problem p = problem_of(c, rng);
  const reference64::Result want = reference64::onnx_attention(p);
  // With a past cache the JS layer hands over past and new keys as one 4-D buffer.
  const bool kv_3d = c.three_d && c.past == 0;
  const call_harness::Outputs got = call_harness::run(p, c.three_d, kv_3d, c.qk_mode >= 0);
  ASSERT_EQ(got.error, "");
  EXPECT_TRUE(call_harness::close(got.y, want.y, 1e-4)) << "Y";
  for (float y : got.y) ASSERT_FALSE(std::isnan(y)) << "Y has NaN";
  if (c.qk_mode >= 0) {
    EXPECT_TRUE(call_harness::close(got.scores, want.scores, 1e-4)) << "qk_matmul_output";
    if (c.qk_mode == 3)
      for (float x : got.scores) ASSERT_FALSE(std::isnan(x)) << "probabilities have NaN";
  }
}

INSTANTIATE_TEST_SUITE_P(Onnx, OnnxCaseTest, ::testing::ValuesIn(cases),
                         [](const ::testing::TestParamInfo<OnnxCase>& info) {
                           std::string name = std::string("case_") + info.param.name;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(OnnxCases, AllEightySevenAreListed) { EXPECT_EQ(cases.size(), 87u); }

}  // namespace
