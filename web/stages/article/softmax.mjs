// Chapter 1: softmax of query i's scores. The exponentials e^(s − max) appear, then their sum,
// then the weights (from trace()); the bars start equal and settle on the weights, adding up
// to 1 at every moment of the animation.
import { h, setStyle } from '../../dom.mjs';
import { formatExact, formatVector, subscript } from '../../format.mjs';
import { at, rowOf } from '../../model/matrix.mjs';
import { entry, formula, frac, mi, mo, row as mrow, sumOver, sup } from '../../draw/mathml.mjs';
import { beforeAfter } from '../../draw/before-after.mjs';
import { enableGridNavigation } from '../../draw/matrix-view.mjs';
import { cellText, indexed } from '../../draw/matrices.mjs';
import {
  duration,
  ease,
  itemAmount,
  land,
  lerp,
  progressOf,
  ramp,
  reveal,
} from '../../draw/timing.mjs';
import { roundingNote } from '../../draw/rounding-note.mjs';
import { ROLES } from '../../roles.mjs';
import { perQuery, rowQuestions } from './query-step.mjs';

/**
 * The row's sum of exponentials, and its weights as shares of one stacked bar, whose caption
 * says that they add up to 1, and, when the weights printed beside it do not (0.063 + 0.468 +
 * 0.468 = 0.999), that this is their rounding.
 */
function sumAndShares(tr, i, keys, total, printed) {
  const printedSum = printed.reduce((sum, text) => sum + Number(text.replace('\u2212', '-')), 0);
  const rounded = Math.abs(printedSum - 1) > 1e-9;
  const caption = rounded
    ? tr('softmax.addsToOneRounded', { sum: formatExact(Number(printedSum.toFixed(6))) })
    : tr('softmax.addsToOne', { i: i + 1 });
  const sum = h(
    'p',
    { class: 'softmax-sum' },
    h('span', { class: 'sigma', text: '∑ e = ' }),
    h('span', { class: 'sum-value', text: formatExact(total) }),
  );
  const segments = keys.map((j) =>
    h(
      'div',
      { class: `segment shade-${j % 4}`, title: `k${subscript(j + 1)}` },
      h('span', { class: 'segment-label', text: `k${subscript(j + 1)}` }),
    ),
  );
  const stacked = h(
    'figure',
    { class: 'stacked' },
    h(
      'div',
      { class: 'stacked-bar', role: 'img', 'aria-label': tr('softmax.stackedLabel', { i: i + 1 }) },
      segments,
    ),
    h('figcaption', { class: 'stacked-caption', text: caption }),
  );
  return { sum, segments, stacked };
}

