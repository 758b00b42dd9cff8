// libFuzzer target: arbitrary bytes become shapes, options, masks and data (NaN, +-Inf,
// denormals, huge and tiny magnitudes) for trace() and attention() of the core. Any crash,
// sanitizer report or out-of-bounds access fails; where the data is ordinary (finite, moderate),
// the fused kernel must also agree with the scalar reference, and the trace with attention().
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "kernels/flash_attention.hpp"
#include "trace.hpp"

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

void fuzz_attention(Bytes& in) {
  attention::AttentionShape s;
  s.batch = in.pick(1, 3);
  s.kv_num_heads = in.pick(1, 3);
  s.q_num_heads = s.kv_num_heads * in.pick(1, 3);
  s.q_seq_len = in.pick(1, 40);
  s.kv_seq_len = in.pick(1, 80);
  s.head_size = in.pick(1, 40);
  s.v_head_size = in.flag() ? s.head_size : in.pick(1, 40);
  attention::AttentionOptions o;
  o.scale = in.flag() ? 1.0f / std::sqrt(float(s.head_size)) : float(in.pick(0, 40)) / 8.0f;
  o.is_causal = in.flag();
  o.softcap = in.flag() ? float(in.pick(1, 60)) / 4.0f : 0.0f;

  const std::size_t target[4] = {s.batch, s.q_num_heads, s.q_seq_len, s.kv_seq_len};
  const int mask_kind = int(in.pick(0, 2));
  const std::size_t rank = in.pick(1, 4);
  std::size_t dims[4];
  std::size_t mask_count = 1;
  for (std::size_t i = 0; i < rank; ++i) {
    dims[i] = in.flag() ? target[4 - rank + i] : 1;
    mask_count *= dims[i];
  }
  bool ordinary = true;
  const auto q = in.values(s.batch * s.q_num_heads * s.q_seq_len * s.head_size, ordinary);
  const auto k = in.values(s.batch * s.kv_num_heads * s.kv_seq_len * s.head_size, ordinary);
  const auto v = in.values(s.batch * s.kv_num_heads * s.kv_seq_len * s.v_head_size, ordinary);
  std::vector<std::uint8_t> allowed(mask_count);
  std::vector<float> bias;
  for (auto& a : allowed) a = in.next() % 4 != 0;
  if (mask_kind == 2) bias = in.values(mask_count, ordinary);

  attention::AttentionMask mask;
  if (mask_kind != 0) {
    if (attention::broadcast_mask_strides(dims, rank, s, attention::MaskKeys::broadcast, mask) !=
        nullptr)
      std::abort();
    mask.kind = mask_kind == 1 ? attention::MaskKind::boolean : attention::MaskKind::additive;
    mask.allowed = allowed.data();
    mask.bias = bias.data();
  }
  std::vector<float> fast(s.batch * s.q_num_heads * s.q_seq_len * s.v_head_size);
  std::vector<float> slow(fast.size());
  if (attention::attention(q.data(), k.data(), v.data(), mask, s, o, fast.data()) !=
      attention::Status::ok)
    return;
  if (!attention::kernels::attention_reference(
          attention::contiguous_args(q.data(), k.data(), v.data(), mask, s, o, slow.data())))
    return;
  if (!ordinary) return;
  // Outputs are weighted averages of value rows: errors scale with the largest value.
  const float tolerance = 1e-4f * (1.0f + largest(v));
  for (std::size_t i = 0; i < fast.size(); ++i)
    if (!(std::fabs(fast[i] - slow[i]) <= tolerance)) fail("attention", i, fast[i], slow[i]);
}

void fuzz_trace(Bytes& in) {
  const std::size_t n = in.pick(1, 8), d_in = in.pick(1, 9), d_k = in.pick(1, 9),
                    d_v = in.pick(1, 9);
  bool ordinary = true;
  auto matrix = [&](std::size_t rows, std::size_t cols) {
    attention::Matrix m({rows, cols});
    for (auto& x : m) x = in.value(ordinary);
    return m;
  };
  const attention::Matrix x = matrix(n, d_in), wq = matrix(d_in, d_k), wk = matrix(d_in, d_k),
                          wv = matrix(d_in, d_v);
  attention::TraceOptions options;
  options.scale = in.flag() ? 1.0f : 1.0f / std::sqrt(float(d_k));
  options.is_causal = in.flag();
  if (attention::trace_shape_error(x, wq, wk, wv) != nullptr) std::abort();
  const attention::Trace t = attention::trace(x, wq, wk, wv, options);
  if (!ordinary) return;
  // The staged path and the fused kernel must agree on the same queries, keys and values.
  const attention::AttentionShape s{1, 1, 1, n, n, d_k, d_v};
  attention::AttentionOptions o;
  o.scale = options.scale;
  o.is_causal = options.is_causal;
  std::vector<float> y(n * d_v);
  if (attention::attention(t.queries.data(), t.keys.data(), t.values.data(), {}, s, o, y.data()) !=
      attention::Status::ok)
    return;
  float magnitude = 1.0f;
  for (float value : t.values) magnitude = std::max(magnitude, std::fabs(value));
  for (std::size_t i = 0; i < y.size(); ++i)
    if (!(std::fabs(y[i] - t.outputs.flat(i)) <= 1e-4f * magnitude))
      fail("trace vs attention", i, t.outputs.flat(i), y[i]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  if (in.flag())
    fuzz_attention(in);
  else
    fuzz_trace(in);
  return 0;
}
