// The learning tables (attention that learns), from the JSON of the Node runs
// (bench/backward-node.mjs, bench/train-node.mjs) and of the Chromium page's backward() and
// train() (bench/browser/): attentionBackward against tfjs's tf.grads, and a training step of
// our tiny transformer against the same model in tfjs-wasm, each environment's rows one under
// the other in one table. bench/report.mjs appends both to the whole report; run alone
// (scripts/bench --backward-only / --train-only) it prints the tables it is given:
//   node bench/report/learning.mjs [--backward node.json --backward chromium.json]
//                                  [--train node.json --train chromium.json] [--out FILE.md]
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { gf, pct, ratio, row } from './format.mjs';

/** The issue's targets per step: how many times faster than tfjs-wasm ours must be. */
export const TRAIN_TARGETS = { induction: 10, larger: 5 };

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const table = (header, rows) =>
  [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
const where = (run) => run.environment?.name ?? 'Node';

/** attentionBackward vs tf.grads: a row per environment, size and mask. */
export function backwardSection(runs) {
  if (runs.length === 0) return '';
  const rows = runs.flatMap((run) =>
    run.rows.map(({ n, isCausal, flops, ours, tfjs, error }) => {
      const rate = (t) => flops / t / 1e6;
      return [
        `${where(run)} (${run.environment?.clock ?? 'wall time'})`,
        n,
        isCausal ? 'causal' : 'none',
        `${ms(ours)} ms · ${gf(rate(ours))}`,
        pct(rate(ours) / run.peak),
        `${ms(tfjs)} ms · ${gf(rate(tfjs))}`,
        ratio(tfjs / ours),
        gf(run.peak),
        error.toExponential(1),
      ];
    }),
  );
  const { heads, D, rounds } = runs[0];
  return [
    `### Gradients: attentionBackward against tfjs-backend-wasm's tf.grads (1 thread), ${heads} heads, D = ${D}`,
    '',
    `ms per call · GFLOP/s, median of ${rounds} interleaved rounds per case, with the SIMD128 ` +
      'peak probe in the same rounds (its best sample). GFLOP/s count the backward as 2.5 times ' +
      'the forward’s 4·N²·D per head, half of that when causal. Node times CPU time, Chromium ' +
      'wall time (the page has no CPU clock). “tfjs ÷ ours” is how many times faster ours is; ' +
      'the last column is the largest gradient difference between the two.',
    '',
    table(
      ['where', 'N', 'mask', 'ours', 'ours % of peak', 'tfjs-wasm', 'tfjs ÷ ours',
        'peak GFLOP/s', 'max abs diff'],
      rows,
    ), // prettier-ignore
    '',
  ].join('\n');
}

const modelLabel = ({ model, config: c }) =>
  `${model} (V ${c.vocabSize}, D ${c.dModel}, L ${c.layers}, H ${c.heads}, MLP ${c.mlpSize})`;

/**
 * Where our step goes, from the runs whose rows carry `pieces` ({ piece: ms per step }, the
 * core's piece timer; bench/train-node.mjs measures them): a column per run and model, each
 * piece's ms and its share of the pieces' sum. A piece no model ran gets no row.
 */
function piecesTable(runs) {
  const profiled = runs.flatMap((run) =>
    run.results.filter((r) => r.pieces).map((r) => ({ ...r, where: where(run) })),
  );
  if (profiled.length === 0) return [];
  const names = Object.keys(profiled[0].pieces).filter((name) =>
    profiled.some((r) => r.pieces[name] > 0),
  );
  const sums = profiled.map((r) => Object.values(r.pieces).reduce((a, b) => a + b, 0));
  const cellOf = (r, i, name) =>
    r.pieces[name] > 0
      ? `${r.pieces[name].toFixed(3)} ms (${((100 * r.pieces[name]) / sums[i]).toFixed(1)}%)`
      : '—';
  return [
    'Where our step goes, piece by piece: ms per step of each piece (the core’s piece timer, ' +
      'median over rounds of their own, so the times above never run with it; forward pieces ' +
      'first, then the backward in the order it runs). “layer norm” is every LayerNorm, “MLP” ' +
      'both its products and the GELU, “optimiser” the finite-gradient check and AdamW.',
    '',
    table(
      ['piece', ...profiled.map((r) => `${r.model}, ${r.where}`)],
      [
        ...names.map((name) => [name, ...profiled.map((r, i) => cellOf(r, i, name))]),
        ['sum of the pieces', ...sums.map((sum) => `${sum.toFixed(3)} ms`)],
      ],
    ),
    '',
  ];
}

/** The threads a run's contenders trained on, as its rows name them ('' for one each). */
function threadsLabel(run) {
  const t = run.environment?.threads;
  if (!t || (t.ours === 1 && t.tfjs === 1)) return '';
  const n = (count) => `${count} thread${count === 1 ? '' : 's'}`;
  return `, ours ${n(t.ours)}, tfjs ${n(t.tfjs)}`;
}

/**
 * One thread against N, per model, where a one-thread run and an N-thread run of the same
 * environment are both given: ours (the wasm threads build) and tfjs-wasm side by side, each
 * with how many times faster its step is on N threads.
 */
function threadsTable(runs) {
  const oursThreads = (run) => run.environment?.threads?.ours ?? 1;
  const tfjsThreads = (run) => run.environment?.threads?.tfjs ?? 1;
  const pairs = runs
    .filter((run) => oursThreads(run) > 1)
    .flatMap((team) => {
      const alone = runs.find((r) => oursThreads(r) === 1 && where(r) === where(team));
      if (!alone) return [];
      return team.results.flatMap((r) => {
        const one = alone.results.find((a) => a.model === r.model);
        if (!one?.ours || !r.ours) return [];
        const n = oursThreads(team);
        const m = tfjsThreads(team);
        const tfjs =
          one.tfjs && r.tfjs
            ? [`${ms(one.tfjs.ms)} ms`, `${m}: ${ms(r.tfjs.ms)} ms`, ratio(one.tfjs.ms / r.tfjs.ms)]
            : ['—', '—', '—'];
        return [[where(team), modelLabel(r), `${ms(one.ours.ms)} ms`, `${n}: ${ms(r.ours.ms)} ms`,
          ratio(one.ours.ms / r.ours.ms), pct(r.ours.share), ...tfjs,
          r.tfjs ? ratio(r.tfjs.ms / r.ours.ms) : '—']]; // prettier-ignore
      });
    });
  if (pairs.length === 0) return [];
  return [
    'One thread against N: ours on the wasm threads build (createAttention({ threads: N }); the ' +
      'products, attention, GELU and AdamW shared by the threads, the same bits as one thread), ' +
      'tfjs-wasm asked for N threads (it gets them only in a cross-origin isolated page: in Node ' +
      'it keeps one, as its column says). Wall time, both cores free for the run; % of peak is ' +
      'against N times the one-core probe.',
    '',
    table(
      ['where', 'model', 'ours, 1 thread', 'ours, N threads', 'ours 1 ÷ N threads',
        'ours % of N × peak', 'tfjs, 1 thread', 'tfjs, N threads', 'tfjs 1 ÷ N threads',
        'tfjs ÷ ours, N threads'],
      pairs,
    ), // prettier-ignore
    '',
  ];
}

/** A training step, ours vs tfjs-wasm: a row per environment and model, with its target. */
export function trainSection(runs) {
  if (runs.length === 0) return '';
  const cell = (r) => (r ? `${ms(r.ms)} ms · ${gf(r.gflops)}` : '—');
  const rows = runs.flatMap((run) =>
    run.results.map((r) => {
      const goal = TRAIN_TARGETS[r.model];
      const met = r.ratio === undefined ? '—' : r.ratio >= goal ? 'yes' : '**no**';
      return [
        `${where(run)}${run.environment?.ours ? `, ours ${run.environment.ours}` : ''}${threadsLabel(run)}`,
        modelLabel(r),
        `${r.batch} × ${r.T}`,
        (r.flops / 1e9).toFixed(3),
        cell(r.ours),
        r.ours ? pct(r.ours.share) : '—',
        cell(r.tfjs),
        r.tfjs ? pct(r.tfjs.share) : '—',
        r.ratio === undefined ? '—' : ratio(r.ratio),
        `≥ ${goal}×: ${met}`,
        cell(r.oursPage),
        gf(r.peak),
      ];
    }),
  );
  return [
    '### Training step: our tiny transformer against the same model in tfjs-backend-wasm, 1 and 2 threads',
    '',
    'ms per trainStep (forward + backward + AdamW) · GFLOP/s, median of interleaved rounds, ' +
      'the same batches for both; FLOPs count the matrix products only ' +
      '(bench/common/train-bench.mjs says how); % of peak uses the SIMD128 peak probe timed in ' +
      'the same rounds (last column; a run on N threads is against N times it). In Chromium ours ' +
      'trains in a Worker, as the page does, and tfjs in the page; ours is timed on the page’s ' +
      'own thread too, in the same rounds (at one thread). The rows naming threads ran on both ' +
      'cores: ours on the wasm threads build, tfjs asked for as many (its wasm backend has ' +
      'threads only in cross-origin isolated pages, as the Chromium one is: in Node it keeps ' +
      'one, as the row says).',
    '',
    table(
      ['where', 'model', 'batch × T', 'GFLOP/step', 'ours', 'ours % of peak', 'tfjs-wasm',
        'tfjs % of peak', 'tfjs ÷ ours', 'target', 'ours on the page’s thread', 'peak GFLOP/s'],
      rows,
    ), // prettier-ignore
    '',
    ...threadsTable(runs),
    ...piecesTable(runs),
  ].join('\n');
}

// Run alone: print (and write) the sections it is given.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: {
      backward: { type: 'string', multiple: true, default: [] },
      train: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
    },
  });
  const read = (files) =>
    Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
  const text = [backwardSection(await read(args.backward)), trainSection(await read(args.train))]
    .filter(Boolean)
    .join('\n');
  console.log(text);
  if (args.out) await writeFile(args.out, `${text}\n`);
}
