// The training step's matrix products shape by shape (bench/matmul/matmul_shapes.cpp: the larger
// benchmark model's projections, MLP, unembedding and attention, forward and backward), each
// timed against the SIMD128 mul + add peak probe in the same interleaved rounds, so a busy spell
// of a shared machine falls on both, and both in CPU time (process.cpuUsage), so that the time
// slices other processes take are not counted. Prints each shape's GFLOP/s as a share of the peak.
//   node bench/matmul-node.mjs --shapes build/bench/matmul_shapes.wasm \
//     --peak build/bench/simd_peak.wasm [--rounds 7] [--json FILE]
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { peakProbes } from './common/contenders.mjs';
import { median } from './common/harness.mjs';
import { trainFlops } from './common/train-bench.mjs';

const { values: args } = parseArgs({
  options: {
    shapes: { type: 'string' },
    peak: { type: 'string' },
    rounds: { type: 'string', default: '7' },
    json: { type: 'string' },
  },
});
if (!args.shapes || !args.peak) {
  throw new Error('usage: node bench/matmul-node.mjs --shapes FILE --peak FILE [--rounds R]');
}

const instantiate = async (file, imports = {}) =>
  (await WebAssembly.instantiate(await readFile(file), imports)).instance.exports;
// The model's step timer reads a clock (never switched on here); nothing exits.
const shapes = await instantiate(args.shapes, {
  env: { emscripten_notify_memory_growth() {} },
  wasi_snapshot_preview1: {
    clock_time_get: () => 0,
    proc_exit: (code) => {
      throw new Error(`the shapes module exited with ${code}`);
    },
  },
});
shapes._initialize?.();
const probes = peakProbes(await instantiate(args.peak));

// The larger model: N = B·T rows, D = dModel, M = the MLP's width, V = vocab, d = D / H.
const B = 16, T = 128, D = 128, M = 512, V = 64, H = 4, d = D / H; // prettier-ignore
const N = B * T;
const linear = (what, I, O) => [
  { name: `${what}: forward x·W [${N}×${I}]·[${I}×${O}]`, run: (r) => shapes.linear_forward(N, I, O, r), flops: 2 * N * I * O },
  { name: `${what}: backward dx = dy·Wᵀ`, run: (r) => shapes.linear_backward_dx(N, I, O, r), flops: 2 * N * I * O },
  { name: `${what}: backward dW = xᵀ·dy`, run: (r) => shapes.linear_backward_dw(N, I, O, r), flops: 2 * N * I * O },
]; // prettier-ignore
const cases = [
  ...linear('projection (q, k, v, o)', D, D),
  ...linear('MLP up (w1)', D, M),
  ...linear('MLP down (w2)', M, D),
  ...linear('unembedding', D, V),
  { name: `attention forward (B ${B}, H ${H}, T ${T}, d ${d}, causal)`, run: (r) => shapes.attention_forward(B, T, H, d, r), flops: 2 * B * H * T * T * d },
  { name: 'attention backward', run: (r) => shapes.attention_backward(B, T, H, d, r), flops: 4 * B * H * T * T * d },
  { name: 'the whole training step (flops as bench/common/train-bench.mjs counts them)', run: (r) => shapes.train_steps(r), flops: trainFlops({ vocabSize: V, dModel: D, layers: 4, heads: H, mlpSize: M }, B, T) },
]; // prettier-ignore

/** Seconds of this process's CPU time that `run()` takes. */
const cpuSeconds = (run) => {
  const start = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
};
const time = (c, reps) => cpuSeconds(() => c.run(reps));
/** GFLOP/s of the best peak probe (each about 20 ms), in CPU time. */
const samplePeak = () =>
  Math.max(
    ...probes.map((probe) => {
      const iters = 400_000;
      return (probe.flopsPerIter * iters) / cpuSeconds(() => probe.run(iters)) / 1e9;
    }),
  );
// Reps per sample: about 50 ms each.
for (const c of cases) {
  time(c, 1);
  c.reps = Math.max(1, Math.round(0.05 / time(c, 1)));
  c.rates = [];
}
const peaks = [];
const rounds = Number(args.rounds);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...cases].reverse() : cases;
  for (const c of order) c.rates.push((c.flops * c.reps) / time(c, c.reps) / 1e9);
  peaks.push(samplePeak());
}
const peak = median(peaks);
const rows = cases.map((c) => ({
  name: c.name,
  gflops: median(c.rates),
  share: median(c.rates) / peak,
}));
for (const r of rows) {
  console.log(`${r.name.padEnd(58)} ${r.gflops.toFixed(1).padStart(6)} GFLOP/s ${(100 * r.share).toFixed(0).padStart(4)}%`);
} // prettier-ignore
console.log(`peak (mul + add probe) ${peak.toFixed(1)} GFLOP/s, median of ${rounds} rounds`);
if (args.json) await writeFile(args.json, `${JSON.stringify({ peak, rows }, null, 2)}\n`);
