// Runs a reference64::Problem through the JS layer's entry point (attention_call::run, or the
// plain export attention_call_run, which takes the record by address as JS passes it) with
// its tensors in the 4-D or 3-D layout, and returns the outputs in canonical 4-D order.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attention_call.hpp"
#include "reference64.hpp"

namespace call_harness {

struct Outputs {
  std::string error;  // "" on success
  std::vector<float> y, scores;
};

// [batch, heads, n, size] -> [batch, n, heads * size] (to_3d) or back.
inline std::vector<float> relayout(const std::vector<float>& in, std::size_t batch,
                                   std::size_t heads, std::size_t n, std::size_t size, bool to_3d) {
  std::vector<float> out(in.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < size; ++c) {
          const std::size_t four = ((b * heads + h) * n + i) * size + c;
          const std::size_t three = (b * n + i) * heads * size + h * size + c;
          if (to_3d)
            out[three] = in[four];
          else
            out[four] = in[three];
        }
  return out;
}

template <class T>
std::uintptr_t address(const std::vector<T>& v) {
  return reinterpret_cast<std::uintptr_t>(v.data());
}

// The call through the plain wasm export attention_call_run (attention_call.hpp), the record
// passed by its address as src/js/module/core-call.mjs passes it: "" on success, else the message.
inline std::string run_exported(const attention_call::AttentionCall& c) {
  const char* error = attention_call_run(&c);
  return error ? error : "";
}

// q_3d: q and y in the 3-D layout; kv_3d: k and v too (with a past cache the caller has
// concatenated past and new keys into one 4-D buffer, so kv_3d is false there).
// through_export: by attention_call_run (what attention() in JS calls) instead of run().
inline Outputs run(const reference64::Problem& p, bool q_3d, bool kv_3d, bool want_scores,
                   bool through_export = false) {
  using attention::Layout;
  const auto q = q_3d ? relayout(p.q, p.batch, p.hq, p.s, p.d, true) : p.q;
  const auto k = kv_3d ? relayout(p.k, p.batch, p.hkv, p.t, p.d, true) : p.k;
  const auto v = kv_3d ? relayout(p.v, p.batch, p.hkv, p.t, p.dv, true) : p.v;
  std::vector<float> y(p.batch * p.hq * p.s * p.dv, -7.0f);
  std::vector<float> scores(want_scores ? p.batch * p.hq * p.s * p.t : 0, -7.0f);
  std::vector<std::int32_t> nonpad(p.nonpad.begin(), p.nonpad.end());
  std::vector<std::uint8_t> allowed;
  std::vector<float> bias;
  for (double m : p.mask) {
    allowed.push_back(m != 0.0);
    bias.push_back(float(m));
  }
  attention_call::AttentionCall c;
  c.q = address(q);
  c.k = address(k);
  c.v = address(v);
  c.y = address(y);
  c.batch = p.batch;
  c.q_num_heads = p.hq;
  c.kv_num_heads = p.hkv;
  c.q_seq_len = p.s;
  c.kv_seq_len = p.t;
  c.head_size = p.d;
  c.v_head_size = p.dv;
  c.q_layout = q_3d ? Layout::bshd : Layout::bhsd;
  c.kv_layout = kv_3d ? Layout::bshd : Layout::bhsd;
  c.options.scale = float(p.scale);
  c.options.is_causal = p.causal;
  c.options.softcap = float(p.softcap);
  c.options.left_window = std::int32_t(p.left);
  c.options.right_window = std::int32_t(p.right);
  c.past_length = p.past;
  c.nonpad_kv_seqlen = nonpad.empty() ? 0 : address(nonpad);
  if (p.mask_kind != 0) {
    c.mask_kind = p.mask_kind == 1 ? attention::MaskKind::boolean : attention::MaskKind::additive;
    c.mask = p.mask_kind == 1 ? address(allowed) : address(bias);
    c.mask_rank = p.mask_dims.size();
    for (std::size_t i = 0; i < p.mask_dims.size() && i < 4; ++i) c.mask_dims[i] = p.mask_dims[i];
    c.mask_keys =
        p.mask_last_dim_broadcasts ? attention::MaskKeys::broadcast : attention::MaskKeys::pad;
  }
  c.scores = want_scores ? address(scores) : 0;
  c.scores_mode = attention::ScoresMode(p.qk_mode);
  Outputs out;
  out.error = through_export ? run_exported(c) : attention_call::run(c);
  out.y = q_3d ? relayout(y, p.batch, p.hq, p.s, p.dv, false) : y;
  out.scores = scores;
  return out;
}

// Every element within `tolerance` (infinities must match exactly); names the first miss.
inline ::testing::AssertionResult close(const std::vector<float>& got,
                                        const std::vector<double>& want, double tolerance) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    const bool same_infinity = std::isinf(w) && g == w;
    if (!same_infinity && !(std::fabs(g - w) <= tolerance))
      return ::testing::AssertionFailure() << "index " << i << ": got " << g << ", expected " << w;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace call_harness
