// Seeded random weights, so "randomise with seed 7" gives the same numbers on every machine.
// Values are rounded to 2 decimals: the editor then shows exactly the numbers that are used.

/** mulberry32: a small, fast 32-bit PRNG; good enough for teaching examples. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

const round2 = (value) => Math.round(value * 100) / 100 || 0; // `|| 0` turns -0 into 0

/** Standard normal N(0, 1) through Box–Muller. */
function gaussian(random) {
  const u = 1 - random(); // (0, 1]: log(0) is avoided
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function matrix(rows, cols, sample) {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => round2(sample())));
}

/**
 * New inputs and weights for the given dims. Inputs are always N(0, 1); weights follow the
 * scheme: 'gaussian' N(0, 1), or 'xavier' uniform in ±√(6 / (fan_in + fan_out)) (Glorot).
 */
export function randomExample({ n, dIn, dK, dV }, scheme, seed) {
  const random = seededRandom(seed);
  const normal = () => gaussian(random);
  const weights = (cols) => {
    if (scheme === 'xavier') {
      const limit = Math.sqrt(6 / (dIn + cols));
      return matrix(dIn, cols, () => (2 * random() - 1) * limit);
    }
    return matrix(dIn, cols, normal);
  };
  return {
    x: matrix(n, dIn, normal),
    wKey: weights(dK),
    wQuery: weights(dK),
    wValue: weights(dV),
  };
}
