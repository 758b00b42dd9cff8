// The small-call table: ours with and without `out` (each build), against onnxruntime-web at
// 1 thread, at N = 64 where a call's fixed costs show most.
import { cell, ms, ratio, table } from './format.mjs';

const LABELS = {
  ours: 'ours',
  oursOut: 'ours, with out',
  oursRelaxed: 'ours, Relaxed SIMD',
  oursRelaxedOut: 'ours, Relaxed SIMD, with out',
};

export function smallCallsSection(envs) {
  const lines = [];
  for (const env of envs) {
    if (!env.small) continue;
    const names = Object.keys(env.small.cases[0].results).filter((n) => n !== 'ort');
    lines.push(
      `### Small calls, ${env.environment.name}: ms per call, and onnxruntime-web's time ÷ ours`,
      '',
      table(
        ['case', 'onnxruntime-web', ...names.map((n) => LABELS[n] ?? n)],
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
