#include "model/layers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "kernels/exp2.hpp"
#include "kernels/score_step.hpp"
#include "model/matmul.hpp"
#include "model/parallel.hpp"

namespace attention::model {

void embedding_forward(float* out, const std::int32_t* tokens, const float* wte, const float* wpe,
                       std::size_t B, std::size_t T, std::size_t D) {
  // out [N, D]; tokens [N]; wte [V, D]; wpe [C, D] or null.
  for (std::size_t n = 0; n < B * T; ++n) {
    const float* token_row = wte + static_cast<std::size_t>(tokens[n]) * D;
    const float* position_row = wpe ? wpe + (n % T) * D : nullptr;
    for (std::size_t i = 0; i < D; ++i)
      out[n * D + i] = position_row ? token_row[i] + position_row[i] : token_row[i];
  }
}

void embedding_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* tokens,
                        std::size_t B, std::size_t T, std::size_t D) {
  // dwte [V, D]; dwpe [C, D] or null; dout [N, D]. Rows in order n = 0 .. N - 1, so a token
  // seen twice sums its gradients in the same order every time.
  for (std::size_t n = 0; n < B * T; ++n) {
    float* token_row = dwte + static_cast<std::size_t>(tokens[n]) * D;
    for (std::size_t i = 0; i < D; ++i) token_row[i] += dout[n * D + i];
    if (dwpe)
      for (std::size_t i = 0; i < D; ++i) dwpe[(n % T) * D + i] += dout[n * D + i];
  }
}

namespace {

using batch = xsimd::batch<float>;
using batch_bool = xsimd::batch_bool<float>;
constexpr std::size_t lanes = batch::size;

// Rows of D numbers: a vector body over the first D - D % lanes, a scalar tail after.
std::size_t vector_part(std::size_t D) { return D - D % lanes; }

// Rows per chunk of a LayerNorm shared by a team (model/parallel.hpp).
constexpr std::size_t norm_row_grain = 16;

// Columns per chunk of LayerNorm backward's dgain and dbias: four vectors, summed over the rows
// in registers. Stored at every row instead, two threads' chunks side by side in memory wrote
// the same cache lines row after row: on two threads that pass took 5x one thread's time
// (the larger model, 16 ms a step against 3).
constexpr std::size_t norm_column_grain = 4 * lanes;

}  // namespace

void layer_norm_forward(float* out, float* mean, float* rstd, const float* x, const float* gain,
                        const float* bias, std::size_t N, std::size_t D, ThreadTeam* team) {
  // out [N, D]; mean, rstd [N]; x [N, D]; gain, bias [D]. Each row on its own, so a row gives
  // the same bits alone (decoding) or in a batch.
  const std::size_t body = vector_part(D);
  split(team, N, norm_row_grain, [&](std::size_t n0, std::size_t n1, std::size_t) {
    for (std::size_t n = n0; n < n1; ++n) {
      const float* row = x + n * D;
      float* y = out + n * D;
      batch sums(0.0f);
      for (std::size_t i = 0; i < body; i += lanes) sums += batch::load_unaligned(row + i);
      float sum = xsimd::reduce_add(sums);
      for (std::size_t i = body; i < D; ++i) sum += row[i];
      const float m = sum / static_cast<float>(D);
      const batch vm(m);
      batch squares_v(0.0f);
      for (std::size_t i = 0; i < body; i += lanes) {
        const batch centred = batch::load_unaligned(row + i) - vm;
        squares_v += centred * centred;
      }
      float squares = xsimd::reduce_add(squares_v);
      for (std::size_t i = body; i < D; ++i) squares += (row[i] - m) * (row[i] - m);
      const float s = 1.0f / std::sqrt(squares / static_cast<float>(D) + layer_norm_epsilon);
      const batch vs(s);
      for (std::size_t i = 0; i < body; i += lanes) {
        const batch xhat = (batch::load_unaligned(row + i) - vm) * vs;
        (xhat * batch::load_unaligned(gain + i) + batch::load_unaligned(bias + i))
            .store_unaligned(y + i);
      }
      for (std::size_t i = body; i < D; ++i) y[i] = (row[i] - m) * s * gain[i] + bias[i];
      mean[n] = m;
      rstd[n] = s;
    }
  });
}

namespace {

// LayerNorm backward's two row sums, sum(g) and sum(g xhat) with g = dout * gain, over columns
// [from, D) of one row, added to the running ones: the vector version's tail and the
// reference's whole row.
void layer_norm_backward_sums(const float* dout_row, const float* x_row, const float* gain,
                              float mean, float rstd, std::size_t from, std::size_t D, float* g_sum,
                              float* g_xhat_sum) {
  for (std::size_t i = from; i < D; ++i) {
    const float xhat = (x_row[i] - mean) * rstd;
    const float g = dout_row[i] * gain[i];
    *g_sum += g;
    *g_xhat_sum += g * xhat;
  }
}

// Its dx over columns [from, to) of one row, from the two means: the vector version's tail and
// the reference's whole row.
void layer_norm_backward_dx(float* dx_row, const float* dout_row, const float* x_row,
                            const float* gain, float mean, float rstd, float g_mean,
                            float g_xhat_mean, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    const float xhat = (x_row[i] - mean) * rstd;
    dx_row[i] += rstd * (dout_row[i] * gain[i] - g_mean - xhat * g_xhat_mean);
  }
}

