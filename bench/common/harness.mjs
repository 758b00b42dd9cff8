// The measuring loop, shared by Node and Chromium.
//
// Per case: every contender is called once (its output checked against the float64
// reference), warmed up, then timed in interleaved rounds, each round timing one sample of
// every contender and of every peak probe in a rotating order. The machine is shared and
// noisy; interleaving makes a slow spell hit all contenders alike, so the ratios between them
// (and to the peak measured in the same rounds) hold even when absolute numbers drift.
// A sample is enough back-to-back calls to last about `sampleMs` (timer resolution is coarse
// in a browser); the median over samples is reported.
// runBench() is the whole suite as both run it: every contender, every case.
import { naive, onnxruntime, ours, oursOut, oursPool, tfjs } from './contenders.mjs';
import { benchCases, flopsOf, makeInputs, maxAbsDiff, reference } from './workload.mjs';

export const FULL = {
  reps: 9, // timed rounds per case
  minReps: 3, // a slow contender still gets this many
  sampleMs: 25, // one sample lasts at least this long
  warmupMs: 300, // per contender and case, and at least two calls (lets V8 tier up)
  caseBudgetMs: 8000, // timed work per contender and case; beyond it, fewer reps
  capMs: 2500, // a slow peer predicted to need longer per call is not run
  probeMs: 10, // one sample of one peak probe
};

export const QUICK = {
  reps: 3,
  minReps: 2,
  sampleMs: 10,
  warmupMs: 100,
  caseBudgetMs: 2000,
  capMs: 600,
  probeMs: 5,
};

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Lets a page's event loop run (and Node's timers) between rounds, never inside a sample.
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(run) {
  const result = run();
  return result && typeof result.then === 'function' ? await result : result;
}

async function timeSample(run, inner) {
  const start = performance.now();
  for (let i = 0; i < inner; i++) await call(run);
  return (performance.now() - start) / inner;
}

// A peer's error message, down to what a table cell can say: onnxruntime-web's carry a
// source path and a C++ signature before the words that matter ("Integer overflow").
export function shortReason(message) {
  const text = String(message).trim();
  const tail = text.match(/ERROR_MESSAGE:.*?\)\s*([^()]+)$/);
  const short = tail ? tail[1].trim() : text;
  return short.length > 80 ? `${short.slice(0, 77)}...` : short;
}

/**
 * Runs every case. `contenders` as in contenders.mjs, `probes` from peakProbes(). Resolves to
 * { settings, cases: [{ n, heads, flops, results: { [name]: Result }, peak, fmaPeak? }] }
 * with Result = { status: 'ok', ms, gflops, samples, inner, maxAbsDiff }
 *             | { status: 'fails' | 'capped', reason },
 * peak = { [chains]: GFLOP/s } the median of the mul + add probes in the case's rounds, and
 * fmaPeak the same of the FMA probes (only when there are FMA probes).
 * `minorFaults` (Node: () => process.resourceUsage().minorPageFault), when given, is read
 * before and after every sample, outside its timing: each ok Result then also has
 * minorFaultsPerCall, the median over its samples of the minor page faults per call.
 * `cpuTime` (Node: the process's CPU time in µs, from process.cpuUsage()), when given, is read
 * the same way: each ok Result then also has cpuMsPerCall, the median CPU ms per call.
 */
