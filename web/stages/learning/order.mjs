// Chapter 3, stage "Order": self-attention cannot tell the order of its tokens. The same
// tokens in another order (a Shuffle button) give the same output rows in that order; then
// position vectors added to X, and RoPE, which make the scores depend on where tokens are.
import { h, setStyle } from '../../dom.mjs';
import { formatExact } from '../../format.mjs';
import { formula, mi, mo } from '../../draw/mathml.mjs';
import {
  messageScene,
  numberMatrix,
  pairPicture,
  sceneButton,
} from '../../draw/learning-views.mjs';
import { orderViews, positionsView } from '../../draw/learning-tables.mjs';
import { operator } from '../../draw/term-line.mjs';
import { duration, ease, progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { nextOrder, permutationGap } from '../../model/order-numbers.mjs';
import { DISTANCES, STARTS } from '../../model/rope-numbers.mjs';
import { at, fromRows } from '../../model/matrix.mjs';
import { ROLES } from '../../roles.mjs';
import { singleStep } from '../single-step.mjs';

/** X and its outputs side by side, rows labelled by the token they hold. */
function pairOfMatrices(ctx, run, rowTokens, suffix, symbols) {
  const { tr } = ctx;
  const { input, output } = orderViews(ctx, run, rowTokens, suffix, symbols);
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

function buildPositions(ctx) {
  const { numbers, tr } = ctx;
  const { order, placed, placedShuffled, plain } = numbers.learning.order;
  const identity = order.map((_, k) => k);
  const p = positionsView(ctx);
  const before = pairOfMatrices(ctx, placed, identity, '-placed', ['X + P', 'Y']);
  const after = pairOfMatrices(ctx, placedShuffled, order, '-placed-shuffled', ['X′ + P', 'Y′']);
  const gap = permutationGap(placed.outputs, placedShuffled.outputs, order);
  const changed = permutationGap(plain.outputs, placed.outputs, identity);
  const verdict = h('p', {
    class: 'ch3-verdict',
    role: 'status',
    dataset: { gap: String(gap) },
    text: tr('ch3.positions.differ', { gap: formatExact(gap) }),
  });
  const element = h(
    'div',
    { class: 'scene scene-order scene-positions' },
    h('div', { class: 'order-columns' }, p.element),
    h('div', { class: 'order-columns' }, before.element, after.element),
    verdict,
  );
  const render = (t) => {
    const q = progressOf(t);
    reveal(before.element, ramp(q, 0.2, 0.5), 8);
    reveal(after.element, ramp(q, 0.5, 0.8), 8);
    reveal(verdict, ramp(q, 0.8, 1), 4);
  };
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch3.positions.add'),
        tr('ch3.positions.result', { changed: formatExact(changed) }),
        tr('ch3.positions.learned'),
      ],
      formula: formula(tr('ch3.formula.positions'), mi('X'), mo('+'), mi('P')),
    },
    narration: tr('ch3.narrate.positions', { gap: formatExact(gap) }),
  };
}

function buildRope(ctx) {
  const { numbers, tr } = ctx;
  const rope = numbers.learning.rope;
  if (!rope) return noPair(ctx);
  const picture = pairPicture(rope, tr);
  const rows = (turned, letter) =>
    numberMatrix({
      matrix: `rope-${letter}`,
      role: letter === 'q' ? 'query' : 'key',
      symbol: letter === 'q' ? `q${sub1(rope.query)}` : `k${sub1(rope.key)}`,
      name: tr('ch3.rope.turned'),
      value: fromRows(turned),
      letter: 'm',
      rowTokens: turned.map((_, m) => m - 1),
    });
  const qView = rows(rope.qTurned, 'q');
  const kView = rows(rope.kTurned, 'k');
  const element = h(
    'div',
    { class: 'scene scene-rope' },
    h('div', { class: 'equation learn-row' }, picture.element, qView.element, kView.element),
    h('p', { class: 'rope-note', text: tr('ch3.rope.lengths') }),
  );
  const render = (t) => {
    const m = Math.min(rope.qTurned.length - 1, Math.floor(progressOf(t) * rope.qTurned.length));
    picture.show(m);
    [qView, kView].forEach((view) =>
      view.cells.forEach((row, k) =>
        row.forEach((cell) => cell.classList.toggle('is-active', k === m)),
      ),
    );
  };
  return {
    element,
    render,
    explanation: {
      sentences: [tr('ch3.rope.what'), tr('ch3.rope.pair')],
      developer: [tr('ch3.rope.module')],
      formula: formula(
        tr('ch3.formula.rope'),
        mi('q′'),
        mo('='),
        mi('R'),
        mo('('),
        mi('m'),
        mi('θ'),
        mo(')'),
        mi('q'),
      ),
    },
    narration: tr('ch3.narrate.rope'),
  };
}