// Its dbias and dgain over columns [from, to), from one row: the column pass's tail and the
// reference's whole row.
void layer_norm_backward_params(float* dgain, float* dbias, const float* dout_row,
                                const float* x_row, float mean, float rstd, std::size_t from,
                                std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    const float xhat = (x_row[i] - mean) * rstd;
    dbias[i] += dout_row[i];
    dgain[i] += xhat * dout_row[i];
  }
}

}  // namespace

void layer_norm_backward(float* dx, float* dgain, float* dbias, const float* dout, const float* x,
                         const float* gain, const float* mean, const float* rstd, std::size_t N,
                         std::size_t D, ThreadTeam* team) {
  // dx [N, D]; dgain, dbias [D]; dout, x [N, D]; gain [D]; mean, rstd [N].
  // With xhat = (x - mean) rstd and g = dout * gain:
  // dx = rstd (g - mean(g) - xhat mean(g xhat)).
  // Two passes a team can share: dx by chunks of rows (each row on its own), then dgain and
  // dbias by chunks of columns, each summing over the rows in order.
  const std::size_t body = vector_part(D);
  split(team, N, norm_row_grain, [&](std::size_t n0, std::size_t n1, std::size_t) {
    for (std::size_t n = n0; n < n1; ++n) {
      const float* dout_row = dout + n * D;
      const float* x_row = x + n * D;
      float* dx_row = dx + n * D;
      const batch vm(mean[n]), vs(rstd[n]);
      batch g_sums(0.0f), g_xhat_sums(0.0f);
      for (std::size_t i = 0; i < body; i += lanes) {
        const batch xhat = (batch::load_unaligned(x_row + i) - vm) * vs;
        const batch g = batch::load_unaligned(dout_row + i) * batch::load_unaligned(gain + i);
        g_sums += g;
        g_xhat_sums += g * xhat;
      }
      float g_sum = xsimd::reduce_add(g_sums), g_xhat_sum = xsimd::reduce_add(g_xhat_sums);
      layer_norm_backward_sums(dout_row, x_row, gain, mean[n], rstd[n], body, D, &g_sum,
                               &g_xhat_sum);
      const float g_mean = g_sum / static_cast<float>(D);
      const float g_xhat_mean = g_xhat_sum / static_cast<float>(D);
      const batch v_g_mean(g_mean), v_g_xhat_mean(g_xhat_mean);
      for (std::size_t i = 0; i < body; i += lanes) {
        const batch xhat = (batch::load_unaligned(x_row + i) - vm) * vs;
        const batch g = batch::load_unaligned(dout_row + i) * batch::load_unaligned(gain + i);
        (batch::load_unaligned(dx_row + i) + vs * (g - v_g_mean - xhat * v_g_xhat_mean))
            .store_unaligned(dx_row + i);
      }
      layer_norm_backward_dx(dx_row, dout_row, x_row, gain, mean[n], rstd[n], g_mean, g_xhat_mean,
                             body, D);
    }
  });
  split(team, D, norm_column_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
    // `vectors` vectors of columns from `first`, summed over every row in registers, stored once.
    const auto columns = [&](std::size_t first, auto vectors) {
      constexpr std::size_t V = decltype(vectors)::value;
      batch bias[V], gain[V];
      for (std::size_t v = 0; v < V; ++v) {
        bias[v] = batch::load_unaligned(dbias + first + v * lanes);
        gain[v] = batch::load_unaligned(dgain + first + v * lanes);
      }
      for (std::size_t n = 0; n < N; ++n) {
        const float* dout_row = dout + n * D + first;
        const float* x_row = x + n * D + first;
        const batch vm(mean[n]), vs(rstd[n]);
        for (std::size_t v = 0; v < V; ++v) {
          const batch up = batch::load_unaligned(dout_row + v * lanes);
          const batch xhat = (batch::load_unaligned(x_row + v * lanes) - vm) * vs;
          bias[v] = bias[v] + up;
          gain[v] = gain[v] + xhat * up;
        }
      }
      for (std::size_t v = 0; v < V; ++v) {
        bias[v].store_unaligned(dbias + first + v * lanes);
        gain[v].store_unaligned(dgain + first + v * lanes);
      }
    };
    constexpr std::size_t wide = norm_column_grain / lanes;
    const std::size_t vectors_end = std::min(i1, body);
    std::size_t i = i0;
    for (; i + wide * lanes <= vectors_end; i += wide * lanes)
      columns(i, std::integral_constant<std::size_t, wide>());
    for (; i < vectors_end; i += lanes) columns(i, std::integral_constant<std::size_t, 1>());
    for (std::size_t n = 0; n < N; ++n)
      layer_norm_backward_params(dgain, dbias, dout + n * D, x + n * D, mean[n], rstd[n],
                                 std::max(i0, body), i1);
  });
}

