// The article's worked example and its exact values (docs/article.md).
export const x = [
  [1, 0, 1, 0],
  [0, 2, 0, 2],
  [1, 1, 1, 1],
];
export const wKey = [
  [0, 0, 1],
  [1, 1, 0],
  [0, 1, 0],
  [1, 1, 0],
];
export const wQuery = [
  [1, 0, 1],
  [1, 0, 0],
  [0, 0, 1],
  [0, 1, 1],
];
export const wValue = [
  [0, 2, 0],
  [0, 3, 0],
  [1, 0, 3],
  [1, 1, 0],
];
/** The example as trace()'s argument. */
export const args = { x, wQuery, wKey, wValue };

// The results, flat and row-major (3 × 3 each); rows() gives them as rows.
export const keys = [0, 1, 1, 4, 4, 0, 2, 3, 1];
export const values = [1, 2, 3, 2, 8, 0, 2, 6, 3];
export const queries = [1, 0, 2, 2, 2, 2, 2, 1, 3];
export const scores = [2, 4, 4, 4, 16, 12, 4, 12, 10];
export const weights = [
  0.063379, 0.468311, 0.468311, 0.000006, 0.982008, 0.017986, 0.000295, 0.880537, 0.119168,
];
export const outputs = [
  1.936621, 6.683105, 1.595068, 1.999994, 7.963992, 0.053976, 1.999705, 7.759892, 0.358389,
];
export const scaledWeights = [
  0.136126, 0.431937, 0.431937, 0.00089, 0.908843, 0.090267, 0.007445, 0.754708, 0.237848,
];
export const scaledOutputs = [
  1.863874, 6.319371, 1.704189, 1.99911, 7.814124, 0.273472, 1.992555, 7.479636, 0.735877,
];

/** A flat row-major list as rows of `cols` numbers: rows(outputs) is the output of each query. */
export function rows(flat, cols = 3) {
  return Array.from({ length: flat.length / cols }, (_, i) => flat.slice(i * cols, (i + 1) * cols));
}
