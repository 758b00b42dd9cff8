// A matrix drawn as a real HTML table of text: role colour, a caption naming the role in
// words (so colour is never the only cue), optional row/column labels. Every cell carries
// data-matrix / data-row / data-col (indices into the full matrix, even when only one row is
// shown), which the cell inspector and the tests rely on. Derived cells can be focused and
// inspected; arrow keys move between them (one Tab stop per matrix).
import { h } from '../dom.mjs';

/**
 * @param {object} spec
 * @param {string} spec.matrix  data name: x, wKey, queries, scores, weighted, ...
 * @param {string} spec.role    colour role: input, key, query, value, score, weighted, output
 * @param {string | Node} spec.symbol  "K", "q₁", or a node such as W<sub>K</sub>
 * @param {string} [spec.symbolText]  the symbol as plain text (for the table's label)
 * @param {string} spec.name    the role in words, in the current language
 * @param {number} spec.rows
 * @param {number} spec.cols
 * @param {(i: number, j: number) => string} spec.text  shown text of the cell (view indices)
 * @param {(i: number) => number} [spec.rowIndex]  view row -> matrix row (default identity)
 * @param {(j: number) => number} [spec.colIndex]  view col -> matrix col
 * @param {boolean} [spec.transpose]  the view shows the matrix transposed (Kᵀ): view (i, j)
 *   is matrix (colIndex(j), rowIndex(i))
 * @param {string[]} [spec.rowLabels]  shown before each row
 * @param {string[]} [spec.rowNames]  the rows' names in words, when the labels are symbols
 * @param {string[]} [spec.colLabels]
 * @param {boolean} [spec.inspectable]  cells can be focused to show their arithmetic
 * @param {object} [spec.dataset]  extra data attributes for every cell (e.g. { query: 0 })
 * @param {string} [spec.shape]  caption's shape text, e.g. "3×4"
 * @param {string} [spec.className]
 */
export function matrixView(spec) {
  const {
    matrix,
    role,
    symbol,
    symbolText = typeof symbol === 'string' ? symbol : symbol.textContent,
    name,
    rows,
    cols,
    text,
    rowIndex = (i) => i,
    colIndex = (j) => j,
    transpose = false,
    rowLabels,
    rowNames,
    colLabels,
    inspectable = false,
    dataset = {},
    shape = `${rows}×${cols}`,
    className = '',
  } = spec;

  const cells = [];
  const body = h('tbody');
  for (let i = 0; i < rows; i++) {
    const tr = h(
      'tr',
      {},
      rowLabels
        ? h('th', {
            scope: 'row',
            class: rowNames ? 'row-label is-symbol' : 'row-label',
            text: rowLabels[i],
            title: rowNames?.[i],
            'aria-label': rowNames?.[i],
          })
        : null,
    );
    const rowCells = [];
    for (let j = 0; j < cols; j++) {
      const [matrixRow, matrixCol] = transpose
        ? [colIndex(j), rowIndex(i)]
        : [rowIndex(i), colIndex(j)];
      const value = h('span', { class: 'cell-value', text: text(i, j) });
      const td = h(
        'td',
        {
          class: 'cell',
          dataset: { ...dataset, matrix, row: matrixRow, col: matrixCol },
          tabindex: inspectable ? (i === 0 && j === 0 ? '0' : '-1') : null,
        },
        value,
      );
      td.valueElement = value;
      rowCells.push(td);
      tr.append(td);
    }
    cells.push(rowCells);
    body.append(tr);
  }
  const head = colLabels
    ? h(
        'thead',
        {},
        h(
          'tr',
          {},
          rowLabels ? h('td', { class: 'corner' }) : null,
          colLabels.map((label) => h('th', { scope: 'col', class: 'col-label', text: label })),
        ),
      )
    : null;
  const table = h(
    'table',
    {
      class: `matrix-table${inspectable ? ' is-inspectable' : ''}`,
      'aria-label': `${symbolText} ${name} ${shape}`,
    },
    head,
    body,
  );
  if (inspectable) enableGridNavigation(table, cells);
  const element = h(
    'figure',
    { class: `matrix role-${role} ${className}`.trim(), dataset: { role, view: matrix } },
    h(
      'figcaption',
      { class: 'matrix-caption' },
      h('span', { class: 'matrix-symbol' }, symbol),
      h('span', { class: 'matrix-name', text: name }),
      shape ? h('span', { class: 'matrix-shape', text: shape }) : null,
    ),
    h('div', { class: 'matrix-frame' }, table),
  );
  return { element, table, cells, cell: (i, j) => cells[i][j] };
}

/** Arrow keys, Home and End move focus between the cells of one table (roving tabindex). */
export function enableGridNavigation(table, cells) {
  table.addEventListener('keydown', (event) => {
    const td = event.target.closest('td.cell');
    if (!td) return;
    let position = null;
    cells.forEach((row, i) => row.forEach((cell, j) => cell === td && (position = [i, j])));
    if (!position) return;
    const [i, j] = position;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, cells[i].length - 1],
    };
    const move = moves[event.key];
    if (!move) return;
    // The grid owns these keys while a cell has focus: they do not step the timeline.
    event.preventDefault();
    event.stopPropagation();
    const [ni, nj] = move;
    const next = cells[ni]?.[nj];
    if (!next) return;
    td.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
}