void layer_norm_forward_reference(float* out, float* mean, float* rstd, const float* x,
                                  const float* gain, const float* bias, std::size_t N,
                                  std::size_t D) {
  // out [N, D]; mean, rstd [N]; x [N, D]; gain, bias [D].
  for (std::size_t n = 0; n < N; ++n) {
    const float* row = x + n * D;
    float sum = 0.0f;
    for (std::size_t i = 0; i < D; ++i) sum += row[i];
    const float m = sum / static_cast<float>(D);
    float squares = 0.0f;
    for (std::size_t i = 0; i < D; ++i) squares += (row[i] - m) * (row[i] - m);
    const float s = 1.0f / std::sqrt(squares / static_cast<float>(D) + layer_norm_epsilon);
    for (std::size_t i = 0; i < D; ++i) out[n * D + i] = (row[i] - m) * s * gain[i] + bias[i];
    mean[n] = m;
    rstd[n] = s;
  }
}

void layer_norm_backward_reference(float* dx, float* dgain, float* dbias, const float* dout,
                                   const float* x, const float* gain, const float* mean,
                                   const float* rstd, std::size_t N, std::size_t D) {
  // dx [N, D]; dgain, dbias [D]; dout, x [N, D]; gain [D]; mean, rstd [N]; the formula above.
  for (std::size_t n = 0; n < N; ++n) {
    float g_sum = 0.0f, g_xhat_sum = 0.0f;
    layer_norm_backward_sums(dout + n * D, x + n * D, gain, mean[n], rstd[n], 0, D, &g_sum,
                             &g_xhat_sum);
    layer_norm_backward_dx(dx + n * D, dout + n * D, x + n * D, gain, mean[n], rstd[n],
                           g_sum / static_cast<float>(D), g_xhat_sum / static_cast<float>(D), 0, D);
    layer_norm_backward_params(dgain, dbias, dout + n * D, x + n * D, mean[n], rstd[n], 0, D);
  }
}

namespace {

// Rows of a product per chunk of its work (model/parallel.hpp): a whole number of the
// micro-kernel's strips of 4.
constexpr std::size_t row_grain = 4;

}  // namespace

void linear_forward(float* out, const float* x, const float* w, const float* bias, std::size_t N,
                    std::size_t I, std::size_t O, ThreadTeam* team) {
  // out [N, O]; x [N, I]; w [I, O]; bias [O] or null. Rows n0 .. n1 - 1 per chunk.
  split(team, N, row_grain, [&](std::size_t n0, std::size_t n1, std::size_t) {
    if (bias)
      for (std::size_t n = n0; n < n1; ++n) std::copy(bias, bias + O, out + n * O);
    matmul(x + n0 * I, w, out + n0 * O, n1 - n0, I, O, bias != nullptr);
  });
}

void linear_backward(float* dx, float* dw, float* dbias, const float* dout, const float* x,
                     const float* w, std::size_t N, std::size_t I, std::size_t O, float* scratch,
                     ThreadTeam* team) {
  // dx [N, I] += dout [N, O] . w^T [O, I]; dw [I, O] += x^T [I, N] . dout [N, O];
  // dbias [O] += the column sums of dout. Chunks of dx's rows, then of dw's columns (or rows),
  // then of dbias's columns: every element of each is summed by one thread, in order.
  split(team, O, row_grain, [&](std::size_t o0, std::size_t o1, std::size_t) {
    transpose(w + o0, scratch + o0 * I, I, o1 - o0, O);  // rows o0 .. o1 - 1 of w^T
  });
  split(team, N, row_grain, [&](std::size_t n0, std::size_t n1, std::size_t) {
    matmul(dout + n0 * O, scratch, dx + n0 * I, n1 - n0, O, I, true);
  });
  // dw sums over all N rows: in slices of rows, so that each slice of x and dout stays in
  // the cache while every block of dw passes over it. A chunk reads every slice of one
  // operand whole: of x when chunks take dw's columns, of dout when they take its rows, and
  // then it also packs dout's panels again for its few rows (matmul.hpp, panel_columns). So
  // chunks take columns, in whole panels, unless x's rows are over twice as long as dout's
  // (the MLP's down projection).
  constexpr std::size_t slice = 64;
  if (I <= 2 * O) {
    split(team, O, panel_columns, [&](std::size_t o0, std::size_t o1, std::size_t) {
      for (std::size_t n0 = 0; n0 < N; n0 += slice)
        matmul_transposed_a(x + n0 * I, dout + n0 * O + o0, dw + o0, I, std::min(slice, N - n0),
                            o1 - o0, true, {I, O, O});
    });
  } else {
    split(team, I, row_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
      for (std::size_t n0 = 0; n0 < N; n0 += slice)
        matmul_transposed_a(x + n0 * I + i0, dout + n0 * O, dw + i0 * O, i1 - i0,
                            std::min(slice, N - n0), O, true, {I, O, O});
    });
  }
  if (dbias)
    split(team, O, row_grain, [&](std::size_t o0, std::size_t o1, std::size_t) {
      for (std::size_t n = 0; n < N; ++n)
        for (std::size_t o = o0; o < o1; ++o) dbias[o] += dout[n * O + o];
    });
}

