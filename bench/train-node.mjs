// The training benchmark (scripts/bench runs it pinned to one core): ms per training step of
// our tiny transformer (attn.createTinyTransformer, the SIMD128 build) against the same model in
// TensorFlow.js's wasm backend at one thread (bench/common/train-tfjs.mjs), in Node, with the
// SIMD128 peak probe timed in the same interleaved rounds. Two models:
//   induction  vocab 16, T 25, dModel 32, 2 layers, 4 heads, attention-only, batch 32, on the
//              induction task (the tests' and the page's workload)
//   larger     vocab 64, T 128, dModel 128, 4 layers, 4 heads, MLP 512, batch 16, on seeded
//              random tokens (every next token counted)
// Both learn with AdamW / Adam at lr 6e-3 and learned positions.
// FLOPs per step count the matrix products only (forward, and the backward's two products per
// forward one), each multiply and each add: per layer 4 projections 2·N·D·D, attention's
// q·kᵀ and p·v 2·B·H·T·T·d each (dense, as if nothing were masked), the MLP 2·2·N·D·M, and the
// unembedding 2·N·D·V; times 3 for forward + backward. tfjs's one-hot embedding product is not
// counted (it is its workaround, not the model's work).
// Then where our step's time goes, piece by piece (embedding, LayerNorm, QKV, attention, ...,
// their backward, the optimiser): the core's own timer (model/step_profile.hpp), switched on
// for separate rounds of steps on the raw module, so the ms/step above is never timed with it.
//   node bench/train-node.mjs [--quick] --peak build/bench/simd_peak.wasm --out FILE.json --md FILE.md
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttentionModule from '../build/wasm/attention.mjs';
import createAttention from '../dist/attention.mjs';
import { createTfjsTransformer } from './common/train-tfjs.mjs';
import { peakProbes } from './common/contenders.mjs';
import { median } from './common/harness.mjs';
import { createInductionTask } from '../src/js/induction-task.mjs';
import { seededRandom } from '../tests/js/seeded-random.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    peak: { type: 'string' },
    out: { type: 'string' },
    md: { type: 'string' },
  },
});
if (!args.peak || !args.out || !args.md) {
  throw new Error('usage: node bench/train-node.mjs [--quick] --peak FILE --out FILE --md FILE');
}
const log = (line) => process.stderr.write(`[bench train] ${line}\n`);

const MODELS = [
  {
    name: 'induction',
    config: { vocabSize: 16, context: 25, dModel: 32, layers: 2, heads: 4, mlpSize: 0 },
    batch: 32,
    rounds: args.quick ? 5 : 15,
    // Steps per round and contender: each round's sample is about 0.1-1 s of work.
    steps: { ours: 50, tfjs: 3 },
    profile: { rounds: args.quick ? 3 : 7, steps: 50 },
  },
  {
    name: 'larger',
    config: { vocabSize: 64, context: 128, dModel: 128, layers: 4, heads: 4, mlpSize: 512 },
    batch: 16,
    rounds: args.quick ? 3 : 7,
    steps: { ours: 3, tfjs: 1 },
    profile: { rounds: args.quick ? 2 : 5, steps: 2 },
  },
];
const LEARNING_RATE = 6e-3;

/** Matrix-product FLOPs of one training step (forward + backward), as the header says. */
export function trainFlops({ vocabSize: V, dModel: D, layers, heads: H, mlpSize: M }, B, T) {
  const N = B * T;
  const d = D / H;
  const perLayer = 4 * 2 * N * D * D + 2 * 2 * B * H * T * T * d + 2 * 2 * N * D * M;
  return 3 * (layers * perLayer + 2 * N * D * V);
}

/** Batches for a model: the induction task, or seeded random tokens with next-token targets. */
function batchesFor(model) {
  const { config, batch } = model;
  if (model.name === 'induction') {
    const task = createInductionTask(1);
    return () => {
      const { tokens, targets } = task.batch(batch); // trainStep takes these three fields only
      return { tokens, targets, batch };
    };
  }
  const next = seededRandom(11);
  const T = config.context;
  return () => {
    const tokens = Int32Array.from({ length: batch * T }, () =>
      Math.floor(next() * config.vocabSize),
    );
    const targets = new Int32Array(batch * T);
    for (let i = 0; i < batch * T; i++) targets[i] = (i + 1) % T === 0 ? -1 : tokens[i + 1];
    return { tokens, targets, batch };
  };
}

