// The arithmetic behind each gradient cell of chapter 3's learning step, as one line of text
// ("∂L/∂a₁₂ = 0.937·2 + 4.683·8 + (−1.405)·0 = 39.338"), shown on hover over the cell and
// read by screen readers. The numbers are trace()'s; only the writing is done here.
import { formatExact, subscript } from '../format.mjs';
import { at } from './matrix.mjs';

const f = (value) => (value < 0 ? `(${formatExact(value)})` : formatExact(value));
const idx = (...indices) => indices.map((k) => subscript(k + 1)).join('');
const products = (pairs) => pairs.map(([a, b]) => `${f(a)}·${f(b)}`).join(' + ');
const range = (length) => Array.from({ length }, (_, k) => k);

/**
 * @param step computeLearningStep()'s result
 * @returns {(matrix: string, i: number, j: number) => string} the line for a cell of
 *   'grad-outputs', 'grad-weights', 'grad-scores', 'grad-queries', 'grad-keys',
 *   'grad-values', 'grad-wQuery', 'grad-wKey', 'grad-wValue'
 */
export function gradientArithmetic(step, x) {
  const { before } = step;
  const { grad } = before;
  const n = before.weights.rows;
  const dV = before.values.cols;
  const lines = {
    'grad-outputs': (i, c) =>
      i === 0
        ? `∂L/∂o${idx(0, c)} = o${idx(0, c)} − t${idx(c)} = ${f(at(before.outputs, 0, c))} − ${f(step.target[c])} = ${formatExact(at(grad.outputs, 0, c))}`
        : `∂L/∂o${idx(i, c)} = 0 (L reads output 1 only)`,
    'grad-weights': (i, j) =>
      `∂L/∂a${idx(i, j)} = ∂L/∂o${idx(i)} · v${idx(j)} = ${products(range(dV).map((c) => [at(grad.outputs, i, c), at(before.values, j, c)]))} = ${formatExact(at(grad.weights, i, j))}`,
    'grad-scores': (i, j) => {
      const dot = range(n).reduce(
        (s, k) => s + at(before.weights, i, k) * at(grad.weights, i, k),
        0,
      );
      return `∂L/∂s${idx(i, j)} = a${idx(i, j)}·(∂L/∂a${idx(i, j)} − a${idx(i)}·∂L/∂a${idx(i)}) = ${f(at(before.weights, i, j))}·(${f(at(grad.weights, i, j))} − ${f(dot)}) = ${formatExact(at(grad.scores, i, j))}`;
    },
    'grad-queries': (i, c) =>
      `∂L/∂q${idx(i, c)} = Σⱼ ∂L/∂s${idx(i)}ⱼ·kⱼ${idx(c)} = ${products(range(n).map((j) => [at(grad.scores, i, j), at(before.keys, j, c)]))} = ${formatExact(at(grad.queries, i, c))}`,
    'grad-keys': (j, c) =>
      `∂L/∂k${idx(j, c)} = Σᵢ ∂L/∂sᵢ${idx(j)}·qᵢ${idx(c)} = ${products(range(n).map((i) => [at(grad.scores, i, j), at(before.queries, i, c)]))} = ${formatExact(at(grad.keys, j, c))}`,
    'grad-values': (j, c) =>
      `∂L/∂v${idx(j, c)} = Σᵢ aᵢ${idx(j)}·∂L/∂oᵢ${idx(c)} = ${products(range(n).map((i) => [at(before.weights, i, j), at(grad.outputs, i, c)]))} = ${formatExact(at(grad.values, j, c))}`,
  };
  const weightLine = (name, letter, gradOf) => (r, c) =>
    `∂L/∂W${letter}${idx(r, c)} = Σᵢ xᵢ${idx(r)}·∂L/∂${gradOf}ᵢ${idx(c)} = ${products(range(n).map((i) => [x[i][r], at(grad[{ q: 'queries', k: 'keys', v: 'values' }[gradOf]], i, c)]))} = ${formatExact(at(grad[name], r, c))}`;
  lines['grad-wQuery'] = weightLine('wQuery', 'Q', 'q');
  lines['grad-wKey'] = weightLine('wKey', 'K', 'k');
  lines['grad-wValue'] = weightLine('wValue', 'V', 'v');
  return (matrix, i, j) => lines[matrix](i, j);
}

/** The line of an updated weight: w − η·∂L/∂w = new. */
export function updateArithmetic(step, name, r, c) {
  const old = at(step.weightsBefore[name], r, c);
  const g = at(step.before.grad[name], r, c);
  return `${formatExact(old)} − ${step.eta}·${f(g)} = ${formatExact(at(step.weightsAfter[name], r, c))}`;
}
