// The training benchmark in Node (scripts/bench runs it pinned to one core): ms per training
// step of our tiny transformer (attn.createTinyTransformer, the SIMD128 build) against the same
// model in TensorFlow.js's wasm backend at one thread (bench/common/train-tfjs.mjs), with the
// SIMD128 peak probe timed in the same interleaved rounds. The models, their batches and how
// FLOPs are counted: bench/common/train-bench.mjs (Chromium runs the same: bench/browser/).
// Then where our step's time goes, piece by piece (embedding, LayerNorm, QKV, attention, ...,
// their backward, the optimiser): the core's own timer (model/step_profile.hpp), switched on
// for separate rounds of steps on the raw module, so ms/step is never timed with it on.
// With --threads N (N > 1; scripts/bench runs it on both cores, unpinned from CPU 0), ours is
// the wasm threads build (createAttention({ threads: N })), whose training step shares its
// products and attention among N threads, and tfjs is asked for N threads too (its wasm backend
// has threads in cross-origin isolated pages only: in Node it keeps one, and the JSON says so);
// each contender's % of peak is then against its threads' count times the one-core probe. No
// piece timer then (it reads the one-thread build).
// Writes JSON; bench/report/learning.mjs makes the tables.
//   node bench/train-node.mjs [--quick] [--threads N] --peak build/bench/simd_peak.wasm \
//     --out FILE.json
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttentionModule from '../build/wasm/attention.mjs';
import createAttention from '../dist/attention.mjs';
import { createTfjsTransformer } from './common/train-tfjs.mjs';
import { peakProbes } from './common/contenders.mjs';
import {
  batchesFor,
  timeSteps,
  trainConfig,
  trainModels,
  trainRow,
} from './common/train-bench.mjs';
import { median } from './common/harness.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    threads: { type: 'string', default: '1' },
    peak: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.peak || !args.out) {
  throw new Error('usage: node bench/train-node.mjs [--quick] --peak FILE --out FILE');
}
const threads = Number(args.threads);
if (!Number.isInteger(threads) || threads < 1) throw new Error('--threads must be a count');
const log = (line) => process.stderr.write(`[bench train, ${threads} thread(s)] ${line}\n`);

/** Rounds x steps of the piece timer per model (each round about 0.1-1 s of steps). */
const PROFILE = {
  induction: { rounds: args.quick ? 3 : 7, steps: 50 },
  larger: { rounds: args.quick ? 2 : 5, steps: 2 },
};

/**
 * ms per step of each piece of our training step, in the core's order: rounds of steps with
 * the core's piece timer on, through the raw module's entry points (the API object keeps its
 * handle private), the median over rounds per piece; 0 for a piece the model lacks (RoPE, an
 * MLP). The pieces' sum runs a little above the un-timed ms/step: two clock reads per piece.
 */
function profilePieces(Module, model) {
  const { batch } = model;
  const config = trainConfig(model);
  const T = config.context;
  const { handle, error } = Module.transformerCreate({
    kvHeads: config.heads,
    weightDecay: 0,
    ...config,
    positions: Module.TransformerPositions[config.positions],
  });
  if (error) throw new Error(`profile: ${error}`);
  const nextBatch = batchesFor(model);
  const bytes = batch * T * 4;
  const tokensAt = Module._malloc(bytes);
  const targetsAt = Module._malloc(bytes);
  const step = ({ tokens, targets }) => {
    Module.HEAP32.set(tokens, tokensAt >> 2);
    Module.HEAP32.set(targets, targetsAt >> 2);
    const result = Module.transformerTrainStep(handle, tokensAt, targetsAt, batch, T);
    if (result.error) throw new Error(`profile: ${result.error}`);
  };
  const { rounds, steps } = PROFILE[model.name];
  const samples = {};
  try {
    for (let i = 0; i < Math.max(2, steps); i++) step(nextBatch());
    for (let round = 0; round < rounds; round++) {
      const batches = Array.from({ length: steps }, nextBatch);
      Module.transformerProfileSteps(handle, true);
      for (const b of batches) step(b);
      const profile = Module.transformerStepProfile(handle);
      Module.transformerProfileSteps(handle, false);
      for (const [piece, seconds] of Object.entries(profile.seconds)) {
        (samples[piece] ??= []).push((1000 * seconds) / profile.steps);
      }
    }
  } finally {
    Module._free(tokensAt);
    Module._free(targetsAt);
    Module.transformerFree(handle);
  }
  return Object.fromEntries(Object.entries(samples).map(([piece, ms]) => [piece, median(ms)]));
}

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(threads);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const tfjsThreads = tfWasm.getThreadsCount();
const attn = await createAttention({ relaxedSimd: false, threads });
const haveOurs = typeof attn.createTinyTransformer === 'function';
if (!haveOurs) log('this build has no createTinyTransformer: measuring tfjs alone');
// The same SIMD128 build as a raw module, for the piece timer (build/wasm/ holds its glue).
const Module =
  haveOurs && threads === 1
    ? await createAttentionModule({
        wasmBinary: await readFile(new URL('../dist/attention.wasm', import.meta.url)),
      })
    : null;
const { instance: peakInstance } = await WebAssembly.instantiate(await readFile(args.peak), {});
const probes = peakProbes(peakInstance.exports);

const results = [];
for (const model of trainModels(args)) {
  const config = trainConfig(model);
  const trainers = { tfjs: createTfjsTransformer(tf, config) };
  if (haveOurs) trainers.ours = attn.createTinyTransformer(config);
  // One generator per contender: both train on the same batches.
  const contenders = {};
  for (const [name, trainer] of Object.entries(trainers)) {
    const nextBatch = batchesFor(model);
    contenders[name] = (steps) => timeSteps(trainer, nextBatch, steps);
  }
  const row = await trainRow(model, contenders, probes);
  log(
    `${model.name}: ${Object.keys(contenders)
      .map((name) => `${name} ${row[name].ms.toFixed(2)} ms/step`)
      .join(', ')}; peak ${row.peak.toFixed(1)} GFLOP/s`,
  );
  trainers.ours?.free();
  trainers.tfjs.dispose();
  // Each against the probe times its threads (the probe runs on one core).
  if (row.ours) row.ours.share /= threads;
  row.tfjs.share /= tfjsThreads;
  if (Module) {
    row.pieces = profilePieces(Module, model);
    log(`${model.name}: the pieces of our step timed`);
  }
  results.push(row);
}

const environment = {
  kind: 'node',
  name: `Node ${process.versions.node}`,
  threads: { ours: threads, tfjs: tfjsThreads },
};
await writeFile(
  args.out,
  `${JSON.stringify({ environment, quick: args.quick, results }, null, 2)}\n`,
);
log(`written to ${args.out}`);
