// Chapter 2: every head attends on its own. Each head's scores and weights (n × n)
// as small heatmaps side by side, one card per head in its colour, with the numbers on
// demand (the "Numbers" switch, or hover / focus on a cell for its arithmetic). Each card
// says, from the weights, which key every query looks at most.
import { h } from '../../dom.mjs';
import { formatExact, subscript } from '../../format.mjs';
import { formula, frac, mi, mo, row as mrow, sqrt, sub, sup } from '../../draw/mathml.mjs';
import { headCardTitle, headPair } from '../../draw/layer-views.mjs';
import { duration, itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import { at } from '../../model/matrix.mjs';
import { singleStep } from '../single-step.mjs';

/**
 * Where each query of head h looks most: "q₁→k₃ 0.32" per row (every key tied for the
 * most), or "evenly" when a row's weights are all alike. Read from the weights trace() computed (a largest entry, no
 * arithmetic).
 */
export function strongestKeys(layer, h, tr) {
  const { n } = layer.dims;
  const weights = layer.heads[h].weights;
  return Array.from({ length: n }, (_, i) => {
    let best = 0;
    let low = Infinity;
    let high = -Infinity;
    for (let j = 0; j < n; j++) {
      const w = at(weights, i, j);
      if (layer.masked(h, i, j)) continue;
      if (w > at(weights, i, best) || layer.masked(h, i, best)) best = j;
      low = Math.min(low, w);
      high = Math.max(high, w);
    }
    const even = high - low < 0.01;
    if (even) return tr('ch2.attention.even', { i: subscript(i + 1) });
    // Keys tied for the largest weight are all named ("q₁→k₁, k₃, k₄ 0.319"): picking one
    // of them would say the query prefers it.
    const top = at(weights, i, best);
    const tied = Array.from({ length: n }, (_, j) => j).filter(
      (j) => !layer.masked(h, i, j) && Math.abs(at(weights, i, j) - top) < 0.0005,
    );
    const keys = tied.map((j) => `k${subscript(j + 1)}`).join(', ');
    return `q${subscript(i + 1)}→${keys} ${formatExact(top)}`;
  });
}

function build(ctx) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { heads } = layer.dims;
  // The sentences about what each head does hold for the example as it is: unscaled, no mask.
  const isExample = layer.isExample && !numbers.settings.scaled && !numbers.settings.causal;
  const cards = Array.from({ length: heads }, (_, hd) => {
    const { scores, weights } = headPair(ctx, hd);
    const about = isExample ? tr(`ch2.attention.example.${hd + 1}`) : '';
    return h(
      'section',
      {
        class: `head-card head-${hd + 1}`,
        dataset: { head: hd },
        'aria-label': tr('ch2.head', { h: hd + 1 }),
      },
      headCardTitle(layer, hd, tr),
      h('div', { class: 'head-card-maps' }, scores.element, weights.element),
      about ? h('p', { class: 'head-card-about', text: about }) : null,
      h('p', {
        class: 'head-card-strongest',
        dataset: { head: hd },
        text: strongestKeys(layer, hd, tr).join(' · '),
      }),
    );
  });
  const numbersSwitch = h('input', {
    type: 'checkbox',
    role: 'switch',
    class: 'switch-input',
    onchange: () => grid.classList.toggle('shows-numbers', numbersSwitch.checked),
  });
  const grid = h('div', { class: 'head-grid' }, cards);
  const element = h(
    'div',
    { class: 'scene scene-head-attention' },
    h(
      'label',
      // A control, not part of the picture: exports leave it out.
      { class: 'switch numbers-switch', dataset: { export: 'skip' } },
      numbersSwitch,
      h('span', { class: 'switch-track', 'aria-hidden': 'true' }),
      h('span', { class: 'switch-text', text: tr('ch2.attention.showNumbers') }),
    ),
    grid,
  );

  function render(t) {
    const p = progressOf(t);
    cards.forEach((card, hd) => reveal(card, itemAmount(p, heads, hd), 10));
  }

  const scaled = numbers.settings.scaled;
  const scores = mrow(sub(mi('Q'), mi('h')), sup(sub(mi('K'), mi('h')), mi('T')));
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch2.attention.own'),
        tr(isExample ? 'ch2.attention.exampleIntro' : 'ch2.attention.yours'),
        tr('ch2.attention.onDemand'),
      ],
      developer: [tr('ch2.attention.module')],
      formula: formula(
        tr('ch2.formula.head'),
        sub(mi('O'), mi('h')),
        mo('='),
        mi('softmax'),
        mo('('),
        scaled ? frac(scores, sqrt(sub(mi('d'), mi('head')))) : scores,
        mo(')'),
        sub(mi('V'), mi('h')),
      ),
    },
    narration: tr('ch2.narrate.attention', {
      heads,
      summary: Array.from(
        { length: heads },
        (_, hd) => `${tr('ch2.head', { h: hd + 1 })}: ${strongestKeys(layer, hd, tr).join(', ')}`,
      ).join('; '),
    }),
  };
}

const steps = (dims, layerDims) => [
  singleStep({
    id: 'heads-attention',
    titleKey: 'ch2.title.attention',
    duration: duration(layerDims.heads, 0.9),
    build,
    // Predict (tools/exercises.mjs): each head's weights of the last query, which sees every
    // key. The scene stays as it is: its heatmaps show the numbers only when asked to.
    questions: ({ layer }) => {
      const { heads, n } = layer.dims;
      return Array.from({ length: heads * n }, (_, k) => ({
        cell: { matrix: 'head-weights', head: Math.floor(k / n), row: n - 1, col: k % n },
        hold: false,
      }));
    },
  }),
];

export default { titleKey: 'stage.headAttention', steps, reads: ['layer'] };
