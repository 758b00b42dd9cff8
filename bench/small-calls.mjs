// Where the time of a small attention() call goes, in Node (bench/common/small-calls.mjs); the
// Chromium half runs on the bench page: node bench/run-browser-page.mjs --url URL --small-calls FILE.
//   node bench/small-calls.mjs [--quick] [--out build/bench/small-calls-node.json]
// It prints the stages, then ours with and without `out` against onnxruntime-web (1 thread).
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttentionModule from '../build/wasm/attention.mjs';
import createAttention, { hasRelaxedSimd } from '../dist/attention.mjs';
import { wrapModule } from '../src/js/api.mjs';
import { onnxruntime } from './common/contenders.mjs';
import { runSmall } from './common/harness.mjs';
import { breakdownTable, smallCallBreakdown } from './common/small-calls.mjs';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } },
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
