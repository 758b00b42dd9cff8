// Seeded random trace() arguments, shared by the trace tests.
import { seededRandom } from './seeded-random.mjs';

/** A rows x cols matrix of seeded numbers in [-1, 1), as { rows, cols, data }. */
export function randomMatrix(random, rows, cols) {
  const data = Float32Array.from({ length: rows * cols }, () => random() * 2 - 1);
  return { rows, cols, data };
}

/**
 * A random valid multi-head call: 1 to 4 heads (or `heads`), kvHeads dividing them, 1 to 8
 * tokens, wOut 6 times in 10 (or as `withWOut` says). Returns the arguments, their shape and
 * the generator, which the caller may go on drawing from.
 */
export function randomCall(seed, { heads: fixedHeads, withWOut } = {}) {
  const random = seededRandom(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const heads = fixedHeads ?? int(1, 4);
  const divisors = [1, 2, 3, 4].filter((k) => heads % k === 0);
  const kvHeads = divisors[int(0, divisors.length - 1)];
  const [n, dIn, dKHead, dVHead, dOut] = [int(1, 8), int(1, 6), int(1, 5), int(1, 5), int(1, 6)];
  const args = {
    x: randomMatrix(random, n, dIn),
    wQuery: randomMatrix(random, dIn, heads * dKHead),
    wKey: randomMatrix(random, dIn, kvHeads * dKHead),
    wValue: randomMatrix(random, dIn, kvHeads * dVHead),
    heads,
    kvHeads,
    scale: 1 / Math.sqrt(dKHead),
    isCausal: random() < 0.5,
  };
  if (withWOut ?? random() < 0.6) args.wOut = randomMatrix(random, heads * dVHead, dOut);
  return { args, shape: { n, heads, kvHeads, dKHead, dVHead, dOut }, random };
}
