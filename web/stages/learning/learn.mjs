// Chapter 3, stage "One learning step": a target for output 1, the loss, and the way back
// through chapter 1's stages in reverse with trace()'s gradients (outputs, weights, scores
// through the softmax's row Jacobian, queries/keys/values, then W_Q, W_K, W_V), the step
// W ← W − η·∂L/∂W and the forward pass again; "Take 10 more steps" and the loss curve.
import { h, setStyle, setText } from '../../dom.mjs';
import { formatExact, subscript } from '../../format.mjs';
import { formula, mi, mo, mn, frac, sub, sup } from '../../draw/mathml.mjs';
import {
  lossPlot,
  numberMatrix,
  tickText,
  revealedRow,
  sceneButton,
  targetEditor,
} from '../../draw/learning-views.mjs';
import { forwardView, gradientView, updatedView } from '../../draw/learning-tables.mjs';
import { operator } from '../../draw/term-line.mjs';
import { duration, progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { MAX_STEPS } from '../../model/learning-step.mjs';
import { at, fromRows } from '../../model/matrix.mjs';
import { ROLES } from '../../roles.mjs';
import { singleStep } from '../single-step.mjs';

const dL = (symbol) => frac(mi('∂L'), mi(`∂${symbol}`));

function buildTarget(ctx) {
  const { numbers, tr } = ctx;
  const step = numbers.learning.step;
  const o1 = fromRows([Array.from(step.before.outputs.data.slice(0, step.before.outputs.cols))]);
  const output = numberMatrix({
    matrix: 'learn-output-1',
    role: ROLES.outputs.role,
    symbol: 'o₁',
    name: tr('ch3.learn.output1'),
    value: o1,
    letter: 'o',
  });
  const editor = targetEditor(ctx, step.target, step.suggested);
  const loss = h('p', {
    class: 'learn-loss',
    dataset: { loss: String(step.loss) },
    text: tr('ch3.learn.loss', {
      terms: step.target
        .map((t, c) => `(${formatExact(at(o1, 0, c))} − ${formatExact(t)})²`)
        .join(' + '),
      loss: formatExact(step.loss),
    }),
  });
  const element = h(
    'div',
    { class: 'scene scene-learn scene-learn-target' },
    h('div', { class: 'equation learn-row' }, output.element, operator('→'), editor.element),
    editor.message,
    loss,
  );
  const render = (t) => {
    const p = progressOf(t);
    reveal(editor.element, ramp(p, 0.2, 0.6), 8);
    reveal(loss, ramp(p, 0.6, 1), 4);
  };
  return {
    element,
    render,
    explanation: {
      sentences: [tr('ch3.learn.why'), tr('ch3.learn.suggest'), tr('ch3.learn.lossWhy')],
      formula: formula(
        tr('ch3.formula.loss'),
        mi('L'),
        mo('='),
        frac(mn('1'), mn('2')),
        sup(mi('‖o₁ − t‖'), mn('2')),
      ),
    },
    narration: tr('ch3.narrate.target', { loss: formatExact(step.loss) }),
  };
}

const gradSteps = [
  {
    id: 'learn-outputs',
    fields: (ctx) => [gradientView(ctx, 'outputs')],
    keys: ['ch3.learn.gradOutputs', 'ch3.learn.backwards'],
    formula: () => [dL('o₁'), mo('='), mi('o₁'), mo('−'), mi('t')],
  },
  {
    id: 'learn-attention',
    fields: (ctx) => [forwardView(ctx, 'values'), gradientView(ctx, 'weights')],
    keys: ['ch3.learn.gradWeights'],
    formula: () => [dL('aᵢⱼ'), mo('='), dL('oᵢ'), mo('·'), sub(mi('v'), mi('j'))],
  },
  {
    id: 'learn-scores',
    fields: (ctx) => [forwardView(ctx, 'weights'), gradientView(ctx, 'scores')],
    keys: ['ch3.learn.gradScores', 'ch3.learn.jacobian'],
    questions: (numbers) => [signQuestion(numbers)],
    formula: () => [
      dL('sᵢ'),
      mo('='),
      mi('a'),
      mo('∘'),
      mo('('),
      mi('g'),
      mo('−'),
      mi('a·g'),
      mo(')'),
    ],
  },
  {
    id: 'learn-qkv',
    fields: (ctx) => ['queries', 'keys', 'values'].map((field) => gradientView(ctx, field)),
    keys: ['ch3.learn.gradQkv'],
    formula: () => [
      dL('Q'),
      mo('='),
      dL('S'),
      mi('K'),
      mo(','),
      dL('K'),
      mo('='),
      sup(dL('S'), mi('T')),
      mi('Q'),
    ],
  },
  {
    id: 'learn-weights',
    fields: (ctx) => ['wQuery', 'wKey', 'wValue'].map((field) => gradientView(ctx, field)),
    keys: ['ch3.learn.gradW'],
    formula: () => [dL('W_Q'), mo('='), sup(mi('X'), mi('T')), dL('Q')],
  },
];

function buildGrad(spec) {
  return (ctx) => {
    const { numbers, tr } = ctx;
    const step = numbers.learning.step;
    const views = spec.fields(ctx);
    return revealedRow(
      `scene-learn ${spec.id}`,
      views,
      {
        sentences: spec.keys.map((key) => tr(key, { loss: formatExact(step.loss) })),
        formula: formula(tr(`ch3.formula.${spec.id}`), ...spec.formula()),
      },
      tr(`ch3.narrate.${spec.id}`),
    );
  };
}

function buildUpdate(ctx) {
  const { numbers, tr } = ctx;
  const step = numbers.learning.step;
  const names = ['wQuery', 'wKey', 'wValue'];
  const views = names.map((name) => updatedView(ctx, name));
  const outputs = (trace, matrix) =>
    numberMatrix({
      matrix,
      role: ROLES.outputs.role,
      symbol: matrix === 'learn-o1-before' ? 'o₁' : 'o₁′',
      mark: matrix === 'learn-o1-before' ? '' : '′',
      name: tr(matrix === 'learn-o1-before' ? 'ch3.learn.before' : 'ch3.learn.after', {
        steps: step.steps,
      }),
      value: fromRows([Array.from(trace.outputs.data.slice(0, trace.outputs.cols))]),
      letter: 'o',
    });
  const before = outputs(step.before, 'learn-o1-before');
  const after = outputs(step.after, 'learn-o1-after');
  const target = numberMatrix({
    matrix: 'learn-target-shown',
    role: ROLES.outputs.role, // what output 1 should be
    symbol: 't',
    name: tr('ch3.learn.targetName'),
    value: fromRows([step.target]),
    letter: 't',
  });
  const taken = step.steps;
  const { diverged } = step;
  // Counted from the steps asked for: "10 more" after an overflow would change nothing.
  const more = sceneButton('more-steps', tr('ch3.learn.more'), () =>
    ctx.actions.setLearning({ steps: Math.min(MAX_STEPS, step.asked + 10) }),
  );
  more.disabled = step.asked >= MAX_STEPS || Boolean(diverged?.overflow);
  const again = sceneButton('one-step', tr('ch3.learn.reset'), () =>
    ctx.actions.setLearning({ steps: 1 }),
  );
  again.disabled = step.asked === 1;
  const status = h('p', {
    class: 'learn-status',
    role: 'status',
    dataset: { steps: String(taken), loss: String(step.losses[taken]) },
    text: tr('ch3.learn.status', {
      steps: taken,
      before: formatExact(step.losses[0]),
      loss: formatExact(step.losses[taken]),
    }),
  });
  const distanceTo = (trace) => Math.hypot(...step.target.map((t, c) => trace.outputs.data[c] - t));
  const distance = h('p', {
    class: 'learn-distance',
    dataset: { distance: String(distanceTo(step.after)) },
    text: tr('ch3.learn.distance', {
      distance: formatExact(distanceTo(step.after)),
      start: formatExact(distanceTo(step.before)),
    }),
  });
  const plot = lossPlot(step.losses, tr);
  const divergence = divergenceNote(step, tr);
  const element = h(
    'div',
    { class: 'scene scene-learn scene-learn-update' },
    h(
      'div',
      { class: 'equation learn-row' },
      views.map((view) => view.element),
    ),
    h(
      'div',
      { class: 'equation learn-row' },
      before.element,
      operator('→'),
      after.element,
      operator('≈?'),
      target.element,
    ),
    h('div', { class: 'learn-controls' }, more, again),
    status,
    divergence,
    distance,
    plot,
  );
  // Each weight cell goes from its old value to its new one on the clock: the old number
  // fades out, the new one fades in. Only real values are ever printed, never one between.
  const moving = names.flatMap((name, k) =>
    views[k].cells.flatMap((row, r) =>
      row.map((cell, c) => ({
        text: cell.querySelector('.cell-value'),
        from: formatExact(at(step.weightsBefore[name], r, c)),
        to: formatExact(at(step.weightsAfter[name], r, c)),
      })),
    ),
  );
  const render = (t) => {
    const p = progressOf(t);
    const move = ramp(p, 0, 0.5);
    const fade = String(Math.abs(1 - 2 * move).toFixed(3));
    moving.forEach(({ text, from, to }) => {
      setText(text, move < 0.5 ? from : to);
      setStyle(text, 'opacity', from === to || move >= 1 ? '' : fade);
    });
    reveal(after.element, ramp(p, 0.5, 0.8), 8);
    reveal(status, ramp(p, 0.8, 1), 4);
    if (divergence) reveal(divergence, ramp(p, 0.8, 1), 4);
    reveal(distance, ramp(p, 0.8, 1), 4);
  };
  const moved = step.after.outputs;
  const lossAfter = step.losses[taken];
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch3.learn.update', { eta: step.eta, steps: taken }),
        tr(lossAfter > step.losses[0] ? 'ch3.learn.movedUp' : 'ch3.learn.moved', {
          steps: taken,
          before: formatExact(step.losses[0]),
          after: formatExact(lossAfter),
        }),
        tr('ch3.learn.repeat'),
      ],
      formula: formula(
        tr('ch3.formula.update'),
        mi('W'),
        mo('←'),
        mi('W'),
        mo('−'),
        mi('η'),
        dL('W'),
      ),
    },
    narration: tr('ch3.narrate.update', {
      steps: taken,
      after: formatExact(step.losses[taken]),
      row: Array.from(moved.data.slice(0, moved.cols), formatExact).join(', '),
    }),
  };
}

