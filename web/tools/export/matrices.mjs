// Every matrix of the current numbers as JSON and as CSV: chapter 1's example and, when the
// page has it, chapter 2's layer (its five matrices, each head's trace, the concatenation and
// the outputs) and chapter 3's (export/learning-matrices.mjs). The JSON also carries the link (the URL's hash) that opens the page on the
// same step with the same numbers and settings, so an exported file can be turned back into
// the page.
import { ROLES, symbolText } from '../../roles.mjs';
import { rowOf } from '../../model/matrix.mjs';
import { learningMatrices } from './learning-matrices.mjs';

/** The matrices in the order the computation makes them. */
const EXPORTED = [
  'x',
  'wQuery',
  'wKey',
  'wValue',
  'queries',
  'keys',
  'values',
  'scores',
  'exponentials',
  'weights',
  'outputs',
];

/** JSON has no −∞ (a masked score): it is written as the string "-Infinity". */
const jsonNumber = (value) => (Number.isFinite(value) ? value : String(value));

function rowsOf(matrix) {
  return Array.from({ length: matrix.rows }, (_, i) => rowOf(matrix, i));
}

const LAYER_MATRICES = ['x', 'wQuery', 'wKey', 'wValue', 'wOut', 'concat', 'outputs'];
const HEAD_MATRICES = ['queries', 'keys', 'values', 'scores', 'exponentials', 'weights', 'outputs'];

/** Chapter 2's matrices by name ("layer-x", "head-1-weights"), or none without a layer. */
function layerMatrices(layer) {
  if (!layer) return [];
  const named = LAYER_MATRICES.map((name) => [`layer-${name}`, layer[name]]);
  layer.heads.forEach((trace, h) => {
    for (const name of HEAD_MATRICES)
      if (trace[name]) named.push([`head-${h + 1}-${name}`, trace[name]]);
  });
  return named;
}

const asJson = (matrix) => ({
  rows: matrix.rows,
  cols: matrix.cols,
  data: rowsOf(matrix).map((row) => row.map(jsonNumber)),
});

/**
 * @returns {object} { format, version, step, link, settings, dims, matrices: { name:
 *   { symbol, rows, cols, data: number[][] } }, weighted: { symbol, data: [query][key][col] } }
 */
export function matricesJson(numbers, { step, link }) {
  const matrices = {};
  for (const name of EXPORTED) {
    const matrix = numbers[name];
    matrices[name] = {
      symbol: symbolText(ROLES[name].symbol),
      rows: matrix.rows,
      cols: matrix.cols,
      data: rowsOf(matrix).map((row) => row.map(jsonNumber)),
    };
  }
  const { n, dV } = numbers.dims;
  const weighted = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) =>
      Array.from({ length: dV }, (_, c) => numbers.weightedAt(i, j, c)),
    ),
  );
  return {
    format: 'self-attention-explainer/matrices',
    version: 1,
    step,
    link,
    settings: numbers.settings,
    dims: numbers.dims,
    matrices,
    weighted: { symbol: 'a_ij·v_j', data: weighted },
    ...(numbers.layer && {
      layer: {
        dims: numbers.layer.dims,
        matrices: Object.fromEntries(
          layerMatrices(numbers.layer).map(([name, matrix]) => [name, asJson(matrix)]),
        ),
      },
    }),
    ...(numbers.learning && {
      learning: Object.fromEntries(
        learningMatrices(numbers.learning).map(([name, matrix]) => [name, asJson(matrix)]),
      ),
    }),
  };
}

/**
 * A CSV value. A masked score (−∞) is left empty: "-Infinity" (or any text starting with -, +,
 * = or @) is read as a formula by spreadsheets, and a masked key has no score to give.
 */
const csvCell = (value) => {
  if (typeof value !== 'number') return value;
  return Number.isFinite(value) ? String(value) : '';
};

/** One CSV line of values (numbers as csvCell writes them). Chapter 3's heatmaps use it too. */
export const csvRow = (values) => values.map(csvCell).join(',');

/** One line per entry: matrix, query (weighted values only), row, col (from 1), value. */
export function matricesCsv(numbers) {
  const lines = ['matrix,query,row,col,value'];
  for (const name of EXPORTED) {
    const matrix = numbers[name];
    rowsOf(matrix).forEach((row, i) =>
      row.forEach((value, j) => lines.push(csvRow([name, '', i + 1, j + 1, value]))),
    );
  }
  const { n, dV } = numbers.dims;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let c = 0; c < dV; c++)
        lines.push(csvRow(['weighted', i + 1, j + 1, c + 1, numbers.weightedAt(i, j, c)]));
  for (const [name, matrix] of [
    ...layerMatrices(numbers.layer),
    ...learningMatrices(numbers.learning),
  ]) {
    rowsOf(matrix).forEach((row, i) =>
      row.forEach((value, j) => lines.push(csvRow([name, '', i + 1, j + 1, value]))),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
