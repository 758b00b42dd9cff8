// The rulers of the forward tables, both timed in the same interleaved rounds as every case
// (bench/peak/simd_peak.c, built twice): each of our builds is measured against the peak of
// the instructions it can use.
//   mul + add (case.peak): f32x4.mul then f32x4.add chains, the SIMD128 build's limit;
//   FMA (case.fmaPeak): f32x4.relaxed_madd chains, the Relaxed SIMD build's limit (only
//     where the engine has Relaxed SIMD).
// Each is { [chains]: median GFLOP/s over the case's rounds }.
import { median } from '../common/harness.mjs';

export const MUL_ADD = 'peak';
export const FMA = 'fmaPeak';

/** Which ruler a contender of the forward suite is measured against. */
export const rulerOf = (name) => (name.startsWith('oursRelaxed') ? FMA : MUL_ADD);

/** A case's peak by one ruler: the best chain count's median, from the rounds of that very case. */
export function casePeak(c, ruler = MUL_ADD) {
  const byChains = Object.values(c[ruler] ?? {});
  return byChains.length ? Math.max(...byChains) : undefined;
}

/** A contender's GFLOP/s in case c as a share of its own build's peak, when both were measured. */
export function shareOfPeak(c, name) {
  const result = c.results[name];
  const peak = casePeak(c, rulerOf(name));
  return result?.status === 'ok' && peak ? result.gflops / peak : undefined;
}

/**
 * An environment's peak by one ruler, for its header: per chain count the median over cases,
 * and the best of those. Null when that ruler was not measured.
 */
export function envPeak(env, ruler = MUL_ADD) {
  const byChains = {};
  for (const c of env.cases) {
    for (const [chains, g] of Object.entries(c[ruler] ?? {})) (byChains[chains] ??= []).push(g);
  }
  const medians = Object.fromEntries(
    Object.entries(byChains).map(([chains, list]) => [chains, median(list)]),
  );
  const ranked = Object.entries(medians).sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return null;
  const [bestChains, best] = ranked[0];
  return { best, bestChains, medians };
}
