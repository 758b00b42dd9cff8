// Chapter 1: every other query repeats the scores, softmax, weighted and sum stages (the same
// scenes, query 2, 3, ...), then the end: the whole computation as matrices. Queries, keys
// and values, the scores and weights as heatmaps (with their numbers), and the outputs: one
// row per input.
import { h } from '../../dom.mjs';
import { formatVector } from '../../format.mjs';
import { formula, frac, mi, mo, row as mrow, sqrt, sub, transposed } from '../../draw/mathml.mjs';
import { heatmap } from '../../draw/heatmap.mjs';
import { fullMatrix } from '../../draw/matrices.mjs';
import { duration, itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import { queryStep as scoresStep } from './scores.mjs';
import { queryStep as softmaxStep } from './softmax.mjs';
import { queryStep as weightedStep } from './weighted.mjs';
import { queryStep as sumStep } from './sum.mjs';
import { roundingNote } from '../../draw/rounding-note.mjs';

function build(ctx) {
  const { numbers, tr } = ctx;
  const { n, dV } = numbers.dims;
  const { scaled } = numbers.settings;
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
      Array.from({ length: dV }, (_, c) => numbers.shown.output(i, c)),
      numbers.shown.format,
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
      notes: numbers.settings.rounding === 'article' ? roundingNote(ctx, 0) : [],
    },
    narration: tr('narrate.result', {
      outputs: outputs.map((row, i) => `${tr('label.output', { i: i + 1 })}: ${row}`).join('; '),
    }),
  };
}

function steps(dims) {
  const repeated = [];
  for (let i = 1; i < dims.n; i++) {
    for (const step of [scoresStep, softmaxStep, weightedStep, sumStep])
      repeated.push(step(i, dims));
  }
  const result = {
    id: 'result',
    family: 'result',
    params: {},
    duration: duration(6, 0.6),
    title: (tr) => tr('title.result'),
    build,
  };
  return [...repeated, result];
}

export default { titleKey: 'stage.everyQuery', steps };
