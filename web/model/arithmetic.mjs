// The arithmetic behind one result cell, as the cell inspector shows it: a sentence saying
// what the cell is, the formula with the actual numbers ("0.063·1 + 0.468·2 + 0.468·2 =
// 1.937"), and the cells it was computed from (to highlight). The result on the right of "="
// is always the value from trace(); the left side lists the operands as displayed.
import { explainLearningCell } from './arithmetic-learning.mjs';
import { formatExact, operand, relation } from '../format.mjs';
import { at } from './matrix.mjs';
import { dotTerms, index2, ref } from './formula.mjs';
import { ROLES, symbolText } from '../roles.mjs';
import { explainLayerCell } from './arithmetic-layer.mjs';

const f = formatExact;

function projection(numbers, name, i, c, tr) {
  const { letter, weight, role } = ROLES[name];
  const weightSymbol = symbolText(ROLES[weight].symbol);
  const { dIn } = numbers.dims;
  const inputs = Array.from({ length: dIn }, (_, m) => at(numbers.x, i, m));
  const weights = Array.from({ length: dIn }, (_, m) => at(numbers[weight], m, c));
  return {
    title: tr('arith.projection', {
      role: tr(`role.${role}`),
      i: i + 1,
      c: c + 1,
      weight: weightSymbol,
    }),
    expression: `${letter}${index2(i, c)} = ${dotTerms(inputs, weights)} = ${f(at(numbers[name], i, c))}`,
    sources: [...inputs.map((_, m) => ref('x', i, m)), ...weights.map((_, m) => ref(weight, m, c))],
  };
}

function score(numbers, i, j, tr) {
  const { dK } = numbers.dims;
  const title = tr('arith.score', { i: i + 1, j: j + 1 });
  const sources = [
    ...Array.from({ length: dK }, (_, m) => ref('queries', i, m)),
    ...Array.from({ length: dK }, (_, m) => ref('keys', j, m)),
  ];
  if (numbers.masked(i, j)) {
    return {
      title,
      expression: `s${index2(i, j)} = ${f(-Infinity)}  (${tr('arith.masked', { i: i + 1, j: j + 1 })})`,
      sources,
    };
  }
  const q = Array.from({ length: dK }, (_, m) => at(numbers.queries, i, m));
  const k = Array.from({ length: dK }, (_, m) => at(numbers.keys, j, m));
  const terms = dotTerms(q, k);
  const result = f(at(numbers.scores, i, j));
  const expression = numbers.settings.scaled
    ? `s${index2(i, j)} = (${terms}) ÷ √${dK} = ${result}`
    : `s${index2(i, j)} = ${terms} = ${result}`;
  return { title, expression, sources };
}

function weight(numbers, i, j, tr) {
  const { n } = numbers.dims;
  const title = tr('arith.weight', { i: i + 1, j: j + 1 });
  const sources = Array.from({ length: n }, (_, l) => ref('scores', i, l));
  const exact = f(at(numbers.weights, i, j));
  const articleNote =
    numbers.settings.rounding === 'article'
      ? `  ≈ ${numbers.article.format(numbers.article.weight(i, j))} (${tr('arith.articleRounding')})`
      : '';
  if (numbers.masked(i, j)) {
    return {
      title,
      expression: `a${index2(i, j)} = 0  (${tr('arith.maskedWeight')})${articleNote}`,
      sources,
    };
  }
  const max = numbers.rowMax[i];
  const exponent = (l) => `e^(${f(at(numbers.scores, i, l))} − ${f(max)})`;
  const denominator = Array.from({ length: n }, (_, l) => l)
    .filter((l) => !numbers.masked(i, l))
    .map(exponent)
    .join(' + ');
  return {
    title,
    expression: `a${index2(i, j)} = ${exponent(j)} ÷ (${denominator}) = ${f(at(numbers.exponentials, i, j))} ÷ ${f(numbers.rowSums[i])} = ${exact}${articleNote}`,
    sources,
  };
}