/**
 * When the steps diverged (the loss grew, or the next step would overflow a float): what
 * happened and why, the step's length against the weights it moves; null otherwise.
 */
function divergenceNote(step, tr) {
  const { diverged } = step;
  if (!diverged) return null;
  const params = {
    step: diverged.step,
    eta: step.eta,
    gradient: tickText(diverged.gradient),
    length: tickText(diverged.length),
    weights: formatExact(diverged.weights),
  };
  return h(
    'p',
    { class: 'learn-diverged', role: 'alert', dataset: { step: String(diverged.step) } },
    tr(diverged.overflow ? 'ch3.learn.overflow' : 'ch3.learn.rising', params),
    ' ',
    tr('ch3.learn.divergedWhy', params),
  );
}

// Predict (tools/exercises.mjs): answers are signs, typed as 1 or −1.
const sign = (value) => (value > 0 ? 1 : value < 0 ? -1 : 0);

/** The largest gradient of query 1's scores in size: its sign (the gradient is on screen next). */
function largestScoreGradient({ learning }) {
  const { scores } = learning.step.before.grad;
  let best = 0;
  for (let j = 1; j < scores.cols; j++)
    if (Math.abs(at(scores, 0, j)) > Math.abs(at(scores, 0, best))) best = j;
  return { j: best, value: at(scores, 0, best) };
}