export async function runSuite({
  contenders,
  probes,
  cases,
  settings,
  minorFaults = null,
  cpuTime = null,
  log = () => {},
}) {
  const out = { settings, cases: [] };
  const history = []; // { name, n, heads, ms } of every case measured, to predict the next

  // Each probe's iteration count for a sample of about probeMs. First 200 ms of short calls:
  // V8 moves a wasm function to its optimising tier only between calls (a running call stays
  // in the baseline tier), and in the background, which on one pinned core takes a while.
  const probeIters = new Map();
  for (const probe of probes) {
    for (const start = performance.now(); performance.now() - start < 200;) probe.run(10_000);
    let iters = 10_000;
    for (;;) {
      const start = performance.now();
      probe.run(iters);
      const ms = performance.now() - start;
      if (ms >= settings.probeMs) break;
      iters *= Math.min(10, Math.max(2, settings.probeMs / Math.max(ms, 0.01)));
      iters = Math.round(iters);
    }
    probeIters.set(probe, iters);
  }

  for (const shape of cases) {
    const { n, heads } = shape;
    const flops = flopsOf(shape);
    const inputs = makeInputs(shape);
    const ref = reference(inputs, shape);
    const results = {};
    const timed = []; // { name, run, inner, reps, samples, maxAbsDiff }

    for (const contender of contenders) {
      const predicted = predict(history, contender.name, shape);
      if (contender.slow && predicted > settings.capMs) {
        results[contender.name] = {
          status: 'capped',
          reason: `~${(predicted / 1000).toFixed(1)} s/call predicted, over the ${settings.capMs / 1000} s cap`,
        };
        continue;
      }
      try {
        const run = contender.prepare(shape, inputs);
        let start = performance.now();
        const y = await call(run);
        let last = performance.now() - start;
        const diff = maxAbsDiff(y, ref, shape);
        // Warm-up: at least two calls in all (the first may run in V8's baseline tier).
        const warmupStart = performance.now();
        do {
          start = performance.now();
          await call(run);
          last = performance.now() - start;
        } while (performance.now() - warmupStart < settings.warmupMs);
        const inner = Math.max(1, Math.ceil(settings.sampleMs / Math.max(last, 1e-3)));
        const affordable = Math.floor(settings.caseBudgetMs / (last * inner));
        const reps = Math.min(settings.reps, Math.max(settings.minReps, affordable));
        const settleMs = contender.settleMs ?? 0; // a pause after each of its samples
        timed.push({
          name: contender.name,
          run,
          inner,
          reps,
          samples: [],
          faultsPerCall: [],
          cpuMsPerCall: [],
          maxAbsDiff: diff,
          settleMs,
        });
      } catch (error) {
        results[contender.name] = {
          status: 'fails',
          reason: shortReason(error?.message ?? error),
          message: String(error?.message ?? error),
        };
      }
    }

    const probeSamples = new Map(probes.map((p) => [p, []]));
    const rounds = Math.max(0, ...timed.map((t) => t.reps));
    for (let round = 0; round < rounds; round++) {
      const items = [...timed.filter((t) => round < t.reps), ...probes.map((probe) => ({ probe }))];
      // Rotate the order each round, so no contender always runs right after the same one.
      for (let i = 0; i < items.length; i++) {
        const item = items[(i + round) % items.length];
        if (item.probe) {
          const iters = probeIters.get(item.probe);
          const start = performance.now();
          item.probe.run(iters);
          const ms = performance.now() - start;
          probeSamples.get(item.probe).push((iters * item.probe.flopsPerIter) / ms / 1e6);
          if (ms < settings.probeMs / 2) {
            probeIters.set(item.probe, Math.ceil((iters * settings.probeMs) / Math.max(ms, 0.01)));
          }
        } else {
          const faultsBefore = minorFaults?.();
          const cpuBefore = cpuTime?.();
          const ms = await timeSample(item.run, item.inner);
          if (cpuTime) item.cpuMsPerCall.push((cpuTime() - cpuBefore) / 1000 / item.inner);
          if (minorFaults) item.faultsPerCall.push((minorFaults() - faultsBefore) / item.inner);
          item.samples.push(ms);
          if (item.settleMs > 0) await pause(item.settleMs);
          // Calibrated on a warm-up call that ran slower (not yet optimised, or a noisy
          // moment): lengthen the next samples, or the browser's coarse timer shows.
          if (ms * item.inner < settings.sampleMs / 2) {
            item.inner = Math.ceil(settings.sampleMs / Math.max(ms, 1e-3));
          }
        }
      }
      await breathe();
    }

    for (const { name, samples, inner, maxAbsDiff, faultsPerCall, cpuMsPerCall } of timed) {
      const ms = median(samples);
      history.push({ name, n, heads, ms });
      results[name] = { status: 'ok', ms, gflops: flops / ms / 1e6, samples, inner, maxAbsDiff };
      if (minorFaults) results[name].minorFaultsPerCall = median(faultsPerCall);
      if (cpuTime) results[name].cpuMsPerCall = median(cpuMsPerCall);
    }
    const peaks = { peak: {} };
    for (const [probe, samples] of probeSamples) {
      const key = probe.ruler === 'fma' ? 'fmaPeak' : 'peak';
      (peaks[key] ??= {})[probe.chains] = median(samples);
    }
    const ordered = Object.fromEntries(contenders.map(({ name }) => [name, results[name]]));
    out.cases.push({ n, heads, flops, results: ordered, ...peaks });
    log(progressLine(shape, ordered, peaks));
  }
  return out;
}

/**
 * The whole suite as bench/node.mjs and bench/browser/main.mjs run it: ours (the SIMD128 build
 * `attn`, and the Relaxed SIMD build `attnRelaxed` where the engine has it), naive JS,
 * onnxruntime-web and tfjs (the libraries as the caller loaded them; `onnxProto` is
 * onnx-proto's default export), `probes` (peakProbes() of simd_peak.wasm and, where the engine
 * has Relaxed SIMD, of fma_peak.wasm), every case of benchCases(), QUICK or FULL settings;
 * `minorFaults` as runSuite's (Node only).
 */