function exponential(numbers, i, j, tr) {
  const { n } = numbers.dims;
  const max = numbers.rowMax[i];
  const score = at(numbers.scores, i, j);
  return {
    title: tr('arith.exponential', { i: i + 1, j: j + 1 }),
    expression: numbers.masked(i, j)
      ? `e^(${f(score)}) = 0`
      : `e^(s${index2(i, j)} − max) = e^(${f(score)} − ${f(max)}) = ${f(at(numbers.exponentials, i, j))}`,
    sources: Array.from({ length: n }, (_, l) => ref('scores', i, l)),
  };
}

function weighted(numbers, i, j, c, tr) {
  const shown = numbers.shown;
  const w = shown.weight(i, j);
  const v = at(numbers.values, j, c);
  const note = numbers.settings.rounding === 'article' ? `  (${tr('arith.articleRounding')})` : '';
  const [weightText, valueText, product] = [
    shown.format(w),
    f(v),
    shown.format(shown.weighted(i, j, c)),
  ];
  // "≈" when the printed (rounded) weight times the value is not the printed product.
  const sign = relation(product, [weightText, valueText], ([a, b]) => a * b);
  return {
    title: tr('arith.weighted', { i: i + 1, j: j + 1, c: c + 1 }),
    expression: `a${index2(i, j)}·v${index2(j, c)} = ${weightText}·${operand(valueText)} ${sign} ${product}${note}`,
    sources: [ref('weights', i, j), ref('values', j, c)],
  };
}

function output(numbers, i, c, tr) {
  const { n } = numbers.dims;
  const shown = numbers.shown;
  const pairs = Array.from({ length: n }, (_, j) => [
    shown.format(shown.weight(i, j)),
    f(at(numbers.values, j, c)),
  ]);
  const terms = pairs.map(([w, v]) => `${w}·${operand(v)}`).join(' + ');
  const note = numbers.settings.rounding === 'article' ? `  (${tr('arith.articleRounding')})` : '';
  const result = shown.format(shown.output(i, c));
  // "≈" when the printed (rounded) weights do not give the printed output.
  const sum = (values) =>
    values.reduce((total, value, k) => (k % 2 ? total + values[k - 1] * value : total), 0);
  const sign = relation(result, pairs.flat(), sum);
  return {
    title: tr('arith.output', { i: i + 1, c: c + 1 }),
    expression: `o${index2(i, c)} = ${terms} ${sign} ${result}${note}`,
    sources: [
      ...Array.from({ length: n }, (_, j) => ref('weights', i, j)),
      ...Array.from({ length: n }, (_, j) => ref('values', j, c)),
      ...Array.from({ length: n }, (_, j) => ref('weighted', j, c, { query: i })),
    ],
  };
}

/**
 * @param numbers from computeNumbers()
 * @param cell { matrix, row, col, query?, head? } as in the cell's data attributes (chapter
 *   2's cells, with head, are explained by arithmetic-layer.mjs from numbers.layer)
 * @param tr the translator
 * @returns {{ title: string, expression: string, sources: object[] } | null} null for cells
 *   that are not computed (the inputs and weights the reader types)
 */
export function explainCell(numbers, cell, tr) {
  const { matrix, row, col } = cell;
  switch (matrix) {
    case 'queries':
    case 'keys':
    case 'values':
      return projection(numbers, matrix, row, col, tr);
    case 'scores':
      return score(numbers, row, col, tr);
    case 'exponentials':
      return exponential(numbers, row, col, tr);
    case 'weights':
      return weight(numbers, row, col, tr);
    case 'weighted':
      return weighted(numbers, cell.query, row, col, tr);
    case 'outputs':
      return output(numbers, row, col, tr);
    default:
      return (
        (numbers.layer ? explainLayerCell(numbers.layer, cell, tr) : null) ??
        explainLearningCell(numbers.learning, cell, tr)
      );
  }
}
