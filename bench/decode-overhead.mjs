// The JS layer's share of one decoding step at a small cache, in Node: KvCache.attend() against
// the core's own call on the same cache, in the same interleaved rounds (the SIMD128 build):
//   attend      cache.attend(q, { qNumHeads }) of dist/attention.mjs: read, validate, copy q in,
//               the call's record written, the core, y copied out into a fresh array
//   attend, out the same with the caller's `out`: y copied into one array reused every step
//   core        the plain export kv_cache_call_attend on a record written once, q and y
//               already in wasm memory: the kernel and nothing of the JS layer
// The difference is the JS layer's µs per call. scripts/bench runs it with --json for the
// report's decode section (bench/report/decode.mjs). With --baseline DIR (another build's dist/,
// e.g. the one before a change, copied aside) its attend() is timed in the same rounds too,
// over a cache of its own module: the before and after of a change to the JS layer (the same
// .wasm, so the same core). Cases: the decode table's smallest, L = 256 (B = 1, 8 heads,
// D = 64; and GQA, 32 query heads over 8, D = 128), S = 1.
//   taskset -c 0 node bench/decode-overhead.mjs [--quick] [--baseline DIR] [--json FILE]
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import createAttentionModule from '../build/wasm/attention.mjs';
import { wrapModule } from '../src/js/module/api.mjs';
import { createWasmContext } from '../src/js/module/wasm-context.mjs';
import { checkAttentionOptions } from '../src/js/attention/attention-options.mjs';
import { decodeInputs } from './common/decode.mjs';
import { timeStages } from './common/small-calls.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    json: { type: 'string' },
  },
});
const settings = args.quick ? { rounds: 9, sampleMs: 10 } : { rounds: 31, sampleMs: 20 };

/** This process's CPU time in µs: on a shared machine it counts our work, not the waiting. */
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const CASES = [
  { batch: 1, qHeads: 8, kvHeads: 8, d: 64, L: 256 },
  { batch: 1, qHeads: 32, kvHeads: 8, d: 128, L: 256 },
];

const Module = await createAttentionModule({
  wasmBinary: await readFile(new URL('../dist/attention.wasm', import.meta.url)),
});
const attn = wrapModule(Module, { warmUp: false });
const context = createWasmContext(Module);
const baseline = args.baseline
  ? await (
      await import(path.resolve(args.baseline, 'attention.mjs'))
    ).default({ relaxedSimd: false })
  : null;

/** A cache of `attn`'s holding the case's L rows (the past and the step's own row). */
function cacheOf(api, { batch, kvHeads, d, L }, { pastKey, pastValue, k, v }) {
  const cache = api.createKvCache({
    pastKey: { type: 'float32', data: pastKey, dims: [batch, kvHeads, L - 1, d] },
    pastValue: { type: 'float32', data: pastValue, dims: [batch, kvHeads, L - 1, d] },
    capacity: L,
  });
  cache.append(k, v);
  return cache;
}

const results = [];
for (const shape of CASES) {
  const { batch, qHeads, kvHeads, d, L } = shape;
  const inputs = decodeInputs(shape);
  const cache = cacheOf(attn, shape, inputs);
  const baseCache = baseline && cacheOf(baseline, shape, inputs);
  // The same rows in a cache of the raw module, for the core's own call.
  const handle = Module.kvCacheCreate({
    batch,
    kvNumHeads: kvHeads,
    headSize: d,
    vHeadSize: d,
    capacity: L,
  });
  const rowBytes = batch * kvHeads * d * 4;
  const staging = Module._malloc(2 * rowBytes * L);
  const join = (past, last) => {
    const all = new Float32Array(batch * kvHeads * L * d);
    for (let h = 0; h < batch * kvHeads; h++) {
      all.set(past.subarray(h * (L - 1) * d, (h + 1) * (L - 1) * d), h * L * d);
      all.set(last.subarray(h * d, (h + 1) * d), (h * L + L - 1) * d);
    }
    return all;
  };
  Module.HEAPF32.set(join(inputs.pastKey, inputs.k), staging >> 2);
  Module.HEAPF32.set(join(inputs.pastValue, inputs.v), (staging + rowBytes * L) >> 2);
  const appendError = Module.kvCacheAppend(handle, staging, staging + rowBytes * L, L);
  if (appendError) throw new Error(appendError);
  const qAt = Module._malloc(inputs.q.length * 4);
  const yAt = Module._malloc(batch * qHeads * d * 4);
  Module.HEAPF32.set(inputs.q, qAt >> 2);
  const options = { qNumHeads: qHeads };
  const record = checkAttentionOptions({}, { headSize: d, isCausal: true, qNumHeads: qHeads });
  const call = { cache: handle, q: qAt, y: yAt, qNumHeads: qHeads, qSeqLen: 1, options: record };
  const stages = context.withRecord('KvAttendCall', call, (at) => {
    const out = new Float32Array(batch * qHeads * d);
    const withOut = { ...options, out };
    const run = {
      attend: () => cache.attend(inputs.q, options),
      'attend, out': () => cache.attend(inputs.q, withOut),
      core: () => {
        if (Module._kv_cache_call_attend(at) !== 0) throw new Error('the core refused the call');
      },
    };
    if (baseCache) run['attend, baseline'] = () => baseCache.attend(inputs.q, options);
    // Warm up everything first (V8 tiers wasm up between calls, in the background).
    for (let start = performance.now(); performance.now() - start < 500;) {
      for (const f of Object.values(run)) f();
    }
    return timeStages(run, settings, cpuMicros);
  });
  const same = cache.attend(inputs.q, options);
  const core = new Float32Array(Module.HEAPU8.buffer, yAt, same.length);
  if (!same.every((x, i) => x === core[i])) throw new Error('attend() and the core disagree');
  const name = `B=${batch}, ${qHeads === kvHeads ? `${qHeads} heads` : `${qHeads}q/${kvHeads}kv heads`}, D=${d}, L=${L}`;
  console.log(`\n${name}: CPU µs per call, medians of ${settings.rounds} interleaved rounds`);
  for (const [stage, us] of Object.entries(stages))
    console.log(`  ${stage.padEnd(18)} ${us.toFixed(2)} µs`);
  const jsLayer = stages.attend - stages.core;
  const jsLayerWithOut = stages['attend, out'] - stages.core;
  console.log(`  JS layer (attend − core): ${jsLayer.toFixed(2)} µs`);
  console.log(`  JS layer with out:        ${jsLayerWithOut.toFixed(2)} µs`);
  results.push({ name, stages, jsLayer, jsLayerWithOut });
  if (baseCache) {
    const before = stages['attend, baseline'] - stages.core;
    console.log(
      `  JS layer, baseline:       ${before.toFixed(2)} µs (after ÷ before ${((stages.attend - stages.core) / before).toFixed(2)})`,
    );
    baseCache.free();
  }
  cache.free();
  Module.kvCacheFree(handle);
  for (const p of [staging, qAt, yAt]) Module._free(p);
}

if (args.json) {
  const environment = { name: `Node ${process.versions.node}`, v8: process.versions.v8 };
  await writeFile(args.json, JSON.stringify({ environment, settings, cases: results }, null, 2));
}
