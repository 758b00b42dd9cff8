// Where a large attention() call's time goes beyond the kernel, in Node, for the SIMD128 build
// (the default one): in the same interleaved rounds, with the mul + add peak probe,
//   ours        attention(q, k, v, options): a fresh result per call
//   oursOut     the same with `out` (one Float32Array reused)
//   kernel      the core alone: q, k, v and y already in wasm memory, one runAttentionCall
//               (the call record and the kernel, no copy in or out)
// each as % of the peak, with the process's minor page faults and CPU time per call (neither
// depends on what else the shared machine runs). "ours ÷ kernel" is what the copies, the
// result's allocation and its page faults cost on top of the kernel.
//   taskset -c 0 node bench/forward-parts.mjs --peak build/bench/simd_peak.wasm [--quick]
//     [--out FILE.json]
// (scripts/bench builds simd_peak.wasm; scripts/build the module's dist/ and build/wasm/.)
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import createAttentionModule from '../build/wasm/attention.mjs';
import { wrapModule } from '../src/js/module/api.mjs';
import { keepFreedResultsWarm } from '../src/js/module/warm-results.mjs';
import { createWasmContext } from '../src/js/module/wasm-context.mjs';
import { readAttentionArgs } from '../src/js/attention/attention-args.mjs';
import { setBytes } from '../src/js/shared/read-once.mjs';
import { ours, oursOut, peakProbes } from './common/contenders.mjs';
import { FULL, QUICK, runSuite } from './common/harness.mjs';
import { HEAD_SIZE, SCALE } from './common/workload.mjs';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    peak: { type: 'string' },
    out: { type: 'string' },
  },
});
if (!args.peak) {
  throw new Error(
    'usage: node bench/forward-parts.mjs --peak simd_peak.wasm [--quick] [--out FILE]',
  );
}
const log = (line) => process.stderr.write(`[forward parts] ${line}\n`);

// The SIMD128 build as createAttention() loads it in Node, with the raw module kept for the
// kernel-alone contender.
const Module = await createAttentionModule({
  wasmBinary: await readFile(new URL('../dist/attention.wasm', import.meta.url)),
});
keepFreedResultsWarm();
const attn = wrapModule(Module);
const context = createWasmContext(Module);

/** The core alone: inputs copied into wasm memory once per case, then only the core's call. */
function kernelAlone() {
  return {
    name: 'kernel',
    label: 'the core alone (data in wasm memory)',
    prepare({ n, heads }, { q, k, v }) {
      const options = { batch: 1, qNumHeads: heads, headSize: HEAD_SIZE, qSeqLen: n, kvSeqLen: n };
      const read = readAttentionArgs(q, k, v, { ...options, scale: SCALE });
      const call = context.coreCall(read, read.options);
      const bytes = q.length * 4;
      const [qAt, kAt, vAt, yAt] = [0, 1, 2, 3].map(() => Module._malloc(bytes));
      Object.assign(call, { q: qAt, k: kAt, v: vAt, y: yAt });
      setBytes(Module.HEAPU8, new Uint8Array(q.buffer), qAt);
      setBytes(Module.HEAPU8, new Uint8Array(k.buffer), kAt);
      setBytes(Module.HEAPU8, new Uint8Array(v.buffer), vAt);
      return () => {
        const error = context.runAttentionCall(call);
        if (error) throw new Error(error);
        return new Float32Array(Module.HEAPU8.buffer, yAt, q.length); // a view: no copy
      };
    },
  };
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const { instance } = await WebAssembly.instantiate(await readFile(args.peak), {});
const suite = await runSuite({
  contenders: [ours(attn), oursOut(attn), kernelAlone()],
  probes: peakProbes(instance.exports),
  cases: [
    { n: 256, heads: 8 },
    { n: 1024, heads: 8 },
  ],
  settings: args.quick ? QUICK : FULL,
  minorFaults: () => process.resourceUsage().minorPageFault,
  cpuTime: cpuMicros,
  log,
});

const pct = (x) => `${(100 * x).toFixed(0)}%`;
const lines = [
  '| N | heads | contender | ms/call | % of peak | CPU ms/call | page faults/call |',
  '| --: | --: | --- | --: | --: | --: | --: |',
];
for (const c of suite.cases) {
  const peak = Math.max(...Object.values(c.peak));
  for (const [name, r] of Object.entries(c.results)) {
    if (r.status !== 'ok') continue;
    lines.push(
      `| ${c.n} | ${c.heads} | ${name} | ${r.ms.toFixed(3)} | ${pct(r.gflops / peak)} | ${(r.cpuMsPerCall ?? NaN).toFixed(3)} | ${r.minorFaultsPerCall.toFixed(1)} |`,
    );
  }
  const { ours: a, kernel } = c.results;
  if (a?.status === 'ok' && kernel?.status === 'ok') {
    lines.push(`| ${c.n} | ${c.heads} | ours ÷ kernel | ${(a.ms / kernel.ms).toFixed(3)}× | | | |`);
  }
}
console.log(lines.join('\n'));
if (args.out) await writeFile(args.out, JSON.stringify(suite, null, 1));
