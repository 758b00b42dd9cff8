// Every case of ONNX's own test file for the Attention operator (shapes and attributes as
// there, data from our generator), through the JS layer's entry point, against float64.
// float16 cases run in float32 here: the JS layer converts float16 in and out.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "call_harness.hpp"
#include "reference64.hpp"

namespace {

enum Mask { none, boolean, additive };

struct OnnxCase {
  const char* name;
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

// clang-format off
// name, batch, q heads, kv heads, S, L (new keys), P (past keys), D, Dv, 3-D, mask, mask dims,
// causal, scale, softcap, left, right, nonpad_kv_seqlen, qk_matmul_output_mode
const std::vector<OnnxCase> cases = {
    {"23_boolmask_fullymasked_row_nan_robustness", 1, 2, 2, 2, 2, 0, 8, 8, false, boolean, {2, 2}, false, 0, 0, -1, -1, {}, -1},
    {"23_fullymasked_qk_matmul_output_mode3_zero", 1, 2, 2, 2, 2, 0, 8, 8, false, boolean, {2, 2}, false, 0, 0, -1, -1, {}, 3},
    {"24_fullymasked_qk_matmul_output_mode3_zero", 1, 2, 2, 2, 2, 0, 8, 8, false, boolean, {2, 2}, false, 0, 0, -1, -1, {}, 3},
    {"24_qk_matmul_output_mode3_softmax_precision", 1, 2, 2, 2, 2, 0, 8, 8, false, boolean, {2, 2}, false, 0, 0, -1, -1, {}, 3},
    {"3d", 2, 3, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"3d_attn_mask", 2, 3, 3, 4, 6, 0, 8, 8, true, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"3d_causal", 2, 3, 3, 4, 6, 0, 8, 8, true, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"3d_diff_heads_sizes", 2, 3, 3, 4, 6, 0, 8, 10, true, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"3d_diff_heads_sizes_attn_mask", 2, 3, 3, 4, 6, 0, 8, 10, true, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"3d_diff_heads_sizes_causal", 2, 3, 3, 4, 6, 0, 8, 10, true, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"3d_diff_heads_sizes_scaled", 2, 3, 3, 4, 6, 0, 8, 10, true, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"3d_diff_heads_sizes_softcap", 2, 3, 3, 4, 6, 0, 8, 10, true, none, {}, false, 0, 3, -1, -1, {}, -1},
    {"3d_diff_heads_with_past_and_present", 2, 3, 3, 4, 6, 12, 8, 10, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"3d_gqa", 2, 9, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"3d_gqa_attn_mask", 2, 9, 3, 4, 6, 0, 8, 8, true, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"3d_gqa_causal", 2, 9, 3, 4, 6, 0, 8, 8, true, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"3d_gqa_scaled", 2, 9, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"3d_gqa_softcap", 2, 9, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0, 3, -1, -1, {}, -1},
    {"3d_gqa_with_past_and_present", 2, 9, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"3d_local_window", 2, 4, 1, 4, 6, 0, 8, 6, true, none, {}, true, 0, 0, 2, -1, {}, -1},
    {"3d_scaled", 2, 3, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"3d_softcap", 2, 3, 3, 4, 6, 0, 8, 8, true, none, {}, false, 0, 3, -1, -1, {}, -1},
    {"3d_transpose_verification", 1, 3, 3, 2, 2, 0, 4, 4, true, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"3d_with_past_and_present", 2, 3, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"3d_with_past_and_present_qk_matmul", 2, 3, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, 0},
    {"3d_with_past_and_present_qk_matmul_bias", 2, 3, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, 2},
    {"3d_with_past_and_present_qk_matmul_softcap", 2, 3, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 2, -1, -1, {}, 1},
    {"3d_with_past_and_present_qk_matmul_softmax", 2, 3, 3, 4, 6, 12, 8, 8, true, additive, {4, 18}, false, 0, 0, -1, -1, {}, 3},
    {"4d", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_3d", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {2, 1, 4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_3d_causal", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {2, 1, 4, 6}, true, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_4d", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {2, 3, 4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_4d_causal", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {2, 3, 4, 6}, true, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_bool", 2, 3, 3, 4, 6, 0, 8, 8, false, boolean, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_attn_mask_bool_4d", 2, 3, 3, 4, 6, 0, 8, 8, false, boolean, {2, 3, 4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_causal", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"4d_causal_nonpad_attn_mask_composition", 2, 2, 2, 3, 6, 0, 8, 8, false, boolean, {2, 1, 3, 6}, true, 0, 0, -1, -1, {4, 6}, -1},
    {"4d_causal_nonpad_batch_prefill", 3, 2, 2, 2, 6, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {2, 4, 6}, -1},
    {"4d_causal_nonpad_continued_prefill", 1, 2, 2, 2, 4, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {3}, -1},
    {"4d_causal_nonpad_negative_offset_structural_empty", 1, 2, 2, 4, 4, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {2}, -1},
    {"4d_causal_with_past_and_present", 2, 3, 3, 4, 4, 3, 8, 8, false, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_mask4d_padded_kv", 2, 3, 3, 4, 6, 0, 8, 10, false, additive, {2, 3, 4, 4}, false, 0, 0, -1, -1, {4, 5}, -1},
    {"4d_diff_heads_sizes", 2, 3, 3, 4, 6, 0, 8, 10, false, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_sizes_attn_mask", 2, 3, 3, 4, 6, 0, 8, 10, false, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_sizes_causal", 2, 3, 3, 4, 6, 0, 8, 10, false, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_sizes_scaled", 2, 3, 3, 4, 6, 0, 8, 10, false, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"4d_diff_heads_sizes_softcap", 2, 3, 3, 4, 6, 0, 8, 10, false, none, {}, false, 0, 2, -1, -1, {}, -1},
    {"4d_diff_heads_with_past_and_present", 2, 3, 3, 4, 6, 12, 8, 10, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_with_past_and_present_mask3d", 2, 3, 3, 4, 6, 12, 8, 10, false, additive, {2, 1, 4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_diff_heads_with_past_and_present_mask4d", 2, 3, 3, 4, 6, 12, 8, 10, false, additive, {2, 3, 4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_fp16", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"4d_gqa", 2, 9, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"4d_gqa_attn_mask", 2, 9, 3, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0, -1, -1, {}, -1},
    {"4d_gqa_causal", 2, 9, 3, 4, 6, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {}, -1},
    {"4d_gqa_causal_nonpad_decode", 2, 4, 2, 1, 8, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {5, 8}, -1},
    {"4d_gqa_causal_nonpad_decode_fp16", 2, 4, 2, 1, 8, 0, 8, 8, false, none, {}, true, 0, 0, -1, -1, {3, 7}, -1},
    {"4d_gqa_scaled", 2, 9, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"4d_gqa_softcap", 2, 9, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 2, -1, -1, {}, -1},
    {"4d_gqa_with_past_and_present", 2, 9, 3, 4, 6, 12, 8, 8, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_gqa_with_past_and_present_fp16", 2, 9, 3, 4, 6, 12, 8, 8, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_scaled", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0.01, 0, -1, -1, {}, -1},
    {"4d_softcap", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 2, -1, -1, {}, -1},
    {"4d_softcap_neginf_mask", 1, 1, 1, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0.5, -1, -1, {}, -1},
    {"4d_softcap_neginf_mask_poison", 1, 1, 1, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0.5, -1, -1, {}, -1},
    {"4d_with_past_and_present", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, -1},
    {"4d_with_past_and_present_qk_matmul", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, 0},
    {"4d_with_past_and_present_qk_matmul_bias", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {4, 18}, false, 0, 0, -1, -1, {}, 2},
    {"4d_with_past_and_present_qk_matmul_bias_3d_mask", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {2, 1, 4, 18}, false, 0, 0, -1, -1, {}, 2},
    {"4d_with_past_and_present_qk_matmul_bias_3d_mask_causal", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {2, 1, 4, 18}, true, 0, 0, -1, -1, {}, 2},
    {"4d_with_past_and_present_qk_matmul_bias_4d_mask", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {2, 3, 4, 18}, false, 0, 0, -1, -1, {}, 2},
    {"4d_with_past_and_present_qk_matmul_bias_4d_mask_causal", 2, 3, 3, 4, 6, 12, 8, 8, false, additive, {2, 3, 4, 18}, true, 0, 0, -1, -1, {}, 2},
    {"4d_with_qk_matmul", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 0, -1, -1, {}, 0},
    {"4d_with_qk_matmul_bias", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0, -1, -1, {}, 2},
    {"4d_with_qk_matmul_softcap", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 2, -1, -1, {}, 1},
    {"4d_with_qk_matmul_softmax", 2, 3, 3, 4, 6, 0, 8, 8, false, additive, {4, 6}, false, 0, 0, -1, -1, {}, 3},
    {"bidirectional_window", 1, 1, 1, 5, 5, 0, 1, 1, false, none, {}, false, 0, 0, 1, 2, {}, -1},
    {"causal_boolmask_nan_robustness", 1, 2, 2, 2, 2, 0, 8, 8, false, boolean, {2, 2}, true, 0, 0, -1, -1, {}, -1},
    {"local_window", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, true, 0, 0, 2, -1, {}, -1},
    {"local_window_default", 2, 3, 3, 4, 6, 0, 8, 8, false, none, {}, false, 0, 0, -1, -1, {}, -1},
    {"local_window_ext_cache_float16_mask", 2, 3, 3, 4, 8, 0, 8, 8, false, additive, {1, 8}, true, 0, 0, 2, -1, {6, 8}, -1},
    {"local_window_ext_cache_rank2_mask", 2, 3, 3, 4, 8, 0, 8, 8, false, additive, {1, 8}, true, 0, 0, 2, -1, {6, 8}, -1},
    {"local_window_ext_cache_rank3_head_mask", 2, 3, 3, 4, 8, 0, 8, 8, false, additive, {3, 4, 8}, true, 0, 0, 2, -1, {5, 8}, -1},
    {"local_window_ext_cache_rank4_batch_mask", 2, 3, 3, 4, 8, 0, 8, 8, false, additive, {2, 1, 4, 8}, true, 0, 0, 2, -1, {7, 4}, -1},
    {"local_window_gqa_rank4_mask", 2, 4, 2, 4, 6, 0, 8, 6, false, boolean, {2, 4, 4, 6}, true, 0, 2, 2, -1, {}, 3},
    {"local_window_rank1_boolean_mask", 2, 3, 3, 4, 6, 0, 8, 8, false, boolean, {6}, true, 0, 0, 2, -1, {}, -1},
    {"local_window_with_past", 2, 3, 3, 4, 2, 8, 8, 8, false, none, {}, true, 0, 0, 2, -1, {}, -1},
};
// clang-format on

// gtest names a failing case by this rather than by its bytes.
void PrintTo(const OnnxCase& c, std::ostream* os) { *os << c.name; }

bool named(const OnnxCase& c, const char* part) {
  return std::string(c.name).find(part) != std::string::npos;
}

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
