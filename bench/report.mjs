// Turns the JSON of one scripts/bench run into the markdown report, and prints it and writes
// it to --out. The sections, each in bench/report/ by what it measures:
//   forward.mjs      one attention() call on one thread, per environment (speed against the
//                    peers and against each build's peak, our two builds, accuracy), memory;
//   cores.mjs        our pool and wasm threads against onnxruntime-web's threads;
//   small-calls.mjs  N = 64 calls, with and without `out`;
//   native.mjs       the same kernels natively;
//   targets.mjs      the project's targets, checked against this run;
//   decode.mjs       decoding with a KV cache;
//   learning.mjs     attentionBackward and a training step, against tfjs;
//   text.mjs         TEXT_MODEL on real text: loss against time, verse, the snapshots.
//
//   node bench/report.mjs --node N.json --chromium C.json --meta M.json --out latest.md
//                         [--cores cores.json] [--decode decode-1.json --decode ...]
//                         [--decode-overhead overhead.json]
//                         [--native wide-1.json --native wide-2.json ...] [--native4 ...]
// (--native / --native4, repeated: the Google Benchmark JSON of every run of each native build;
// --decode, repeated: the decode runs, and --decode-overhead, the JS layer's share of a step
// (bench/decode-overhead.mjs), see bench/report/decode.mjs; --backward and --train,
// repeated: the Node and Chromium runs, see bench/report/learning.mjs; --page P.md: the
// page's section (bench/page-metrics.mjs) after the report; --text, repeated: the text
// section's Node and Chromium runs, see bench/report/text.mjs; --doc FILE also writes the whole
// as docs/benchmarks.md.)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { benchmarksDocument } from './common/benchmarks-doc.mjs';
import { coresSection } from './report/cores.mjs';
import { decodeSection } from './report/decode.mjs';
import { forwardSection, memorySection, runHeader } from './report/forward.mjs';
import { backwardSection, trainSection } from './report/learning.mjs';
import { nativeSection } from './report/native.mjs';
import { smallCallsSection } from './report/small-calls.mjs';
import { textSection } from './report/text.mjs';
import { forwardTargets, smallCallAndCoresTargets, targetsTable } from './report/targets.mjs';

const { values: args } = parseArgs({
  options: {
    node: { type: 'string' },
    chromium: { type: 'string' },
    cores: { type: 'string' },
    native: { type: 'string', multiple: true, default: [] },
    native4: { type: 'string', multiple: true, default: [] },
    decode: { type: 'string', multiple: true, default: [] },
    'decode-overhead': { type: 'string' },
    backward: { type: 'string', multiple: true, default: [] },
    train: { type: 'string', multiple: true, default: [] },
    text: { type: 'string', multiple: true, default: [] },
    meta: { type: 'string' },
    out: { type: 'string' },
    // docs/benchmarks.md: this report with the page's section (bench/page-metrics.mjs output)
    doc: { type: 'string' },
    page: { type: 'string' },
  },
});

const readJson = async (file) => (file ? JSON.parse(await readFile(file, 'utf8')) : null);
const readAll = (files) => Promise.all(files.map(readJson));
const meta = await readJson(args.meta);
const envs = [await readJson(args.node), await readJson(args.chromium)].filter(Boolean);
const cores = await readJson(args.cores);
const nodeEnv = envs.find((e) => e.environment.kind === 'node');

const out = [
  ...runHeader(meta, envs[0]?.settings),
  ...envs.flatMap(forwardSection),
  ...coresSection(cores),
  ...smallCallsSection(envs),
  ...memorySection(nodeEnv),
  ...nativeSection({
    native: await readAll(args.native),
    native4: await readAll(args.native4),
    envs,
    meta,
  }),
  ...targetsTable(
    'Targets: one-thread forward speed and memory, in this run',
    forwardTargets(envs, nodeEnv?.heap),
  ),
];
if (args.decode.length) {
  const overhead = await readJson(args['decode-overhead']);
  out.push(decodeSection(await readAll(args.decode), overhead), '');
}
out.push(
  ...targetsTable(
    'Targets: small calls and cores, in this run',
    smallCallAndCoresTargets(envs, cores),
  ),
);
// Gradients and training, each environment's rows in one table.
for (const [files, section] of [
  [args.backward, backwardSection],
  [args.train, trainSection],
]) {
  if (files.length) out.push(section(await readAll(files)).trimEnd(), '');
}
// The text section: TEXT_MODEL on the poems and the English text, Node and Chromium.
out.push(...textSection(await readAll(args.text)));

const text = out.join('\n');
// The page's section closes the report (and docs/benchmarks.md).
const page = args.page ? (await readFile(args.page, 'utf8')).trim() : '';
const withPage = page ? `${text}\n\n${page}` : text;
process.stdout.write(`${withPage}\n`);
if (args.out) await writeFile(args.out, `${withPage}\n`);
if (args.doc) await writeFile(args.doc, benchmarksDocument({ report: text, page }));
