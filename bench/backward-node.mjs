// scripts/bench --backward-only: attn.attentionBackward against TensorFlow.js's gradient
// (tf.grads of softmax(q k^T / sqrt(D) + causal bias) v on tfjs-backend-wasm, one thread), at
// N = 256 and 1024, 8 heads, D = 64, full and causal, with the SIMD128 peak probe in the same
// interleaved rounds. Times are this process's CPU time (user + system), which another
// process taking the core does not inflate. GFLOP/s count the backward as 2.5 times the
// forward's 4 N^2 D per head (half of it when causal). Prints a markdown table.
//   node bench/backward-node.mjs --peak build/bench/simd_peak.wasm [--quick] [--out FILE]
// @tensorflow/tfjs, not tfjs-core alone: only the former registers the gradients.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttention from '../dist/attention.mjs';
import { peakProbes } from './common/contenders.mjs';
import { seededRandom } from '../tests/js/seeded-random.mjs';

const { values: args } = parseArgs({
  options: {
    peak: { type: 'string' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.peak) {
  throw new Error('usage: node bench/backward-node.mjs --peak FILE [--quick] [--out FILE]');
}
const log = (line) => process.stderr.write(`[bench backward] ${line}\n`);

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await createAttention({ relaxedSimd: false });
const { instance: peak } = await WebAssembly.instantiate(await readFile(args.peak), {});
const probes = peakProbes(peak.exports);

const HEADS = 8;
const D = 64;
const rounds = args.quick ? 3 : 7;
const cpuMs = (work) => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function randomArray(random, length) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = random() - 0.5;
  return out;
}

/** tfjs's backward of the same attention, run once: [dq, dk, dv] as Float32Arrays. */
function tfjsBackward(q, k, v, gradY, n, isCausal) {
  const shape = [HEADS, n, D];
  const biasData = new Float32Array(n * n);
  if (isCausal) for (let i = 0; i < n; i++) biasData.fill(-1e9, i * n + i + 1, (i + 1) * n);
  const [bias, tq, tk, tv, tg] = [
    tf.tensor2d(biasData, [n, n]),
    ...[q, k, v, gradY].map((x) => tf.tensor3d(x, shape)),
  ];
  const scale = tf.scalar(1 / Math.sqrt(D));
  const forward = (a, b, c) =>
    tf.matMul(tf.softmax(tf.add(tf.mul(tf.matMul(a, b, false, true), scale), bias)), c);
  const grads = tf.grads(forward);
  const run = () => {
    const result = grads([tq, tk, tv], tg);
    const data = result.map((t) => t.dataSync());
    tf.dispose(result);
    return data;
  };
  const free = () => tf.dispose([bias, tq, tk, tv, tg, scale]);
  return { run, free };
}

const rows = [];
let peakBest = 0;
for (const n of [256, 1024]) {
  for (const isCausal of [false, true]) {
    const random = seededRandom(n + (isCausal ? 1 : 0));
    const [q, k, v, gradY] = [0, 1, 2, 3].map(() => randomArray(random, HEADS * n * D));
    const options = { qNumHeads: HEADS, headSize: D, isCausal };
    const theirs = tfjsBackward(q, k, v, gradY, n, isCausal);
    // The two must agree before either is timed.
    const ours = attn.attentionBackward(q, k, v, gradY, options);
    const [dq, dk, dv] = theirs.run();
    let error = 0;
    for (const [a, b] of [
      [ours.gradQ, dq],
      [ours.gradK, dk],
      [ours.gradV, dv],
    ]) {
      for (let i = 0; i < a.length; i++) error = Math.max(error, Math.abs(a[i] - b[i]));
    }
    const times = { ours: [], tfjs: [] };
    for (let r = 0; r < rounds; r++) {
      times.ours.push(cpuMs(() => attn.attentionBackward(q, k, v, gradY, options)));
      times.tfjs.push(cpuMs(theirs.run));
      for (const probe of probes) {
        const iters = 2e6;
        peakBest = Math.max(
          peakBest,
          (probe.flopsPerIter * iters) / cpuMs(() => probe.run(iters)) / 1e6,
        );
      }
    }
    theirs.free();
    const flops = (2.5 * 4 * n * n * D * HEADS) / (isCausal ? 2 : 1);
    const rate = (ms) => flops / ms / 1e6;
    const row = { n, isCausal, ours: median(times.ours), tfjs: median(times.tfjs), error };
    rows.push(row);
    log(
      `N = ${n} ${isCausal ? 'causal' : 'full'}: ours ${rate(row.ours).toFixed(1)}, tfjs ${rate(row.tfjs).toFixed(1)} GFLOP/s`,
    );
  }
}

const lines = [
  `attentionBackward vs tfjs-backend-wasm's tf.grads (1 thread), ${HEADS} heads, D = ${D}; CPU time, median of ${rounds} interleaved rounds; SIMD128 peak ${peakBest.toFixed(1)} GFLOP/s measured in the same rounds.`,
  '',
  '| N | mask | ours | share of peak | tfjs wasm | ours / tfjs | max abs diff |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];
for (const { n, isCausal, ours, tfjs, error } of rows) {
  const flops = (2.5 * 4 * n * n * D * HEADS) / (isCausal ? 2 : 1);
  const rate = (ms) => flops / ms / 1e6;
  lines.push(
    `| ${n} | ${isCausal ? 'causal' : 'none'} | ${ours.toFixed(1)} ms, ${rate(ours).toFixed(1)} GFLOP/s | ${((100 * rate(ours)) / peakBest).toFixed(0)}% | ${tfjs.toFixed(1)} ms, ${rate(tfjs).toFixed(1)} GFLOP/s | ${(tfjs / ours).toFixed(1)}x | ${error.toExponential(1)} |`,
  );
}
const report = `${lines.join('\n')}\n`;
process.stdout.write(report);
if (args.out) await writeFile(args.out, report);
