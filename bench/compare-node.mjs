// Before and after in one run (scripts/bench --compare REV): two builds' dist/ loaded side by
// side in one Node process (the SIMD128 build of each), their attention() and a training step
// timed in the same interleaved rounds, pinned to one core by the caller. Each figure is a
// median over rounds of the clock and of this process's CPU time (the steadier of the two on
// a shared machine); "after ÷ before" is the ratio of times per call (below 1: after is
// faster), and the mul + add peak probe of the same rounds puts the forward cases in context.
//   taskset -c 0 node bench/compare-node.mjs --before DIR --after dist [--quick]
//     --peak build/bench/simd_peak.wasm [--out FILE.json]
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ours, peakProbes } from './common/contenders.mjs';
import { FULL, QUICK, median, runSuite } from './common/harness.mjs';
import { batchesFor, trainConfig, trainModels } from './common/train-bench.mjs';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: 'dist' },
    quick: { type: 'boolean', default: false },
    peak: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.before || !args.peak) {
  throw new Error(
    'usage: node bench/compare-node.mjs --before DIR [--after DIR] --peak simd_peak.wasm [--quick] [--out FILE]',
  );
}
const log = (line) => process.stderr.write(`[bench compare] ${line}\n`);
const load = async (dir) =>
  (await import(path.resolve(dir, 'attention.mjs'))).default({ relaxedSimd: false });
const builds = { before: await load(args.before), after: await load(args.after) };
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

// --- attention(): the forward suite's harness, the two builds as two contenders ------------
const { instance } = await WebAssembly.instantiate(await readFile(args.peak), {});
const forward = await runSuite({
  contenders: Object.entries(builds).map(([name, attn]) => ours(attn, name, name)),
  probes: peakProbes(instance.exports),
  cases: [
    { n: 64, heads: 1 },
    { n: 256, heads: 8 },
    { n: 1024, heads: 8 },
  ],
  settings: args.quick ? QUICK : FULL,
  cpuTime: cpuMicros,
  minorFaults: () => process.resourceUsage().minorPageFault,
  log,
});

// --- a training step: each build's createTinyTransformer on the same batches ---------------
/** ms per step, by the clock and in CPU time, of `steps` steps of `trainer`. */
function timeSteps(trainer, nextBatch, steps) {
  const batches = Array.from({ length: steps }, nextBatch);
  const cpu = cpuMicros();
  const start = performance.now();
  for (const b of batches) trainer.trainStep(b);
  return { ms: (performance.now() - start) / steps, cpuMs: (cpuMicros() - cpu) / 1000 / steps };
}

const training = [];
for (const model of trainModels({ quick: args.quick })) {
  const timed = Object.entries(builds)
    .filter(([, attn]) => typeof attn.createTinyTransformer === 'function')
    .map(([name, attn]) => ({
      name,
      trainer: attn.createTinyTransformer(trainConfig(model)),
      nextBatch: batchesFor(model),
      samples: [],
    }));
  if (timed.length < 2) {
    log(`${model.name}: a build has no createTinyTransformer; training not compared`);
    for (const t of timed) t.trainer.free();
    continue;
  }
  const steps = model.steps.ours;
  for (const t of timed) timeSteps(t.trainer, t.nextBatch, Math.max(2, steps)); // warm up
  for (let round = 0; round < model.rounds * 2; round++) {
    const order = round % 2 ? [...timed].reverse() : timed;
    for (const t of order) t.samples.push(timeSteps(t.trainer, t.nextBatch, steps));
  }
  const row = { model: model.name };
  for (const t of timed) {
    row[t.name] = {
      ms: median(t.samples.map((s) => s.ms)),
      cpuMs: median(t.samples.map((s) => s.cpuMs)),
    };
    t.trainer.free();
  }
  training.push(row);
  log(
    `${model.name}: before ${row.before.ms.toFixed(2)}, after ${row.after.ms.toFixed(2)} ms/step`,
  );
}

// --- the report ------------------------------------------------------------------------------
const ratio = (after, before) => `${(after / before).toFixed(3)}`;
const lines = [
  `Before: ${args.before}; after: ${args.after}. Times per call (clock · CPU), medians of interleaved rounds; “after ÷ before” below 1 means after is faster.`,
  '',
  '| case | before | after | after ÷ before (clock) | after ÷ before (CPU) | before % of peak | after % of peak | page faults/call before · after |',
  '| --- | --: | --: | --: | --: | --: | --: | --: |',
];
const cell = (ms, cpuMs) => `${ms.toFixed(3)} · ${cpuMs.toFixed(3)} ms`;
for (const c of forward.cases) {
  const { before, after } = c.results;
  const name = `attention(), N = ${c.n}, ${c.heads} head${c.heads > 1 ? 's' : ''}`;
  if (before.status !== 'ok' || after.status !== 'ok') {
    lines.push(`| ${name} | ${before.status} | ${after.status} | — | — | — | — | — |`);
    continue;
  }
  const peak = Math.max(...Object.values(c.peak));
  const pct = (r) => `${((100 * r.gflops) / peak).toFixed(0)}%`;
  lines.push(
    `| ${name} | ${cell(before.ms, before.cpuMsPerCall)} | ${cell(after.ms, after.cpuMsPerCall)} | ${ratio(after.ms, before.ms)} | ${ratio(after.cpuMsPerCall, before.cpuMsPerCall)} | ${pct(before)} | ${pct(after)} | ${before.minorFaultsPerCall.toFixed(1)} · ${after.minorFaultsPerCall.toFixed(1)} |`,
  );
}
for (const { model, before, after } of training) {
  lines.push(
    `| training step, ${model} model | ${cell(before.ms, before.cpuMs)} | ${cell(after.ms, after.cpuMs)} | ${ratio(after.ms, before.ms)} | ${ratio(after.cpuMs, before.cpuMs)} | | | |`,
  );
}
console.log(lines.join('\n'));
if (args.out) await writeFile(args.out, JSON.stringify({ forward, training }, null, 1));
