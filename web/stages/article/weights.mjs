// Chapter 1: the three weight matrices, in the article's order: key, query, value.
import { h } from '../../dom.mjs';
import { formula, gap, mo, realSpace, weightSymbol } from '../../draw/mathml.mjs';
import { fullMatrix } from '../../draw/matrices.mjs';
import { duration, itemAmount, progressOf, reveal } from '../../draw/timing.mjs';

const ORDER = ['wKey', 'wQuery', 'wValue'];

function build(ctx) {
  const { numbers, tr } = ctx;
  const { dIn, dK, dV } = numbers.dims;
  const views = ORDER.map((name) => fullMatrix(ctx, name));
  const element = h(
    'div',
    { class: 'scene scene-weights' },
    views.map((view) => view.element),
  );

  function render(t) {
    const p = progressOf(t);
    views.forEach((view, k) => reveal(view.element, itemAmount(p, views.length, k), 10));
  }

  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('weights.three'),
        tr('weights.intuition'),
        tr('weights.shapes', { dIn, dK, dV }),
        tr('weights.random'),
      ],
      formula: formula(
        tr('formula.weights', { dIn, dK, dV }),
        weightSymbol('K'),
        mo(','),
        weightSymbol('Q'),
        mo('∈'),
        realSpace(dIn, dK),
        gap(),
        weightSymbol('V'),
        mo('∈'),
        realSpace(dIn, dV),
      ),
    },
    narration: tr('narrate.weights', { dIn, dK, dV }),
  };
}

const steps = () => [
  {
    id: 'weights',
    family: 'weights',
    params: {},
    duration: duration(3, 0.7),
    title: (tr) => tr('title.weights'),
    build,
  },
];

export default { titleKey: 'stage.weights', steps };