export async function runBench(options) {
  const { attn, attnRelaxed, ort, onnxProto, tf, probes, minorFaults = null, quick, log } = options;
  const relaxed = attnRelaxed ? [ours(attnRelaxed, 'oursRelaxed', 'ours, Relaxed SIMD')] : [];
  const ortContender = await onnxruntime(ort, onnxProto.onnx);
  const suite = await runSuite({
    contenders: [ours(attn), ...relaxed, naive(), ortContender, tfjs(tf)],
    probes,
    cases: benchCases(),
    settings: quick ? QUICK : FULL,
    minorFaults,
    log,
  });
  const small = await runSmall({ attn, attnRelaxed, ortContender, quick, log });
  return { ...suite, small };
}

/**
 * The small-call table: ours with and without `out` (each build) against onnxruntime-web
 * (`ortContender`, from onnxruntime()) at N = 64, no peak probe.
 */
export async function runSmall({ attn, attnRelaxed, ortContender, quick, log }) {
  const relaxed = attnRelaxed
    ? [
        ours(attnRelaxed, 'oursRelaxed', 'ours, Relaxed SIMD'),
        oursOut(attnRelaxed, 'oursRelaxedOut', 'ours, Relaxed SIMD, with out'),
      ]
    : [];
  return runSuite({
    contenders: [ours(attn), oursOut(attn), ...relaxed, ortContender],
    probes: [],
    cases: smallCases(),
    settings: quick ? QUICK : FULL,
    log,
  });
}

/** The cases of the small-call table: where a call's fixed costs show most. */
export function smallCases() {
  return [
    { n: 64, heads: 1 },
    { n: 64, heads: 8 },
  ];
}

// A slow peer's time for a case, from its measured times at smaller cases: time grows as n²
// (same heads) and at least linearly in heads (same n). The larger guess wins.
function predict(history, name, { n, heads }) {
  let guess = 0;
  for (const past of history) {
    if (past.name !== name) continue;
    if (past.heads === heads && past.n < n) guess = Math.max(guess, past.ms * (n / past.n) ** 2);
    if (past.n === n && past.heads < heads) guess = Math.max(guess, (past.ms * heads) / past.heads);
  }
  return guess;
}

function progressLine({ n, heads }, results, { peak, fmaPeak = {} }) {
  const parts = Object.entries(results).map(([name, r]) =>
    r.status === 'ok' ? `${name} ${r.gflops.toFixed(1)}` : `${name} ${r.status}`,
  );
  const best = (label, byChains) => {
    const values = Object.values(byChains);
    return values.length ? `; ${label} ${Math.max(...values).toFixed(1)}` : '';
  };
  return `n=${n} heads=${heads}: ${parts.join(', ')} GFLOP/s${best('peak', peak)}${best('FMA peak', fmaPeak)}`;
}

/** The cases of the cores table: where more cores have enough work to pay for messages. */
export function coresCases() {
  return [
    { n: 256, heads: 8 },
    { n: 1024, heads: 8 },
    { n: 4096, heads: 8 },
    { n: 1024, heads: 1 },
  ];
}

/**
 * The cores table as bench/cores.mjs runs it, in Node and in Chromium (a cross-origin isolated
 * page): from `ours`, the package's exports, our module on the calling thread and on 2 wasm
 * threads (createAttention({ threads: 2 })) and our pool with 1 and 2 workers, closed after;
 * onnxruntime-web with `ortThreads` threads (one value per process or page: onnxruntime-web
 * fixes it at its first session). No peak probe: it would measure one core of several busy
 * ones. Returns the suite and whether our module is the Relaxed SIMD build.
 */
export async function runCores({ ours: pkg, ort, onnxProto, ortThreads, quick, log }) {
  const attn = await pkg.default();
  const attnThreads = await pkg.default({ threads: 2 });
  const pool1 = await pkg.createAttentionPool({ workers: 1 });
  const pool2 = await pkg.createAttentionPool({ workers: 2 });
  try {
    const suite = await runSuite({
      contenders: [
        ours(attn),
        oursPool(pool1, 'pool1', 'ours, pool of 1 worker'),
        oursPool(pool2, 'pool2', 'ours, pool of 2 workers'),
        ours(attnThreads, 'threads2', 'ours, 2 wasm threads'),
        await onnxruntime(ort, onnxProto.onnx, ortThreads),
      ],
      probes: [],
      cases: coresCases(),
      settings: quick ? QUICK : FULL,
      log,
    });
    return { relaxedSimd: attn.relaxedSimd, ...suite };
  } finally {
    pool1.close();
    pool2.close();
  }
}
