// Where the time of a small attention() call goes, in Node (bench/common/small-calls.mjs); the
// Chromium half runs on the bench page: node bench/run-browser-page.mjs --url URL --small-calls FILE.
//   node bench/small-calls.mjs [--quick] [--out build/bench/small-calls-node.json]
// It prints the stages, then ours with and without `out` against onnxruntime-web (1 thread).
// With --baseline DIR (another build's dist/, e.g. main's copied aside): an A/B of attention()
// from dist/ against DIR/attention.mjs, onnxruntime-web in the same interleaved rounds, timed
// by this process's CPU time as well as the clock (on a shared machine the CPU time is the
// steadier of the two): median and range per call.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttentionModule from '../build/wasm/attention.mjs';
import createAttention, { hasRelaxedSimd } from '../dist/attention.mjs';
import { wrapModule } from '../src/js/module/api.mjs';
import { onnxruntime, ours } from './common/contenders.mjs';
import { median, runSmall } from './common/harness.mjs';
import { SMALL_CASES, breakdownTable, smallCallBreakdown } from './common/small-calls.mjs';
import { makeInputs } from './common/workload.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    baseline: { type: 'string' },
  },
});
// The SIMD128 build, with the raw module kept for timing the stages under attention().
const Module = await createAttentionModule({
  wasmBinary: await readFile(new URL('../dist/attention.wasm', import.meta.url)),
});
const attn = wrapModule(Module);
const results = smallCallBreakdown({ attn, Module, quick: args.quick });
console.log(breakdownTable(results, `Node ${process.versions.node}`));
// And the small-call table alone (scripts/bench runs it with the whole suite).
const small = await runSmall({
  attn: await createAttention({ relaxedSimd: false }),
  attnRelaxed: hasRelaxedSimd() ? await createAttention() : null,
  ortContender: await onnxruntime(ort, onnxProto.onnx),
  quick: args.quick,
  log: (line) => console.log(line),
});
if (args.out) {
  await writeFile(args.out, JSON.stringify({ environment: 'node', results, small }, null, 1));
}

/**
 * The A/B of --baseline: `contenders` (contenders.mjs) in interleaved rounds, each round one
 * sample of every contender (enough calls for about 20 ms) in a rotating order. Returns
 * { [name]: { cpu: [µs per call], wall: [µs per call] } }.
 */
async function abRounds(contenders, shape, rounds) {
  const inputs = makeInputs(shape);
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const timed = [];
  for (const contender of contenders) {
    const run = contender.prepare(shape, inputs);
    let calls = 0;
    const start = performance.now();
    for (; performance.now() - start < 300; calls++) await run(); // warm up, and calibrate
    timed.push({ name: contender.name, run, inner: Math.max(1, Math.round(calls / 15)) });
  }
  const samples = Object.fromEntries(timed.map(({ name }) => [name, { cpu: [], wall: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < timed.length; i++) {
      const { name, run, inner } = timed[(i + round) % timed.length];
      const cpu = cpuNow();
      const wall = performance.now();
      for (let j = 0; j < inner; j++) await run();
      samples[name].wall.push(((performance.now() - wall) * 1000) / inner);
      samples[name].cpu.push((cpuNow() - cpu) / inner);
    }
  }
  return samples;
}

if (args.baseline) {
  const baseline = await import(path.resolve(args.baseline, 'attention.mjs'));
  const contenders = [
    ours(await createAttention({ relaxedSimd: false }), 'dist'),
    ours(await baseline.default({ relaxedSimd: false }), 'baseline'),
    await onnxruntime(ort, onnxProto.onnx),
  ];
  const describe = (values) =>
    `${median(values).toFixed(1)} µs (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
  for (const shape of SMALL_CASES) {
    const samples = await abRounds(contenders, shape, args.quick ? 7 : 21);
    const ortCpu = median(samples.ort.cpu);
    console.log(
      `\nA/B, N = ${shape.n}, ${shape.heads} head(s): CPU time per call, median (range); clock`,
    );
    for (const [name, { cpu, wall }] of Object.entries(samples)) {
      const ratio = (ortCpu / median(cpu)).toFixed(2);
      console.log(
        `  ${name.padEnd(8)} ${describe(cpu)}, onnxruntime-web ÷ this ${ratio}×; clock ${describe(wall)}`,
      );
    }
  }
}