std::size_t attention_scratch_floats(std::size_t T, std::size_t d) { return T * T + 2 * T * d; }

namespace {

// Causal attention works on blocks of this many query rows: block r0 .. r0 + 7 needs keys
// 0 .. r0 + 7 only, so products stop there and skip (almost) half of each T x T. Blocks of 8
// rather than 4: half the calls, for a few more products with the zeros above the diagonal.
// Measured (CPU time, one core, the shapes bench): the induction model's attention 9% faster
// forward and 7% backward, the larger model's 5% and 8%.
constexpr std::size_t row_block = 8;
std::size_t keys_for_block(std::size_t r0, std::size_t T) { return std::min(T, r0 + row_block); }
std::size_t rows_in_block(std::size_t r0, std::size_t T) { return std::min(row_block, T - r0); }

// One head's rows inside a [N, heads * d] tensor: sequence b, head h, rows t = 0 .. T - 1 at
// a stride of heads * d floats.
struct HeadView {
  std::size_t offset, stride;
};
HeadView head_view(std::size_t b, std::size_t h, std::size_t heads, std::size_t T, std::size_t d) {
  return {(b * T * heads + h) * d, heads * d};
}

// The walk both attention passes take: for each sequence b and kv head g, `group(kv, mine)`
// once (the kv head's view, and this thread's attention_scratch_floats of `scratch`), then
// `head(kv, qy, weights, mine)` for each query head h of the group, in order (qy its view in
// q and out, weights the offset of its [T, T] in att). The (b, g) pairs share nothing they
// write, so a team's threads take them in chunks.
template <class Group, class Head>
void for_each_head(ThreadTeam* team, std::size_t B, std::size_t T, std::size_t H, std::size_t Hkv,
                   std::size_t d, float* scratch, Group&& group, Head&& head) {
  split(team, B * Hkv, 1, [&](std::size_t i0, std::size_t i1, std::size_t thread) {
    float* mine = scratch + thread * attention_scratch_floats(T, d);
    for (std::size_t i = i0; i < i1; ++i) {
      const std::size_t b = i / Hkv, g = i % Hkv;
      const HeadView kv = head_view(b, g, Hkv, T, d);
      group(kv, mine);
      for (std::size_t h = g * (H / Hkv); h < (g + 1) * (H / Hkv); ++h)
        head(kv, head_view(b, h, H, T, d), (b * H + h) * T * T, mine);
    }
  });
}

// Query t's row of attention weights from its scores [t + 1] (q . k of keys 0 .. t), of query
// head h of H: the score step of `options`, then the causal softmax. A row the step would
// leave as it is (scores_need_adjusting) is scaled inside the softmax instead.
void attention_row(float* row, std::size_t t, std::size_t T, const AttentionOptions& options,
                   std::size_t h, std::size_t H) {
  if (!kernels::scores_need_adjusting(options, AttentionMask{}))
    return causal_softmax_row(row, t + 1, T, options.scale);
  for (std::size_t s = 0; s <= t; ++s) row[s] *= options.scale;
  const auto position = static_cast<std::int64_t>(t);
  kernels::adjust_scores(
      row, 0, t + 1, options, AttentionMask{},
      kernels::score_row(options, kernels::visible_keys(options, 0, t + 1, t), position, h, H));
  causal_softmax_row(row, t + 1, T, 1.0f);
}

// Query row t of attention_backward: dS = P * (dP - rowsum(P * dP)) * scale over its n = t + 1
// keys, in place of dP in `ds`, zeros after. Vectors of `lanes`, then a scalar tail.
void softmax_backward_row(float* ds, const float* p, std::size_t n, std::size_t T, float scale) {
  const std::size_t body = n - n % lanes;
  batch dots(0.0f);
  for (std::size_t s = 0; s < body; s += lanes)
    dots += batch::load_unaligned(p + s) * batch::load_unaligned(ds + s);
  float dot = xsimd::reduce_add(dots);
  for (std::size_t s = body; s < n; ++s) dot += p[s] * ds[s];
  const batch vdot(dot), vscale(scale);
  for (std::size_t s = 0; s < body; s += lanes) {
    const batch ps = batch::load_unaligned(p + s);
    (ps * (batch::load_unaligned(ds + s) - vdot) * vscale).store_unaligned(ds + s);
  }
  for (std::size_t s = body; s < n; ++s) ds[s] = p[s] * (ds[s] - dot) * scale;
  std::fill(ds + n, ds + T, 0.0f);
}

}  // namespace

