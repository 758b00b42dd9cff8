// The matrices of the computation drawn with their role, symbol and name (from the one
// table in roles.mjs): whole, or one row as a vector.
import { h } from '../dom.mjs';
import { formatExact, formatList, subscript } from '../format.mjs';
import { at } from '../model/matrix.mjs';
import { ROLES, symbolText } from '../roles.mjs';
import { matrixView } from './matrix-view.mjs';

/**
 * A letter with a real (full-size, lowered) subscript: indexed('a', '1,j') is a₁,ⱼ drawn as
 * a<sub>1,j</sub>, legible where Unicode's subscript j is a speck.
 */
export function indexed(letter, index, tail = '') {
  return h('span', { class: 'symbol' }, letter, h('sub', { text: index }), tail);
}

/** "W" with a subscript role letter, or a plain symbol; as a node. */
export function symbolNode(symbol) {
  if (Array.isArray(symbol))
    return h('span', { class: 'symbol' }, symbol[0], h('sub', { text: symbol[1] }));
  return h('span', { class: 'symbol', text: symbol });
}

/**
 * A matrix's labels from its row of roles.mjs, as matrixView takes them: its colour role, its
 * symbol (a node, and as plain text) and its name.
 */
export const roleLabels = (meta, tr) => ({
  role: meta.role,
  symbol: symbolNode(meta.symbol),
  symbolText: symbolText(meta.symbol),
  name: tr(meta.nameKey),
});

/** The number in cell (i, j) of a named matrix, in the current rounding. */
function cellValue(numbers, name, i, j) {
  if (name === 'weights') return numbers.shown.weight(i, j);
  if (name === 'outputs') return numbers.shown.output(i, j);
  return at(numbers[name], i, j);
}

const formatOf = (numbers, name) =>
  name === 'weights' || name === 'outputs' ? numbers.shown.format : formatExact;

/**
 * The texts of a whole matrix, [i][j], all with the same decimals (formatList): a matrix
 * never mixes "0" and "0.000".
 */
export function matrixTexts(numbers, name) {
  const { rows, cols } = numbers[name];
  const values = [];
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) values.push(cellValue(numbers, name, i, j));
  const texts = formatList(values, formatOf(numbers, name));
  return Array.from({ length: rows }, (_, i) => texts.slice(i * cols, (i + 1) * cols));
}

/** The text of cell (i, j) of a named matrix, in the current rounding, alike its row's. */
export function cellText(numbers, name, i, j) {
  const { cols } = numbers[name];
  const row = Array.from({ length: cols }, (_, c) => cellValue(numbers, name, i, c));
  return formatList(row, formatOf(numbers, name))[j];
}

/** A whole matrix of the computation. */
export function fullMatrix(ctx, name, options = {}) {
  const { numbers, tr } = ctx;
  const meta = ROLES[name];
  const matrix = numbers[name];
  const texts = matrixTexts(numbers, name);
  // Rows are labelled compactly (k₁, k₂…) with their names in words for hover and screen
  // readers; options.wordLabels shows the words themselves ("input 1").
  const hasLabels = options.rowLabels !== false && meta.rowKey;
  const rowNames = hasLabels
    ? Array.from({ length: matrix.rows }, (_, i) => tr(meta.rowKey, { i: i + 1 }))
    : undefined;
  const rowLabels =
    hasLabels && !options.wordLabels
      ? Array.from({ length: matrix.rows }, (_, i) => `${meta.rowSymbol}${subscript(i + 1)}`)
      : rowNames;
  return matrixView({
    matrix: name,
    ...roleLabels(meta, tr),
    rows: matrix.rows,
    cols: matrix.cols,
    text: (i, j) => texts[i][j],
    rowLabels,
    rowNames,
    colLabels: options.colLabels,
    inspectable: Boolean(meta.computed),
    className: options.className,
  });
}

/** One row of a matrix as a 1×cols vector, e.g. q₁ (data attributes keep the real row). */
export function rowVector(ctx, name, row, options = {}) {
  const { numbers, tr } = ctx;
  const meta = ROLES[name];
  const matrix = numbers[name];
  const symbol = `${meta.letter}${subscript(row + 1)}`;
  const texts = Array.from({ length: matrix.cols }, (_, j) => cellText(numbers, name, row, j));
  return matrixView({
    matrix: name,
    role: meta.role,
    symbol,
    name: options.name ?? tr(meta.rowKey, { i: row + 1 }),
    rows: 1,
    cols: matrix.cols,
    rowIndex: () => row,
    text: (_, j) => texts[j],
    inspectable: Boolean(meta.computed),
    colLabels: options.colLabels,
    shape: `1×${matrix.cols}`,
    className: options.className,
  });
}
