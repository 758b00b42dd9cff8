// Turns the JSON of one scripts/bench run into the markdown report: per environment a speed
// table and an accuracy table, the heap check, the native comparison and the issue's
// targets, each checked against this run's numbers. Prints it and writes it to --out.
//   node bench/report.mjs --node N.json --chromium C.json --meta M.json --out latest.md
//                         [--cores cores.json] [--decode decode-1.json --decode ...]
//                         [--native wide-1.json --native wide-2.json ...] [--native4 ...]
// (--native / --native4, repeated: the Google Benchmark JSON of every run of each native build;
// --decode, repeated: the decode runs, see bench/report-decode.mjs; --backward and --train,
// repeated: round 3's Node and Chromium runs, see bench/report-learning.mjs; --page P.md: the
// page's section (bench/page-metrics.mjs) after the report; --doc FILE also writes the whole
// as docs/benchmarks.md.)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { benchmarksDocument } from './common/benchmarks-doc.mjs';
import { median } from './common/harness.mjs';
import { decodeSection } from './report-decode.mjs';
import { backwardSection, trainSection } from './report-learning.mjs';

const { values: args } = parseArgs({
  options: {
    node: { type: 'string' },
    chromium: { type: 'string' },
    cores: { type: 'string' },
    native: { type: 'string', multiple: true, default: [] },
    native4: { type: 'string', multiple: true, default: [] },
    decode: { type: 'string', multiple: true, default: [] },
    backward: { type: 'string', multiple: true, default: [] },
    train: { type: 'string', multiple: true, default: [] },
    meta: { type: 'string' },
    out: { type: 'string' },
    // docs/benchmarks.md: this report with the page's section (bench/page-metrics.mjs output)
    doc: { type: 'string' },
    page: { type: 'string' },
  },
});

const readJson = async (file) => (file ? JSON.parse(await readFile(file, 'utf8')) : null);
const meta = await readJson(args.meta);
const envs = [await readJson(args.node), await readJson(args.chromium)].filter(Boolean);
const cores = await readJson(args.cores);
const native = await Promise.all(args.native.map(readJson));
const native4 = await Promise.all(args.native4.map(readJson));

const PEERS = [
  ['naive', 'naive JS'],
  ['ort', 'onnxruntime-web'],
  ['tfjs', 'tfjs-backend-wasm'],
];
const MiB = 2 ** 20;

// --- formatting ---------------------------------------------------------------------------
const sig = (x, digits = 3) => {
  if (!Number.isFinite(x)) return String(x);
  if (x >= 10 ** digits) return x.toFixed(0);
  return x.toPrecision(digits);
};
const ms = (x) => `${sig(x)} ms`;
const gf = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (x) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;
const pct = (x) => `${(100 * x).toFixed(0)}%`;
const diff = (x) => (Number.isNaN(x) ? 'NaN' : x === 0 ? '0' : x.toExponential(1));
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, align, rows) => [row(header), row(align), ...rows.map(row)].join('\n');

function cell(result) {
  if (!result) return '—';
  if (result.status === 'ok') return `${ms(result.ms)} · ${gf(result.gflops)}`;
  if (result.status === 'fails') return `fails: “${result.reason}”`;
  return `capped (${result.reason.replace(/, over.*/, '')})`;
}

// The peak of a case: the best chain count's median, from the rounds of that very case.
const casePeak = (c) => Math.max(...Object.values(c.peak));

// The environment's peak for the header: per chain count, the median over cases; the best.
function envPeak(env) {
  const byChains = {};
  for (const c of env.cases) {
    for (const [chains, g] of Object.entries(c.peak)) (byChains[chains] ??= []).push(g);
  }
  const medians = Object.fromEntries(
    Object.entries(byChains).map(([chains, list]) => [chains, median(list)]),
  );
  const [bestChains, best] = Object.entries(medians).sort((a, b) => b[1] - a[1])[0];
  return { best, bestChains, medians };
}

