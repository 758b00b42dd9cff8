// Chapter 3's matrices as views, shared by its scenes and the tables panel: the views of the
// stages' numbers (the order stage's inputs and outputs, the learning step's gradients and
// updated weights, the block's parts), each in its role's colour and with its symbol from the
// page's one registry of matrices (roles.mjs). Which of them the tables panel shows is each
// stage's own choice (its `tables`).
import { numberMatrix } from './learning-views.mjs';
import { fromRows } from '../model/matrix.mjs';
import { ROLES } from '../roles.mjs';

/**
 * A chapter 3 matrix in its role's colour: `name` an i18n key (with `nameParams`), the rest
 * numberMatrix's.
 */
const view = (ctx, field, { name, nameParams, letter = null, ...spec }) => {
  const { role, symbol } = ROLES[field];
  return numberMatrix({ role, symbol, ...spec, name: ctx.tr(name, nameParams), letter });
};

/** ∂L/∂<field> of the learning step, its cells' arithmetic on hover. */
export function gradientView(ctx, field) {
  const { symbol, rowSymbol = null } = ROLES[field];
  return view(ctx, field, {
    matrix: `grad-${field}`,
    symbol: Array.isArray(symbol) ? [`∂L/∂${symbol[0]}`, symbol[1]] : `∂L/∂${symbol}`,
    name: 'ch3.learn.gradient',
    value: ctx.numbers.learning.step.before.grad[field],
    letter: rowSymbol, // a weight matrix's rows are no token's
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
    letter: ROLES[field].rowSymbol,
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
    name: ROLES[field].nameKey,
    value: ctx.numbers.learning.block[field],
    letter: ROLES[field].letter ?? null,
    // R, N and Z: their arithmetic on hover and focus (model/arithmetic-learning.mjs)
    inspectable: ['residual', 'normed', 'output'].includes(field),
  });

/**
 * The order stage's X and its outputs for one run of attention (plain, shuffled, with
 * positions), rows labelled by the token they hold: { input, output } views.
 */
export function orderViews(ctx, run, rowTokens, suffix, symbols) {
  const [input, output] = [
    ['x', 'inputs', run.x],
    ['y', 'outputs', run.outputs],
  ].map(([id, name, value], k) =>
    numberMatrix({
      matrix: `order-${id}${suffix}`,
      role: ROLES[id].role,
      symbol: symbols[k],
      name: ctx.tr(`ch3.order.${name}`),
      value,
      letter: ROLES[id].letter,
      rowTokens,
    }),
  );
  return { input, output };
}

/** The order stage's position vectors P (one row per place). */
export const positionsView = (ctx) =>
  numberMatrix({
    matrix: 'order-p',
    role: ROLES.positions.role,
    symbol: ROLES.positions.symbol,
    name: ctx.tr('ch3.order.positions'),
    value: fromRows(ctx.numbers.learning.order.positions),
    letter: ROLES.positions.letter,
  });
