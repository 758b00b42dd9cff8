// mulberry32: a tiny seeded generator. The same seed gives the same numbers in Node, browsers
// and workers, so the induction task's batches are the same everywhere for a seed, and the
// tests and the bench (tests/js/seeded-random.mjs re-exports it) can name their inputs' seed.

/** A function returning the next number in [0, 1) of the sequence for `seed` (a 32-bit int). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