/** Asked before the scores' gradients are shown: the sign of query 1's largest one. */
function signQuestion(numbers) {
  const { j } = largestScoreGradient(numbers);
  return {
    id: `ch3-score-sign:${j}`,
    prompt: (tr) => tr('ch3.ask.scoreSign', { j: j + 1, sj: subscript(j + 1) }),
    answer: (live) => sign(at(live.learning.step.before.grad.scores, 0, j)),
    hint: (tr) => [tr('ch3.hint.scoreSign', { sj: subscript(j + 1) }), tr('ch3.hint.signTyping')],
  };
}

/** W_V's entry whose gradient is largest in size: the way a step moves it. */
function largestValueGradient({ learning }) {
  const grad = learning.step.before.grad.wValue;
  let best = 0;
  grad.data.forEach((value, k) => {
    if (Math.abs(value) > Math.abs(grad.data[best])) best = k;
  });
  return { r: Math.floor(best / grad.cols), c: best % grad.cols };
}

/** Asked before the step is shown: which way that W_V entry moves. */
function directionQuestion(numbers) {
  const { r, c } = largestValueGradient(numbers);
  const gradOf = (live) => at(live.learning.step.before.grad.wValue, r, c);
  return {
    id: `ch3-weight-direction:${r}:${c}`,
    prompt: (tr) => tr('ch3.ask.direction', { r: r + 1, c: c + 1 }),
    answer: (live) => -sign(gradOf(live)),
    hint: (tr, live) => [
      tr('ch3.hint.direction', { r: r + 1, c: c + 1, grad: formatExact(gradOf(live)) }),
      tr('ch3.hint.signTyping'),
    ],
  };
}

const steps = () => [
  singleStep({
    id: 'learn-target',
    titleKey: 'ch3.title.target',
    duration: duration(3, 0.9),
    build: buildTarget,
  }),
  ...gradSteps.map((spec) =>
    singleStep({
      id: spec.id,
      titleKey: `ch3.title.${spec.id}`,
      duration: duration(3, 0.9),
      build: buildGrad(spec),
      questions: spec.questions,
    }),
  ),
  singleStep({
    id: 'learn-update',
    titleKey: 'ch3.title.update',
    duration: duration(4, 0.9),
    build: buildUpdate,
    questions: (numbers) => [directionQuestion(numbers)],
  }),
];

/** The weight matrices the step changes. */
const WEIGHTS = ['wQuery', 'wKey', 'wValue'];
/** Every gradient of the step, in the order the way back finds them. */
const GRADIENTS = ['outputs', 'weights', 'scores', 'queries', 'keys', 'values', ...WEIGHTS];

/**
 * The tables and "Your numbers" on this stage: every gradient, then the weights after the
 * steps; the weights' gradients beside.
 */
const panels = {
  note: 'ch3.panels.learn',
  tables: (ctx) => [
    ...GRADIENTS.map((field) => () => gradientView(ctx, field)),
    ...WEIGHTS.map((name) => () => updatedView(ctx, name)),
  ],
  sidebar: (ctx) => WEIGHTS.map((name) => () => gradientView(ctx, name)),
};

export default { titleKey: 'stage.learn', steps, panels, reads: ['learning'], usesExample: true };
