// The two forms a matrix takes in the page, and what both chapters do with them:
//   number[][]                      what the editors change and trace() consumes
//   { rows, cols, data }            row-major, as trace() returns it (data a typed array)
// Both chapters' numbers (numbers.mjs, layer-numbers.mjs) and their arithmetic read them here.

/** Row-major matrix from number[][] (the editors' numbers, shown as typed). */
export function fromRows(rows) {
  const cols = rows[0].length;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => row.forEach((value, j) => (data[i * cols + j] = value)));
  return { rows: rows.length, cols, data };
}

/** Entry (i, j) of a row-major matrix. */
export const at = (matrix, i, j) => matrix.data[i * matrix.cols + j];

/** Row i of a row-major matrix as a plain array. */
export const rowOf = (matrix, i) =>
  Array.from(matrix.data.subarray(i * matrix.cols, (i + 1) * matrix.cols));

/** Row i of a row-major matrix as a typed array of the same kind (for onnxAttention). */
export const rowSlice = (matrix, i) => matrix.data.slice(i * matrix.cols, (i + 1) * matrix.cols);

/** Two number[][] with the same shape and entries. */
export const sameRows = (a, b) =>
  a.length === b.length &&
  a.every((row, i) => row.length === b[i].length && row.every((v, j) => v === b[i][j]));

export const clampTo = (value, min, max) => Math.min(max, Math.max(min, value));

/** 0, 1, …, length − 1. */
export const range = (length) => Array.from({ length }, (_, k) => k);
