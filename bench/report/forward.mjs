// The forward tables: one attention() call on one thread, ours against the peers, per
// environment (Node, Chromium): the run's header, the speed table, our two builds side by
// side, the accuracy table, and the heap growth of one large call.
import { FMA, MUL_ADD, casePeak, envPeak, shareOfPeak } from './peaks.mjs';
import { cell, diff, gf, okMs, over, pct, table } from './format.mjs';

export const PEERS = [
  ['naive', 'naive JS'],
  ['ort', 'onnxruntime-web'],
  ['tfjs', 'tfjs-backend-wasm'],
];
const MiB = 2 ** 20;

/** The report's title, the machine and how every forward case is timed. */
export function runHeader(meta, settings) {
  return [
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
      `timed in ${settings.reps} interleaved rounds (rotating order, with the peak probes, ` +
      `mul + add and, where the engine has Relaxed SIMD, FMA, in the same rounds); a sample is ` +
      `≥ ${settings.sampleMs} ms of back-to-back calls; ` +
      `medians. Slow peers (naive JS, tfjs) whose call is predicted (from their smaller cases) ` +
      `to take over ${settings.capMs / 1000} s are capped, not run; a contender whose samples ` +
      `would exceed ${settings.caseBudgetMs / 1000} s gets fewer rounds (at least ` +
      `${settings.minReps}). Ratios and % of peak compare numbers from the same rounds.`,
    '',
  ];
}

// Where the environment's CPU name comes from: a page cannot see its CPU's model.
function cpuLine({ kind, cpu, cpuFlags, cpuSource, hardwareConcurrency }) {
  if (!cpu) return [];
  const source = cpuSource ?? 'os.cpus()';
  const flags = cpuFlags ? `; vector flags: ${cpuFlags.join(', ') || 'none listed'}` : '';
  const where =
    kind === 'chromium'
      ? `${source}, read by the Node process that started Chromium on this host: a page ` +
        `cannot see its CPU's model${flags}` +
        (hardwareConcurrency
          ? `; navigator.hardwareConcurrency in the page, the cores it may use: ${hardwareConcurrency}`
          : '')
      : `${source}, read by Node${flags}`;
  return [`CPU: ${cpu} (${where}).`, ''];
}

function peakSentence(peak) {
  const perChains = Object.entries(peak.medians)
    .map(([chains, g]) => `${chains}: ${gf(g)}`)
    .join(', ');
  return (
    `**${gf(peak.best)} GFLOP/s** with ${peak.bestChains} chains ` +
    `(median per chain count: ${perChains})`
  );
}

// The two rulers of this environment, as its header says them.
function peaksLines(env) {
  const mulAdd = envPeak(env, MUL_ADD);
  const fma = envPeak(env, FMA);
  const relaxed = env.cases.some((c) => c.results.oursRelaxed);
  let fmaText = '';
  if (fma) {
    fmaText =
      ' FMA peak, the ruler of the Relaxed SIMD build (the same probe built with Relaxed ' +
      `SIMD: f32x4.relaxed_madd chains, same rounds): ${peakSentence(fma)}, ` +
      `${(fma.best / mulAdd.best).toFixed(2)}× the mul + add peak.`;
  } else if (relaxed) {
    fmaText = ' No FMA peak was measured in this run: the Relaxed SIMD build has no ruler here.';
  }
  return [
    `Mul + add peak, the ruler of the SIMD128 build (bench/peak/simd_peak.c, f32x4 mul then ` +
      `add chains): ${peakSentence(mulAdd)}.${fmaText} Our module: simd ${env.environment.simd}.`,
    '',
  ];
}

// Minor page faults per call of ours, where the run counted them (Node): a result buffer that
// the allocator gives back to the system and faults in again on the next call shows here.
const faultsOf = (c) => c.results.ours?.minorFaultsPerCall;