// --- the report ---------------------------------------------------------------------------
const out = [];
const settings = envs[0]?.settings;
out.push(
  `## Attention benchmark: ${meta.date}${meta.quick ? ' (--quick)' : ''}`,
  '',
  `Machine: ${meta.cpu}, ${meta.cores} vCPUs, Linux ${meta.kernel}; every run pinned to CPU 0 ` +
    `(\`taskset -c 0\`), single thread. Commit ${meta.commit}. Load average (1 min) ` +
    `${meta.load.start} at the start, ${meta.load.end} at the end (this run adds about 1): the machine is shared, ` +
    'so absolute numbers drift between runs; ratios from the same rounds drift much less.',
  `Workload: ONNX Attention, batch 1, q/kv heads = heads, qSeqLen = kvSeqLen = N, headSize 64, ` +
    `scale 1/8, no mask; every contender takes Float32Arrays and returns a Float32Array ` +
    `(its copies in and out included). GFLOP/s counts 4·N²·64·heads flops per call.`,
  `Method: per case, each contender is warmed up (≥ ${settings.warmupMs} ms, ≥ 2 calls), then ` +
    `timed in ${settings.reps} interleaved rounds (rotating order, with the SIMD128 peak probe ` +
    `in the same rounds); a sample is ≥ ${settings.sampleMs} ms of back-to-back calls; ` +
    `medians. Slow peers (naive JS, tfjs) whose call is predicted (from their smaller cases) ` +
    `to take over ${settings.capMs / 1000} s are capped, not run; a contender whose samples ` +
    `would exceed ${settings.caseBudgetMs / 1000} s gets fewer rounds (at least ` +
    `${settings.minReps}). Ratios and % of peak compare numbers from the same rounds.`,
  '',
);

for (const env of envs) {
  const peak = envPeak(env);
  const probeList = Object.entries(peak.medians)
    .map(([chains, g]) => `${chains}: ${gf(g)}`)
    .join(', ');
  out.push(
    `### ${env.environment.name} (${env.environment.engine})`,
    '',
    `SIMD128 peak (bench/peak/simd_peak.c, f32x4 mul+add chains): **${gf(peak.best)} GFLOP/s** ` +
      `with ${peak.bestChains} chains (median per chain count: ${probeList}). ` +
      `Our module: simd ${env.environment.simd}.`,
    '',
  );
  const speedRows = env.cases.map((c) => {
    const oursResult = c.results.ours;
    const cells = [c.n, c.heads, cell(oursResult)];
    const ok = oursResult?.status === 'ok';
    cells.push(ok ? pct(oursResult.gflops / casePeak(c)) : '—');
    for (const [name] of PEERS) cells.push(cell(c.results[name]));
    for (const [name] of PEERS) {
      const peer = c.results[name];
      cells.push(ok && peer?.status === 'ok' ? ratio(peer.ms / oursResult.ms) : '—');
    }
    cells.push(gf(casePeak(c)));
    return cells;
  });
  out.push(
    'Speed: ms/call · GFLOP/s; “ours ÷ X” is how many times faster ours is; % of peak uses ' +
      'the peak probe of the same rounds (last column).',
    '',
    table(
      [
        'N',
        'heads',
        'ours',
        'ours % of peak',
        ...PEERS.map(([, label]) => label),
        ...PEERS.map(([name]) => `ours ÷ ${name}`),
        'peak GFLOP/s',
      ],
      ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
      speedRows,
    ),
    '',
    ...relaxedSection(env),
    'Max abs difference to the float64 reference (every row up to N = 256, 64 rows spread ' +
      'from first to last beyond):',
    '',
    table(
      ['N', 'heads', 'ours', ...PEERS.map(([, label]) => label)],
      ['--:', '--:', '--:', '--:', '--:', '--:'],
      env.cases.map((c) => [
        c.n,
        c.heads,
        ...['ours', ...PEERS.map(([name]) => name)].map((name) => {
          const r = c.results[name];
          return r?.status === 'ok' ? diff(r.maxAbsDiff) : '—';
        }),
      ]),
    ),
    '',
  );
}

