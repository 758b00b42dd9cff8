// The same kernels as the wasm module, compiled natively and timed with Google Benchmark, to
// see how far wasm is from native on this machine. scripts/bench builds this twice: with the
// host's widest SIMD (-march=native) and with the x86-64 baseline (SSE2: 4 float lanes, the
// width of SIMD128, so the gap to wasm there is the engine's, not the vector width's).
//
// Cases as in the JS benchmark: batch 1, heads in {1, 8}, q_seq_len = kv_seq_len = n in
// {64, 256, 1024, 4096}, head_size 64, scale 1/8, no mask. "GFLOP/s" counts 4·n²·64·heads
// flops per call, as bench/common/workload.mjs does.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "attention.hpp"
#include "kernels/flash_attention.hpp"

namespace {

constexpr std::size_t head_size = 64;

using Kernel = bool (*)(const attention::AttentionArgs&);

// args: n, heads.
void run(benchmark::State& state, Kernel kernel) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto heads = static_cast<std::size_t>(state.range(1));
  attention::AttentionShape shape{1, heads, heads, n, n, head_size, head_size};
  attention::AttentionOptions options;
  options.scale = 1.0f / std::sqrt(float(head_size));

  std::mt19937 rng(static_cast<std::uint32_t>(n * 131 + heads));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> q(heads * n * head_size), k(q.size()), v(q.size()), y(q.size());
  for (auto* a : {&q, &k, &v})
    for (float& x : *a) x = uniform(rng);

  for (auto _ : state) {
    if (!kernel(attention::contiguous_args(q.data(), k.data(), v.data(), {}, shape, options,
                                           y.data()))) {
      state.SkipWithError("the kernel could not allocate its scratch");
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  // kIsIterationInvariantRate: flops per iteration, times iterations, over the elapsed time;
  // the 1e-9 makes the counter read in GFLOP/s.
  const double flops = 4.0 * double(n) * double(n) * double(head_size) * double(heads);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void flash_attention(benchmark::State& state) { run(state, attention::kernels::flash_attention); }
void attention_reference(benchmark::State& state) {
  run(state, attention::kernels::attention_reference);
}

void all_cases(benchmark::internal::Benchmark* b) {
  for (int heads : {1, 8})
    for (int n : {64, 256, 1024, 4096}) b->Args({n, heads});
}

// The scalar reference is the slow one: at n = 4096 with 8 heads one call takes many seconds,
// and one head already says how it scales, so that case is left out.
void reference_cases(benchmark::internal::Benchmark* b) {
  for (int heads : {1, 8})
    for (int n : {64, 256, 1024, 4096})
      if (!(n == 4096 && heads == 8)) b->Args({n, heads});
}

BENCHMARK(flash_attention)
    ->Apply(all_cases)
    ->ArgNames({"n", "heads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(attention_reference)
    ->Apply(reference_cases)
    ->ArgNames({"n", "heads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  // Recorded in the JSON context, so the report can say which SIMD the kernels ran with.
  benchmark::AddCustomContext("xsimd_arch", xsimd::default_arch::name());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