function build(ctx, i) {
  const { numbers, tr } = ctx;
  const { n } = numbers.dims;
  const article = numbers.settings.rounding === 'article';
  const exponentials = rowOf(numbers.exponentials, i);
  const total = numbers.rowSums[i];
  const keys = Array.from({ length: n }, (_, j) => j);
  const shownWeight = (j) => numbers.shown.weight(i, j);

  const cell = (text, dataset, extra = {}) => {
    const value = h('span', { class: 'cell-value', text });
    const td = h('td', { class: 'cell', dataset, ...extra }, value);
    td.valueElement = value;
    return td;
  };
  const scoreCells = keys.map((j) =>
    cell(formatExact(at(numbers.scores, i, j)), { matrix: 'scores', row: i, col: j }),
  );
  const expCells = keys.map((j) =>
    cell(formatExact(exponentials[j]), { matrix: 'exponentials', row: i, col: j }),
  );
  const weightCells = keys.map((j) =>
    cell(cellText(numbers, 'weights', i, j), { matrix: 'weights', row: i, col: j }),
  );
  const exactCells = article
    ? keys.map((j) =>
        cell(formatExact(at(numbers.weights, i, j)), { exact: '' }, { class: 'cell is-secondary' }),
      )
    : [];
  const bars = keys.map(() => h('div', { class: 'bar' }));
  const barCells = keys.map((j) =>
    h('td', { class: 'bar-cell' }, h('div', { class: 'bar-track' }, bars[j])),
  );
  [...scoreCells, ...expCells, ...weightCells].forEach((td) => (td.tabIndex = -1));
  scoreCells[0].tabIndex = 0;
  for (const j of keys) {
    if (numbers.masked(i, j))
      [scoreCells[j], expCells[j], weightCells[j]].forEach((td) => td.classList.add('is-masked'));
  }

  const header = (...content) => h('th', { scope: 'row', class: 'row-label' }, ...content);
  const table = h(
    'table',
    { class: 'softmax-table is-inspectable', 'aria-label': tr('softmax.table', { i: i + 1 }) },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('td', { class: 'corner' }),
        keys.map((j) =>
          h('th', { scope: 'col', class: 'col-label', text: `k${subscript(j + 1)}` }),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      h(
        'tr',
        { class: `role-${ROLES.scores.role}` },
        header(tr('softmax.rowScores'), ' ', indexed('s', `${i + 1}j`)),
        scoreCells,
      ),
      h('tr', { class: 'role-exp' }, header(tr('softmax.rowExp')), expCells),
      h(
        'tr',
        { class: `role-${ROLES.weights.role} role-weights` },
        article
          ? header(tr('softmax.rowWeightsArticle'))
          : header(tr('softmax.rowWeights'), ' ', indexed('a', `${i + 1}j`)),
        weightCells,
      ),
      article ? h('tr', { class: 'role-exact' }, header(tr('softmax.rowExact')), exactCells) : null,
      h('tr', { class: 'role-bars' }, header(tr('softmax.rowBars')), barCells),
    ),
  );
  enableGridNavigation(table, [scoreCells, expCells, weightCells]);

  const printed = weightCells.map((td) => td.valueElement.textContent);
  const { sum, segments, stacked } = sumAndShares(tr, i, keys, total, printed);
  const element = h(
    'div',
    { class: 'scene scene-softmax' },
    table,
    h('div', { class: 'softmax-side' }, sum, stacked),
  );

  function render(t) {
    const p = progressOf(t);
    const pExp = ramp(p, 0, 0.4);
    const pWeights = ramp(p, 0.5, 1);
    keys.forEach((j) => {
      land(expCells[j], itemAmount(pExp, n, j));
      land(weightCells[j], itemAmount(pWeights, n, j));
      if (exactCells[j]) land(exactCells[j], itemAmount(pWeights, n, j));
    });
    reveal(sum, ramp(p, 0.4, 0.5));
    // The bars grow from nothing to the weights, and the stacked bar (the weights as shares
    // of 1) appears with them: equal shares at the start would read as an answer, 1/n each,
    // while Predict holds the step there and asks for the weights.
    const settle = ease(pWeights);
    keys.forEach((j) => {
      const share = lerp(0, shownWeight(j), settle);
      setStyle(bars[j], 'height', `${(share * 100).toFixed(2)}%`);
      setStyle(segments[j], 'flexGrow', String(Math.max(0, shownWeight(j))));
      segments[j].classList.toggle('is-narrow', shownWeight(j) < 0.08);
    });
    reveal(stacked, settle);
  }

  const sentences = [tr('softmax.normalise'), tr('softmax.how')];
  if (article)
    sentences.push(
      tr('softmax.articleRounds', {
        weights: formatVector(keys.map(shownWeight), numbers.article.format),
      }),
    );
  return {
    element,
    render,
    explanation: {
      sentences,
      formula: formula(
        tr('formula.softmax'),
        entry('a', 'i', 'j'),
        mo('='),
        frac(
          sup(mi('e'), entry('s', 'i', 'j')),
          mrow(sumOver('l'), sup(mi('e'), entry('s', 'i', 'l'))),
        ),
      ),
      notes: [...beforeAfter(ctx, i, 'weights'), ...roundingNote(ctx, i)],
    },
    narration: tr('narrate.softmax', {
      i: i + 1,
      vector: formatVector(keys.map(shownWeight), numbers.shown.format),
    }),
  };
}

const { queryStep, stage } = perQuery({
  family: 'softmax',
  titleKey: 'stage.softmax',
  duration: () => duration(3),
  build,
  // Predict: the weight query i gives each key.
  questions: rowQuestions('weights'),
});

export { queryStep };
export default stage;
