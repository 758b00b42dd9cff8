// Chapter 3, stage "Order": what self-attention does with the order of its tokens. One
// trace() of the reader's example, one of the same tokens in another order, and the same two
// again with position vectors added to the inputs. Without positions the shuffled outputs are
// the same rows, permuted; with them they are not. Unscaled and without a mask, as chapter 1
// (a causal mask would itself be a notion of order).
import { at, fromRows } from './matrix.mjs';

/**
 * The position vectors the page adds to X: one row per place, d_in numbers. A trained model
 * learns them; these are chosen to be easy to read (0.5 in one feature per place).
 * @returns {number[][]} n x d_in
 */
export function positionVectors(n, dIn) {
  return Array.from({ length: n }, (_, m) =>
    Array.from({ length: dIn }, (_, c) => (c === m % dIn ? 0.5 : 0)),
  );
}

/** The next order the Shuffle button shows: its tokens rotated by one place. */
export const nextOrder = (order) => [...order.slice(1), order[0]];

/** The first shuffled order: the tokens reversed. */
export const firstOrder = (n) => Array.from({ length: n }, (_, k) => n - 1 - k);

/**
 * @param attn the API from createAttention()
 * @param example { x, wKey, wQuery, wValue } as number[][] (x n x d_in)
 * @param order  order[k] = the token placed k-th (a permutation of 0 .. n-1)
 * @returns {{ order: number[], positions: number[][], plain: object, shuffled: object,
 *   placed: object, placedShuffled: object }} each run has x (the rows it was given,
 *   row-major), and trace()'s queries, keys, weights and outputs
 */
export function computeOrderNumbers(attn, example, order) {
  const { x, wKey, wQuery, wValue } = example;
  const n = x.length;
  const positions = positionVectors(n, x[0].length);
  const shuffledX = order.map((k) => x[k]);
  const plus = (rows) => rows.map((row, m) => row.map((value, c) => value + positions[m][c]));
  const run = (rows) => {
    const t = attn.trace({ x: rows, wKey, wQuery, wValue, scale: 1, isCausal: false });
    return {
      x: fromRows(rows),
      outputs: t.outputs,
      weights: t.weights,
      queries: t.queries,
      keys: t.keys,
    };
  };
  return {
    order,
    positions,
    plain: run(x),
    shuffled: run(shuffledX),
    placed: run(plus(x)),
    placedShuffled: run(plus(shuffledX)),
  };
}

/**
 * Largest difference between row k of `shuffled` and row order[k] of `plain`: 0 (up to
 * float32 rounding) when the shuffled outputs are the plain ones permuted.
 */
export function permutationGap(plain, shuffled, order) {
  let gap = 0;
  order.forEach((source, k) => {
    for (let c = 0; c < plain.cols; c++)
      gap = Math.max(gap, Math.abs(at(shuffled, k, c) - at(plain, source, c)));
  });
  return gap;
}
