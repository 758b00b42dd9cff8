// Practice mode: a fresh example of small whole numbers, so that every entry can be worked
// out by hand and the questions are never the same. Three tokens; inputs 0 to 2, weights −1
// to 2; the sizes vary a little.
import { seededRandom } from '../model/random.mjs';

/**
 * @param {number} seed any 32-bit integer (the same seed gives the same example)
 * @returns {{ x, wKey, wQuery, wValue }} number[][] each
 */
export function practiceExample(seed) {
  const random = seededRandom(seed);
  const integer = (low, high) => low + Math.floor(random() * (high - low + 1));
  const matrix = (rows, cols, low, high) =>
    Array.from({ length: rows }, () => Array.from({ length: cols }, () => integer(low, high)));
  const n = 3;
  const dIn = integer(3, 4);
  const dK = integer(2, 3);
  const dV = integer(2, 3);
  return {
    x: matrix(n, dIn, 0, 2),
    wKey: matrix(dIn, dK, -1, 2),
    wQuery: matrix(dIn, dK, -1, 2),
    wValue: matrix(dIn, dV, -1, 2),
  };
}

/** A seed that differs from press to press. */
export function freshSeed() {
  const buffer = new Uint32Array(1);
  globalThis.crypto?.getRandomValues?.(buffer);
  return (buffer[0] ^ Date.now()) >>> 0;
}
