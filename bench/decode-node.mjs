// The Node half of scripts/bench's decode table: ours resident, ours through onnxAttention,
// onnxruntime-web at --threads threads (1 or 2; one setting per process, as ort.env.wasm
// fixes it before the first session) and the bandwidth probe, in interleaved rounds.
//   node bench/decode-node.mjs [--quick] --threads 1 --probe build/bench/bandwidth.wasm --out F
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttention from '../dist/attention.mjs';
import { runDecodeBench } from './common/decode.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    threads: { type: 'string', default: '1' },
    probe: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.probe || !args.out) {
  throw new Error(
    'usage: node bench/decode-node.mjs [--quick] --threads N --probe FILE --out FILE',
  );
}
const threads = Number(args.threads);
const log = (line) => process.stderr.write(`[bench node ${threads}t] ${line}\n`);

ort.env.wasm.numThreads = threads;
const attn = await createAttention();
const { instance: bandwidth } = await WebAssembly.instantiate(await readFile(args.probe), {});
const suite = await runDecodeBench({
  attn,
  ort,
  onnxProto,
  bandwidth,
  ortThreads: threads,
  quick: args.quick,
  log,
});
await writeFile(
  args.out,
  JSON.stringify(
    { environment: { kind: 'node', name: `Node ${process.versions.node}` }, threads, ...suite },
    null,
    1,
  ),
);
process.exit(0); // onnxruntime-web's worker threads would otherwise keep Node alive