// Our two builds side by side (when the engine had Relaxed SIMD), from the same rounds.
function relaxedSection(env) {
  if (!env.cases.some((c) => c.results.oursRelaxed)) {
    return ['(No Relaxed SIMD in this engine: only the SIMD128 build was measured.)', ''];
  }
  const okMs = (r) => (r?.status === 'ok' ? r.ms : undefined);
  const over = (a, b) => (a !== undefined && b !== undefined ? ratio(a / b) : '—');
  return [
    'Our two builds, same rounds: “relaxed ÷ X” is how many times faster the Relaxed SIMD ' +
      'build is than X.',
    '',
    table(
      ['N', 'heads', 'ours SIMD128', 'ours Relaxed SIMD', 'relaxed % of peak', 'relaxed ÷ SIMD128',
        'relaxed ÷ ort', 'SIMD128 ÷ ort', 'relaxed max abs diff'],
      ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
      env.cases.map((c) => {
        const base = okMs(c.results.ours);
        const fast = okMs(c.results.oursRelaxed);
        const ort = okMs(c.results.ort);
        const r = c.results.oursRelaxed;
        return [
          c.n, c.heads, cell(c.results.ours), cell(r),
          r?.status === 'ok' ? pct(r.gflops / casePeak(c)) : '—',
          over(base, fast), over(ort, fast), over(ort, base),
          r?.status === 'ok' ? diff(r.maxAbsDiff) : '—',
        ];
      }),
    ), // prettier-ignore
    '',
  ];
}

// The cores table: per environment, the run with onnxruntime-web at 1 thread and the one at
// 2 threads; ours in both, each ratio from one run's rounds.
function coresSection() {
  if (!cores) return [];
  const lines = [
    `### Cores: our pool against onnxruntime-web's threads (${cores.cpus} vCPUs, unpinned)`,
    '',
    'Ours: the build each engine loads by default (Relaxed SIMD in Chromium and in Node with ' +
      'its flag), on the calling thread and through createAttentionPool with 1 and 2 workers. ' +
      'onnxruntime-web fixes its thread count per process or page, so each count ran in its ' +
      'own (Chromium pages cross-origin isolated for its threads); the ours columns come from ' +
      'the 1-thread run, and each ratio compares numbers of the same run. Also our module on 2 ' +
      'wasm threads, createAttention({ threads: 2 }): each call on the calling thread and one ' +
      'helper sharing its memory (Node; the cross-origin isolated page). At 2 threads ' +
      "onnxruntime-web's threads spin for about 20 ms after each run (measured), so each of its " +
      'samples is followed by a 50 ms pause before the next contender, which would otherwise ' +
      'share the cores with them. ms/call · GFLOP/s.',
    '',
  ];
  for (const kind of ['node', 'chromium']) {
    const one = cores.runs.find(
      (r) => r.environment.kind === kind && r.environment.ortThreads === 1,
    );
    const two = cores.runs.find(
      (r) => r.environment.kind === kind && r.environment.ortThreads === 2,
    );
    if (!one || !two) continue;
    const msOf = (run, c, name) => {
      const r = run.cases.find((x) => x.n === c.n && x.heads === c.heads)?.results[name];
      return r?.status === 'ok' ? r.ms : undefined;
    };
    const over = (a, b) => (a !== undefined && b !== undefined ? ratio(a / b) : '—');
    lines.push(
      `**${one.environment.name}** (relaxed SIMD: ${one.environment.relaxedSimd}` +
        (kind === 'chromium'
          ? `, cross-origin isolated: ${two.environment.crossOriginIsolated}`
          : '') +
        ')',
      '',
      table(
        ['N', 'heads', 'ours, 1 thread', 'pool, 1 worker', 'pool, 2 workers', '2 workers ÷ 1 thread',
          'ours, 2 wasm threads', 'ORT 1 thread', 'ORT 2 threads', 'pool 2 ÷ ORT 1t',
          'pool 2 ÷ ORT 2t', '2 wasm threads ÷ ORT 2t'],
        ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
        one.cases.map((c) => [
          c.n, c.heads, cell(c.results.ours), cell(c.results.pool1), cell(c.results.pool2),
          over(msOf(one, c, 'ours'), msOf(one, c, 'pool2')),
          cell(c.results.threads2),
          cell(c.results.ort),
          cell(two.cases.find((x) => x.n === c.n && x.heads === c.heads)?.results.ort),
          over(msOf(one, c, 'ort'), msOf(one, c, 'pool2')),
          over(msOf(two, c, 'ort'), msOf(two, c, 'pool2')),
          over(msOf(two, c, 'ort'), msOf(two, c, 'threads2')),
        ]),
      ), // prettier-ignore
      '',
    );
  }
  return lines;
}
out.push(...coresSection());

