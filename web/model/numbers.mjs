// The walkthrough's numbers: one trace() of the reader's example, and the article's rounded
// printout beside it. Built once per edit or switch; every scene, table and popover reads it.
// The page does no attention arithmetic: queries to outputs, the softmax's maxima,
// exponentials and sums, and the mask all come from trace(). The one computation here is the
// article's own rounding (weights to tenths, then the weighted values and outputs it implies).
import { formatExact, formatOneDecimal } from '../format.mjs';
import { dimsOf } from './example.mjs';
import { at, fromRows, rowOf } from './matrix.mjs';

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
 * One way of printing the softmax and what follows it: the exact numbers, or the article's.
 * @typedef {object} Rounding
 * @property {(i: number, j: number) => number} weight     a_ij
 * @property {(i: number, j: number, c: number) => number} weighted   a_ij · v_jc
 * @property {(i: number, c: number) => number} output     o_ic
 * @property {(value: number) => string} format
 */

/**
 * @typedef {object} Numbers
 * @property {{ n: number, dIn: number, dK: number, dV: number }} dims
 * @property {{ scaled: boolean, causal: boolean, rounding: 'exact' | 'article' }} settings
 * @property {number} scale   what the scores were multiplied by
 * @property {boolean} isArticleExample  the article's own inputs and weights, unscaled
 * @property {object} x, wKey, wQuery, wValue   the reader's matrices { rows, cols, data }
 * @property {object} queries, keys, values, scores, exponentials, weights, outputs   trace()'s
 * @property {Float32Array} rowMax, rowSums   trace()'s softmax shift and denominator per row
 * @property {(i: number, j: number) => boolean} masked   key j hidden from query i
 * @property {Rounding} exact
 * @property {Rounding} article
 * @property {Rounding} shown   the one the settings choose
 * @property {{ scaled: Numbers | null, causal: Numbers | null }} without   before and after:
 *   the same example with that switch off (null when it is off already)
 */

/**
 * @param attn the API from createAttention()
 * @param example { x, wKey, wQuery, wValue } as number[][]
 * @param settings { scaled, causal, rounding: 'exact' | 'article' }
 * @param {boolean} isArticleExample
 * @param {boolean} [compare]  also trace with each switch that is on turned off
 * @returns {Numbers}
 */
export function computeNumbers(attn, example, settings, isArticleExample = false, compare = true) {
  const without = (setting) =>
    compare && settings[setting]
      ? computeNumbers(attn, example, { ...settings, [setting]: false }, isArticleExample, false)
      : null;
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
  // The article multiplies its rounded weights by the values and sums them (its printout).
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
    isArticleExample,
    x: fromRows(example.x),
    wKey: fromRows(example.wKey),
    wQuery: fromRows(example.wQuery),
    wValue: fromRows(example.wValue),
    queries: trace.queries,
    keys: trace.keys,
    values: trace.values,
    scores: trace.scores,
    exponentials: trace.exponentials,
    rowMax: trace.rowMax,
    rowSums: trace.rowSums,
    weights: trace.weights,
    outputs: trace.outputs,
    weightedAt,
    masked: (i, j) => trace.mask.data[i * n + j] === 1,
    exact,
    article,
    shown: settings.rounding === 'article' ? article : exact,
    without: { scaled: without('scaled'), causal: without('causal') },
  };
}