namespace {

// What a row's softmax divided by: its largest score and the sum of exp((x - max) * scale).
struct RowSoftmax {
  float max, sum;
};

// causal_softmax_row's work, returning what it divided by (the loss needs both).
__attribute__((noinline)) RowSoftmax softmax_in_place(float* row, std::size_t n, std::size_t T,
                                                      float scale) {
  // exp(x * scale - max) = 2^(x * scale * log2(e) - max * log2(e)): vectors of `lanes` scores
  // through the fast exp2 of the fused kernels. The last, partial vector's lanes past n count
  // as -inf (2^-inf = 0), so every score takes the same path: read and written whole where the
  // row has room for it (its lanes past n are the row's zeros to be), else through a copy.
  // Short rows (the induction model's T = 25) spent most of their time in the copies and
  // fills a partial vector took through the C library.
  const float to_log2 = scale * 1.4426950408889634f;
  const std::size_t body = n - n % lanes, last = n - body;
  const bool in_place = last == 0 || body + lanes <= T;
  alignas(64) float chunk[lanes];
  float* const tail = in_place ? row + body : chunk;
  batch_bool past_n(false);
  if (last > 0) {
    if (!in_place) std::copy(row + body, row + n, chunk);
    alignas(64) static constexpr float lane_index[16] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                         8, 9, 10, 11, 12, 13, 14, 15};
    static_assert(lanes <= 16, "lane_index covers a vector");
    past_n = batch::load_aligned(lane_index) >= batch(static_cast<float>(last));
  }
  const auto load_tail = [&] {
    return xsimd::select(past_n, batch(-std::numeric_limits<float>::infinity()),
                         batch::load_unaligned(tail));
  };
  batch maxes(-std::numeric_limits<float>::infinity());
  for (std::size_t s = 0; s < body; s += lanes)
    maxes = xsimd::max(maxes, batch::load_unaligned(row + s));
  if (last > 0) maxes = xsimd::max(maxes, load_tail());
  const float max = xsimd::reduce_max(maxes);
  const batch shift(max * to_log2), factor(to_log2);
  batch sums(0.0f);
  for (std::size_t s = 0; s < body; s += lanes) {
    const batch e = kernels::exp2_fast(xsimd::fms(batch::load_unaligned(row + s), factor, shift));
    sums += e;
    e.store_unaligned(row + s);
  }
  batch tail_e(0.0f);
  if (last > 0) {
    tail_e = kernels::exp2_fast(xsimd::fms(load_tail(), factor, shift));
    sums += tail_e;
  }
  const float sum = xsimd::reduce_add(sums);
  const batch inverse(1.0f / sum);
  for (std::size_t s = 0; s < body; s += lanes)
    (batch::load_unaligned(row + s) * inverse).store_unaligned(row + s);
  std::size_t s = body;
  if (last > 0) {
    (tail_e * inverse).store_unaligned(tail);
    if (!in_place) std::copy(chunk, chunk + last, row + body);
    s = in_place ? body + lanes : n;
  }
  for (; s + lanes <= T; s += lanes) batch(0.0f).store_unaligned(row + s);
  for (; s < T; ++s) row[s] = 0.0f;
  return {max, sum};
}

}  // namespace

void causal_softmax_row(float* row, std::size_t n, std::size_t T, float scale) {
  softmax_in_place(row, n, T, scale);
}

void causal_softmax_row_reference(float* row, std::size_t n, std::size_t T, float scale) {
  float max = row[0] * scale;
  for (std::size_t s = 1; s < n; ++s) max = std::max(max, row[s] * scale);
  float sum = 0.0f;
  for (std::size_t s = 0; s < n; ++s) {
    row[s] = std::exp(row[s] * scale - max);
    sum += row[s];
  }
  for (std::size_t s = 0; s < n; ++s) row[s] /= sum;
  std::fill(row + n, row + T, 0.0f);
}

void attention_forward(float* out, float* att, const float* q, const float* k, const float* v,
                       std::size_t B, std::size_t T, std::size_t H, std::size_t Hkv, std::size_t d,
                       float* scratch, const AttentionOptions& options, ThreadTeam* team) {
  // out [N, H * d]; att [B, H, T, T]; q [N, H * d]; k, v [N, Hkv * d]; scratch [d, T] per
  // thread.
  // Per (b, h), block of query rows by block: scores = Q_h . K_g^T over the block's keys,
  // straight into att; each row t the softmax of its first t + 1 scores (zeros after); then
  // Y_h = att . V_g, straight into out. Q_h, V_g and Y_h are read and written in place;
  // K_g is transposed once per kv head into scratch.
  const auto transpose_keys = [&](HeadView kv, float* k_transposed) {
    transpose(k + kv.offset, k_transposed, T, d, kv.stride);
  };
  const auto head = [&](HeadView kv, HeadView qy, std::size_t at, float* k_transposed) {
    float* weights = att + at;
    const std::size_t h = at / (T * T) % H;  // the query head (at = (b * H + h) * T * T)
    for (std::size_t r0 = 0; r0 < T; r0 += row_block) {
      const std::size_t rows = rows_in_block(r0, T), keys = keys_for_block(r0, T);
      matmul(q + qy.offset + r0 * qy.stride, k_transposed, weights + r0 * T, rows, d, keys, false,
             {qy.stride, T, T});
      for (std::size_t t = r0; t < r0 + rows; ++t)
        attention_row(weights + t * T, t, T, options, h, H);
      matmul(weights + r0 * T, v + kv.offset, out + qy.offset + r0 * qy.stride, rows, keys, d,
             false, {T, kv.stride, qy.stride});
    }
  };
  for_each_head(team, B, T, H, Hkv, d, scratch, transpose_keys, head);
}

void attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q,
                        const float* k, const float* v, const float* att, std::size_t B,
                        std::size_t T, std::size_t H, std::size_t Hkv, std::size_t d,
                        float* scratch, const AttentionOptions& options, ThreadTeam* team) {
  // dq [N, H * d], dk, dv [N, Hkv * d] (+=); dout [N, H * d]; att [B, H, T, T];
  // scratch [T, T] + [d, T] + [T] per thread. Per (b, h), with P = att and S the adjusted
  // scores:
  //   dV_g += P^T dY;  dP = dY V_g^T;  dS = P * (dP - rowsum(P * dP)), then the score step's
  //   derivative (when it has one: from the scores computed again, capped_scores) and * scale;
  //   dQ_h = dS K_g;   dK_g += dS^T Q_h.
  // Rows of dV_g and dK_g from block s0 gather query rows t >= s0 only (P and dS are zero
  // above the diagonal). Query heads of one group add into their kv head in order.
  const bool step_derivative = kernels::score_step_has_derivative(options);
  const auto transpose_values = [&](HeadView kv, float* mine) {
    transpose(v + kv.offset, mine + T * T, T, d, kv.stride);
  };
  const auto head = [&](HeadView kv, HeadView qy, std::size_t at, float* mine) {
    float* dscores = mine;
    const float* v_transposed = mine + T * T;
    float* capped = mine + T * T + d * T;  // [T], within the scratch's second [d, T]
    const float* weights = att + at;
    for (std::size_t r0 = 0; r0 < T; r0 += row_block) {
      const std::size_t rows = rows_in_block(r0, T), keys = keys_for_block(r0, T);
      matmul(dout + qy.offset + r0 * qy.stride, v_transposed, dscores + r0 * T, rows, d, keys,
             false, {qy.stride, T, T});
      for (std::size_t t = r0; t < r0 + rows; ++t) {
        float* ds = dscores + t * T;
        if (!step_derivative) {
          softmax_backward_row(ds, weights + t * T, t + 1, T, options.scale);
          continue;
        }
        softmax_backward_row(ds, weights + t * T, t + 1, T, 1.0f);
        kernels::capped_scores(capped, q + qy.offset + t * qy.stride, k + kv.offset, kv.stride,
                               t + 1, d, options);
        kernels::adjust_scores_backward(ds, capped, t + 1, options);
        for (std::size_t s = 0; s <= t; ++s) ds[s] *= options.scale;
      }
      matmul(dscores + r0 * T, k + kv.offset, dq + qy.offset + r0 * qy.stride, rows, keys, d, true,
             {T, kv.stride, qy.stride});
    }
    for (std::size_t s0 = 0; s0 < T; s0 += row_block) {
      const std::size_t rows = rows_in_block(s0, T), queries = T - s0;
      const std::size_t diagonal = s0 * T + s0;  // (t, s) = (s0, s0)
      matmul_transposed_a(weights + diagonal, dout + qy.offset + s0 * qy.stride,
                          dv + kv.offset + s0 * kv.stride, rows, queries, d, true,
                          {T, qy.stride, kv.stride});
      matmul_transposed_a(dscores + diagonal, q + qy.offset + s0 * qy.stride,
                          dk + kv.offset + s0 * kv.stride, rows, queries, d, true,
                          {T, qy.stride, kv.stride});
    }
  };
  for_each_head(team, B, T, H, Hkv, d, scratch, transpose_values, head);
}

void attention_decode_row(float* out, const float* q, const float* keys, const float* values,
                          std::size_t n, std::size_t H, std::size_t Hkv, std::size_t d,
                          float* scores, const AttentionOptions& options) {
  // out, q [H * d]; keys, values [n, Hkv * d]; scores [n].
  const std::size_t kv_width = Hkv * d;
  for (std::size_t h = 0; h < H; ++h) {
    const std::size_t g = h / (H / Hkv);
    const float* q_head = q + h * d;
    for (std::size_t s = 0; s < n; ++s) {
      float dot = 0.0f;
      for (std::size_t i = 0; i < d; ++i) dot += q_head[i] * keys[s * kv_width + g * d + i];
      scores[s] = dot;
    }
    attention_row(scores, n - 1, n, options, h, H);
    for (std::size_t i = 0; i < d; ++i) {
      float sum = 0.0f;
      for (std::size_t s = 0; s < n; ++s) sum += scores[s] * values[s * kv_width + g * d + i];
      out[h * d + i] = sum;
    }
  }
}

