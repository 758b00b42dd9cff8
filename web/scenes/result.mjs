// Stage 8, the end: the whole computation as matrices. Queries, keys and values, the scores
// and weights as heatmaps (with their numbers), and the outputs: one row per input.
import { h } from '../dom.mjs';
import { formatVector } from '../format.mjs';
import { formula, frac, mi, mo, row as mrow, sqrt, sub, transposed } from '../mathml.mjs';
import { heatmap } from '../widgets/heatmap.mjs';
import { fullMatrix } from './parts.mjs';
import { itemAmount, progressOf, reveal } from './timing.mjs';
import { roundingNote } from './rounding-note.mjs';

export function build(ctx) {
  const { figures, tr } = ctx;
  const { n, dV } = figures.dims;
  const { scaled } = figures.settings;
  const items = [
    fullMatrix(ctx, 'queries'),
    fullMatrix(ctx, 'keys'),
    fullMatrix(ctx, 'values'),
    heatmap(ctx, 'scores'),
    heatmap(ctx, 'weights'),
    fullMatrix(ctx, 'outputs'),
  ];
  const element = h(
    'div',
    { class: 'scene scene-result' },
    h(
      'div',
      { class: 'result-row' },
      items.slice(0, 3).map((view) => view.element),
    ),
    h(
      'div',
      { class: 'result-row' },
      items.slice(3).map((view) => view.element),
    ),
  );

  function render(t) {
    const p = progressOf(t);
    items.forEach((view, k) => reveal(view.element, itemAmount(p, items.length, k), 10));
  }

  const scores = mrow(mi('Q'), transposed('K'));
  const outputs = Array.from({ length: n }, (_, i) =>
    formatVector(
      Array.from({ length: dV }, (_, c) => figures.shown.output(i, c)),
      figures.shown.format,
    ),
  );
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('result.repeat'),
        tr(scaled ? 'result.matricesScaled' : 'result.matrices'),
        tr('result.heatmaps'),
      ],
      formula: formula(
        tr(scaled ? 'formula.resultScaled' : 'formula.result'),
        mi('O'),
        mo('='),
        mi('softmax'),
        mo('('),
        scaled ? frac(scores, sqrt(sub(mi('d'), mi('k')))) : scores,
        mo(')'),
        mi('V'),
      ),
      notes: figures.settings.rounding === 'article' ? [roundingNote(ctx, 0)] : [],
    },
    narration: tr('narrate.result', {
      outputs: outputs.map((row, i) => `${tr('label.output', { i: i + 1 })}: ${row}`).join('; '),
    }),
  };
}
