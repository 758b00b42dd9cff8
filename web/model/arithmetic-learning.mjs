// The arithmetic behind chapter 3's cells, as one line of text ("∂L/∂a₁₂ = 0.937·2 +
// 4.683·8 + (−1.405)·0 = 39.338"): each gradient of the learning step, each weight after it,
// and the block's sums and LayerNorm. The cell inspector shows it on hover and on focus, as
// chapter 1's arithmetic (explainLearningCell). The numbers are trace()'s (and block.mjs's);
// only the writing is done here.
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

/**
 * The line of an updated weight: w − η·∂L/∂w = new for the first step, then (when more were
 * taken) where the later steps, each from its own gradient, have moved it.
 */
export function updateArithmetic(step, name, r, c, tr) {
  const old = at(step.weightsBefore[name], r, c);
  const g = at(step.before.grad[name], r, c);
  const first = `${formatExact(old)} − ${step.eta}·${f(g)} = ${formatExact(at(step.weightsOneStep[name], r, c))}`;
  if (step.steps === 1) return first;
  const value = formatExact(at(step.weightsAfter[name], r, c));
  return `${first}; ${tr('ch3.inspect.later', { steps: step.steps, value })}`;
}

/** R = X + Y, LayerNorm and Z = R + M: the line of a cell of the block. */
function blockArithmetic(block, matrix, i, c) {
  const ij = idx(i, c);
  const value = (m) => formatExact(at(m, i, c));
  if (matrix === 'block-residual')
    return `r${ij} = ${value(block.x)} + ${value(block.y)} = ${value(block.residual)}`;
  if (matrix === 'block-normed')
    return `n${ij} = (${value(block.residual)} − ${formatExact(block.mean[i])}) / ${formatExact(block.sd[i])} = ${value(block.normed)}`;
  if (matrix === 'block-output')
    return `z${ij} = ${value(block.residual)} + ${value(block.mlp)} = ${value(block.output)}`;
  return null;
}

/**
 * The cell inspector's explanation of a chapter 3 cell, or null for any other.
 * @returns {{ title: string, expression: string, sources: object[] } | null}
 */
export function explainLearningCell(learning, cell, tr) {
  if (!learning) return null;
  const { matrix, row, col } = cell;
  let expression = null;
  if (matrix.startsWith('grad-'))
    expression = gradientArithmetic(learning.step, learning.x)(matrix, row, col);
  else if (matrix.startsWith('learn-new-'))
    expression = updateArithmetic(learning.step, matrix.slice('learn-new-'.length), row, col, tr);
  else if (matrix.startsWith('block-') && learning.block)
    expression = blockArithmetic(learning.block, matrix, row, col);
  if (!expression) return null;
  return { title: tr(`ch3.inspect.${matrix.split('-')[0]}`), expression, sources: [] };
}
