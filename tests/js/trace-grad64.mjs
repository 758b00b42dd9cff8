// The gradients of trace() in float64, written from the chain rule with plain loops over
// reference64.mjs's forward trace (not from the C++ core): what t.grad must hold for a given
// gradOutputs. Arguments as attn.trace; results as nested arrays.
import { multiHeadTrace64 } from './reference64.mjs';

const toRows = (m) =>
  Array.isArray(m)
    ? m
    : Array.from({ length: m.rows }, (_, i) =>
        Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)),
      );
const matmul = (a, b) =>
  a.map((row) => b[0].map((_, c) => row.reduce((sum, x, r) => sum + x * b[r][c], 0)));
const transpose = (a) => a[0].map((_, c) => a.map((row) => row[c]));
const add = (a, b) => a.map((row, i) => row.map((x, c) => x + b[i][c]));
const columns = (a, first, width) => a.map((row) => row.slice(first, first + width));
const zeros = (rows, cols) => Array.from({ length: rows }, () => new Array(cols).fill(0));

/** One head backwards from its outputs' gradient dOut: every intermediate's gradient. */
function headBackward(t, dOut, scale, isCausal) {
  const n = t.weights.length;
  const weighted = dOut.map((row) => t.weights.map(() => row.slice()));
  const weights = dOut.map((g) => t.values.map((v) => g.reduce((s, x, c) => s + x * v[c], 0)));
  const values = matmul(transpose(t.weights), dOut);
  const scores = weights.map((dw, i) => {
    const a = t.weights[i];
    const agreement = a.reduce((s, x, k) => s + x * dw[k], 0);
    return a.map((x, j) => (isCausal && j > i ? 0 : x * (dw[j] - agreement)));
  });
  const scaled = scores.map((row) => row.map((x) => x * scale));
  const queries = matmul(scaled, t.keys);
  const keys = matmul(transpose(scaled), t.queries);
  return { outputs: dOut, weighted, weights, scores, queries, keys, values, n };
}

/**
 * t.grad for `args` (as attn.trace, gradOutputs included): { outputs, weighted, weights,
 * scores, queries, keys, values, wQuery, wKey, wValue, x } for one head without wOut, else
 * { outputs, wOut?, concat, wQuery, wKey, wValue, x, heads: [each head's seven] }, where a
 * head's keys and values gradients are its kv head's (summed over the group).
 */
export function traceGrad64(args) {
  const { heads = 1, kvHeads = heads, wOut, isCausal = false } = args;
  const scale = Math.fround(args.scale ?? 1);
  const forward = multiHeadTrace64(args);
  const x = toRows(args.x);
  const [wq, wk, wv] = [args.wQuery, args.wKey, args.wValue].map(toRows);
  const outputs = toRows(args.gradOutputs);
  const concat = wOut === undefined ? outputs : matmul(outputs, transpose(toRows(wOut)));
  const dVHead = wv[0].length / kvHeads;
  const dKHead = wq[0].length / heads;
  const group = heads / kvHeads;
  const perHead = forward.heads.map((t, h) =>
    headBackward(t, columns(concat, h * dVHead, dVHead), scale, isCausal),
  );
  const dKeys = [];
  const dValues = [];
  for (let h = 0; h < heads; h++) {
    const g = Math.floor(h / group);
    dKeys[g] = dKeys[g] ? add(dKeys[g], perHead[h].keys) : perHead[h].keys;
    dValues[g] = dValues[g] ? add(dValues[g], perHead[h].values) : perHead[h].values;
  }
  const xt = transpose(x);
  // W's gradient, block by block: x^T . (the block's projection's gradient), side by side.
  const sideBySide = (blocks) => blocks[0].map((_, i) => blocks.flatMap((b) => b[i]));
  const wQuery = sideBySide(perHead.map((p) => matmul(xt, p.queries)));
  const wKey = sideBySide(dKeys.map((d) => matmul(xt, d)));
  const wValue = sideBySide(dValues.map((d) => matmul(xt, d)));
  let dx = zeros(x.length, x[0].length);
  for (let h = 0; h < heads; h++) {
    dx = add(dx, matmul(perHead[h].queries, transpose(columns(wq, h * dKHead, dKHead))));
  }
  for (let g = 0; g < kvHeads; g++) {
    dx = add(dx, matmul(dKeys[g], transpose(columns(wk, g * dKHead, dKHead))));
    dx = add(dx, matmul(dValues[g], transpose(columns(wv, g * dVHead, dVHead))));
  }
  const headGrads = perHead.map((p, h) => ({
    outputs: p.outputs,
    weighted: p.weighted,
    weights: p.weights,
    scores: p.scores,
    queries: p.queries,
    keys: dKeys[Math.floor(h / group)],
    values: dValues[Math.floor(h / group)],
  }));
  const weightsGrads = { wQuery, wKey, wValue, x: dx };
  if (heads === 1 && wOut === undefined) return { ...headGrads[0], ...weightsGrads };
  const layer = { outputs };
  if (wOut !== undefined) layer.wOut = matmul(transpose(forward.concat), outputs);
  return { ...layer, concat, ...weightsGrads, heads: headGrads };
}
