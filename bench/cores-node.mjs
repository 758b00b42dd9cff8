// One Node process of the cores table (bench/cores.mjs starts two): ours on this thread, our
// pool with 1 and 2 workers, ours on 2 wasm threads (createAttention({ threads: 2 })), and
// onnxruntime-web with --ort-threads threads (fixed per process at its first session).
// Writes JSON for bench/report.mjs.
//   node bench/cores-node.mjs --ort-threads 2 [--quick] --out build/bench/cores-node-2.json
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import * as ours from '../dist/attention.mjs';
import { runCores } from './common/harness.mjs';

const { values: args } = parseArgs({
  options: {
    'ort-threads': { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.out)
  throw new Error('usage: node bench/cores-node.mjs --ort-threads N [--quick] --out FILE');
const ortThreads = Number(args['ort-threads']);
const log = (line) => process.stderr.write(`[bench cores node, ort ${ortThreads}t] ${line}\n`);

const { relaxedSimd, ...suite } = await runCores({
  ours,
  ort,
  onnxProto,
  ortThreads,
  quick: args.quick,
  log,
});
const environment = {
  kind: 'node',
  name: `Node ${process.versions.node}`,
  engine: `V8 ${process.versions.v8}`,
  relaxedSimd,
  ortThreads,
};
await writeFile(args.out, JSON.stringify({ environment, ...suite }, null, 1));
