// Chapter 1: the inputs. Each token's embedding slides in as one row of X.
import { h } from '../../dom.mjs';
import { formatGrid } from '../../format.mjs';
import { rowOf } from '../../model/matrix.mjs';
import { formula, mi, mo, realSpace } from '../../draw/mathml.mjs';
import { fullMatrix } from '../../draw/matrices.mjs';
import { duration, itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import { termLines } from '../../draw/term-line.mjs';

function build(ctx) {
  const { numbers, tr } = ctx;
  const { n, dIn } = numbers.dims;
  const x = fullMatrix(ctx, 'x', { wordLabels: true });
  // The rows as X's table prints them, every number alike (formatGrid): an edited -2.5 makes
  // every row "[0.000, 2.000, …]", not one row "[−2.500, 0.000, …]" beside "[0, 2, 0, 2]".
  const rows = formatGrid(Array.from({ length: n }, (_, i) => Array.from(rowOf(numbers.x, i))));
  const tokens = rows.map((row) => `[${row.join(', ')}]`);
  // The article's own notation, one line per token: "Input 1: [1, 0, 1, 0]".
  const lines = tokens.map((row, i) =>
    h(
      'li',
      { class: 'term-line' },
      h('span', { class: 'lhs', text: `${tr('label.input', { i: i + 1 })}: ` }),
      h('span', { class: 'result', text: row }),
    ),
  );
  const element = h('div', { class: 'scene scene-inputs' }, x.element, termLines(tr, lines));

  function render(t) {
    const p = progressOf(t);
    x.cells.forEach((row, i) => {
      const amount = itemAmount(p, n, i);
      for (const cell of row) reveal(cell, amount, 0);
      reveal(x.table.tBodies[0].rows[i].cells[0], amount, 0);
      reveal(lines[i], amount);
    });
  }

  return {
    element,
    render,
    explanation: {
      sentences: [tr('inputs.embeddings'), tr('inputs.example', { n, d: dIn })],
      formula: formula(tr('formula.inputs', { n, d: dIn }), mi('X'), mo('∈'), realSpace(n, dIn)),
    },
    narration: tr('narrate.inputs', {
      n,
      d: dIn,
      rows: tokens.map((row, i) => `${tr('label.input', { i: i + 1 })}: ${row}`).join('; '),
    }),
  };
}

const steps = ({ n }) => [
  {
    id: 'inputs',
    family: 'inputs',
    params: {},
    duration: duration(n, 0.5),
    title: (tr, dims) => tr('title.inputs', { n: dims.n }),
    build,
  },
];

export default { titleKey: 'stage.inputs', steps };