namespace {

constexpr float gelu_scale = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float gelu_cubic = 0.044715f;

// GELU's tanh form rewritten with the logistic function s(z) = 1 / (1 + e^-z):
// 0.5 x (1 + tanh u) = x s(2u), and 1 - tanh^2 u = 4 s(2u) (1 - s(2u)). Unlike 1 + tanh u
// near u = -inf, s(2u) loses no digits to cancellation, and e^-2u = 2^(-2u log2(e)) comes
// from the fast exp2 (relative error below 2e-7; clamped at 2^127, so s -> 0, never NaN).
batch logistic_of_twice(const batch& u) {
  const batch e = kernels::exp2_fast(u * batch(-2.0f * 1.4426950408889634f));
  return batch(1.0f) / (batch(1.0f) + e);
}

}  // namespace

void gelu_forward(float* out, const float* x, std::size_t count) {
  // out, x [count] (the MLP's hidden [N, M]). Vectors of `lanes`, then the reference's loop.
  const std::size_t body = vector_part(count);
  for (std::size_t i = 0; i < body; i += lanes) {
    const batch xi = batch::load_unaligned(x + i);
    const batch u = batch(gelu_scale) * (xi + batch(gelu_cubic) * xi * xi * xi);
    (xi * logistic_of_twice(u)).store_unaligned(out + i);
  }
  gelu_forward_reference(out + body, x + body, count - body);
}

void gelu_backward(float* dx, const float* dout, const float* x, std::size_t count) {
  // dx, dout, x [count]. With s = s(2u): d/dx (x s(2u)) = s + 2 x s (1 - s) u'.
  const std::size_t body = vector_part(count);
  for (std::size_t i = 0; i < body; i += lanes) {
    const batch xi = batch::load_unaligned(x + i);
    const batch u = batch(gelu_scale) * (xi + batch(gelu_cubic) * xi * xi * xi);
    const batch du = batch(gelu_scale) * (batch(1.0f) + batch(3.0f * gelu_cubic) * xi * xi);
    const batch s = logistic_of_twice(u);
    const batch local = s + batch(2.0f) * xi * s * (batch(1.0f) - s) * du;
    (batch::load_unaligned(dx + i) + batch::load_unaligned(dout + i) * local)
        .store_unaligned(dx + i);
  }
  gelu_backward_reference(dx + body, dout + body, x + body, count - body);
}

void gelu_forward_reference(float* out, const float* x, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const float u = gelu_scale * (x[i] + gelu_cubic * x[i] * x[i] * x[i]);
    out[i] = 0.5f * x[i] * (1.0f + std::tanh(u));
  }
}

void gelu_backward_reference(float* dx, const float* dout, const float* x, std::size_t count) {
  // d/dx of 0.5 x (1 + tanh u) = 0.5 (1 + tanh u) + 0.5 x sech^2(u) u'.
  for (std::size_t i = 0; i < count; ++i) {
    const float u = gelu_scale * (x[i] + gelu_cubic * x[i] * x[i] * x[i]);
    const float th = std::tanh(u);
    const float du = gelu_scale * (1.0f + 3.0f * gelu_cubic * x[i] * x[i]);
    dx[i] += dout[i] * (0.5f * (1.0f + th) + 0.5f * x[i] * (1.0f - th * th) * du);
  }
}

void head_mask_forward(float* heads, const float* mask, std::size_t N, std::size_t H,
                       std::size_t d) {
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t h = 0; h < H; ++h) {
      float* head = heads + (n * H + h) * d;
      for (std::size_t i = 0; i < d; ++i) head[i] *= mask[h];
    }
}

void residual_forward(float* out, const float* a, const float* b, std::size_t count,
                      ThreadTeam* team) {
  split(team, count, element_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
    for (std::size_t i = i0; i < i1; ++i) out[i] = a[i] + b[i];
  });
}

void residual_backward(float* da, float* db, const float* dout, std::size_t count,
                       ThreadTeam* team) {
  split(team, count, element_grain, [&](std::size_t i0, std::size_t i1, std::size_t) {
    for (std::size_t i = i0; i < i1; ++i) {
      da[i] += dout[i];
      db[i] += dout[i];
    }
  });
}

void fill_zeros(float* x, std::size_t count, ThreadTeam* team) {
  split(team, count, element_grain,
        [x](std::size_t i0, std::size_t i1, std::size_t) { std::fill(x + i0, x + i1, 0.0f); });
}