/** ms per step of `steps` calls of trainStep on fresh batches (batch making not timed). */
function timeSteps(trainer, nextBatch, steps) {
  const batches = Array.from({ length: steps }, nextBatch);
  const start = performance.now();
  for (const b of batches) trainer.trainStep(b);
  return (performance.now() - start) / steps;
}

/** GFLOP/s of the best peak probe over a ~10 ms sample each. */
function samplePeak(probes) {
  let best = 0;
  for (const probe of probes) {
    const iters = 200_000;
    const start = performance.now();
    probe.run(iters);
    const seconds = (performance.now() - start) / 1000;
    best = Math.max(best, (probe.flopsPerIter * iters) / seconds / 1e9);
  }
  return best;
}

/**
 * ms per step of each piece of our training step: `rounds` rounds of `steps` steps with the
 * core's piece timer on (the raw module's transformer entry points: the API object keeps its
 * handle private), the median over rounds per piece. The pieces' sum runs a little above the
 * un-timed ms/step: two clock reads per piece.
 */
function profilePieces(Module, model, nextBatch) {
  const { config, batch } = model;
  const T = config.context;
  const { handle, error } = Module.transformerCreate({
    ...config,
    kvHeads: config.heads,
    positions: Module.TransformerPositions.learned,
    learningRate: LEARNING_RATE,
    weightDecay: 0,
    seed: 1,
  });
  if (error) throw new Error(`profile: ${error}`);
  const bytes = batch * T * 4;
  const tokensAt = Module._malloc(bytes);
  const targetsAt = Module._malloc(bytes);
  const step = ({ tokens, targets }) => {
    Module.HEAP32.set(tokens, tokensAt >> 2);
    Module.HEAP32.set(targets, targetsAt >> 2);
    const result = Module.transformerTrainStep(handle, tokensAt, targetsAt, batch, T);
    if (result.error) throw new Error(`profile: ${result.error}`);
  };
  const samples = {};
  try {
    for (let i = 0; i < Math.max(2, model.profile.steps); i++) step(nextBatch());
    for (let round = 0; round < model.profile.rounds; round++) {
      const batches = Array.from({ length: model.profile.steps }, nextBatch);
      Module.transformerProfileSteps(handle, true);
      for (const b of batches) step(b);
      const { steps, seconds } = Module.transformerStepProfile(handle);
      Module.transformerProfileSteps(handle, false);
      for (const [piece, s] of Object.entries(seconds)) {
        (samples[piece] ??= []).push((1000 * s) / steps);
      }
    }
  } finally {
    Module._free(tokensAt);
    Module._free(targetsAt);
    Module.transformerFree(handle);
  }
  // In the core's order; pieces this model does not have (RoPE, an MLP) stay at 0.
  return Object.fromEntries(Object.entries(samples).map(([piece, ms]) => [piece, median(ms)]));
}

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await createAttention({ relaxedSimd: false });
const haveOurs = typeof attn.createTinyTransformer === 'function';
// The same SIMD128 build as a raw module, for the piece timer (build/wasm/ holds its glue).
const Module = haveOurs
  ? await createAttentionModule({
      wasmBinary: await readFile(new URL('../dist/attention.wasm', import.meta.url)),
    })
  : null;
if (!haveOurs) log('this build has no createTinyTransformer: measuring tfjs alone');
const { instance: peakInstance } = await WebAssembly.instantiate(await readFile(args.peak), {});
const probes = peakProbes(peakInstance.exports);

