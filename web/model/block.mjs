// Chapter 3, stage "The rest of the block": what a Transformer block does after attention,
// on chapter 2's layer (the article's three tokens and a fourth, d_model = 4, whose output Y
// = C·W_O already has X's shape):
//   R = X + Y                      the residual connection                      n x d
//   N = LayerNorm(R)               each row to mean 0, variance 1 (γ = 1, β = 0)  n x d
//   H = ReLU(N·W₁)                 the MLP's hidden layer                        n x 2d
//   M = H·W₂                       back to d columns                             n x d
//   Z = R + M                      the second residual: the block's output, X's shape
// None of this is attention: the module computes attention (Y, from trace()); these few sums
// and products are done here in float64, and the tests check them against their own.
import { fromRows, rowOf } from './matrix.mjs';

/** LayerNorm's ε, as PyTorch's default. */
export const LAYER_NORM_EPS = 1e-5;

/**
 * The MLP's weights: chosen to be readable (a trained model learns them). W₁ (d x 2d) copies
 * each feature and its negative, so ReLU keeps the positive and the negative parts apart;
 * W₂ (2d x d) gives a positive part back to its feature at 0.5 and a negative part to the
 * next feature at 0.25.
 */
export function mlpWeights(d) {
  const w1 = Array.from({ length: d }, (_, r) =>
    Array.from({ length: 2 * d }, (_, c) => (c === r ? 1 : c === r + d ? -1 : 0)),
  );
  const w2 = Array.from({ length: 2 * d }, (_, h) =>
    Array.from({ length: d }, (_, c) =>
      h < d ? (c === h ? 0.5 : 0) : c === (h - d + 1) % d ? 0.25 : 0,
    ),
  );
  return { w1, w2 };
}

const matmul = (a, b) =>
  a.map((row) => b[0].map((_, c) => row.reduce((sum, value, k) => sum + value * b[k][c], 0)));
const add = (a, b) => a.map((row, i) => row.map((value, c) => value + b[i][c]));

/** Each row to mean 0 and variance 1: (r − mean) / √(variance + ε), variance over d. */
export function layerNorm(rows) {
  return rows.map((row) => {
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length;
    const sd = Math.sqrt(variance + LAYER_NORM_EPS);
    return { mean, sd, normed: row.map((value) => (value - mean) / sd) };
  });
}

/**
 * @param x, y chapter 2's layer's inputs and outputs, { rows, cols, data }, the same shape
 * @returns {{ x, y, residual, mean: number[], sd: number[], normed, w1, w2, hidden, mlp,
 *   output } | null} each matrix { rows, cols, data }; null if Y's shape is not X's
 */
export function computeBlockNumbers(x, y) {
  if (x.rows !== y.rows || x.cols !== y.cols) return null;
  const rows = (m) => Array.from({ length: m.rows }, (_, i) => rowOf(m, i));
  const residual = add(rows(x), rows(y));
  const norms = layerNorm(residual);
  const normed = norms.map((r) => r.normed);
  const { w1, w2 } = mlpWeights(x.cols);
  const hidden = matmul(normed, w1).map((row) => row.map((value) => Math.max(0, value)));
  const mlp = matmul(hidden, w2);
  return {
    x,
    y,
    residual: fromRows(residual),
    mean: norms.map((r) => r.mean),
    sd: norms.map((r) => r.sd),
    normed: fromRows(normed),
    w1: fromRows(w1),
    w2: fromRows(w2),
    hidden: fromRows(hidden),
    mlp: fromRows(mlp),
    output: fromRows(add(residual, mlp)),
  };
}