function speedTable(env) {
  const faults = env.cases.some((c) => faultsOf(c) !== undefined);
  const rows = env.cases.map((c) => {
    const oursResult = c.results.ours;
    const ok = oursResult?.status === 'ok';
    const share = shareOfPeak(c, 'ours');
    const cells = [c.n, c.heads, cell(oursResult), share === undefined ? '—' : pct(share)];
    for (const [name] of PEERS) cells.push(cell(c.results[name]));
    for (const [name] of PEERS) {
      const peer = c.results[name];
      cells.push(ok && peer?.status === 'ok' ? over(peer.ms, oursResult.ms) : '—');
    }
    cells.push(gf(casePeak(c, MUL_ADD)));
    if (faults) cells.push(faultsOf(c) === undefined ? '—' : faultsOf(c).toFixed(1));
    return cells;
  });
  const faultsNote = faults
    ? ' “ours page faults/call”: minor page faults of the whole process per call of ours, ' +
      'process.resourceUsage() read around each sample (median over samples).'
    : '';
  return [
    'Speed: ms/call · GFLOP/s; “ours ÷ X” is how many times faster ours is; ours (the SIMD128 ' +
      'build) is measured against the mul + add peak of the same rounds (last column' +
      `${faults ? ' but one' : ''}).${faultsNote}`,
    '',
    table(
      [
        'N',
        'heads',
        'ours',
        'ours % of mul + add peak',
        ...PEERS.map(([, label]) => label),
        ...PEERS.map(([name]) => `ours ÷ ${name}`),
        'mul + add peak GFLOP/s',
        ...(faults ? ['ours page faults/call'] : []),
      ],
      [...Array(11).fill('--:'), ...(faults ? ['--:'] : [])],
      rows,
    ),
    '',
  ];
}

// Our two builds side by side (when the engine had Relaxed SIMD), from the same rounds.
function buildsTable(env) {
  if (!env.cases.some((c) => c.results.oursRelaxed)) {
    return ['(No Relaxed SIMD in this engine: only the SIMD128 build was measured.)', ''];
  }
  return [
    'Our two builds, same rounds: “relaxed ÷ X” is how many times faster the Relaxed SIMD ' +
      'build is than X; the Relaxed SIMD build is measured against the FMA peak of the same ' +
      'rounds (last column).',
    '',
    table(
      ['N', 'heads', 'ours SIMD128', 'ours Relaxed SIMD', 'relaxed % of FMA peak',
        'relaxed ÷ SIMD128', 'relaxed ÷ ort', 'SIMD128 ÷ ort', 'relaxed max abs diff',
        'FMA peak GFLOP/s'],
      ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
      env.cases.map((c) => {
        const base = okMs(c.results.ours);
        const fast = okMs(c.results.oursRelaxed);
        const ort = okMs(c.results.ort);
        const r = c.results.oursRelaxed;
        const share = shareOfPeak(c, 'oursRelaxed');
        const fmaPeak = casePeak(c, FMA);
        return [
          c.n, c.heads, cell(c.results.ours), cell(r),
          share === undefined ? '—' : pct(share),
          over(base, fast), over(ort, fast), over(ort, base),
          r?.status === 'ok' ? diff(r.maxAbsDiff) : '—',
          fmaPeak === undefined ? '—' : gf(fmaPeak),
        ];
      }),
    ), // prettier-ignore
    '',
  ];
}

function accuracyTable(env) {
  return [
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
  ];
}

/** One environment's forward section: its CPU and rulers, speed, our two builds, accuracy. */
export function forwardSection(env) {
  return [
    `### ${env.environment.name} (${env.environment.engine})`,
    '',
    ...cpuLine(env.environment),
    ...peaksLines(env),
    ...speedTable(env),
    ...buildsTable(env),
    ...accuracyTable(env),
  ];
}

/** The heap growth of one large call in a fresh instance (Node's `heap`), or nothing. */
export function memorySection(nodeEnv) {
  const heap = nodeEnv?.heap;
  if (!heap) return [];
  const growth = heap.wasmBytesAfter - heap.wasmBytesBefore;
  return [
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
  ];
}
