// The tiny transformer's stages, each forward beside its `_backward` twin, llm.c style.
// Dimensions, named once for the whole model:
//   V vocabulary, C context (most positions), B batch, T tokens per sequence (T <= C),
//   N = B * T rows, D d_model, H query heads, Hkv key/value heads (divides H), d = D / H head
//   size, M MLP size. Row n = b * T + t holds token t of sequence b.
// Weights are [in, out] (x . W), as in the page's chapters. Every backward ACCUMULATES (+=) into
// its gradient buffers, which the caller zeroes once per step: a tensor used twice (the
// residual stream) collects both gradients.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attention.hpp"

namespace attention::model {

// The products and attention take an optional thread team (thread_team.hpp; null: the calling
// thread alone) and share their rows, or their sequences' kv heads, among its threads: the
// results are the same bits either way (model/parallel.hpp).

/** LayerNorm's epsilon, inside the square root: (x - mean) / sqrt(var + eps). */
inline constexpr float layer_norm_epsilon = 1e-5f;

// out [N, D] = tokens' rows of wte [V, D] (+ row t of wpe [C, D] when wpe is not null).
void embedding_forward(float* out, const std::int32_t* tokens, const float* wte, const float* wpe,
                       std::size_t B, std::size_t T, std::size_t D);
// dwte [V, D], dwpe [C, D] (or null) += from dout [N, D].
void embedding_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* tokens,
                        std::size_t B, std::size_t T, std::size_t D);

// out [N, D] = (x - mean) * rstd * gain + bias, row by row; keeps mean [N] and rstd [N].
void layer_norm_forward(float* out, float* mean, float* rstd, const float* x, const float* gain,
                        const float* bias, std::size_t N, std::size_t D,
                        ThreadTeam* team = nullptr);
// dx [N, D], dgain [D], dbias [D] += from dout [N, D].
void layer_norm_backward(float* dx, float* dgain, float* dbias, const float* dout, const float* x,
                         const float* gain, const float* mean, const float* rstd, std::size_t N,
                         std::size_t D, ThreadTeam* team = nullptr);
// The plain scalar loops the two (vector body, scalar tail) are tested against.
void layer_norm_forward_reference(float* out, float* mean, float* rstd, const float* x,
                                  const float* gain, const float* bias, std::size_t N,
                                  std::size_t D);
void layer_norm_backward_reference(float* dx, float* dgain, float* dbias, const float* dout,
                                   const float* x, const float* gain, const float* mean,
                                   const float* rstd, std::size_t N, std::size_t D);

// out [N, O] = x [N, I] . w [I, O] (+ bias [O] when not null).
void linear_forward(float* out, const float* x, const float* w, const float* bias, std::size_t N,
                    std::size_t I, std::size_t O, ThreadTeam* team = nullptr);
// dx [N, I], dw [I, O], dbias [O] (if not null) += from dout [N, O]. `scratch` holds I * O
// floats (w transposed).
void linear_backward(float* dx, float* dw, float* dbias, const float* dout, const float* x,
                     const float* w, std::size_t N, std::size_t I, std::size_t O, float* scratch,
                     ThreadTeam* team = nullptr);

// Floats of scratch that attention_forward / attention_backward need for T tokens, head size d,
// per thread: a team's scratch holds team->size() times this.
std::size_t attention_scratch_floats(std::size_t T, std::size_t d);

// Causal multi-head attention with grouped key/value heads (query head h reads kv head
// h / (H / Hkv)); q [N, H * d], k and v [N, Hkv * d] (row n holds every head, head h at
// columns h * d ..). out [N, H * d] (heads side by side); att [B, H, T, T] the softmax weights
// (zero above the diagonal), kept for the backward and for forward()'s picture.
// `options` is attention()'s record (attention.hpp): its scale multiplies q.k, and each row's
// scaled scores go through the score step (kernels/score_step.hpp: every score option), query
// t at position t. It must be causal (is_causal): the layer computes keys 0 .. t only.
void attention_forward(float* out, float* att, const float* q, const float* k, const float* v,
                       std::size_t B, std::size_t T, std::size_t H, std::size_t Hkv, std::size_t d,
                       float* scratch, const AttentionOptions& options, ThreadTeam* team = nullptr);