const sub1 = (k) => '₁₂₃₄₅₆₇₈'[k];

function buildDistance(ctx) {
  const { numbers, tr } = ctx;
  const rope = numbers.learning.rope;
  if (!rope) return noPair(ctx);
  const table = numberMatrix({
    matrix: 'rope-scores',
    role: ROLES.scores.role,
    symbol: `q${sub1(rope.query)}·k${sub1(rope.key)}`,
    name: tr('ch3.rope.scores'),
    value: fromRows(rope.scores),
    letter: 'm',
    rowTokens: STARTS.map((m) => m - 1),
    colLabels: DISTANCES.map((d) => `d=${d}`),
  });
  const plain = h('p', {
    class: 'ch3-verdict',
    text: tr('ch3.rope.plain', { score: formatExact(rope.plainScore) }),
  });
  const element = h('div', { class: 'scene scene-rope-distance' }, table.element, plain);
  const render = (t) => {
    const p = progressOf(t);
    table.cells.forEach((row) =>
      row.forEach((cell, d) =>
        reveal(cell, ramp(p, d / DISTANCES.length, (d + 1) / DISTANCES.length), 4),
      ),
    );
    reveal(plain, ramp(p, 0.8, 1), 4);
  };
  return {
    element,
    render,
    explanation: {
      sentences: [tr('ch3.rope.distance', { starts: STARTS.join(', ') }), tr('ch3.rope.relative')],
      formula: formula(
        tr('ch3.formula.relative'),
        mi('R(mθ)q'),
        mo('·'),
        mi('R(nθ)k'),
        mo('='),
        mi('q'),
        mo('·'),
        mi('R((n−m)θ)k'),
      ),
    },
    narration: tr('ch3.narrate.distance'),
  };
}

/** d_k of 1 (or a single token): RoPE has no pair to turn. */
const noPair = ({ tr }) => messageScene(tr('ch3.rope.noPair'));

const steps = () => [
  singleStep({
    id: 'order-shuffle',
    titleKey: 'ch3.title.shuffle',
    duration: duration(3, 0.9),
    build: buildShuffle,
    // Predict: an entry of the shuffled outputs (the same number as one of Y's).
    questions: ({ learning }) => {
      const { order } = learning.order;
      return [
        {
          id: `ch3-shuffled:${order.join('-')}`,
          prompt: (tr) => tr('ch3.ask.shuffled', { token: order[0] + 1 }),
          answer: (live) => at(live.learning.order.shuffled.outputs, 0, 0),
          hint: (tr) => [tr('ch3.hint.shuffled', { token: order[0] + 1 })],
        },
      ];
    },
  }),
  singleStep({
    id: 'order-positions',
    titleKey: 'ch3.title.positions',
    duration: duration(3, 0.9),
    build: buildPositions,
  }),
  singleStep({
    id: 'order-rope',
    titleKey: 'ch3.title.rope',
    duration: duration(6, 0.7),
    build: buildRope,
  }),
  singleStep({
    id: 'order-distance',
    titleKey: 'ch3.title.distance',
    duration: duration(5, 0.6),
    build: buildDistance,
  }),
];

/**
 * The order stage's matrices for its tables panel, each as a function that builds it: X, Y;
 * X′, Y′ (shuffled); P; both again with P.
 */
function orderTables(ctx) {
  const { order, plain, shuffled, placed, placedShuffled } = ctx.numbers.learning.order;
  const identity = order.map((_, k) => k);
  const runs = [
    [plain, identity, '', ['X', 'Y']],
    [shuffled, order, '-shuffled', ['X′', 'Y′']],
    [placed, identity, '-placed', ['X + P', 'Y']],
    [placedShuffled, order, '-placed-shuffled', ['X′ + P', 'Y′']],
  ];
  const builders = runs.flatMap((args) =>
    ['input', 'output'].map((part) => () => orderViews(ctx, ...args)[part]),
  );
  builders.splice(4, 0, () => positionsView(ctx));
  return builders;
}

/** The tables and "Your numbers" on this stage: its own matrices, the positions beside. */
const panels = {
  note: 'ch3.panels.order',
  tables: orderTables,
  sidebar: (ctx) => [() => positionsView(ctx)],
};

export default { titleKey: 'stage.order', steps, panels, reads: ['learning'], usesExample: true };
