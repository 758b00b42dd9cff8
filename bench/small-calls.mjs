// Where the time of a small attention() call goes, in Node (bench/common/small-calls.mjs); the
// Chromium half runs on the bench page: node bench/chromium.mjs --url URL --small-calls FILE.
//   node bench/small-calls.mjs [--quick] [--out build/bench/small-calls-node.json]
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import createAttentionModule from '../build/wasm/attention.mjs';
import { wrapModule } from '../src/js/api.mjs';
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
if (args.out) await writeFile(args.out, JSON.stringify({ environment: 'node', results }, null, 1));