// dq [N, H * d], dk and dv [N, Hkv * d] += from dout [N, H * d], with attention_forward's
// options (the score step's derivative).
void attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q,
                        const float* k, const float* v, const float* att, std::size_t B,
                        std::size_t T, std::size_t H, std::size_t Hkv, std::size_t d,
                        float* scratch, const AttentionOptions& options,
                        ThreadTeam* team = nullptr);

// Decoding's attention of one new query over the n keys cached so far (itself the last):
// out [H * d], q [H * d], keys and values [n, Hkv * d], scores [n] (scratch). Sums in the same
// order as attention_forward's row n - 1, with the same options.
void attention_decode_row(float* out, const float* q, const float* keys, const float* values,
                          std::size_t n, std::size_t H, std::size_t Hkv, std::size_t d,
                          float* scores, const AttentionOptions& options);

// One row of causal attention weights: scores [n] (q . k of the first n keys) become
// softmax(scores * scale) in place; [n, T) are set to 0. Shared by forward and decoding.
// A vector body (a fast SIMD exp2, relative error below 2e-7) and the plain reference beside it.
void causal_softmax_row(float* row, std::size_t n, std::size_t T, float scale);
void causal_softmax_row_reference(float* row, std::size_t n, std::size_t T, float scale);

// out [N * M] = GELU(x), the tanh form: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
void gelu_forward(float* out, const float* x, std::size_t count);
// dx += dout * GELU'(x).
void gelu_backward(float* dx, const float* dout, const float* x, std::size_t count);
// The vector bodies compute x s(2u) with the logistic s and the fast exp2 (no tanh, no
// cancellation); these plain loops with std::tanh are what the tests hold them to, and the
// two run them on the last count % lanes numbers.
void gelu_forward_reference(float* out, const float* x, std::size_t count);
void gelu_backward_reference(float* dx, const float* dout, const float* x, std::size_t count);

// Switching heads off (forward and decoding only, never trained through): each head's slice of
// heads [N, H * d] (head h at columns h * d ..) times its factor mask [H] (0 = off, 1 = as it
// was), before W_O, so a head at 0 adds nothing to its layer's output.
void head_mask_forward(float* heads, const float* mask, std::size_t N, std::size_t H,
                       std::size_t d);

// out [count] = a + b (the residual stream). Its backward adds dout to both, done in place.
void residual_forward(float* out, const float* a, const float* b, std::size_t count,
                      ThreadTeam* team = nullptr);
void residual_backward(float* da, float* db, const float* dout, std::size_t count,
                       ThreadTeam* team = nullptr);
// x [count] = 0 (gradient arenas before the backward accumulates into them).
void fill_zeros(float* x, std::size_t count, ThreadTeam* team = nullptr);

// Elements per chunk of an element-wise stage shared by a team (GELU, residuals, zeroing,
// AdamW): a multiple of every SIMD width, so that each element takes the vector body or the
// scalar tail as it would on one thread.
inline constexpr std::size_t element_grain = 256;

// Next-token cross-entropy: probs [N, V] = softmax(logits), and the mean over rows whose target
// is not -1 of -log probs[target]; returns that mean (NaN when no row counts).
// Targets must be -1 or in [0, V).
double cross_entropy_forward(float* probs, const float* logits, const std::int32_t* targets,
                             std::size_t N, std::size_t V, ThreadTeam* team = nullptr);
// dlogits [N, V] += (probs - onehot(target)) / counted, on counted rows only.
void cross_entropy_backward(float* dlogits, const float* probs, const std::int32_t* targets,
                            std::size_t N, std::size_t V);

struct AdamW {
  float learning_rate = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, epsilon = 1e-8f, weight_decay = 0.0f;
};
// One AdamW step (decoupled weight decay, bias correction) over `count` parameters:
// m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
// p -= lr (m / (1 - b1^t) / (sqrt(v / (1 - b2^t)) + eps) + wd p), t = `step` (1 for the first).
// beta1_power / beta2_power are b1^t and b2^t (the caller keeps them as running products, so
// no pow() of a platform's libm enters the bits).
void adamw_update(float* params, float* m, float* v, const float* grads, std::size_t count,
                  const AdamW& hyper, double beta1_power, double beta2_power);
// One parameter at a time: the vector pass gives these bits exactly.
void adamw_update_reference(float* params, float* m, float* v, const float* grads,
                            std::size_t count, const AdamW& hyper, double beta1_power,
                            double beta2_power);

}  // namespace attention::model
