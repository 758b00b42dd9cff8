// The reader's example: the inputs X and the three weight matrices, as plain number[][] that
// the editors change and trace() consumes. Shapes: x n×d_in, wKey and wQuery d_in×d_k,
// wValue d_in×d_v. Queries and keys share d_k (they are dotted together); d_v may differ.
import { clampTo, sameRows } from './matrix.mjs';

export const LIMITS = Object.freeze({ minTokens: 1, maxTokens: 8, minDim: 1, maxDim: 8 });
/** Entries are refused beyond this magnitude: the page is for reading numbers, not overflow. */
export const MAX_ABS_ENTRY = 1000;

/** The article's example (README of the seed), in its order: key, query, value. */
export function articleExample() {
  return {
    x: [
      [1, 0, 1, 0],
      [0, 2, 0, 2],
      [1, 1, 1, 1],
    ],
    wKey: [
      [0, 0, 1],
      [1, 1, 0],
      [0, 1, 0],
      [1, 1, 0],
    ],
    wQuery: [
      [1, 0, 1],
      [1, 0, 0],
      [0, 0, 1],
      [0, 1, 1],
    ],
    wValue: [
      [0, 2, 0],
      [0, 3, 0],
      [1, 0, 3],
      [1, 1, 0],
    ],
  };
}

/** The names of the four editable matrices, in the order the page shows them. */
export const EDITABLE = ['x', 'wKey', 'wQuery', 'wValue'];

export function dimsOf(example) {
  return {
    n: example.x.length,
    dIn: example.x[0].length,
    dK: example.wQuery[0].length,
    dV: example.wValue[0].length,
  };
}

export function cloneExample(example) {
  const copy = {};
  for (const name of EDITABLE) copy[name] = example[name].map((row) => row.slice());
  return copy;
}

export function sameExample(a, b) {
  return EDITABLE.every((name) => sameRows(a[name], b[name]));
}

/** Keeps the top-left block that fits and fills new entries with 0. */
function resize(matrix, rows, cols) {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => matrix[i]?.[j] ?? 0),
  );
}

/** A copy of the example with new dims (any of n, dIn, dK, dV), clamped to the limits. */
export function withDims(example, changes) {
  const dims = { ...dimsOf(example), ...changes };
  const n = clampTo(dims.n, LIMITS.minTokens, LIMITS.maxTokens);
  const dIn = clampTo(dims.dIn, LIMITS.minDim, LIMITS.maxDim);
  const dK = clampTo(dims.dK, LIMITS.minDim, LIMITS.maxDim);
  const dV = clampTo(dims.dV, LIMITS.minDim, LIMITS.maxDim);
  return {
    x: resize(example.x, n, dIn),
    wKey: resize(example.wKey, dIn, dK),
    wQuery: resize(example.wQuery, dIn, dK),
    wValue: resize(example.wValue, dIn, dV),
  };
}

/** A copy with one entry changed. */
export function withEntry(example, name, row, col, value) {
  const copy = cloneExample(example);
  copy[name][row][col] = value;
  return copy;
}

/**
 * Reads what a reader typed into a cell. Returns { value } or { error, detail } where error
 * is an i18n key. Accepts "-1.5", "−1.5" (typographic minus), "+2", ".5", "1e-3".
 */
export function parseEntry(text) {
  const cleaned = String(text)
    .trim()
    .replace(/\u2212/g, '-');
  if (cleaned === '') return { error: 'entry.empty' };
  if (cleaned.length > 32 || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) {
    return { error: 'entry.notNumber' };
  }
  const value = Number(cleaned);
  if (!Number.isFinite(value) || Math.abs(value) > MAX_ABS_ENTRY)
    return { error: 'entry.tooLarge' };
  return { value: value === 0 ? 0 : value };
}
