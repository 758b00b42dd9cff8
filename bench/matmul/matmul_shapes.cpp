// The training step's matrix products one shape at a time, for bench/matmul-node.mjs: each
// export runs one stage of the larger benchmark model (vocab 64, T 128, dModel 128, MLP 512,
// batch 16; bench/common/train-bench.mjs) `reps` times on buffers of its own, so the driver can
// time it against the SIMD128 peak probe in the same rounds. Built by scripts/bench with the
// model's own sources (src/attention/model/*.cpp), the flags of the module's core.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "model/layers.hpp"
#include "model/matmul.hpp"
#include "model/transformer.hpp"

using namespace attention::model;

namespace {

// A buffer of `count` floats in [-1, 1), from a fixed LCG (the values do not matter to the
// time, but NaN or denormals would).
float* filled(std::size_t count, std::uint32_t seed) {
  float* x = static_cast<float*>(std::malloc(count * sizeof(float)));
  for (std::size_t i = 0; i < count; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
  return x;
}

struct Buffers {
  float *a, *b, *c, *scratch;
};

Buffers buffers(std::size_t a, std::size_t b, std::size_t c, std::size_t scratch) {
  return {filled(a, 1), filled(b, 2), filled(c, 3), filled(scratch, 4)};
}

void release(Buffers x) {
  std::free(x.a);
  std::free(x.b);
  std::free(x.c);
  std::free(x.scratch);
}

}  // namespace

extern "C" {

// linear_forward: out [N, O] = x [N, I] . w [I, O]. 2 N I O flops per rep.
__attribute__((export_name("linear_forward"))) void bench_linear_forward(std::uint32_t N,
                                                                         std::uint32_t I,
                                                                         std::uint32_t O,
                                                                         std::uint32_t reps) {
  Buffers x = buffers(N * I, I * O, N * O, 1);
  for (std::uint32_t r = 0; r < reps; ++r) linear_forward(x.c, x.a, x.b, nullptr, N, I, O);
  release(x);
}

// linear_backward's dx [N, I] += dout [N, O] . w^T. 2 N I O flops per rep.
__attribute__((export_name("linear_backward_dx"))) void bench_linear_backward_dx(
    std::uint32_t N, std::uint32_t I, std::uint32_t O, std::uint32_t reps) {
  Buffers x = buffers(N * O, I * O, N * I, I * O);
  for (std::uint32_t r = 0; r < reps; ++r) {
    transpose(x.b, x.scratch, I, O);
    matmul(x.a, x.scratch, x.c, N, O, I, true);
  }
  release(x);
}

// linear_backward's dw [I, O] += x^T [I, N] . dout [N, O]. 2 N I O flops per rep.
__attribute__((export_name("linear_backward_dw"))) void bench_linear_backward_dw(
    std::uint32_t N, std::uint32_t I, std::uint32_t O, std::uint32_t reps) {
  Buffers x = buffers(N * I, N * O, I * O, 1);
  for (std::uint32_t r = 0; r < reps; ++r)
    for (std::size_t n0 = 0; n0 < N; n0 += 64)
      matmul_transposed_a(x.a + n0 * I, x.b + n0 * O, x.c, I, std::min<std::size_t>(64, N - n0), O,
                          true, {I, O, O});
  release(x);
}

// The options record the tiny transformer's attention takes for head size d (transformer.cpp).
static attention::AttentionOptions model_attention(std::uint32_t d) {
  attention::AttentionOptions o;
  o.scale = 1.0f / std::sqrt(static_cast<float>(d));
  o.is_causal = true;
  return o;
}

// attention_forward over B sequences of T, H heads of d: 2 B H T T d useful flops per rep
// (q.k^T and p.v on the causal half).
__attribute__((export_name("attention_forward"))) void bench_attention_forward(
    std::uint32_t B, std::uint32_t T, std::uint32_t H, std::uint32_t d, std::uint32_t reps) {
  const std::size_t N = B * T;
  Buffers x = buffers(3 * N * H * d, B * H * T * T, N * H * d, attention_scratch_floats(T, d));
  const float *q = x.a, *k = q + N * H * d, *v = k + N * H * d;
  for (std::uint32_t r = 0; r < reps; ++r)
    attention_forward(x.c, x.b, q, k, v, B, T, H, H, d, x.scratch, model_attention(d));
  release(x);
}

// attention_backward: 4 B H T T d useful flops per rep (its four products, causal halves).
__attribute__((export_name("attention_backward"))) void bench_attention_backward(
    std::uint32_t B, std::uint32_t T, std::uint32_t H, std::uint32_t d, std::uint32_t reps) {
  const std::size_t N = B * T;
  Buffers x = buffers(4 * N * H * d, B * H * T * T, 3 * N * H * d, attention_scratch_floats(T, d));
  const float *q = x.a, *k = q + N * H * d, *v = k + N * H * d, *dout = v + N * H * d;
  // Rows of weights that sum to 1 on the causal part, as the forward leaves them.
  attention_forward(x.c, x.b, q, k, v, B, T, H, H, d, x.scratch, model_attention(d));
  float *dq = x.c, *dk = dq + N * H * d, *dv = dk + N * H * d;
  for (std::uint32_t r = 0; r < reps; ++r)
    attention_backward(dq, dk, dv, dout, q, k, v, x.b, B, T, H, H, d, x.scratch,
                       model_attention(d));
  release(x);
}

// `reps` training steps of the larger model itself (AdamW included) on fixed random tokens.
__attribute__((export_name("train_steps"))) void bench_train_steps(std::uint32_t reps) {
  Config config;
  config.vocab_size = 64;
  config.context = 128;
  config.d_model = 128;
  config.layers = 4;
  config.heads = 4;
  config.kv_heads = 4;
  config.mlp_size = 512;
  config.learning_rate = 1e-3f;
  config.seed = 1;
  std::string error;
  std::unique_ptr<TinyTransformer> model = TinyTransformer::create(config, &error);
  const std::size_t B = 16, T = 128;
  std::vector<std::int32_t> tokens(B * T), targets(B * T);
  std::uint32_t seed = 5;
  for (std::size_t n = 0; n < B * T; ++n) {
    seed = seed * 1664525u + 1013904223u;
    tokens[n] = static_cast<std::int32_t>(seed >> 26);
  }
  for (std::size_t n = 0; n < B * T; ++n) targets[n] = (n + 1) % T == 0 ? -1 : tokens[n + 1];
  double loss = 0.0;
  for (std::uint32_t r = 0; r < reps; ++r)
    model->train_step(tokens.data(), targets.data(), B, T, &loss);
}

}  // extern "C"
