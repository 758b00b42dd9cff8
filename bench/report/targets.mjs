// The targets the project set itself, each checked against this run's numbers: a row says
// what was measured where, and whether the worst of it meets the goal.
//   forwardTargets: one attention() call on one thread (against the peers and against the
//     peak of each build's own instructions) and the heap growth of one large call;
//   smallCallAndCoresTargets: small calls with `out`, and our pool and wasm threads on 2 cores.
import { coresRun } from './cores.mjs';
import { pct, ratio, table } from './format.mjs';
import { shareOfPeak } from './peaks.mjs';

const MiB = 2 ** 20;

// found: [{ where, v }], the measured values; the worst (lowest) is checked against goal.
function verdict(found, goal, format = ratio) {
  if (found.length === 0) return ['not measured', '—'];
  const worst = found.reduce((a, b) => (b.v < a.v ? b : a));
  const list = found.map((f) => `${f.where}: ${format(f.v)}`).join('; ');
  return [
    list,
    worst.v >= goal
      ? 'yes'
      : `**no**: worst ${format(worst.v)} at ${worst.where} (${format(goal)} needed)`,
  ];
}

// Every case of `envs` that passes `filter`, with fn's value where it has one.
function each(envs, filter, fn) {
  const found = [];
  for (const env of envs) {
    for (const c of env.cases.filter(filter)) {
      const v = fn(c);
      if (v !== undefined) {
        found.push({ where: `${env.environment.name.split(' ')[0]} N=${c.n} h=${c.heads}`, v });
      }
    }
  }
  return found;
}

// How many times faster ours is than `peer` in case c.
const timesFaster =
  (peer, ours = 'ours') =>
  (c) => {
    const o = c.results[ours];
    const p = c.results[peer];
    return o?.status === 'ok' && p?.status === 'ok' ? p.ms / o.ms : undefined;
  };

/** The rows of one attention() call on one thread, and of the heap growth of a large call. */
export function forwardTargets(envs, heap) {
  const node = envs.filter((e) => e.environment.kind === 'node');
  const chromium = envs.filter((e) => e.environment.kind === 'chromium');
  // Where both builds ran, the faster: what a page that loads the default build gets.
  const bestOverOrt = (c) => {
    const relaxed = c.results.oursRelaxed?.status === 'ok';
    return timesFaster('ort', relaxed ? 'oursRelaxed' : 'ours')(c);
  };
  const rows = [
    [
      'ours ≥ 2× onnxruntime-web at N = 1024',
      ...verdict(
        each(envs, (c) => c.n === 1024, timesFaster('ort')),
        2,
      ),
    ],
    [
      'ours ≥ 5× onnxruntime-web at N = 64',
      ...verdict(
        each(envs, (c) => c.n === 64, timesFaster('ort')),
        5,
      ),
    ],
    [
      'ours ≥ 8× tfjs-backend-wasm everywhere (where tfjs ran)',
      ...verdict(
        each(envs, () => true, timesFaster('tfjs')),
        8,
      ),
    ],
    [
      'ours ≥ 80% of the SIMD128 peak, N = 256…4096',
      ...verdict(
        each(
          envs,
          (c) => c.n >= 256 && c.n <= 4096,
          (c) => shareOfPeak(c, 'ours'),
        ),
        0.8,
        pct,
      ),
    ],
    [
      "Node's default build (SIMD128) ≥ 85% of the mul + add peak, N ≥ 256, without out",
      ...verdict(
        each(
          node,
          (c) => c.n >= 256,
          (c) => shareOfPeak(c, 'ours'),
        ),
        0.85,
        pct,
      ),
    ],
    [
      'Relaxed SIMD build ≥ 75% of the FMA peak, N ≥ 1024, Chromium and Node with its flag',
      ...verdict(
        each(
          envs,
          (c) => c.n >= 1024,
          (c) => shareOfPeak(c, 'oursRelaxed'),
        ),
        0.75,
        pct,
      ),
    ],
    [
      'Chromium, one core: ours ≥ 1.3× onnxruntime-web, N = 256…4096',
      ...verdict(
        each(chromium, (c) => c.n >= 256 && c.n <= 4096, bestOverOrt),
        1.3,
      ),
    ],
  ];
  if (heap) {
    const growth = (heap.wasmBytesAfter - heap.wasmBytesBefore) / MiB;
    rows.push([
      `N = ${heap.n} heap growth < 64 MiB`,
      `${growth.toFixed(1)} MiB`,
      growth < 64 ? 'yes' : `**no**: ${growth.toFixed(1)} MiB`,
    ]);
  }
  return rows;
}

/** The rows of small calls (Chromium, with out) and of 2 cores (pool, wasm threads). */
export function smallCallAndCoresTargets(envs, cores) {
  const rows = [];
  const chromium = envs.find((e) => e.environment.kind === 'chromium');
  // Small calls: the best of ours (either build, with out) against onnxruntime-web.
  const smallOverOrt = (chromium?.small?.cases ?? [])
    .map((c) => {
      const ort = c.results.ort;
      const best = Math.min(
        ...['oursOut', 'oursRelaxedOut']
          .map((n) => c.results[n])
          .filter((r) => r?.status === 'ok')
          .map((r) => r.ms),
      );
      return ort?.status === 'ok' && Number.isFinite(best)
        ? { where: `N=${c.n} h=${c.heads}`, v: ort.ms / best }
        : null;
    })
    .filter(Boolean);
  rows.push([
    'Chromium, small calls: ours with out ≥ 1.5× onnxruntime-web, N = 64, 1 and 8 heads',
    ...verdict(smallOverOrt, 1.5),
  ]);
  for (const kind of ['node', 'chromium']) {
    const one = coresRun(cores, kind, 1);
    const two = coresRun(cores, kind, 2);
    if (!one || !two) continue;
    const found = (run, filter, peer, ours) =>
      run.cases
        .filter(filter)
        .map((c) => ({ where: `N=${c.n} h=${c.heads}`, v: timesFaster(peer, ours)(c) }))
        .filter((f) => f.v !== undefined);
    const large8 = (c) => c.n >= 1024 && c.heads === 8;
    const from256 = (c) => c.n >= 256;
    rows.push(
      [
        `${kind}: pool of 2 ≥ 1.8× ours on one thread, N ≥ 1024, 8 heads`,
        ...verdict(found(one, large8, 'ours', 'pool2'), 1.8),
      ],
      [
        `${kind}: pool of 2 ≥ 1.2× onnxruntime-web at 2 threads, N = 256…4096`,
        ...verdict(found(two, from256, 'ort', 'pool2'), 1.2),
      ],
      [
        `${kind}: 2 wasm threads ≥ 1.8× ours on one thread, N ≥ 1024, 8 heads`,
        ...verdict(found(one, large8, 'ours', 'threads2'), 1.8),
      ],
      [
        `${kind}: 2 wasm threads ≥ 1.2× onnxruntime-web at 2 threads, N = 256…4096`,
        ...verdict(found(two, from256, 'ort', 'threads2'), 1.2),
      ],
    );
  }
  return rows;
}

/** A targets table under its heading. */
export function targetsTable(heading, rows) {
  return [
    `### ${heading}`,
    '',
    table(['target', 'measured', 'met'], ['---', '---', '---'], rows),
    '',
  ];
}
