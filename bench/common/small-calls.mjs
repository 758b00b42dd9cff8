// Where the time of one small attention() call goes (N = 64, D = 64, 1 and 8 heads), stage by
// stage, the same in Node and in Chromium: bench/small-calls.mjs runs it in Node, the bench
// page (bench/browser/main.mjs, window.bench.smallCalls) in Chromium.
//
// Each stage is timed alone, in a loop of back-to-back repetitions, with the raw Emscripten
// module underneath attention(): the stages reproduce what src/js/module/api.mjs does for one call, in
// its order. Their sum differs from the whole call by what the stages share (caches, the
// allocator's state, the garbage collector's work), so the whole call is timed too, with and
// without `out`. Times are medians over interleaved rounds, in µs.
import { readAttentionArgs } from '../../src/js/attention/attention-args.mjs';
import { measuredBytes, setBytes } from '../../src/js/shared/read-once.mjs';
import { createWasmContext } from '../../src/js/module/wasm-context.mjs';
import { median } from './harness.mjs';
import { HEAD_SIZE, SCALE, makeInputs } from './workload.mjs';

/** The cases: the issue's small calls. */
export const SMALL_CASES = [
  { n: 64, heads: 1 },
  { n: 64, heads: 8 },
];

// Median µs per repetition of each stage. Each stage's repetition count is calibrated to a
// sample of about `sampleMs`; then every round times one sample of every stage, in a rotating
// order, so that a noisy spell on this shared machine hits all stages alike. `now` is the
// clock in µs: the wall clock by default, or a process's CPU time (bench/decode-overhead.mjs).
export function timeStages(stages, { rounds, sampleMs }, now = () => performance.now() * 1000) {
  const timed = Object.entries(stages).map(([name, run]) => {
    for (let start = performance.now(); performance.now() - start < 50;) run(); // warm up
    let inner = 1;
    for (;;) {
      const start = performance.now();
      for (let i = 0; i < inner; i++) run();
      if (performance.now() - start >= sampleMs) break;
      inner *= 2;
    }
    return { name, run, inner, samples: [] };
  });
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < timed.length; i++) {
      const stage = timed[(i + r) % timed.length];
      const start = now();
      for (let j = 0; j < stage.inner; j++) stage.run();
      stage.samples.push((now() - start) / stage.inner);
    }
  }
  return Object.fromEntries(timed.map(({ name, samples }) => [name, median(samples)]));
}

/**
 * The breakdown for every case: `attn` is the API (createAttention / wrapModule) over the raw
 * Emscripten module `Module`. Resolves to [{ n, heads, stages: { [stage]: µs } }].
 */
