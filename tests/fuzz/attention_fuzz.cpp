// libFuzzer target: arbitrary bytes become shapes, layouts, caches, windows, masks, scores
// requests and data (NaN, +-Inf, denormals, huge and tiny magnitudes) for the trace (one head
// or several, with W_O, packed as trace_layout() says) and for the JS layer's attention entry
// point (attention_call::run), sometimes breaking a shape rule. Any crash, sanitizer report
// or out-of-bounds access fails; where the data is ordinary (finite, moderate), the fused
// kernel must also agree with the scalar reference, and every head of the trace with
// attention(). The trace with gradients goes through its JS entry point (trace_call::run),
// which must refuse exactly the calls that break a rule, writing nothing. Every attention call
// also drives its backward (attention_backward_call); a fifth of the inputs drive the RoPE
// entry point (attention_call::run_rope), and a fifth the tiny transformer's (trainStep,
// forward, generate and loadParameters).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "attention_backward_call.hpp"
#include "attention_call.hpp"
#include "kernels/flash_attention.hpp"
#include "kernels/flash_attention_backward.hpp"
#include "rope.hpp"
#include "rope_call.hpp"
#include "trace.hpp"
#include "trace_call.hpp"
#include "transformer_call.hpp"

namespace {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }
  std::size_t pick(std::size_t lo, std::size_t hi) { return lo + next() % (hi - lo + 1); }
  bool flag() { return next() & 1; }

  // One value per byte: mostly moderate numbers, sometimes the awkward ones.
  float value(bool& ordinary) {
    const std::uint8_t code = next();
    switch (code) {
      case 0:
        ordinary = false;
        return std::numeric_limits<float>::quiet_NaN();
      case 1:
        ordinary = false;
        return std::numeric_limits<float>::infinity();
      case 2:
        ordinary = false;
        return -std::numeric_limits<float>::infinity();
      case 3:
        return std::numeric_limits<float>::denorm_min();
      case 4:
        ordinary = false;
        return 3e38f;
      case 5:
        ordinary = false;
        return -3e38f;
      case 6:
        return 1e-30f;
      case 7:
        return -0.0f;
      default:
        return (float(code) - 132.0f) / 16.0f;
    }
  }

  std::vector<float> values(std::size_t count, bool& ordinary) {
    std::vector<float> out(count);
    for (auto& x : out) x = value(ordinary);
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

void fail(const char* what, std::size_t index, float got, float expected) {
  std::fprintf(stderr, "%s mismatch at %zu: got %g, expected %g\n", what, index, got, expected);
  std::abort();
}

float largest(const std::vector<float>& values) {
  float m = 0.0f;
  for (float x : values) m = std::max(m, std::fabs(x));
  return m;
}

// Whether the core must accept this call: every shape rule, written out again here.
bool call_is_valid(const attention_call::AttentionCall& c,
                   const std::vector<std::int32_t>& nonpad) {
  if (!c.batch || !c.q_num_heads || !c.kv_num_heads || !c.q_seq_len || !c.kv_seq_len ||
      !c.head_size || !c.v_head_size)
    return false;
  if (c.q_num_heads % c.kv_num_heads != 0) return false;
  if (c.options.left_window < -1 || c.options.right_window < -1) return false;
  if (c.past_length > c.kv_seq_len) return false;
  if (c.nonpad_kv_seqlen) {
    if (c.past_length != 0) return false;
    for (std::int32_t n : nonpad)
      if (n < 0 || std::uint32_t(n) > c.kv_seq_len) return false;
  }
  if (c.mask_kind == attention::MaskKind::none) return true;
  if (c.mask_rank < 1 || c.mask_rank > 4) return false;
  const std::uint32_t target[4] = {c.batch, c.q_num_heads, c.q_seq_len, c.kv_seq_len};
  for (std::uint32_t i = 0; i < c.mask_rank; ++i) {
    const std::uint32_t dim = c.mask_dims[i], axis = 4 - c.mask_rank + i;
    if (axis == 3 && c.mask_keys == attention::MaskKeys::pad) {
      if (dim < 1 || dim > c.kv_seq_len) return false;
    } else if (dim != 1 && dim != target[axis]) {
      return false;
    }
  }
  return true;
}

// The backward of the same call (attention_backward_call::run_backward), gradients of y
// drawn from the bytes: refused exactly when the forward is (or asks for scores, which the
// backward has none of) without writing; otherwise the tuned kernel must agree with the
// scalar reference where the data is ordinary.
void fuzz_backward(Bytes& in, const attention_call::AttentionCall& forward, bool valid,
                   bool ordinary, std::size_t y_count) {
  const attention::AttentionShape s{forward.batch,      forward.q_num_heads, forward.kv_num_heads,
                                    forward.q_seq_len,  forward.kv_seq_len,  forward.head_size,
                                    forward.v_head_size};
  const std::size_t q_count = std::size_t(s.batch) * s.q_num_heads * s.q_seq_len * s.head_size;
  const std::size_t k_count = std::size_t(s.batch) * s.kv_num_heads * s.kv_seq_len * s.head_size;
  const std::size_t v_count = std::size_t(s.batch) * s.kv_num_heads * s.kv_seq_len * s.v_head_size;
  const auto grad_y = in.values(std::max<std::size_t>(y_count, 1), ordinary);
  std::vector<float> fast_q(std::max<std::size_t>(q_count, 1), 7.0f), slow_q(fast_q.size());
  std::vector<float> fast_k(std::max<std::size_t>(k_count, 1), 7.0f), slow_k(fast_k.size());
  std::vector<float> fast_v(std::max<std::size_t>(v_count, 1), 7.0f), slow_v(fast_v.size());
  attention_call::AttentionBackwardCall call;
  call.forward = forward;
  call.forward.y = 0;
  call.grad_y = reinterpret_cast<std::uintptr_t>(grad_y.data());
  call.grad_q = reinterpret_cast<std::uintptr_t>(fast_q.data());
  call.grad_k = reinterpret_cast<std::uintptr_t>(fast_k.data());
  call.grad_v = reinterpret_cast<std::uintptr_t>(fast_v.data());
  const bool accepted = valid && forward.scores == 0;
  const std::string error = attention_call::run_backward(call);
  if (error.empty() != accepted) {
    std::fprintf(stderr, "accepted=%d but the backward said \"%s\"\n", int(accepted),
                 error.c_str());
    std::abort();
  }
  if (!accepted) {
    for (float x : fast_q)
      if (x != 7.0f) fail("a refused backward wrote gradQ", 0, x, 7.0f);
    return;
  }
  attention::kernels::AttentionBackwardArgs args;
  if (attention_call::to_args(forward, args.forward) != nullptr) std::abort();
  args.forward.y = nullptr;
  args.grad_y = grad_y.data();
  args.grad_q = slow_q.data();
  args.grad_k = slow_k.data();
  args.grad_v = slow_v.data();
  if (!attention::kernels::attention_backward_reference(args) || !ordinary) return;
  // Each gradient sums products of up to four inputs over D + Dv terms: a loose bound of the
  // rounding, which still catches a wrong index or a missing term.
  const auto big = [](const float* x, std::size_t n) {
    return 1.0f + largest(std::vector<float>(x, x + n));
  };
  const float bound = big(args.forward.q, q_count) * big(args.forward.k, k_count) *
                      big(args.forward.v, v_count) * big(grad_y.data(), grad_y.size()) *
                      (1.0f + std::fabs(forward.options.scale)) *
                      float(s.head_size + s.v_head_size);
  const float tolerance = 2e-5f * bound;
  const std::vector<float>* pairs[3][2] = {
      {&fast_q, &slow_q}, {&fast_k, &slow_k}, {&fast_v, &slow_v}};
  for (const auto& pair : pairs)
    for (std::size_t i = 0; i < pair[0]->size(); ++i)
      if (!(std::fabs((*pair[0])[i] - (*pair[1])[i]) <= tolerance))
        fail("attention backward", i, (*pair[0])[i], (*pair[1])[i]);
}

// A call of the JS layer's entry point with every field drawn from the bytes, sometimes
// breaking a rule: the core must refuse exactly the invalid ones without writing, and on
// valid ones the fused kernel must agree with the scalar reference.
void fuzz_attention(Bytes& in) {
  attention_call::AttentionCall c;
  const bool break_a_dim = in.next() % 16 == 0;
  c.batch = in.pick(1, 3);
  c.kv_num_heads = in.pick(1, 3);
  c.q_num_heads = c.kv_num_heads * in.pick(1, 3) + (in.next() % 16 == 0 ? 1 : 0);
  c.q_seq_len = in.flag() ? 1 : in.pick(1, 40);
  c.kv_seq_len = in.pick(1, in.flag() ? 80 : 200);
  c.head_size = in.pick(1, 40);
  c.v_head_size = in.flag() ? c.head_size : in.pick(1, 40);
  if (break_a_dim) {
    std::uint32_t* dims[7] = {&c.batch,      &c.q_num_heads, &c.kv_num_heads, &c.q_seq_len,
                              &c.kv_seq_len, &c.head_size,   &c.v_head_size};
    *dims[in.pick(0, 6)] = 0;
  }
  c.q_layout = in.flag() ? attention::Layout::bshd : attention::Layout::bhsd;
  c.kv_layout = in.flag() ? attention::Layout::bshd : attention::Layout::bhsd;
  c.options.scale =
      in.flag() ? 1.0f / std::sqrt(float(std::max(c.head_size, 1u))) : float(in.pick(0, 40)) / 8.0f;
  c.options.is_causal = in.flag();
  c.options.softcap = in.flag() ? float(in.pick(1, 60)) / 4.0f : 0.0f;
  const auto window = [&] { return in.flag() ? -1 : std::int32_t(in.pick(0, 60)) - 2; };
  c.options.left_window = window();
  c.options.right_window = window();
  const std::uint32_t t = c.kv_seq_len;
  std::vector<std::int32_t> nonpad(std::max(c.batch, 1u));
  switch (in.pick(0, 4)) {
    case 0:
      c.past_length = std::uint32_t(in.pick(0, std::min<std::size_t>(t + 1, 250)));
      break;
    case 1:
      for (auto& n : nonpad)
        n = std::int32_t(in.pick(0, std::min<std::size_t>(t + 1, 250))) -
            (in.next() % 32 == 0 ? 2 : 0);
      c.nonpad_kv_seqlen = reinterpret_cast<std::uintptr_t>(nonpad.data());
      if (in.next() % 16 == 0) c.past_length = 1;
      break;
    default:
      break;
  }

  c.mask_kind = attention::MaskKind(in.pick(0, 2));
  c.mask_rank = in.pick(1, 4) + (in.next() % 32 == 0 ? 1 : 0);
  c.mask_keys = in.flag() ? attention::MaskKeys::pad : attention::MaskKeys::broadcast;
  const std::uint32_t target[4] = {c.batch, c.q_num_heads, c.q_seq_len, c.kv_seq_len};
  std::size_t mask_count = 1;
  for (std::uint32_t i = 0; i < c.mask_rank && i < 4; ++i) {
    const std::uint32_t axis = 4 - std::min(c.mask_rank, 4u) + i;
    std::uint32_t dim = in.flag() ? target[axis] : 1;
    if (axis == 3 && in.flag()) dim = std::uint32_t(in.pick(1, std::min<std::size_t>(t + 1, 250)));
    if (in.next() % 32 == 0) dim += 1;  // does not broadcast
    c.mask_dims[i] = dim;
    mask_count *= dim;
  }

  bool ordinary = true;
  const std::size_t q_count = std::size_t(c.batch) * c.q_num_heads * c.q_seq_len * c.head_size;
  const std::size_t k_count = std::size_t(c.batch) * c.kv_num_heads * t * c.head_size;
  const std::size_t v_count = std::size_t(c.batch) * c.kv_num_heads * t * c.v_head_size;
  const std::size_t y_count = std::size_t(c.batch) * c.q_num_heads * c.q_seq_len * c.v_head_size;
  const auto q = in.values(std::max<std::size_t>(q_count, 1), ordinary);
  const auto k = in.values(std::max<std::size_t>(k_count, 1), ordinary);
  const auto v = in.values(std::max<std::size_t>(v_count, 1), ordinary);
  std::vector<std::uint8_t> allowed(mask_count);
  for (auto& a : allowed) a = in.next() % 4 != 0;
  std::vector<float> bias;
  if (c.mask_kind == attention::MaskKind::additive) bias = in.values(mask_count, ordinary);
  if (c.mask_kind != attention::MaskKind::none)
    c.mask = c.mask_kind == attention::MaskKind::boolean
                 ? reinterpret_cast<std::uintptr_t>(allowed.data())
                 : reinterpret_cast<std::uintptr_t>(bias.data());
  std::vector<float> scores;
  if (in.flag()) {
    scores.resize(std::max<std::size_t>(y_count / std::max(c.v_head_size, 1u) * t, 1));
    c.scores = reinterpret_cast<std::uintptr_t>(scores.data());
    c.scores_mode = attention::ScoresMode(in.pick(0, 3));
  }
  std::vector<float> fast(std::max<std::size_t>(y_count, 1), 7.0f), slow(fast.size());
  c.q = reinterpret_cast<std::uintptr_t>(q.data());
  c.k = reinterpret_cast<std::uintptr_t>(k.data());
  c.v = reinterpret_cast<std::uintptr_t>(v.data());
  c.y = reinterpret_cast<std::uintptr_t>(fast.data());

  const bool valid = call_is_valid(c, nonpad);
  const std::string error = attention_call::run(c);
  if (error.empty() != valid) {
    std::fprintf(stderr, "valid=%d but the core said \"%s\"\n", int(valid), error.c_str());
    std::abort();
  }
  fuzz_backward(in, c, valid, ordinary, y_count);
  if (!valid) {
    for (float y : fast)
      if (y != 7.0f) fail("a refused call wrote y", 0, y, 7.0f);
    return;
  }
  attention::AttentionArgs args;
  if (attention_call::to_args(c, args) != nullptr) std::abort();
  args.y = slow.data();
  if (!attention::kernels::attention_reference(args)) return;
  if (!ordinary) return;
  // Outputs are weighted averages of value rows: errors scale with the largest value.
  const float tolerance = 1e-4f * (1.0f + largest(v));
  for (std::size_t i = 0; i < fast.size(); ++i)
    if (!(std::fabs(fast[i] - slow[i]) <= tolerance)) fail("attention", i, fast[i], slow[i]);
}

void fuzz_trace(Bytes& in) {
  // One head as in the article, or a layer: 1 to 4 query heads, kv heads dividing them, W_O.
  const std::size_t heads = in.pick(1, 4);
  std::size_t kv_heads = in.pick(1, heads);
  while (heads % kv_heads != 0) --kv_heads;
  const std::size_t n = in.pick(1, 8), d_in = in.pick(1, 9), d_k_head = in.pick(1, 9),
                    d_v_head = in.pick(1, 9), d_out = in.flag() ? in.pick(1, 9) : 0;
  bool ordinary = true;
  auto matrix = [&](std::size_t rows, std::size_t cols) {
    attention::Matrix m({rows, cols});
    for (auto& x : m) x = in.value(ordinary);
    return m;
  };
  const attention::Matrix x = matrix(n, d_in), wq = matrix(d_in, heads * d_k_head),
                          wk = matrix(d_in, kv_heads * d_k_head),
                          wv = matrix(d_in, kv_heads * d_v_head),
                          wo = matrix(heads * d_v_head, d_out == 0 ? 1 : d_out);
  const attention::Matrix* w_out = d_out == 0 ? nullptr : &wo;
  attention::AttentionOptions options;
  options.scale = in.flag() ? 1.0f : 1.0f / std::sqrt(float(d_k_head));
  options.is_causal = in.flag();
  const attention::HeadCounts counts{heads, kv_heads};
  if (attention::multi_head_shape_error(x, wq, wk, wv, w_out, counts) != nullptr) std::abort();
  const attention::MultiHeadTrace t =
      attention::multi_head_trace(x, wq, wk, wv, w_out, counts, options);
  // Packed into exactly trace_bytes(): a layout that wrote past it is a sanitizer report.
  const attention::TraceDims dims{n,        d_in, heads * d_k_head, kv_heads * d_v_head, heads,
                                  kv_heads, d_out};
  if (attention::trace_dims_error(dims) != nullptr) std::abort();
  std::vector<std::uint8_t> packed(attention::trace_bytes(dims));
  attention::pack_trace(t, dims, packed.data());
  if (!ordinary) return;
  // The staged path and the fused kernel must agree on the same queries, keys and values,
  // every head at once, grouped-query heads reading their kv head.
  const std::size_t group = heads / kv_heads;
  std::vector<float> q, k, v;
  for (const attention::Trace& head : t.heads)
    q.insert(q.end(), head.queries.begin(), head.queries.end());
  for (std::size_t g = 0; g < kv_heads; ++g) {
    const attention::Trace& head = t.heads[g * group];
    k.insert(k.end(), head.keys.begin(), head.keys.end());
    v.insert(v.end(), head.values.begin(), head.values.end());
  }
  const attention::AttentionShape s{1, heads, kv_heads, n, n, d_k_head, d_v_head};
  attention::AttentionOptions o;
  o.scale = options.scale;
  o.is_causal = options.is_causal;
  std::vector<float> y(heads * n * d_v_head);
  if (attention::attention(q.data(), k.data(), v.data(), {}, s, o, y.data()) !=
      attention::Status::ok)
    return;
  float magnitude = 1.0f;
  for (float value : v) magnitude = std::max(magnitude, std::fabs(value));
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < d_v_head; ++c) {
        const float fused = y[(h * n + i) * d_v_head + c];
        if (!(std::fabs(fused - t.heads[h].outputs(i, c)) <= 1e-4f * magnitude))
          fail("trace vs attention", (h * n + i) * d_v_head + c, t.heads[h].outputs(i, c), fused);
        if (t.concat(i, h * d_v_head + c) != t.heads[h].outputs(i, c))
          fail("concat vs the head's outputs", i, t.concat(i, h * d_v_head + c),
               t.heads[h].outputs(i, c));
      }
}

