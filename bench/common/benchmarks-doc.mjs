// docs/benchmarks.md, the benchmark results the README links to: this introduction, then
// bench/report.mjs's report of one full scripts/bench run and bench/page-metrics.mjs's section
// on the page, both unedited. scripts/bench writes it; nobody edits the numbers by hand.

const INTRODUCTION = `# Benchmarks

\`scripts/bench\` measures our module side by side with naive JS, onnxruntime-web (wasm, one
thread, the ONNX \`Attention\` op) and tfjs-backend-wasm (one thread), in Node and in headless
Chromium, together with peak probes in the same rounds, and the same kernels natively with
Google Benchmark. Where the engine has Relaxed SIMD (Chromium; Node with
\`--experimental-wasm-relaxed-simd\`, which the bench passes) it measures both of our builds in
the same rounds, each against the peak of the instructions it can use: the SIMD128 build against
chains of f32x4 multiply then add, the Relaxed SIMD build against chains of
\`f32x4.relaxed_madd\` (a fused multiply-add). Its cores table (bench/cores.mjs, unpinned) runs our pool with 1 and 2 workers
against onnxruntime-web with 1 and 2 threads, in Node and in a cross-origin isolated Chromium
page; its decode table times one generated token over a KV cache; its small-call table times
N = 64 calls with and without \`attention()\`'s \`out\`; its gradient table times
\`attentionBackward\` against tfjs's \`tf.grads\` of the same attention, and its training table
a step of our tiny transformer against the same model in tfjs-wasm (in Chromium ours trains in
a Worker, as the page does), both in Node and in Chromium. Its text section trains the text
model (\`TEXT_MODEL\`) for a minute on the Tang poems and on the English text, from scratch,
and measures the held-out loss against time, the share of generated verse lines with five or
seven characters, the snapshots the page opens with, and a step against the same model in
tfjs-wasm: in Node for a minute of CPU time, and in Chromium for a minute of wall time through
\`createTrainer\` (its Worker, one thread), as chapter 4 of the page trains. How far the FMA peak sits above the
multiply + add one depends on the CPU (on AMD Zen cores the two are close, on Intel cores the
FMA peak is about twice the other): the report names the host's CPU and gives both peaks.

This file is written by the last full \`scripts/bench\` run (\`--quick\` and the \`--*-only\`
runs write only to \`build/bench/\`); the page's section (load time, frames during playback and
while chapter 3 trains) comes from \`taskset -c 0 node bench/page-metrics.mjs\` in the same
run. The machine is shared, so absolute numbers drift between runs; ratios from the same rounds
drift much less.
`;

/** The whole document from the report's markdown and the page's section (either may be ''). */
export function benchmarksDocument({ report, page }) {
  return [INTRODUCTION, report.trim(), page.trim()].filter(Boolean).join('\n\n') + '\n';
}
