// The training benchmark in Node (scripts/bench runs it pinned to one core): ms per training
// step of our tiny transformer (attn.createTinyTransformer, the SIMD128 build) against the same
// model in TensorFlow.js's wasm backend at one thread (bench/common/train-tfjs.mjs), with the
// SIMD128 peak probe timed in the same interleaved rounds. The models, their batches and how
// FLOPs are counted: bench/common/train-bench.mjs (Chromium runs the same: bench/browser/).
// Writes JSON; bench/report-learning.mjs makes the table.
//   node bench/train-node.mjs [--quick] --peak build/bench/simd_peak.wasm --out FILE.json
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

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

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    peak: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.peak || !args.out) {
  throw new Error('usage: node bench/train-node.mjs [--quick] --peak FILE --out FILE');
}
const log = (line) => process.stderr.write(`[bench train] ${line}\n`);

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await createAttention({ relaxedSimd: false });
const haveOurs = typeof attn.createTinyTransformer === 'function';
if (!haveOurs) log('this build has no createTinyTransformer: measuring tfjs alone');
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
  results.push(row);
}

const environment = { kind: 'node', name: `Node ${process.versions.node}` };
await writeFile(
  args.out,
  `${JSON.stringify({ environment, quick: args.quick, results }, null, 2)}\n`,
);
log(`written to ${args.out}`);
