// Chapter 1: the weighted values added element-wise into output i (dark green). A frame sweeps
// down each column; the column's terms appear and their sum lands in the output row, which
// sits under the weighted rows like a written addition.
import { h } from '../../dom.mjs';
import { formatGrid, formatVector, relation, subscript } from '../../format.mjs';
import { entry, formula, mi, mo, sub, sumOver } from '../../draw/mathml.mjs';
import { beforeAfter } from '../../draw/before-after.mjs';
import { enableGridNavigation } from '../../draw/matrix-view.mjs';
import { symbolNode } from '../../draw/matrices.mjs';
import { columnSweep, sweepFrame } from '../../draw/sweep.mjs';
import { termLine, termLines } from '../../draw/term-line.mjs';
import { duration, progressOf } from '../../draw/timing.mjs';
import { roundingNote } from '../../draw/rounding-note.mjs';
import { ROLES } from '../../roles.mjs';
import { perQuery } from './query-step.mjs';

function build(ctx, i) {
  const { numbers, tr } = ctx;
  const { n, dV } = numbers.dims;
  const shown = numbers.shown;
  const q = subscript(i + 1);
  // The whole addition with the same decimals throughout (no "0" beside "0.000").
  const grid = formatGrid(
    [
      ...Array.from({ length: n }, (_, j) =>
        Array.from({ length: dV }, (_, c) => shown.weighted(i, j, c)),
      ),
      Array.from({ length: dV }, (_, c) => shown.output(i, c)),
    ],
    shown.format,
  );
  const weightedTexts = grid.slice(0, n);
  const outputTexts = grid[n];

  const cell = (text, dataset) => {
    const value = h('span', { class: 'cell-value', text });
    const td = h('td', { class: 'cell', dataset, tabindex: '-1' }, value);
    td.valueElement = value;
    return td;
  };
  const weightedCells = Array.from({ length: n }, (_, j) =>
    Array.from({ length: dV }, (_, c) =>
      cell(weightedTexts[j][c], { matrix: 'weighted', query: i, row: j, col: c }),
    ),
  );
  const outputCells = Array.from({ length: dV }, (_, c) =>
    cell(outputTexts[c], { matrix: 'outputs', row: i, col: c }),
  );
  weightedCells[0][0].tabIndex = 0;
  const label = (text) => h('th', { scope: 'row', class: 'row-label', text });
  const table = h(
    'table',
    { class: 'matrix-table sum-table is-inspectable', 'aria-label': tr('sum.table', { i: i + 1 }) },
    h(
      'tbody',
      {},
      weightedCells.map((cells, j) =>
        h(
          'tr',
          { class: `role-${ROLES.weighted.role}` },
          label(`${j === 0 ? '' : '+ '}a${q},${subscript(j + 1)}v${subscript(j + 1)}`),
          cells,
        ),
      ),
      h('tr', { class: `role-${ROLES.outputs.role} sum-result` }, label(`= o${q}`), outputCells),
    ),
  );
  enableGridNavigation(table, [...weightedCells, outputCells]);
  const frame = h('div', { class: 'matrix-frame' }, table);
  const figure = h(
    'figure',
    { class: `matrix role-${ROLES.outputs.role} sum-figure` },
    h(
      'figcaption',
      { class: 'matrix-caption' },
      symbolNode(`o${q}`),
      h('span', { class: 'matrix-name', text: tr('sum.caption', { i: i + 1 }) }),
    ),
    frame,
  );
  const sweep = columnSweep(
    frame,
    ROLES.weighted.role,
    (c) => [weightedCells[0][c], weightedCells[n - 1][c]],
    dV,
  );
  // The output comes from the exact weighted values: their printed roundings may not add up
  // to it to the last digit, and then the line says "≈".
  const terms = (c) => Array.from({ length: n }, (_, j) => weightedTexts[j][c]);
  const signs = Array.from({ length: dV }, (_, c) =>
    relation(outputTexts[c], terms(c), (values) => values.reduce((a, b) => a + b, 0)),
  );
  const lines = Array.from({ length: dV }, (_, c) =>
    termLine(`o${q},${subscript(c + 1)} =`, terms(c), `${signs[c]} ${outputTexts[c]}`),
  );
  const element = h(
    'div',
    { class: 'scene scene-sum' },
    figure,
    termLines(
      tr,
      lines.map((line) => line.element),
    ),
  );

  function render(t) {
    sweepFrame(progressOf(t), dV, {
      lines,
      terms: () => n,
      from: 0.15,
      to: 0.8,
      result: (c) => outputCells[c],
      sweep,
      each(c, { current }) {
        outputCells[c].classList.toggle('is-current', current);
        for (let j = 0; j < n; j++) weightedCells[j][c].classList.toggle('is-active', current);
      },
    });
  }

  const output = formatVector(
    Array.from({ length: dV }, (_, c) => shown.output(i, c)),
    shown.format,
  );
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('sum.add', { i: i + 1, n }),
        tr(numbers.settings.causal ? 'sum.meaningCausal' : 'sum.meaning', { i: i + 1 }),
        tr('sum.dimension', { dV }),
        ...(signs.includes('≈') ? [tr('sum.approx')] : []),
      ],
      formula: formula(
        tr('formula.sum'),
        sub(mi('o'), mi('i')),
        mo('='),
        sumOver('j'),
        entry('a', 'i', 'j'),
        sub(mi('v'), mi('j')),
      ),
      notes: [...beforeAfter(ctx, i, 'outputs'), ...roundingNote(ctx, i)],
    },
    narration: tr('narrate.sum', { i: i + 1, vector: output }),
  };
}

const { queryStep, stage } = perQuery({
  family: 'sum',
  titleKey: 'stage.sum',
  duration: (dims) => duration(dims.dV),
  build,
  // Predict: each entry of output i.
  questions: (i, numbers) =>
    Array.from({ length: numbers.dims.dV }, (_, c) => ({
      cell: { matrix: 'outputs', row: i, col: c },
    })),
});

export { queryStep };
export default stage;
