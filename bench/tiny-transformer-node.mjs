// The tiny transformer's training speed in Node: milliseconds per trainStep of the chapter-3
// model (2 layers, 4 heads, dModel 32, vocabulary 16, context 25, attention-only, learned
// positions, AdamW) on batches of 32 sequences, each the induction task's shape (noise, a
// segment, the segment again, noise). Prints the median wall time per step over interleaved
// rounds, the CPU time per step (less sensitive to other work on a shared machine) and the
// load average, as one JSON line.
//   taskset -c 0 node bench/tiny-transformer-node.mjs [--rounds 7] [--steps 50] [--relaxed]
// (--relaxed loads the Relaxed SIMD build; Node 20 needs --experimental-wasm-relaxed-simd.)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import createAttention from '../dist/attention.mjs';
import { seededRandom } from '../tests/js/seeded-random.mjs';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    steps: { type: 'string', default: '50' },
    relaxed: { type: 'boolean', default: false },
  },
});
const CONFIG = {
  vocabSize: 16,
  context: 25,
  dModel: 32,
  layers: 2,
  heads: 4,
  positions: 'learned',
  mlpSize: 0,
  learningRate: 6e-3,
  seed: 1,
};
const BATCH = 32;

/** Induction-shaped batches: a repeated segment of 3 to 8 tokens at a random place. */
function makeBatch(random) {
  const T = CONFIG.context;
  const tokens = new Int32Array(BATCH * T);
  const targets = new Int32Array(BATCH * T).fill(-1);
  for (let b = 0; b < BATCH; b++) {
    const row = b * T;
    const length = 3 + Math.floor(random() * 6);
    const start = Math.floor(random() * (T - 2 * length));
    for (let t = 0; t < T; t++) tokens[row + t] = Math.floor(random() * CONFIG.vocabSize);
    for (let i = 0; i < length; i++) tokens[row + start + length + i] = tokens[row + start + i];
    for (let i = 0; i + 1 < length; i++) {
      targets[row + start + length + i] = tokens[row + start + length + i + 1];
    }
  }
  return { tokens, targets, batch: BATCH };
}

const attn = await createAttention(args.relaxed ? { relaxedSimd: true } : { relaxedSimd: false });
const model = attn.createTinyTransformer(CONFIG);
const random = seededRandom(1);
const batches = Array.from({ length: 64 }, () => makeBatch(random));
for (let i = 0; i < 20; i++) model.trainStep(batches[i % batches.length]); // warm-up

const steps = Number(args.steps);
const wall = [];
const cpu = [];
for (let round = 0; round < Number(args.rounds); round++) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < steps; i++) model.trainStep(batches[i % batches.length]);
  wall.push((performance.now() - start) / steps);
  cpu.push(process.cpuUsage(cpuStart).user / 1000 / steps);
}
model.free();
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(
  JSON.stringify({
    bench: 'tinyTransformer.trainStep',
    config: { ...CONFIG, batch: BATCH },
    relaxedSimd: attn.relaxedSimd,
    msPerStepWall: Number(median(wall).toFixed(3)),
    msPerStepCpu: Number(median(cpu).toFixed(3)),
    loadAverage: Number(load),
  }),
);
