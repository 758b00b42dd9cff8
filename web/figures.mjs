// Everything the scenes show, computed once per edit: the wasm trace() of the reader's
// example plus the display-only "article's rounding" view. The page never computes attention
// itself; the only arithmetic here reproduces the article's own rounded printout, and the
// exponentials that the softmax scene shows as an intermediate (trace() returns the weights).
import { formatExact, formatOneDecimal } from './format.mjs';
import { dimsOf } from './model.mjs';

/** Row-major matrix from number[][] (the editors' numbers, shown as typed). */
function fromRows(rows) {
  const cols = rows[0].length;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => row.forEach((value, j) => (data[i * cols + j] = value)));
  return { rows: rows.length, cols, data };
}

export const at = (matrix, i, j) => matrix.data[i * matrix.cols + j];
export const rowOf = (matrix, i) =>
  Array.from(matrix.data.subarray(i * matrix.cols, (i + 1) * matrix.cols));
export const columnOf = (matrix, j) =>
  Array.from({ length: matrix.rows }, (_, i) => at(matrix, i, j));

/**
 * The article prints softmax([2, 4, 4]) as [0.0, 0.5, 0.5]: one decimal, still adding up to 1
 * (plain rounding would print 0.1 for 0.063 and sum to 1.1). Largest-remainder rounding to
 * tenths reproduces exactly that.
 */
export function roundTenthsKeepingSum(weights) {
  if (!weights.every(Number.isFinite)) return weights.map((w) => Math.round(w * 10) / 10);
  const tenths = weights.map((w) => w * 10);
  const floors = tenths.map(Math.floor);
  const target = Math.round(tenths.reduce((a, b) => a + b, 0));
  let missing = target - floors.reduce((a, b) => a + b, 0);
  const byRemainder = tenths
    .map((value, index) => ({ index, remainder: value - floors[index] }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    floors[index] += 1;
    missing -= 1;
  }
  return floors.map((f) => f / 10);
}

/**
 * @param attn the API from createAttention()
 * @param example { x, wKey, wQuery, wValue } as number[][]
 * @param settings { scaled, causal, rounding: 'exact' | 'article' }
 */
export function computeFigures(attn, example, settings) {
  const dims = dimsOf(example);
  const scale = settings.scaled ? 1 / Math.sqrt(dims.dK) : 1;
  const trace = attn.trace({
    x: example.x,
    wQuery: example.wQuery,
    wKey: example.wKey,
    wValue: example.wValue,
    scale,
    isCausal: settings.causal,
  });
  const { n, dV } = dims;
  const weightedAt = (i, j, c) => trace.weighted.data[(i * n + j) * dV + c];
  const articleWeights = Array.from({ length: n }, (_, i) =>
    roundTenthsKeepingSum(rowOf(trace.weights, i)),
  );
  // The article multiplies its rounded weights by the values and sums them (display only).
  const articleWeighted = (i, j, c) => articleWeights[i][j] * at(trace.values, j, c);
  const articleOutputs = Array.from({ length: n }, (_, i) =>
    Array.from({ length: dV }, (_, c) => {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += articleWeighted(i, j, c);
      return sum;
    }),
  );
  const exact = {
    weight: (i, j) => at(trace.weights, i, j),
    weighted: weightedAt,
    output: (i, c) => at(trace.outputs, i, c),
    format: formatExact,
  };
  const article = {
    weight: (i, j) => articleWeights[i][j],
    weighted: articleWeighted,
    output: (i, c) => articleOutputs[i][c],
    format: formatOneDecimal,
  };
  return {
    dims,
    settings: { ...settings },
    scale,
    x: fromRows(example.x),
    wKey: fromRows(example.wKey),
    wQuery: fromRows(example.wQuery),
    wValue: fromRows(example.wValue),
    queries: trace.queries,
    keys: trace.keys,
    values: trace.values,
    scores: trace.scores,
    weights: trace.weights,
    outputs: trace.outputs,
    weightedAt,
    /** True when key j is hidden from query i by the causal mask. */
    masked: (i, j) => settings.causal && j > i,
    /** e^(s_ij − max_j s_ij): the softmax numerators as the scene shows them (display only). */
    exponentials(i) {
      const scores = rowOf(trace.scores, i);
      const max = Math.max(...scores);
      return { max, values: scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - max))) };
    },
    exact,
    article,
    /** Weights, weighted values and outputs as the chosen rounding shows them. */
    shown: settings.rounding === 'article' ? article : exact,
  };
}
