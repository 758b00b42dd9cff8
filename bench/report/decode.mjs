// The decode table of the report, from the JSON of bench/decode-node.mjs (one run per ORT
// thread count) and of the Chromium page's runDecode(), and the JS layer's share of a step at
// small caches from bench/decode-overhead.mjs's. bench/report.mjs appends it to the whole
// report; run alone (scripts/bench --decode-only) it prints just this section:
//   node bench/report/decode.mjs --decode node-1t.json --decode node-2t.json
//                                --decode chromium.json [--overhead overhead.json]
//                                [--load "1.2 3.4"] [--out decode.md]
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { caseName } from '../common/decode.mjs';
import { ratio, row } from './format.mjs';

const MiB = 2 ** 20;
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));

function cell(result) {
  if (!result) return '—';
  if (result.status === 'ok') return `${ms(result.ms)} ms`;
  return `fails: “${result.reason}”`;
}

const okMs = (result) => (result?.status === 'ok' ? result.ms : null);

/**
 * Markdown for every environment: runs of one environment kind are joined case by case; then
 * `overhead` (decode-overhead.mjs's JSON, or null): the JS layer's µs per step.
 */
export function decodeSection(runs, overhead = null) {
  const out = [
    '### Decoding with a KV cache (S = 1: one new token per sequence and step)',
    '',
    'Per call: one generated token attends over L cached keys (L - 1 past tokens and its own). ' +
      '“resident” is ours with `createKvCache` (append the new row, attend); “onnxAttention” is ' +
      'ours with `past_key` / `past_value`, which copies the whole cache in and `present_*` ' +
      'out every call; ORT is onnxruntime-web’s Attention (opset 23) with a past, one-node ' +
      'model. The bandwidth probe (bench/peak/bandwidth.c) streams as many bytes as the cache ' +
      'holds, in the same rounds: “% of bandwidth” = probe time ÷ resident time. ORT at 2 ' +
      'threads runs in its own process on both cores (ours stays one thread there and is timed ' +
      'again in those rounds, for its ratio, each of ORT’s samples followed by a 50 ms pause ' +
      'while its threads stop spinning); in Chromium ORT gets threads only on a ' +
      'cross-origin-isolated page, which the bench page is not, like most sites.',
    '',
  ];
  const byEnv = new Map();
  for (const run of runs) {
    const name = run.environment.name;
    if (!byEnv.has(name)) byEnv.set(name, []);
    byEnv.get(name).push(run);
  }
  for (const [name, envRuns] of byEnv) {
    const one = envRuns.find((r) => r.threads === 1);
    const two = envRuns.find((r) => r.threads === 2);
    if (!one) continue;
    out.push(`#### ${name}`, '');
    out.push(
      row([
        'workload',
        'cache',
        'ours resident',
        'ours onnxAttention',
        'ORT 1 thread',
        'ORT 2 threads',
        'bandwidth probe',
        'resident ÷ ORT 1t',
        'resident ÷ ORT 2t',
        '% of bandwidth',
      ]),
      row(['--', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:']),
    );
    for (const c of one.cases) {
      const key = caseName(c);
      const c2 = two?.cases.find((x) => caseName(x) === key);
      const resident = okMs(c.results.resident);
      const ort1 = okMs(c.results.ort1t);
      const resident2 = okMs(c2?.results.resident);
      const ort2 = okMs(c2?.results.ort2t);
      out.push(
        row([
          key,
          `${(c.bytes / MiB).toFixed(c.bytes < 10 * MiB ? 1 : 0)} MiB`,
          cell(c.results.resident),
          cell(c.results.onnx),
          cell(c.results.ort1t),
          two ? cell(c2?.results.ort2t) : 'not isolated',
          `${ms(c.probeMs)} ms`,
          resident && ort1 ? ratio(ort1 / resident) : '—',
          resident2 && ort2 ? ratio(ort2 / resident2) : '—',
          resident ? `${((100 * c.probeMs) / resident).toFixed(0)}%` : '—',
        ]),
      );
    }
    const worst = Math.max(
      ...one.cases.flatMap((c) => ['resident', 'onnx'].map((n) => c.results[n]?.maxAbsDiff ?? 0)),
    );
    out.push(
      '',
      `Largest |ours − float64 reference| over these cases: ${worst.toExponential(1)}.`,
      '',
    );
  }
  if (overhead) out.push(...overheadTable(overhead));
  return out.join('\n');
}

/** The JS layer's share of one step at a small cache (bench/decode-overhead.mjs). */
function overheadTable({ environment, settings, cases }) {
  const us = (x) => `${x.toFixed(1)} µs`;
  const share = (part, whole) => `${((100 * part) / whole).toFixed(0)}%`;
  return [
    `#### The JS layer's share of a step at a small cache, ${environment.name}`,
    '',
    `CPU time per \`cache.attend(q)\` (pinned, medians of ${settings.rounds} interleaved ` +
      'rounds): “core” is the plain wasm export on a call record written once, q and y already ' +
      'in wasm memory; the JS layer is attend − core (reading and checking the arguments, the ' +
      'record, q in, y out). “with out” passes `attend`’s `out`, one output array reused every ' +
      'step, instead of a fresh one per call.',
    '',
    row(['workload', 'attend', 'attend with out', 'core', 'JS layer', 'JS layer with out']),
    row(['--', '--:', '--:', '--:', '--:', '--:']),
    ...cases.map((c) => {
      const { attend, core } = c.stages;
      const withOut = c.stages['attend, out'];
      return row([
        c.name,
        us(attend),
        us(withOut),
        us(core),
        `${us(c.jsLayer)} (${share(c.jsLayer, attend)})`,
        `${us(c.jsLayerWithOut)} (${share(c.jsLayerWithOut, withOut)})`,
      ]);
    }),
    '',
  ];
}

// Run alone: print (and write) the decode section.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      decode: { type: 'string', multiple: true, default: [] },
      overhead: { type: 'string' },
      load: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const runs = await Promise.all(
    args.decode.map(async (f) => JSON.parse(await readFile(f, 'utf8'))),
  );
  const head = args.load
    ? `Load average (1 min) at the start and end: ${args.load}. The machine is shared: absolute ` +
      'times drift between runs; ratios from the same rounds drift much less.\n\n'
    : '';
  const overhead = args.overhead ? JSON.parse(await readFile(args.overhead, 'utf8')) : null;
  const text = head + decodeSection(runs, overhead);
  console.log(text);
  if (args.out) await writeFile(args.out, `${text}\n`);
}
