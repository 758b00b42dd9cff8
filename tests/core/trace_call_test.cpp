// trace()'s entry point as the JS layer calls it (trace_call::run): addresses and dims in, the
// packed trace out, read back field by field with trace_layout() as the JS layer reads it.
#include "trace_call.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "article.hpp"
#include "call_harness.hpp"
#include "trace.hpp"

using namespace attention;

namespace {

std::vector<float> flat(const Matrix& m) { return std::vector<float>(m.begin(), m.end()); }

// The float field `name` of `head` in a packed trace.
std::vector<float> field_of(const std::vector<std::uint8_t>& packed, const TraceDims& dims,
                            const std::string& name, std::size_t head = whole_trace) {
  for (const TraceField& field : trace_layout(dims))
    if (name == field.name && field.head == head && field.element == Element::float32) {
      std::vector<float> values(field.count);
      std::memcpy(values.data(), packed.data() + field.offset, field.count * 4);
      return values;
    }
  ADD_FAILURE() << "no field " << name;
  return {};
}

// The article's call: x, W_Q, W_K, W_V as the JS layer passes them.
struct ArticleCall {
  std::vector<float> x = flat(article::inputs()), wq = flat(article::w_query()),
                     wk = flat(article::w_key()), wv = flat(article::w_value());
  TraceDims dims{3, 4, 3, 3};
  std::vector<std::uint8_t> out = std::vector<std::uint8_t>(trace_bytes(dims), 0xAB);

  trace_call::TraceCall call() {
    trace_call::TraceCall c;
    c.x = call_harness::address(x);
    c.w_query = call_harness::address(wq);
    c.w_key = call_harness::address(wk);
    c.w_value = call_harness::address(wv);
    c.out = call_harness::address(out);
    c.dims = dims;
    return c;
  }
};

}  // namespace

TEST(TraceCall, PacksTheArticlesTraceAsItsLayoutSays) {
  ArticleCall a;
  ASSERT_EQ(trace_call::run(a.call()), "");
  EXPECT_EQ(field_of(a.out, a.dims, "keys"), flat(article::keys()));
  EXPECT_EQ(field_of(a.out, a.dims, "scores"), flat(article::scores()));
  const auto outputs = field_of(a.out, a.dims, "outputs");
  const auto expected = flat(article::outputs());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(outputs[i], expected[i], 1e-5);
}

TEST(TraceCall, ScaleCausalAndHeadsReachTheCore) {
  ArticleCall a;
  auto c = a.call();
  c.options.scale = 0.5f;
  c.options.is_causal = true;
  ASSERT_EQ(trace_call::run(c), "");
  const auto scores = field_of(a.out, a.dims, "scores");
  EXPECT_EQ(scores[0], 1.0f);                           // 2 * 0.5
  EXPECT_TRUE(std::isinf(scores[1]) && scores[1] < 0);  // key 2 hidden from query 1
  // Three heads of one column each, sharing one kv head, with W_O (3 x 2).
  a.dims = TraceDims{3, 4, 3, 3, 3, 1, 2};
  a.wk = {0, 1, 0, 1};  // W_K: d_in x 1
  a.wv = {1, 2, 3, 4};  // W_V: d_in x 1, so d_v = 1 and concat has 3 columns
  a.dims.d_v = 1;
  std::vector<float> wo = {1, 0, 0, 1, 1, 1};
  a.out.assign(trace_bytes(a.dims), 0);
  c = a.call();
  c.w_out = call_harness::address(wo);
  ASSERT_EQ(trace_call::run(c), "");
  const auto concat = field_of(a.out, a.dims, "concat");
  const auto outputs = field_of(a.out, a.dims, "outputs");
  ASSERT_EQ(outputs.size(), 3u * 2u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_FLOAT_EQ(outputs[i * 2], concat[i * 3] + concat[i * 3 + 2]);
    EXPECT_FLOAT_EQ(outputs[i * 2 + 1], concat[i * 3 + 1] + concat[i * 3 + 2]);
  }
}

TEST(TraceCall, RefusesWhatMemorySafetyNeedsAndWritesNothing) {
  ArticleCall a;
  const std::vector<std::uint8_t> untouched = a.out;
  auto c = a.call();
  c.dims.kv_heads = 2;  // does not divide heads = 1
  EXPECT_NE(trace_call::run(c), "");
  c = a.call();
  c.dims.d_out = 2;  // a column count for a W_O that is absent
  EXPECT_EQ(trace_call::run(c), "wOut and its column count disagree");
  c = a.call();
  c.dims.n = 0;
  EXPECT_NE(trace_call::run(c), "");
  EXPECT_EQ(a.out, untouched);
}

TEST(TraceCall, GradOutputsBringTheGradientsThatTheCoreComputes) {
  ArticleCall a;
  a.dims.with_grad = true;
  a.out.assign(trace_bytes(a.dims), 0xAB);
  std::vector<float> grad_outputs = {-0.063379f, -0.316895f, -0.404932f, 0, 0, 0, 0, 0, 0};
  auto c = a.call();
  EXPECT_EQ(trace_call::run(c), "gradOutputs and withGrad disagree");  // withGrad, no address
  c.grad_outputs = call_harness::address(grad_outputs);
  ASSERT_EQ(trace_call::run(c), "");
  Matrix d_outputs({3, 3});
  std::copy(grad_outputs.begin(), grad_outputs.end(), d_outputs.begin());
  const MultiHeadTrace t = multi_head_trace(article::inputs(), article::w_query(), article::w_key(),
                                            article::w_value(), nullptr, {}, {});
  const LayerGrad g =
      multi_head_trace_backward(t, article::inputs(), article::w_query(), article::w_key(),
                                article::w_value(), nullptr, {}, {}, d_outputs);
  EXPECT_EQ(field_of(a.out, a.dims, "outputs"), flat(t.outputs));  // the values are still there
  const auto grad_of = [&](const std::string& name) {
    for (const TraceField& field : trace_layout(a.dims))
      if (field.grad && name == field.name) {
        std::vector<float> values(field.count);
        std::memcpy(values.data(), a.out.data() + field.offset, field.count * 4);
        return values;
      }
    ADD_FAILURE() << "no gradient " << name;
    return std::vector<float>{};
  };
  EXPECT_EQ(grad_of("outputs"), grad_outputs);
  EXPECT_EQ(grad_of("wQuery"), flat(g.w_query));
  EXPECT_EQ(grad_of("scores"), flat(g.heads[0].scores));
  EXPECT_EQ(grad_of("x"), flat(g.inputs));
  // Without withGrad, an address of gradients is refused rather than ignored.
  a.dims.with_grad = false;
  c = a.call();
  c.grad_outputs = call_harness::address(grad_outputs);
  EXPECT_EQ(trace_call::run(c), "gradOutputs and withGrad disagree");
}