// trace() with gradOutputs through trace_call::run, the entry point JS calls: valid calls
// pack values and gradients into exactly trace_bytes(); calls that break a rule (dims, W_O
// without its columns, gradients without withGrad) are refused and write nothing. On ordinary
// data, every gradient row of the scores sums to 0 (the softmax's weights sum to 1 whatever
// the scores) and a masked score's gradient is exactly 0.
void fuzz_trace_call(Bytes& in) {
  attention::TraceDims d;
  d.heads = in.pick(1, 4);
  d.kv_heads = in.pick(1, d.heads);
  while (d.heads % d.kv_heads != 0) --d.kv_heads;
  d.n = in.pick(1, 8);
  d.d_in = in.pick(1, 6);
  d.d_k = d.heads * in.pick(1, 5);
  d.d_v = d.kv_heads * in.pick(1, 5);
  d.d_out = in.flag() ? in.pick(1, 6) : 0;
  d.with_grad = in.next() % 8 != 0;
  const std::size_t concat_cols = d.heads * (d.d_v / d.kv_heads);
  bool ordinary = true;
  const auto x = in.values(d.n * d.d_in, ordinary), wq = in.values(d.d_in * d.d_k, ordinary),
             wk = in.values(d.d_in * attention::key_columns(d), ordinary),
             wv = in.values(d.d_in * d.d_v, ordinary),
             wo = in.values(std::max<std::size_t>(concat_cols * d.d_out, 1), ordinary),
             grad = in.values(d.n * (d.d_out ? d.d_out : concat_cols), ordinary);
  trace_call::TraceCall c;
  c.x = reinterpret_cast<std::uintptr_t>(x.data());
  c.w_query = reinterpret_cast<std::uintptr_t>(wq.data());
  c.w_key = reinterpret_cast<std::uintptr_t>(wk.data());
  c.w_value = reinterpret_cast<std::uintptr_t>(wv.data());
  c.w_out = d.d_out ? reinterpret_cast<std::uintptr_t>(wo.data()) : 0;
  c.grad_outputs = d.with_grad ? reinterpret_cast<std::uintptr_t>(grad.data()) : 0;
  c.options.scale = in.flag() ? 1.0f : float(in.pick(1, 16)) / 8.0f;
  c.options.is_causal = in.flag();
  c.dims = d;
  // Sometimes break one rule; the layout is sized for the dims as first drawn.
  bool valid = true;
  switch (in.next() % 16) {
    case 0:
      c.dims.kv_heads = d.heads + 1;  // does not divide heads
      valid = false;
      break;
    case 1:
      c.w_out = c.w_out ? 0 : reinterpret_cast<std::uintptr_t>(wo.data());  // dOut disagrees
      valid = false;
      break;
    case 2:
      c.grad_outputs = c.grad_outputs ? 0 : reinterpret_cast<std::uintptr_t>(grad.data());
      valid = false;
      break;
    default:
      break;
  }
  std::vector<std::uint8_t> out(attention::trace_bytes(d), 0xAB);
  c.out = reinterpret_cast<std::uintptr_t>(out.data());
  const std::string error = trace_call::run(c);
  if (error.empty() != valid) {
    std::fprintf(stderr, "valid=%d but trace_call::run said \"%s\"\n", int(valid), error.c_str());
    std::abort();
  }
  if (!valid) {
    for (std::uint8_t byte : out)
      if (byte != 0xAB) fail("a refused trace wrote its buffer", 0, byte, 0xAB);
    return;
  }
  if (!d.with_grad || !ordinary) return;
  float magnitude = 1.0f;  // the gradients scale with the data's largest numbers
  for (const auto* values : {&x, &wq, &wk, &wv, &wo, &grad})
    magnitude = std::max(magnitude, largest(*values));
  const auto layout = attention::trace_layout(d);
  for (const attention::TraceField& field : layout) {
    if (!field.grad || std::string(field.name) != "scores") continue;
    std::vector<float> scores(field.count);
    std::memcpy(scores.data(), out.data() + field.offset, field.count * 4);
    for (std::size_t i = 0; i < d.n; ++i) {
      double row = 0;
      for (std::size_t j = 0; j < d.n; ++j) {
        const float g = scores[i * d.n + j];
        if (c.options.is_causal && j > i && g != 0.0f)
          fail("a masked score's gradient", j, g, 0.0f);
        row += g;
      }
      const double bound = 1e-3 * std::pow(double(magnitude), 4) * d.d_in * d.d_in * d.n;
      if (!(std::fabs(row) <= bound)) fail("a score gradient row's sum", i, float(row), 0.0f);
    }
  }
}

