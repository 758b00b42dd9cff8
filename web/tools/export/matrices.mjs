// Every matrix of the current numbers as JSON and as CSV. The JSON also carries the link
// (the URL's hash) that opens the page on the same step with the same numbers and settings,
// so an exported file can be turned back into the page.
import { ROLES, symbolText } from '../../roles.mjs';
import { rowOf } from '../../numbers.mjs';

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
  };
}

const csvCell = (value) => (typeof value === 'number' ? String(value) : value);

/** One line per entry: matrix, query (weighted values only), row, col (from 1), value. */
export function matricesCsv(numbers) {
  const lines = ['matrix,query,row,col,value'];
  for (const name of EXPORTED) {
    const matrix = numbers[name];
    rowsOf(matrix).forEach((row, i) =>
      row.forEach((value, j) => lines.push([name, '', i + 1, j + 1, value].map(csvCell).join(','))),
    );
  }
  const { n, dV } = numbers.dims;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let c = 0; c < dV; c++)
        lines.push(
          ['weighted', i + 1, j + 1, c + 1, numbers.weightedAt(i, j, c)].map(csvCell).join(','),
        );
  return `${lines.join('\r\n')}\r\n`;
}