// The small-call table: ours with and without `out`, against onnxruntime-web at 1 thread.
function smallSection() {
  const lines = [];
  for (const env of envs) {
    if (!env.small) continue;
    const names = Object.keys(env.small.cases[0].results).filter((n) => n !== 'ort');
    const labels = {
      ours: 'ours',
      oursOut: 'ours, with out',
      oursRelaxed: 'ours, Relaxed SIMD',
      oursRelaxedOut: 'ours, Relaxed SIMD, with out',
    };
    lines.push(
      `### Small calls, ${env.environment.name}: ms per call, and onnxruntime-web's time ÷ ours`,
      '',
      table(
        ['case', 'onnxruntime-web', ...names.map((n) => labels[n] ?? n)],
        ['---', ...names.map(() => '---:'), '---:'],
        env.small.cases.map((c) => {
          const ort = c.results.ort;
          return [
            `N=${c.n}, ${c.heads} head${c.heads > 1 ? 's' : ''}`,
            ort?.status === 'ok' ? ms(ort.ms) : cell(ort),
            ...names.map((n) => {
              const r = c.results[n];
              if (r?.status !== 'ok') return cell(r);
              return ort?.status === 'ok' ? `${ms(r.ms)} (${ratio(ort.ms / r.ms)})` : ms(r.ms);
            }),
          ];
        }),
      ),
      '',
    );
  }
  return lines;
}
out.push(...smallSection());

const nodeEnv = envs.find((e) => e.environment.kind === 'node');
const heap = nodeEnv?.heap;
if (heap) {
  const growth = heap.wasmBytesAfter - heap.wasmBytesBefore;
  out.push(
    `### Memory: one N = ${heap.n}, 1 head, headSize 64 call (${nodeEnv.environment.name}, fresh instance)`,
    '',
    table(
      [
        'time',
        'GFLOP/s',
        'wasm memory before → after',
        'growth',
        'q, k, v, y copies',
        'max abs diff',
      ],
      ['--:', '--:', '--:', '--:', '--:', '--:'],
      [
        [
          `${(heap.ms / 1000).toFixed(2)} s`,
          gf(heap.gflops),
          `${(heap.wasmBytesBefore / MiB).toFixed(1)} → ${(heap.wasmBytesAfter / MiB).toFixed(1)} MiB`,
          `**${(growth / MiB).toFixed(1)} MiB**`,
          `${(heap.ioBytes / MiB).toFixed(0)} MiB`,
          diff(heap.maxAbsDiff),
        ],
      ],
    ),
    '',
    'The API copies q, k, v in and y out through wasm memory, so those copies are part of the ' +
      'growth (less of them shows when the initial memory had room); the n × n scores would ' +
      `be ${((heap.n * heap.n * 4) / MiB).toFixed(0)} MiB.`,
    '',
  );
}