// RoPE through the JS layer's entry point (attention_call::run_rope): shapes from empty to
// uneven, the rotary dim sometimes odd or past the head, position ids sometimes outside the
// caches, 3-D or 4-D, in place or not. Buffers are exactly as large as the shape says, so any
// read or write past them is a sanitizer report. A call that breaks a rule must be refused with
// y untouched; an accepted one must match the scalar reference, and on ordinary data the
// backward must turn it back.
void fuzz_rope(Bytes& in) {
  attention_call::RopeCall c;
  c.batch = in.pick(0, 3);
  c.heads = in.pick(0, 4);
  c.seq = in.pick(0, 6);
  c.head_size = in.pick(0, 40);
  c.rotary_dim = in.flag() ? c.head_size : in.pick(0, c.head_size + 3);
  c.interleaved = in.flag();
  c.layout = in.flag() ? attention::Layout::bshd : attention::Layout::bhsd;
  c.cache_rows = in.pick(0, 20);
  const std::size_t rows = std::size_t(c.batch) * c.seq;
  const std::size_t count = rows * c.heads * c.head_size;
  bool ordinary = true;
  std::vector<float> x = in.values(count, ordinary);
  std::vector<float> cos = in.values(std::size_t(c.cache_rows) * (c.rotary_dim / 2), ordinary);
  std::vector<float> sin = in.values(cos.size(), ordinary);
  std::vector<std::int64_t> ids;
  if (in.flag())
    for (std::size_t i = 0; i < rows; ++i) ids.push_back(std::int64_t(in.pick(0, 23)) - 2);
  const bool in_place = in.flag();
  std::vector<float> y = in_place ? x : std::vector<float>(count, -7.0f);
  const std::vector<float> y_before = y;
  c.x = reinterpret_cast<std::uintptr_t>(in_place ? y.data() : x.data());
  c.y = reinterpret_cast<std::uintptr_t>(y.data());
  c.cos_cache = reinterpret_cast<std::uintptr_t>(cos.data());
  c.sin_cache = reinterpret_cast<std::uintptr_t>(sin.data());
  c.position_ids = ids.empty() ? 0 : reinterpret_cast<std::uintptr_t>(ids.data());
  // The buffers of an empty shape may have no data(); the call needs addresses all the same.
  float placeholder[2] = {0.0f, 0.0f};
  for (auto* address : {&c.x, &c.y, &c.cos_cache, &c.sin_cache})
    if (!*address) *address = reinterpret_cast<std::uintptr_t>(placeholder);
  if (rows == 0 && !ids.empty()) c.position_ids = 0;

  // Every rule, written out again here.
  bool valid = c.rotary_dim % 2 == 0 && c.rotary_dim >= 2 && c.rotary_dim <= c.head_size;
  if (c.position_ids == 0) {
    valid = valid && c.cache_rows >= rows;
  } else {
    for (std::int64_t id : ids) valid = valid && id >= 0 && id < std::int64_t(c.cache_rows);
  }
  const std::string error = attention_call::run_rope(c);
  if (!valid) {
    if (error.empty()) fail("rope: accepted a call that breaks a rule", 0, 0, 0);
    for (std::size_t i = 0; i < y.size(); ++i)
      if (!(y[i] == y_before[i] || (std::isnan(y[i]) && std::isnan(y_before[i]))))
        fail("rope: a refused call wrote y", i, y[i], y_before[i]);
    return;
  }
  if (!error.empty()) {
    std::fprintf(stderr, "rope refused a valid call: %s\n", error.c_str());
    std::abort();
  }
  const attention::Strides s = attention::layout_strides(c.layout, c.heads, c.seq, c.head_size);
  const attention::RopeLayout layout{c.batch,
                                     c.heads,
                                     c.seq,
                                     c.head_size,
                                     c.rotary_dim,
                                     c.interleaved,
                                     std::ptrdiff_t(s.batch),
                                     std::ptrdiff_t(s.head),
                                     std::ptrdiff_t(s.seq)};
  const std::int64_t* positions = ids.empty() || rows == 0 ? nullptr : ids.data();
  const std::vector<float>& source = in_place ? y_before : x;
  std::vector<float> expected(count);
  attention::rope_forward_reference(layout, source.data(), cos.data(), sin.data(), positions,
                                    expected.data());
  if (!ordinary) return;
  const float scale =
      std::max(1.0f, largest(source)) * std::max(1.0f, largest(cos)) * std::max(1.0f, largest(sin));
  for (std::size_t i = 0; i < count; ++i)
    if (!(std::fabs(y[i] - expected[i]) <= 1e-5f * scale)) fail("rope", i, y[i], expected[i]);
  std::vector<float> back(count);
  attention::rope_backward(layout, y.data(), cos.data(), sin.data(), positions, back.data());
  std::vector<float> back_reference(count);
  attention::rope_backward_reference(layout, y.data(), cos.data(), sin.data(), positions,
                                     back_reference.data());
  for (std::size_t i = 0; i < count; ++i)
    if (!(std::fabs(back[i] - back_reference[i]) <= 1e-5f * scale * scale))
      fail("rope_backward", i, back[i], back_reference[i]);
}