const results = [];
for (const model of MODELS) {
  const T = model.config.context;
  const flops = trainFlops(model.config, model.batch, T);
  const config = { ...model.config, positions: 'learned', learningRate: LEARNING_RATE, seed: 1 };
  const contenders = { tfjs: createTfjsTransformer(tf, config) };
  if (haveOurs) contenders.ours = attn.createTinyTransformer(config);
  const nextBatch = batchesFor(model);
  // Warm-up: V8 tiers the wasm up between calls, tfjs allocates its kernels' buffers.
  for (const [name, trainer] of Object.entries(contenders)) {
    timeSteps(trainer, nextBatch, Math.max(2, model.steps[name]));
  }
  const samples = { ours: [], tfjs: [], peak: [] };
  for (let round = 0; round < model.rounds; round++) {
    // A rotating order: a slow spell of the shared machine falls on each in turn.
    const order = Object.keys(contenders);
    if (round % 2) order.reverse();
    for (const name of order) {
      samples[name].push(timeSteps(contenders[name], nextBatch, model.steps[name]));
    }
    samples.peak.push(samplePeak(probes));
  }
  const row = { model: model.name, config, batch: model.batch, T, flops };
  row.peak = median(samples.peak);
  for (const name of Object.keys(contenders)) {
    const ms = median(samples[name]);
    const gflops = flops / ms / 1e6;
    row[name] = { ms, gflops, share: gflops / row.peak };
  }
  if (haveOurs) row.ratio = row.tfjs.ms / row.ours.ms;
  log(
    `${model.name}: ${Object.keys(contenders)
      .map((name) => `${name} ${row[name].ms.toFixed(2)} ms/step`)
      .join(', ')}; peak ${row.peak.toFixed(1)} GFLOP/s`,
  );
  contenders.ours?.free();
  contenders.tfjs.dispose();
  if (haveOurs) {
    row.pieces = profilePieces(Module, model, nextBatch);
    log(`${model.name}: pieces timed (${Object.keys(row.pieces).length})`);
  }
  results.push(row);
}

await writeFile(args.out, `${JSON.stringify({ quick: args.quick, results }, null, 2)}\n`);

const cell = (r) =>
  r
    ? `${r.ms.toFixed(2)} ms (${r.gflops.toFixed(2)} GFLOP/s, ${(100 * r.share).toFixed(1)}% of peak)`
    : 'n/a';
/** The per-piece table: one column per model, ms per step and its share of the pieces' sum. */
function piecesTable(rows) {
  const profiled = rows.filter((r) => r.pieces);
  if (profiled.length === 0) return [];
  // A piece no model ran (RoPE here) gets no row; one some model lacks shows "-" there.
  const names = Object.keys(profiled[0].pieces).filter((name) =>
    profiled.some((r) => r.pieces[name] > 0),
  );
  const sums = profiled.map((r) => Object.values(r.pieces).reduce((a, b) => a + b, 0));
  const cellOf = (r, i, name) =>
    !(r.pieces[name] > 0)
      ? '-'
      : `${r.pieces[name].toFixed(3)} ms (${((100 * r.pieces[name]) / sums[i]).toFixed(1)}%)`;
  return [
    '### Where our step goes, piece by piece',
    '',
    'ms per step of each piece (the piece timer of the core, median over separate rounds; forward',
    'pieces first, then the backward in the order it runs). "layer norm" is every LayerNorm,',
    '"MLP" both its products and the GELU, "optimiser" the finite-gradient check and AdamW.',
    '',
    `| piece | ${profiled.map((r) => r.model).join(' | ')} |`,
    `| --- | ${profiled.map(() => '---').join(' | ')} |`,
    ...names.map(
      (name) => `| ${name} | ${profiled.map((r, i) => cellOf(r, i, name)).join(' | ')} |`,
    ),
    `| sum of the pieces | ${sums.map((sum) => `${sum.toFixed(3)} ms`).join(' | ')} |`,
    '',
  ];
}

const lines = [
  '## Training step: ours vs TensorFlow.js (wasm, 1 thread), Node, one pinned core',
  '',
  'ms per trainStep (forward + backward + AdamW), median of interleaved rounds; FLOPs count',
  'the matrix products only (bench/train-node.mjs says how); the SIMD128 peak is measured in',
  'the same rounds. Target: ours at least 10x faster than tfjs per step.',
  '',
  '| model | batch x T | GFLOP/step | ours | tfjs-wasm | tfjs / ours | peak GFLOP/s |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...results.map(
    (r) =>
      `| ${r.model} (V ${r.config.vocabSize}, D ${r.config.dModel}, L ${r.config.layers}, H ${r.config.heads}, MLP ${r.config.mlpSize}) | ${r.batch} x ${r.T} | ${(r.flops / 1e9).toFixed(3)} | ${cell(r.ours)} | ${cell(r.tfjs)} | ${r.ratio ? `${r.ratio.toFixed(1)}x` : 'n/a'} | ${r.peak.toFixed(1)} |`,
  ),
  '',
  ...piecesTable(results),
];
await writeFile(args.md, lines.join('\n'));
log(`written to ${args.md}`);