// Google Benchmark JSON of several runs -> { "n heads": { flash_attention, attention_reference } }
// in GFLOP/s, the median over runs (and over repetitions, if a run had several).
function nativeTable(runs) {
  const samples = {};
  for (const json of runs) {
    for (const b of json.benchmarks) {
      if (b.run_type === 'aggregate') continue;
      const m = /^(\w+)\/n:(\d+)\/heads:(\d+)/.exec(b.name);
      if (m) ((samples[`${m[2]} ${m[3]}`] ??= {})[m[1]] ??= []).push(b['GFLOP/s']);
    }
  }
  for (const kernels of Object.values(samples)) {
    for (const [kernel, list] of Object.entries(kernels)) kernels[kernel] = median(list);
  }
  return samples;
}
if (native.length || native4.length) {
  const wide = nativeTable(native);
  const narrow = nativeTable(native4);
  const wideArch = native[0]?.context?.xsimd_arch ?? '?';
  const narrowArch = native4[0]?.context?.xsimd_arch ?? '?';
  const wasmOf = (env, n, heads) =>
    env?.cases.find((c) => c.n === n && c.heads === heads)?.results.ours;
  const chromiumEnv = envs.find((e) => e.environment.kind === 'chromium');
  const cases = nodeEnv?.cases ?? [];
  out.push(
    `### Native (Google Benchmark, bench/native/attention_bench.cpp, same kernels, GFLOP/s, median of ${native.length} alternating runs)`,
    '',
    `Built twice: \`-march=native\` (xsimd arch ${wideArch}, ${meta.compilers.wide}) and ` +
      `the 4-lane x86-64-v2 level (xsimd arch ${narrowArch}, ${meta.compilers.narrow}): the ` +
      'width of SIMD128 and the LLVM Emscripten uses, so “wasm ÷ native 4-lane” shows what ' +
      'the JS engine costs. Google Benchmark may warn that its library was built as DEBUG: ' +
      "that is Debian's build of the library, not of these kernels.",
    '',
    table(
      [
        'N',
        'heads',
        `flash_attention, native ${wideArch}`,
        `flash_attention, native ${narrowArch}`,
        'attention_reference (scalar), native',
        'ours wasm, Node',
        'ours wasm, Chromium',
        'wasm (Node) ÷ native 4-lane',
      ],
      ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
      cases.map(({ n, heads }) => {
        const key = `${n} ${heads}`;
        const nodeOurs = wasmOf(nodeEnv, n, heads);
        const chromiumOurs = wasmOf(chromiumEnv, n, heads);
        const fmt = (x) => (x === undefined ? '—' : gf(x));
        const ok = (r) => (r?.status === 'ok' ? gf(r.gflops) : '—');
        const narrowFlash = narrow[key]?.flash_attention;
        return [
          n,
          heads,
          fmt(wide[key]?.flash_attention),
          fmt(narrowFlash),
          fmt(wide[key]?.attention_reference),
          ok(nodeOurs),
          ok(chromiumOurs),
          nodeOurs?.status === 'ok' && narrowFlash ? pct(nodeOurs.gflops / narrowFlash) : '—',
        ];
      }),
    ),
    '',
  );
}

