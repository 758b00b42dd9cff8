// Chapter 3's matrices as views, shared by its scenes and the tables panel: one table of each
// matrix's role (its colour) and symbol, the views of the stages' numbers (the order stage's
// inputs and outputs, the learning step's gradients and updated weights, the block's parts),
// and which of them the tables panel shows for a stage. No stage draws these differently.
import { numberMatrix } from './learning-views.mjs';
import { fromRows } from '../model/matrix.mjs';

/** Role and symbol of every chapter 3 matrix (a symbol [base, subscript] for W_Q and the like). */
const MATRICES = {
  // The learning step: trace()'s matrices, their gradients, the weights.
  outputs: { role: 'output', symbol: 'O' },
  weights: { role: 'score', symbol: 'A' },
  scores: { role: 'score', symbol: 'S' },
  queries: { role: 'query', symbol: 'Q' },
  keys: { role: 'key', symbol: 'K' },
  values: { role: 'value', symbol: 'V' },
  wQuery: { role: 'query', symbol: ['W', 'Q'] },
  wKey: { role: 'key', symbol: ['W', 'K'] },
  wValue: { role: 'value', symbol: ['W', 'V'] },
  // The rest of the block.
  x: { role: 'input', symbol: 'X' },
  y: { role: 'output', symbol: 'Y' },
  residual: { role: 'input', symbol: 'R' },
  normed: { role: 'input', symbol: 'N' },
  hidden: { role: 'weighted', symbol: 'H' },
  mlp: { role: 'weighted', symbol: 'M' },
  output: { role: 'output', symbol: 'Z' },
  w1: { role: 'value', symbol: ['W', '1'] },
  w2: { role: 'value', symbol: ['W', '2'] },
};
/** The letter of a row's token label (q₁, k₂, …), by matrix. */
const ROW_LETTER = { outputs: 'o', keys: 'k', values: 'v' };

const GRADIENT_FIELDS = ['outputs', 'weights', 'scores', 'queries', 'keys', 'values'];
const WEIGHT_FIELDS = ['wQuery', 'wKey', 'wValue'];
const BLOCK_FIELDS = ['x', 'y', 'residual', 'normed', 'hidden', 'mlp', 'output'];

/** ∂L/∂<field> of the learning step, its cells' arithmetic on hover. */
export function gradientView(ctx, field) {
  const { role, symbol } = MATRICES[field];
  const isWeight = field.startsWith('w');
  return numberMatrix({
    matrix: `grad-${field}`,
    role,
    symbol: Array.isArray(symbol) ? [`∂L/∂${symbol[0]}`, symbol[1]] : `∂L/∂${symbol}`,
    name: ctx.tr('ch3.learn.gradient'),
    value: ctx.numbers.learning.step.before.grad[field],
    letter: isWeight ? null : (ROW_LETTER[field] ?? 'q'),
    className: 'grad-matrix',
    inspectable: true,
  });
}

/** A matrix of the learning step's forward pass (trace()'s, before the step). */
export function forwardView(ctx, field) {
  return numberMatrix({
    matrix: `learn-${field}`,
    ...MATRICES[field],
    name: ctx.tr(`ch3.learn.name.${field}`),
    value: ctx.numbers.learning.step.before[field],
    letter: ROW_LETTER[field] ?? 'q',
  });
}

/** W_Q, W_K or W_V after the step taken (W − η·∂L/∂W), its cells' arithmetic on hover. */
export function updatedView(ctx, name) {
  return numberMatrix({
    matrix: `learn-new-${name}`,
    ...MATRICES[name],
    name: ctx.tr('ch3.learn.updated'),
    value: ctx.numbers.learning.step.weightsAfter[name],
    letter: null,
    inspectable: true,
  });
}

/** A part of the rest of the block (chapter 2's layer, then residual, LayerNorm, MLP). */
export function blockView(ctx, field) {
  return numberMatrix({
    matrix: `block-${field}`,
    ...MATRICES[field],
    name: ctx.tr(`ch3.block.name.${field}`),
    value: ctx.numbers.learning.block[field],
    letter: field.startsWith('w') ? null : 'x',
    // R, N and Z: their arithmetic on hover and focus (model/arithmetic-learning.mjs)
    inspectable: ['residual', 'normed', 'output'].includes(field),
  });
}

/**
 * The order stage's X and its outputs for one run of attention (plain, shuffled, with
 * positions), rows labelled by the token they hold: { input, output } views.
 */
export function orderViews(ctx, run, rowTokens, suffix, symbols) {
  const [input, output] = [
    ['x', 'input', 'inputs', run.x, 'x'],
    ['y', 'output', 'outputs', run.outputs, 'y'],
  ].map(([id, role, name, value, letter], k) =>
    numberMatrix({
      matrix: `order-${id}${suffix}`,
      role,
      symbol: symbols[k],
      name: ctx.tr(`ch3.order.${name}`),
      value,
      letter,
      rowTokens,
    }),
  );
  return { input, output };
}

/** The order stage's position vectors P (one row per place). */
export const positionsView = (ctx) =>
  numberMatrix({
    matrix: 'order-p',
    role: 'input',
    symbol: 'P',
    name: ctx.tr('ch3.order.positions'),
    value: fromRows(ctx.numbers.learning.order.positions),
    letter: 'p',
  });

/** The order stage's matrices for the tables: X, Y; X′, Y′ (shuffled); P; both again with P. */
function orderBuilders(ctx) {
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

/**
 * The views the tables panel shows on a chapter 3 stage (by its name), each as a function
 * that builds it; null for a stage whose numbers are not a table (the training run's loss
 * and heads are drawn and exported by its scene).
 */
export function learningTableBuilders(ctx, stage) {
  if (stage === 'order') return orderBuilders(ctx);
  if (stage === 'learn') {
    return [
      ...[...GRADIENT_FIELDS, ...WEIGHT_FIELDS].map((field) => () => gradientView(ctx, field)),
      ...WEIGHT_FIELDS.map((name) => () => updatedView(ctx, name)),
    ];
  }
  if (stage === 'block' && ctx.numbers.learning.block) {
    return [...BLOCK_FIELDS, 'w1', 'w2'].map((field) => () => blockView(ctx, field));
  }
  return null;
}
