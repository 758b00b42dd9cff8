// The Node half of scripts/bench: loads every contender from node_modules and dist/, runs the
// suite, then one n = 32768 call of ours in a fresh instance to see how far the wasm heap
// grows. Writes JSON for bench/report.mjs.
//   node [--experimental-wasm-relaxed-simd] bench/node.mjs [--quick] --peak build/bench/simd_peak.wasm
//        [--fma-peak build/bench/fma_peak.wasm] --out build/bench/node.json
// (--fma-peak: the FMA probe, the Relaxed SIMD build's ruler, timed where Node has Relaxed SIMD.)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';
import * as tf from '@tensorflow/tfjs-core';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttention, { hasRelaxedSimd } from '../dist/attention.mjs';
import { peakProbes } from './common/contenders.mjs';
import { runBench } from './common/harness.mjs';
import { hostCpu } from './common/host-cpu.mjs';
import {
  HEAD_SIZE,
  SCALE,
  flopsOf,
  makeInputs,
  maxAbsDiff,
  reference,
} from './common/workload.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    peak: { type: 'string' },
    'fma-peak': { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.peak || !args.out)
  throw new Error('usage: node bench/node.mjs [--quick] --peak FILE [--fma-peak FILE] --out FILE');
const log = (line) => process.stderr.write(`[bench node] ${line}\n`);

// tfjs: its wasm files from its own dist/ (a file path in Node), one thread.
tfWasm.setWasmPaths(
  fileURLToPath(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)),
);
tfWasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');

// Both builds where the engine has Relaxed SIMD (Node 20: with --experimental-wasm-relaxed-simd,
// which scripts/bench passes).
const attn = await createAttention({ relaxedSimd: false });
const attnRelaxed = hasRelaxedSimd() ? await createAttention() : null;
const exportsOf = async (file) =>
  (await WebAssembly.instantiate(await readFile(file), {})).instance.exports;
// Each build's ruler: mul + add for SIMD128, FMA for Relaxed SIMD (where Node has it).
const probes = peakProbes(
  await exportsOf(args.peak),
  attnRelaxed && args['fma-peak'] ? await exportsOf(args['fma-peak']) : null,
);
// Minor page faults per call: a result buffer the allocator hands back and faults in again on
// the next call shows here.
const minorFaults = () => process.resourceUsage().minorPageFault;
const { quick } = args;
const suite = await runBench({
  attn,
  attnRelaxed,
  ort,
  onnxProto,
  tf,
  probes,
  minorFaults,
  quick,
  log,
});

// The heap check: a fresh instance, so earlier cases have not grown its memory already.
// q, k, v and y are copied into wasm memory by the API (4 x 8 MiB at this size), the rest is
// the kernel's own scratch and the allocator's slack.
async function heapGrowth(n) {
  const fresh = await createAttention({ relaxedSimd: false });
  const shape = { n, heads: 1 };
  const inputs = makeInputs(shape);
  const before = fresh.memoryStats();
  const start = performance.now();
  const y = fresh.attention(inputs.q, inputs.k, inputs.v, {
    batch: 1,
    qNumHeads: 1,
    headSize: HEAD_SIZE,
    qSeqLen: n,
    kvSeqLen: n,
    scale: SCALE,
  });
  const ms = performance.now() - start;
  const after = fresh.memoryStats();
  return {
    n,
    heads: 1,
    ms,
    gflops: flopsOf(shape) / ms / 1e6,
    wasmBytesBefore: before.wasmMemoryBytes,
    wasmBytesAfter: after.wasmMemoryBytes,
    allocatedAfter: after.allocatedBytes,
    ioBytes: 4 * n * HEAD_SIZE * 4,
    maxAbsDiff: maxAbsDiff(y, reference(inputs, shape), shape),
  };
}
log('n=32768, 1 head: one call in a fresh instance for the heap growth...');
const heap = await heapGrowth(32768);
log(
  `heap grew ${((heap.wasmBytesAfter - heap.wasmBytesBefore) / 2 ** 20).toFixed(1)} MiB in ${(heap.ms / 1000).toFixed(1)} s`,
);

const result = {
  environment: {
    kind: 'node',
    name: `Node ${process.versions.node}`,
    engine: `V8 ${process.versions.v8}`,
    ...hostCpu(),
    simd: attn.simd,
    relaxedSimd: Boolean(attnRelaxed),
    version: attn.version,
  },
  ...suite,
  heap,
};
await writeFile(args.out, JSON.stringify(result, null, 1));