export function smallCallBreakdown({ attn, Module, quick, log = () => {} }) {
  const settings = quick ? { rounds: 7, sampleMs: 10 } : { rounds: 15, sampleMs: 20 };
  const results = [];
  for (const shape of SMALL_CASES) {
    const { n, heads } = shape;
    const { q, k, v } = makeInputs(shape);
    const options = {
      batch: 1,
      qNumHeads: heads,
      headSize: HEAD_SIZE,
      qSeqLen: n,
      kvSeqLen: n,
      scale: SCALE,
    };
    const length = heads * n * HEAD_SIZE;
    const bytes = length * 4;
    const args = readAttentionArgs(q, k, v, options);
    // attention()'s own helpers (wasm-context.mjs): the call record, the plain exports that
    // run it, the copy out.
    const context = createWasmContext(Module);
    const call = context.coreCall(args, args.options);
    // Buffers held across the stages that need them, freed at the end.
    const pointers = [0, 1, 2, 3].map(() => Module._malloc(bytes));
    [call.q, call.k, call.v, call.y] = pointers;
    setBytes(Module.HEAPU8, new Uint8Array(q.buffer), call.q);
    setBytes(Module.HEAPU8, new Uint8Array(k.buffer), call.k);
    setBytes(Module.HEAPU8, new Uint8Array(v.buffer), call.v);
    const held = new Float32Array(length);
    const withOut = { ...options, out: new Float32Array(length) };
    const kept = new Array(8).fill(null);
    let keptIndex = 0;
    // A 1-token, 1-wide call: the Embind conversion of the call record and the core's fixed
    // cost, with next to no arithmetic.
    const tiny = context.coreCall(
      {
        ...args,
        qNumHeads: 1,
        kvNumHeads: 1,
        qSeqLen: 1,
        kvSeqLen: 1,
        headSize: 1,
        vHeadSize: 1,
      },
      args.options,
    );
    [tiny.q, tiny.k, tiny.v, tiny.y] = pointers;
    try {
      const stages = {
        'whole attention() call': () => attn.attention(q, k, v, options),
        'whole attention() call with out': () => attn.attention(q, k, v, withOut),
        'read + measure + validate (readAttentionArgs)': () => readAttentionArgs(q, k, v, options),
        'attentionWorkingBytes (a plain export)': () => context.attentionWorkingBytes(call),
        'malloc + free of q, k, v, y': () => {
          const p = [
            Module._malloc(bytes),
            Module._malloc(bytes),
            Module._malloc(bytes),
            Module._malloc(bytes),
          ];
          for (let i = 0; i < 4; i++) Module._free(p[i]);
        },
        'copy in q, k, v (3 set() into HEAPU8)': () => {
          setBytes(Module.HEAPU8, measuredBytes(args.q, bytes, 'q'), call.q);
          setBytes(Module.HEAPU8, measuredBytes(args.k, bytes, 'k'), call.k);
          setBytes(Module.HEAPU8, measuredBytes(args.v, bytes, 'v'), call.v);
        },
        'runAttentionCall (the record into wasm memory, a plain export + kernel)': () =>
          context.runAttentionCall(call),
        'runAttentionCall of a 1-token call (fixed cost)': () => context.runAttentionCall(tiny),
        // Kept alive a while, as an app keeps its results: an array dropped at once costs less.
        // Chromium hands out fresh zero pages, faulted in at the first write: there this row is
        // near 0 and the next one carries the cost (about 1.5 µs per 4 KiB page on this VM),
        // whichever way the array is made (new + set, slice, the constructor from a view).
        'result allocation (new Float32Array, 8 kept)': () => {
          kept[keptIndex++ & 7] = new Float32Array(length);
        },
        'copy out into a fresh array (8 kept; without out)': () => {
          kept[keptIndex++ & 7] = context.copyOut(call.y, length);
        },
        'copy out into a held array (with out)': () =>
          setBytes(
            new Uint8Array(held.buffer),
            new Uint8Array(Module.HEAPU8.buffer, call.y, bytes),
            0,
          ),
      };
      // V8 moves wasm functions to its optimising tier in the background, only between calls:
      // a long warm-up of the whole call first, or the first stages time the baseline tier.
      for (let start = performance.now(); performance.now() - start < 1000;)
        stages['whole attention() call']();
      const out = timeStages(stages, settings);
      results.push({ n, heads, stages: out });
      log(
        `n=${n} heads=${heads}: ${Object.entries(out)
          .map(([s, us]) => `${s} ${us.toFixed(1)} µs`)
          .join('; ')}`,
      );
    } finally {
      for (const p of pointers) Module._free(p);
    }
  }
  return results;
}

/** The breakdown as a markdown table: a row per stage, a column per case. */
export function breakdownTable(results, title) {
  const names = Object.keys(results[0].stages);
  const header = `| ${title} | ${results.map((r) => `N = ${r.n}, ${r.heads} head${r.heads > 1 ? 's' : ''}`).join(' | ')} |`;
  const align = `|---|${results.map(() => '---:').join('|')}|`;
  const rows = names.map(
    (name) => `| ${name} | ${results.map((r) => `${r.stages[name].toFixed(1)} µs`).join(' | ')} |`,
  );
  return [header, align, ...rows].join('\n');
}
