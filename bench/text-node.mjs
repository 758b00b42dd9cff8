// The text benchmark in Node (scripts/bench runs it pinned to one core): TEXT_MODEL trained
// from scratch on the Tang poems and on the English text for a minute of CPU time each, the
// held-out loss every 10 s (and the poems' 5/7 line share), the committed snapshots measured
// alike, and ms per step of ours against tfjs-backend-wasm (1 thread) on the same model. What
// each part measures: bench/common/text-bench.mjs. Writes JSON; bench/report/text.mjs makes
// the section.
//   node bench/text-node.mjs [--quick] --out FILE.json
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttention from '../dist/attention.mjs';
import { createTfjsTransformer } from './common/train-tfjs.mjs';
import { TEXT_BENCH_TEXTS, snapshotPoint, stepTimes, textCurve } from './common/text-bench.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.out) throw new Error('usage: node bench/text-node.mjs [--quick] --out FILE.json');
const log = (line) => process.stderr.write(`[bench text] ${line}\n`);

/** A minute of CPU time, checked every 10 s; --quick: 20 s, checked every 5 s. */
const BUDGET = args.quick ? { seconds: 20, checks: 4 } : { seconds: 60, checks: 6 };
const ROUNDS = args.quick ? { rounds: 3, steps: 5 } : { rounds: 7, steps: 10 };

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await createAttention({ relaxedSimd: false });

const makers = {
  ours: (config) => attn.createTinyTransformer(config),
  oursRope: (config) => attn.createTinyTransformer(config),
  tfjs: (config) => {
    const model = createTfjsTransformer(tf, config);
    return { trainStep: (batch) => model.trainStep(batch), free: () => model.dispose() };
  },
};

const results = [];
for (const text of TEXT_BENCH_TEXTS) {
  const curve = textCurve(attn, text, BUDGET);
  const last = curve.points.at(-1);
  log(
    `${text.name}: ${curve.steps} steps in ${BUDGET.seconds} s of CPU, held-out ${last.loss.toFixed(3)} nats/char` +
      (last.verse ? `, 5/7 lines ${(100 * last.verse.share).toFixed(1)}%` : ''),
  );
  const snapshot = snapshotPoint(attn, text);
  log(`${text.name}: snapshot (${snapshot.steps} steps) held-out ${snapshot.loss.toFixed(3)}`);
  const steps = await stepTimes(text, makers, ROUNDS);
  log(
    `${text.name}: ms/step ours ${steps.ms.ours.toFixed(1)}, tfjs ${steps.ms.tfjs.toFixed(1)}, ours with RoPE ${steps.ms.oursRope.toFixed(1)}`,
  );
  results.push({ text: text.name, verse: text.verse, budget: BUDGET, curve, snapshot, steps });
}

const environment = { kind: 'node', name: `Node ${process.versions.node}`, clock: 'CPU time' };
await writeFile(
  args.out,
  `${JSON.stringify({ environment, quick: args.quick, results }, null, 2)}\n`,
);
log(`written to ${args.out}`);