// The tiny transformer through its entry points (transformer_call): small configs that
// sometimes break a rule, token and target ids sometimes outside the vocabulary, T sometimes
// past the context, learning rates sometimes absurd, parameters loaded with NaN or +-Inf among
// them or the wrong count. Buffers are exactly as large as the shape
// says, so any read or write past them is a sanitizer report. A refused call must change no
// parameter; an accepted one must keep the rules, and generate() must give ids inside the
// vocabulary.
void fuzz_transformer(Bytes& in) {
  namespace model = attention::model;
  model::Config c;
  c.vocab_size = in.pick(0, 12);
  c.context = in.pick(0, 8);
  c.heads = in.pick(1, 4);
  c.d_model = c.heads * in.pick(0, 3) * (in.flag() ? 2 : 1);
  c.kv_heads = in.pick(1, 4);
  c.layers = in.pick(1, 2);
  c.positions = static_cast<model::Positions>(in.pick(0, 3));
  c.mlp_size = in.pick(0, 6);
  bool ordinary = true;
  c.learning_rate = in.flag() ? 0.01f : in.value(ordinary);
  c.weight_decay = in.flag() ? 0.0f : in.value(ordinary);
  c.seed = in.next();
  const bool valid_config = model::config_error(c) == nullptr;
  const transformer_call::Created created = transformer_call::create(c);
  if (!valid_config) {
    if (created.handle)
      fail("transformer: created a model from a config that breaks a rule", 0, 0, 0);
    return;
  }
  if (!created.handle) {
    std::fprintf(stderr, "transformer refused a valid config: %s\n", created.error.c_str());
    std::abort();
  }
  std::size_t count = 0;
  for (const model::ParameterInfo& info : model::parameter_table(c)) count += info.count;
  const float* parameters =
      reinterpret_cast<const float*>(transformer_call::parameter_address(created.handle));
  const auto unchanged = [&](const std::vector<float>& before, const char* what) {
    for (std::size_t i = 0; i < count; ++i)
      if (!(parameters[i] == before[i] || (std::isnan(parameters[i]) && std::isnan(before[i]))))
        fail(what, i, parameters[i], before[i]);
  };
  const std::int32_t V = std::int32_t(c.vocab_size);
  for (int call = 0; call < 3; ++call) {
    const std::size_t B = in.pick(1, 3), T = in.pick(1, c.context + 1);
    std::vector<std::int32_t> tokens(B * T), targets(B * T);
    bool in_range = T <= c.context, counted = false;
    for (std::size_t i = 0; i < B * T; ++i) {
      tokens[i] = std::int32_t(in.pick(0, c.vocab_size + (in.flag() ? 0 : 1)));
      targets[i] = std::int32_t(in.pick(0, c.vocab_size)) - 1;
      in_range = in_range && tokens[i] < V;
      counted = counted || targets[i] >= 0;
    }
    const std::vector<float> before(parameters, parameters + count);
    const auto address = [](auto& v) { return reinterpret_cast<std::uintptr_t>(v.data()); };
    if (in.flag()) {
      const transformer_call::StepResult step = transformer_call::train_step(
          created.handle, address(tokens), address(targets), std::uint32_t(B), std::uint32_t(T));
      if (!step.error.empty()) {
        unchanged(before, "transformer: a refused step changed a parameter");
      } else if (!in_range || !counted || !std::isfinite(step.loss)) {
        fail("transformer: accepted a step that breaks a rule", 0, float(step.loss), 0);
      }
    } else {
      std::vector<float> logits(B * T * c.vocab_size);
      std::vector<float> weights(c.layers * B * c.heads * T * T);
      const std::string error =
          transformer_call::forward(created.handle, address(tokens), std::uint32_t(B),
                                    std::uint32_t(T), address(logits), address(weights), 0);
      unchanged(before, "transformer: forward changed a parameter");
      if (error.empty() != in_range)
        fail("transformer: forward accepted or refused wrongly", 0, 0, 0);
    }
  }
  // loadParameters' entry point: values from the bytes (NaN, +-Inf among them), the count
  // sometimes one off. Refused exactly when the count is wrong or a value is not finite,
  // naming the first such value and changing nothing; else every value is in place.
  {
    const std::size_t given = count + (in.next() % 16 == 0 ? 1 : 0) - (in.next() % 16 == 0 ? 1 : 0);
    bool unused = true;  // whether the values are moderate: the load must not care
    std::vector<float> values(std::max<std::size_t>(given, 1));
    for (auto& x : values) x = in.value(unused);
    std::size_t first_bad = given;
    if (given == count)
      for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(values[i])) {
          first_bad = i;
          break;
        }
    const std::vector<float> before(parameters, parameters + count);
    const transformer_call::LoadResult loaded = transformer_call::load_parameters(
        created.handle, reinterpret_cast<std::uintptr_t>(values.data()), std::uint32_t(given));
    if (first_bad < given || given != count) {
      if (loaded.error.empty())
        fail("transformer: loaded a count or a value it must refuse", 0, 0, 0);
      if (loaded.index != first_bad)
        fail("transformer: load named the wrong value", loaded.index, 0, float(first_bad));
      unchanged(before, "transformer: a refused load changed a parameter");
    } else {
      if (!loaded.error.empty()) fail("transformer: refused a load of finite values", 0, 0, 0);
      for (std::size_t i = 0; i < count; ++i)
        if (parameters[i] != values[i]) fail("transformer: load", i, parameters[i], values[i]);
    }
  }
  const std::size_t length = in.pick(0, c.context), n = in.pick(0, c.context);
  std::vector<std::int32_t> prompt(length + 1, 0), out(n + 1, -5);
  bool prompt_ok = length >= 1 && length <= c.context && (n == 0 || length + n - 1 <= c.context);
  for (std::size_t i = 0; i < length; ++i) {
    prompt[i] = std::int32_t(in.pick(0, c.vocab_size));
    prompt_ok = prompt_ok && prompt[i] < V;
  }
  // Greedy or sampled (temperature 0 to 1.5, any top_k, even past V), some heads off or dimmed.
  const float temperature = 0.5f * float(in.pick(0, 4));
  const std::uint32_t top_k = std::uint32_t(in.pick(0, c.vocab_size + 2));
  std::vector<float> head_mask(c.layers * c.heads);
  for (float& factor : head_mask) factor = 0.5f * float(in.pick(0, 3));
  const bool masked = in.next() % 2 == 0;
  // Some ids banned (none, a few, or every one: then generate must refuse).
  std::vector<std::uint8_t> banned(V);
  for (std::uint8_t& ban : banned) ban = std::uint8_t(in.pick(0, 1));
  const bool banning = in.next() % 2 == 0;
  const bool all_banned = banning && std::all_of(banned.begin(), banned.end(),
                                                 [](std::uint8_t ban) { return ban != 0; });
  const std::string error = transformer_call::generate(
      created.handle, reinterpret_cast<std::uintptr_t>(prompt.data()), std::uint32_t(length),
      std::uint32_t(n), reinterpret_cast<std::uintptr_t>(out.data()), temperature, top_k,
      std::uint32_t(in.next()), masked ? reinterpret_cast<std::uintptr_t>(head_mask.data()) : 0,
      banning ? reinterpret_cast<std::uintptr_t>(banned.data()) : 0);
  if (error.empty() != (prompt_ok && !all_banned))
    fail("transformer: generate accepted or refused wrongly", 0, 0, 0);
  if (error.empty())
    for (std::size_t i = 0; i < n; ++i) {
      if (out[i] < 0 || out[i] >= V)
        fail("transformer: generated an id outside the vocabulary", i, float(out[i]), 0);
      else if (banning && banned[std::size_t(out[i])])
        fail("transformer: generated a banned id", i, float(out[i]), 0);
    }
  transformer_call::free_model(created.handle);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  switch (in.pick(0, 4)) {
    case 0:
      fuzz_attention(in);
      break;
    case 1:
      fuzz_trace(in);
      break;
    case 2:
      fuzz_trace_call(in);
      break;
    case 3:
      fuzz_rope(in);
      break;
    default:
      fuzz_transformer(in);
  }
  return 0;
}
