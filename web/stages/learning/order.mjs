// Chapter 3, stage "Order": self-attention cannot tell the order of its tokens. The same
// tokens in another order (a Shuffle button) give the same output rows in that order; then
// position vectors added to X, and RoPE, which make the scores depend on where tokens are.
import { h, setStyle } from '../../dom.mjs';
import { formatExact } from '../../format.mjs';
import { formula, mi, mo } from '../../draw/mathml.mjs';
import { numberMatrix, sceneButton } from '../../draw/learning-views.mjs';
import { operator } from '../../draw/term-line.mjs';
import { duration, ease, progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { nextOrder, permutationGap } from '../../model/order-numbers.mjs';

/** X and its outputs side by side, rows labelled by the token they hold. */
function pairOfMatrices(ctx, run, rowTokens, suffix, symbols) {
  const { tr } = ctx;
  const input = numberMatrix({
    matrix: `order-x${suffix}`,
    role: 'input',
    symbol: symbols[0],
    name: tr('ch3.order.inputs'),
    value: run.x,
    rowTokens,
  });
  const output = numberMatrix({
    matrix: `order-y${suffix}`,
    role: 'output',
    symbol: symbols[1],
    name: tr('ch3.order.outputs'),
    value: run.outputs,
    letter: 'y',
    rowTokens,
  });
  const element = h(
    'div',
    { class: 'equation order-pair' },
    input.element,
    operator('→', tr('ch3.order.attention')),
    output.element,
  );
  return { element, input, output };
}

/** Rows of `view` slide from the place their token had (order[k]) to their new place k. */
function slideRows(view, order, amount) {
  const rows = view.element.querySelectorAll('tbody tr');
  rows.forEach((row, k) => {
    const offset = (order[k] - k) * (1 - ease(amount));
    setStyle(row, 'transform', offset === 0 ? '' : `translateY(${offset * 100}%)`);
  });
}

function buildShuffle(ctx) {
  const { numbers, tr } = ctx;
  const { order, plain, shuffled } = numbers.learning.order;
  const identity = order.map((_, k) => k);
  const before = pairOfMatrices(ctx, plain, identity, '', ['X', 'Y']);
  const after = pairOfMatrices(ctx, shuffled, order, '-shuffled', ['X′', 'Y′']);
  const gap = permutationGap(plain.outputs, shuffled.outputs, order);
  const shuffle = sceneButton('shuffle', tr('ch3.order.shuffle'), () =>
    ctx.actions.setLearning({ order: nextOrder(order) }, { replay: true }),
  );
  const verdict = h('p', {
    class: 'ch3-verdict',
    role: 'status',
    text: tr('ch3.order.same', { gap: formatExact(gap) }),
  });
  const element = h(
    'div',
    { class: 'scene scene-order' },
    h('div', { class: 'order-controls' }, shuffle),
    h('div', { class: 'order-columns' }, before.element, after.element),
    verdict,
  );

  function render(t) {
    const p = progressOf(t);
    slideRows(after.input, order, ramp(p, 0, 0.5));
    reveal(after.output.element, ramp(p, 0.5, 0.8), 8);
    reveal(verdict, ramp(p, 0.8, 1), 4);
  }

  const tokens = order.map((k) => k + 1).join(', ');
  return {
    element,
    render,
    explanation: {
      sentences: [tr('ch3.order.why'), tr('ch3.order.result', { tokens }), tr('ch3.order.noOrder')],
      formula: formula(
        tr('ch3.formula.permute'),
        mi('attention'),
        mo('('),
        mi('P'),
        mi('X'),
        mo(')'),
        mo('='),
        mi('P'),
        mo('·'),
        mi('attention'),
        mo('('),
        mi('X'),
        mo(')'),
      ),
    },
    narration: tr('ch3.narrate.shuffle', { tokens }),
  };
}

const steps = () => [
  {
    id: 'order-shuffle',
    family: 'order-shuffle',
    params: {},
    duration: duration(3, 0.9),
    title: (tr) => tr('ch3.title.shuffle'),
    build: buildShuffle,
  },
];

export default { titleKey: 'stage.order', steps };
