// attn.attentionBackward against TensorFlow.js's gradient in Node (bench/common/backward.mjs
// says what is measured and how), pinned to one core by scripts/bench. Times are this
// process's CPU time (user + system). Writes JSON; bench/report/learning.mjs makes the table.
//   node bench/backward-node.mjs --peak build/bench/simd_peak.wasm [--quick] --out FILE.json
// @tensorflow/tfjs, not tfjs-core alone: only the former registers the gradients.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttention from '../dist/attention.mjs';
import { runBackwardBench } from './common/backward.mjs';
import { peakProbes } from './common/contenders.mjs';

const { values: args } = parseArgs({
  options: {
    peak: { type: 'string' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.peak || !args.out) {
  throw new Error('usage: node bench/backward-node.mjs --peak FILE [--quick] --out FILE');
}

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await createAttention({ relaxedSimd: false });
const { instance: peak } = await WebAssembly.instantiate(await readFile(args.peak), {});

const cpuMs = (work) => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const result = await runBackwardBench({
  attn,
  tf,
  probes: peakProbes(peak.exports),
  clock: cpuMs,
  quick: args.quick,
  log: (line) => process.stderr.write(`[bench backward] ${line}\n`),
});
const environment = { kind: 'node', name: `Node ${process.versions.node}`, clock: 'CPU time' };
await writeFile(args.out, `${JSON.stringify({ environment, ...result }, null, 2)}\n`);