// --- the targets, against this run ----------------------------------------------
function targetRows() {
  const rows = [];
  const each = (filter, fn) => {
    const found = [];
    for (const env of envs) {
      for (const c of env.cases.filter(filter)) {
        const v = fn(c);
        if (v !== undefined) found.push({ env: env.environment.name.split(' ')[0], c, v });
      }
    }
    return found;
  };
  const where = ({ env, c }) => `${env} N=${c.n} h=${c.heads}`;
  const ratioTo = (peer) => (c) => {
    const o = c.results.ours;
    const p = c.results[peer];
    return o?.status === 'ok' && p?.status === 'ok' ? p.ms / o.ms : undefined;
  };
  const verdict = (found, goal, format) => {
    if (found.length === 0) return ['not measured', '—'];
    const worst = found.reduce((a, b) => (b.v < a.v ? b : a));
    const list = found.map((f) => `${where(f)}: ${format(f.v)}`).join('; ');
    return [
      list,
      worst.v >= goal
        ? 'yes'
        : `**no**: worst ${format(worst.v)} at ${where(worst)} (${format(goal)} needed)`,
    ];
  };
  rows.push([
    'ours ≥ 2× onnxruntime-web at N = 1024',
    ...verdict(
      each((c) => c.n === 1024, ratioTo('ort')),
      2,
      ratio,
    ),
  ]);
  rows.push([
    'ours ≥ 5× onnxruntime-web at N = 64',
    ...verdict(
      each((c) => c.n === 64, ratioTo('ort')),
      5,
      ratio,
    ),
  ]);
  rows.push([
    'ours ≥ 8× tfjs-backend-wasm everywhere (where tfjs ran)',
    ...verdict(
      each(() => true, ratioTo('tfjs')),
      8,
      ratio,
    ),
  ]);
  rows.push([
    'ours ≥ 80% of the SIMD128 peak, N = 256…4096',
    ...verdict(
      each(
        (c) => c.n >= 256 && c.n <= 4096,
        (c) => (c.results.ours?.status === 'ok' ? c.results.ours.gflops / casePeak(c) : undefined),
      ),
      0.8,
      pct,
    ),
  ]);
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
out.push(
  '### Targets of issue 5, in this run',
  '',
  table(['target', 'measured', 'met'], ['---', '---', '---'], targetRows()),
  '',
);

if (args.decode.length) {
  const runs = await Promise.all(args.decode.map(readJson));
  out.push(decodeSection(runs), '');
}

// Issue 11's pool and Relaxed SIMD targets as this run measures them (the decode table above
// gives its own ratios).
function roundTwoRows() {
  const rows = [];
  const verdict = (found, goal) => {
    if (found.length === 0) return ['not measured', '—'];
    const worst = found.reduce((a, b) => (b.v < a.v ? b : a));
    return [
      found.map((f) => `${f.where}: ${ratio(f.v)}`).join('; '),
      worst.v >= goal ? 'yes' : `**no**: worst ${ratio(worst.v)} at ${worst.where}`,
    ];
  };
  const chromium = envs.find((e) => e.environment.kind === 'chromium');
  const relaxedOverOrt = (chromium?.cases ?? [])
    .filter((c) => c.n >= 256 && c.n <= 4096)
    .map((c) => {
      const best = c.results.oursRelaxed?.status === 'ok' ? c.results.oursRelaxed : c.results.ours;
      const ort = c.results.ort;
      return best?.status === 'ok' && ort?.status === 'ok'
        ? { where: `N=${c.n} h=${c.heads}`, v: ort.ms / best.ms }
        : null;
    })
    .filter(Boolean);
  rows.push([
    'Chromium, one core: ours ≥ 1.3× onnxruntime-web, N = 256…4096',
    ...verdict(relaxedOverOrt, 1.3),
  ]);
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
    const one = cores?.runs.find(
      (r) => r.environment.kind === kind && r.environment.ortThreads === 1,
    );
    const two = cores?.runs.find(
      (r) => r.environment.kind === kind && r.environment.ortThreads === 2,
    );
    if (!one || !two) continue;
    const found = (run, filter, over, ours = 'pool2') =>
      run.cases
        .filter(filter)
        .map((c) => {
          const p = c.results[ours];
          const o = c.results[over];
          return p?.status === 'ok' && o?.status === 'ok'
            ? { where: `N=${c.n} h=${c.heads}`, v: o.ms / p.ms }
            : null;
        })
        .filter(Boolean);
    rows.push([
      `${kind}: pool of 2 ≥ 1.8× ours on one thread, N ≥ 1024, 8 heads`,
      ...verdict(
        found(one, (c) => c.n >= 1024 && c.heads === 8, 'ours'),
        1.8,
      ),
    ]);
    rows.push([
      `${kind}: pool of 2 ≥ 1.2× onnxruntime-web at 2 threads, N = 256…4096`,
      ...verdict(
        found(two, (c) => c.n >= 256, 'ort'),
        1.2,
      ),
    ]);
    rows.push([
      `${kind}: 2 wasm threads ≥ 1.8× ours on one thread, N ≥ 1024, 8 heads`,
      ...verdict(
        found(one, (c) => c.n >= 1024 && c.heads === 8, 'ours', 'threads2'),
        1.8,
      ),
    ]);
    rows.push([
      `${kind}: 2 wasm threads (issue 20) ≥ 1.2× onnxruntime-web at 2 threads, N = 256…4096`,
      ...verdict(
        found(two, (c) => c.n >= 256, 'ort', 'threads2'),
        1.2,
      ),
    ]);
  }
  return rows;
}
out.push(
  '### Targets of issue 11 measured here (pool, Relaxed SIMD), in this run',
  '',
  table(['target', 'measured', 'met'], ['---', '---', '---'], roundTwoRows()),
  '',
);

// Round 3: gradients and training, each environment's rows in one table.
for (const [files, section] of [
  [args.backward, backwardSection],
  [args.train, trainSection],
]) {
  if (files.length) out.push(section(await Promise.all(files.map(readJson))).trimEnd(), '');
}

const text = out.join('\n');
// The page's section closes the report (and docs/benchmarks.md).
const page = args.page ? (await readFile(args.page, 'utf8')).trim() : '';
const withPage = page ? `${text}\n\n${page}` : text;
process.stdout.write(`${withPage}\n`);
if (args.out) await writeFile(args.out, `${withPage}\n`);
if (args.doc) await writeFile(args.doc, benchmarksDocument({ report: text, page }));
