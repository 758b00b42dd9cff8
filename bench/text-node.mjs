// The text benchmark in Node (scripts/bench runs it pinned to one core): TEXT_MODEL trained
// from scratch on the Tang poems and on the English text for a minute of CPU time each, the
// held-out loss every 10 s (and the poems' 5/7 line share), the committed snapshots measured
// alike, and ms per step of ours against tfjs-backend-wasm (1 thread) on the same model. What
// each part measures: bench/common/text-bench.mjs. Writes JSON; bench/report/text.mjs makes
// the section.
//   node bench/text-node.mjs [--quick] --out FILE.json
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as tf from '@tensorflow/tfjs';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import * as lib from '../dist/attention.mjs';
import { trainForAMinute } from '../examples/node/text-minute.mjs';
import {
  SAMPLE_CHARACTERS,
  SAMPLE_KEPT,
  TEXT_BENCH_TEXTS,
  snapshotPoint,
  stepTimes,
  textBudget,
  textRounds,
} from './common/text-bench.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.out) throw new Error('usage: node bench/text-node.mjs [--quick] --out FILE.json');
const log = (line) => process.stderr.write(`[bench text] ${line}\n`);

const BUDGET = textBudget(args.quick);
const ROUNDS = textRounds(args.quick);

tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
const attn = await lib.default({ relaxedSimd: false });

/**
 * One text's loss against CPU time in this thread (examples/node/text-minute.mjs's
 * trainForAMinute, which scores each check with examples/node/text-scores.mjs as the browser
 * run does): { steps, msPerStep, wallMsPerStep, points: [{ seconds, step, loss, accuracy,
 * verse, sample }] }.
 */
function textCurve(text, { verse }, { seconds, checks }) {
  const run = trainForAMinute({
    attn,
    text,
    seconds,
    checks,
    clock: 'cpu',
    verse,
    sampleLength: SAMPLE_CHARACTERS,
    print: () => {},
  });
  const points = run.checks.map(({ seconds: s, step, loss, accuracy, verse: lines, sample }) => ({
    seconds: s,
    step,
    loss,
    accuracy,
    verse: lines,
    sample: sample.slice(0, SAMPLE_KEPT),
  }));
  return { steps: run.steps, msPerStep: run.msPerStep, wallMsPerStep: run.wallMsPerStep, points };
}

const results = [];
for (const entry of TEXT_BENCH_TEXTS) {
  const text = readFileSync(new URL(`../dist/texts/${entry.file}`, import.meta.url), 'utf8');
  const snapshotFile = (ext) => new URL(`../web/snapshots/${entry.name}.${ext}`, import.meta.url);
  const manifest = JSON.parse(readFileSync(snapshotFile('json'), 'utf8'));
  const bytes = readFileSync(snapshotFile('f16'));
  const curve = textCurve(text, entry, BUDGET);
  const last = curve.points.at(-1);
  log(
    `${entry.name}: ${curve.steps} steps in ${BUDGET.seconds} s of CPU, held-out ${last.loss.toFixed(3)} nats/char` +
      (last.verse ? `, 5/7 lines ${(100 * last.verse.share).toFixed(1)}%` : ''),
  );
  const snapshot = snapshotPoint(lib, attn, { text, verse: entry.verse, manifest, bytes });
  log(`${entry.name}: snapshot (${snapshot.steps} steps) held-out ${snapshot.loss.toFixed(3)}`);
  const steps = await stepTimes({ lib, attn, tf }, text, ROUNDS);
  log(
    `${entry.name}: ms/step ours ${steps.ms.ours.toFixed(1)}, tfjs ${steps.ms.tfjs.toFixed(1)}, ours with RoPE ${steps.ms.oursRope.toFixed(1)}`,
  );
  results.push({ text: entry.name, verse: entry.verse, budget: BUDGET, curve, snapshot, steps });
}

const environment = { kind: 'node', name: `Node ${process.versions.node}`, clock: 'CPU time' };
await writeFile(
  args.out,
  `${JSON.stringify({ environment, quick: args.quick, results }, null, 2)}\n`,
);
log(`written to ${args.out}`);
