// Chapter 3's matrices as views, shared by its scenes and the tables panel: one table of each
// matrix's role (its colour) and symbol, the views of the stages' numbers (the order stage's
// inputs and outputs, the learning step's gradients and updated weights, the block's parts),
// and which of them the tables panel shows for a stage. No stage draws these differently.
import { numberMatrix } from './learning-views.mjs';
import { fromRows } from '../model/matrix.mjs';

/** Every chapter 3 matrix, by its role (its colour): the learning step's, then the block's. */
const FIELDS_BY_ROLE = {
  input: ['x', 'residual', 'normed'],
  output: ['outputs', 'y', 'output'],
  score: ['weights', 'scores'],
  query: ['queries', 'wQuery'],
  key: ['keys', 'wKey'],
  value: ['values', 'wValue', 'w1', 'w2'],
  weighted: ['hidden', 'mlp'],
};
/** Their symbols, as "field:symbol" ("W_Q": W with subscript Q). */
const SYMBOLS = `outputs:O weights:A scores:S queries:Q keys:K values:V wQuery:W_Q wKey:W_K
  wValue:W_V x:X y:Y residual:R normed:N hidden:H mlp:M output:Z w1:W_1 w2:W_2`;
/** { role, symbol } of each matrix, symbol [base, subscript] where it has one. */
const MATRICES = Object.fromEntries(
  SYMBOLS.split(/\s+/).map((entry) => {
    const [field, text] = entry.split(':');
    const role = Object.keys(FIELDS_BY_ROLE).find((r) => FIELDS_BY_ROLE[r].includes(field));
    return [field, { role, symbol: text.includes('_') ? text.split('_') : text }];
  }),
);
/** The letter of a row's token label (q₁, k₂, …), by matrix: the query's where none is named. */
const ROW_LETTER = { outputs: 'o', keys: 'k', values: 'v' };
/** The block's: each matrix's own (y₁ is a row of Y), as its cells' arithmetic names them. */
const BLOCK_ROW_LETTER = {
  x: 'x',
  y: 'y',
  residual: 'r',
  normed: 'n',
  hidden: 'h',
  mlp: 'm',
  output: 'z',
};

const GRADIENT_FIELDS = ['outputs', 'weights', 'scores', 'queries', 'keys', 'values'];
const WEIGHT_FIELDS = ['wQuery', 'wKey', 'wValue'];
const BLOCK_FIELDS = ['x', 'y', 'residual', 'normed', 'hidden', 'mlp', 'output'];

/**
 * A chapter 3 matrix in its role's colour: `name` an i18n key (with `nameParams`), the rest
 * numberMatrix's.
 */
const view = (ctx, field, { name, nameParams, letter = null, ...spec }) =>
  numberMatrix({ ...MATRICES[field], ...spec, name: ctx.tr(name, nameParams), letter });

/** ∂L/∂<field> of the learning step, its cells' arithmetic on hover. */
export function gradientView(ctx, field) {
  const { symbol } = MATRICES[field];
  return view(ctx, field, {
    matrix: `grad-${field}`,
    symbol: Array.isArray(symbol) ? [`∂L/∂${symbol[0]}`, symbol[1]] : `∂L/∂${symbol}`,
    name: 'ch3.learn.gradient',
    value: ctx.numbers.learning.step.before.grad[field],
    letter: WEIGHT_FIELDS.includes(field) ? null : (ROW_LETTER[field] ?? 'q'),
    className: 'grad-matrix',
    inspectable: true,
  });
}

/** A matrix of the learning step's forward pass (trace()'s, before the step), for reference. */
export const forwardView = (ctx, field) =>
  view(ctx, field, {
    matrix: `learn-${field}`,
    name: `ch3.learn.name.${field}`,
    value: ctx.numbers.learning.step.before[field],
    letter: ROW_LETTER[field] ?? 'q',
  });

/** W_Q, W_K or W_V after the steps taken (W − η·∂L/∂W each), its cells' arithmetic on hover. */
export const updatedView = (ctx, name) =>
  view(ctx, name, {
    matrix: `learn-new-${name}`,
    name: 'ch3.learn.after',
    nameParams: { steps: ctx.numbers.learning.step.steps },
    value: ctx.numbers.learning.step.weightsAfter[name],
    inspectable: true,
  });

/** A part of the rest of the block (chapter 2's layer, then residual, LayerNorm, MLP). */
export const blockView = (ctx, field) =>
  view(ctx, field, {
    matrix: `block-${field}`,
    name: `ch3.block.name.${field}`,
    value: ctx.numbers.learning.block[field],
    letter: BLOCK_ROW_LETTER[field] ?? null,
    // R, N and Z: their arithmetic on hover and focus (model/arithmetic-learning.mjs)
    inspectable: ['residual', 'normed', 'output'].includes(field),
  });

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
