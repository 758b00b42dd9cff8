// The native table: the same kernels under Google Benchmark (bench/native/attention_bench.cpp),
// built for the host's widest SIMD and for the 4-lane level of wasm's SIMD128, beside our wasm
// build's GFLOP/s in Node and Chromium: what the JS engine costs.
import { median } from '../common/harness.mjs';
import { gf, pct, table } from './format.mjs';

// Google Benchmark JSON of several runs -> { "n heads": { flash_attention, attention_reference } }
// in GFLOP/s, the median over runs (and over repetitions, if a run had several).
function nativeRates(runs) {
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

/** `native` / `native4`: every run of the wide / 4-lane build; `envs`: the forward JSON. */
export function nativeSection({ native, native4, envs, meta }) {
  if (!native.length && !native4.length) return [];
  const wide = nativeRates(native);
  const narrow = nativeRates(native4);
  const wideArch = native[0]?.context?.xsimd_arch ?? '?';
  const narrowArch = native4[0]?.context?.xsimd_arch ?? '?';
  const nodeEnv = envs.find((e) => e.environment.kind === 'node');
  const chromiumEnv = envs.find((e) => e.environment.kind === 'chromium');
  const wasmOf = (env, n, heads) =>
    env?.cases.find((c) => c.n === n && c.heads === heads)?.results.ours;
  const cases = nodeEnv?.cases ?? [];
  return [
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
  ];
}