double cross_entropy_forward(float* probs, const float* logits, const std::int32_t* targets,
                             std::size_t N, std::size_t V, ThreadTeam* team) {
  // probs, logits [N, V]; targets [N]. Each counted row adds log(sum exp(l - max)) - (l_y - max),
  // in double. The rows' softmax is the attention's (softmax_in_place: vectors and the fast
  // exp2), where std::exp one logit at a time took 5% of the induction model's step.
  // The rows are summed in blocks fixed by N alone, then the blocks in order: the same bits
  // whether a team's threads take the blocks or one thread does.
  constexpr std::size_t max_blocks = 64;
  const std::size_t rows_per_block = std::max<std::size_t>(64, (N + max_blocks - 1) / max_blocks);
  const std::size_t blocks = (N + rows_per_block - 1) / rows_per_block;
  double block_total[max_blocks] = {};
  std::size_t block_counted[max_blocks] = {};
  split(team, blocks, 1, [&](std::size_t b0, std::size_t b1, std::size_t) {
    for (std::size_t b = b0; b < b1; ++b) {
      // Summed here and stored once: the blocks' totals share cache lines between threads.
      double total = 0.0;
      std::size_t counted = 0;
      for (std::size_t n = b * rows_per_block; n < std::min(N, (b + 1) * rows_per_block); ++n) {
        const float* row = logits + n * V;
        float* p = probs + n * V;
        std::copy(row, row + V, p);
        const RowSoftmax softmax = softmax_in_place(p, V, V, 1.0f);
        if (targets[n] < 0) continue;
        total += std::log(static_cast<double>(softmax.sum)) - (row[targets[n]] - softmax.max);
        ++counted;
      }
      block_total[b] = total;
      block_counted[b] = counted;
    }
  });
  double total = 0.0;
  std::size_t counted = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    total += block_total[b];
    counted += block_counted[b];
  }
  return total / static_cast<double>(counted);
}

void cross_entropy_backward(float* dlogits, const float* probs, const std::int32_t* targets,
                            std::size_t N, std::size_t V) {
  // dlogits, probs [N, V]; targets [N].
  std::size_t counted = 0;
  for (std::size_t n = 0; n < N; ++n) counted += targets[n] >= 0;
  if (counted == 0) return;
  const float inverse = 1.0f / static_cast<float>(counted);
  for (std::size_t n = 0; n < N; ++n) {
    if (targets[n] < 0) continue;
    for (std::size_t i = 0; i < V; ++i) {
      const float onehot = static_cast<std::int32_t>(i) == targets[n] ? 1.0f : 0.0f;
      dlogits[n * V + i] += (probs[n * V + i] - onehot) * inverse;
    }
  }
}

namespace {

// AdamW's arithmetic on one parameter or one vector of them: the same expression for both, so
// on SIMD128 (no fused multiply-add to contract into) the vector body and the scalar tail
// round alike.
template <class T>
void adamw_one(T& p, T& m, T& v, const T& g, const AdamW& h, float m_correction,
               float v_correction) {
  using std::sqrt;  // float's own (not double's) for T = float; xsimd's by ADL for a batch
  m = T(h.beta1) * m + T(1.0f - h.beta1) * g;
  v = T(h.beta2) * v + T(1.0f - h.beta2) * g * g;
  const T m_hat = m / T(m_correction);
  const T v_hat = v / T(v_correction);
  p = p - T(h.learning_rate) * (m_hat / (sqrt(v_hat) + T(h.epsilon)) + T(h.weight_decay) * p);
}

}  // namespace

void adamw_update(float* params, float* m, float* v, const float* grads, std::size_t count,
                  const AdamW& hyper, double beta1_power, double beta2_power) {
  // params, m, v, grads [count]: one pass, `lanes` parameters at a time.
  const float m_correction = static_cast<float>(1.0 - beta1_power);
  const float v_correction = static_cast<float>(1.0 - beta2_power);
  const std::size_t body = vector_part(count);
  for (std::size_t i = 0; i < body; i += lanes) {
    batch p = batch::load_unaligned(params + i), mi = batch::load_unaligned(m + i),
          vi = batch::load_unaligned(v + i);
    adamw_one(p, mi, vi, batch::load_unaligned(grads + i), hyper, m_correction, v_correction);
    p.store_unaligned(params + i);
    mi.store_unaligned(m + i);
    vi.store_unaligned(v + i);
  }
  for (std::size_t i = body; i < count; ++i)
    adamw_one(params[i], m[i], v[i], grads[i], hyper, m_correction, v_correction);
}

void adamw_update_reference(float* params, float* m, float* v, const float* grads,
                            std::size_t count, const AdamW& hyper, double beta1_power,
                            double beta2_power) {
  const float m_correction = static_cast<float>(1.0 - beta1_power);
  const float v_correction = static_cast<float>(1.0 - beta2_power);
  for (std::size_t i = 0; i < count; ++i)
    adamw_one(params[i], m[i], v[i], grads[i], hyper, m_correction, v_correction);
}

}  // namespace attention::model
