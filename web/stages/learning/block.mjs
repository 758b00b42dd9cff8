// Chapter 3, stage "The rest of the block": after attention, on chapter 2's layer, the
// residual connection X + Y, LayerNorm, the MLP and the second residual, so the reader sees
// where attention sits in a Transformer block and why blocks stack (the output has X's shape).
import { formula, mi, mo, row as mrow, sub } from '../../draw/mathml.mjs';
import { messageScene, revealedRow } from '../../draw/learning-views.mjs';
import { blockView } from '../../draw/learning-tables.mjs';
import { operator } from '../../draw/term-line.mjs';
import { duration } from '../../draw/timing.mjs';
import { singleStep } from '../single-step.mjs';

const view = blockView;

const op = (text) => ({ element: operator(text), operator: true });

function buildResidual(ctx) {
  const { tr, numbers } = ctx;
  const block = numbers.learning.block;
  if (!block) return noBlock(ctx);
  return revealedRow(
    'scene-block block-residual',
    [view(ctx, 'x'), op('+'), view(ctx, 'y'), op('='), view(ctx, 'residual')],
    {
      sentences: [tr('ch3.block.where'), tr('ch3.block.residual'), tr('ch3.block.why')],
      formula: formula(
        tr('ch3.formula.residual'),
        mi('R'),
        mo('='),
        mi('X'),
        mo('+'),
        mi('attention(X)'),
      ),
    },
    tr('ch3.narrate.residual'),
  );
}

function buildNorm(ctx) {
  const { tr, numbers } = ctx;
  const block = numbers.learning.block;
  if (!block) return noBlock(ctx);
  return revealedRow(
    'scene-block block-norm',
    [view(ctx, 'residual'), op('→'), view(ctx, 'normed')],
    {
      sentences: [tr('ch3.block.norm'), tr('ch3.block.normWhy')],
      formula: formula(
        tr('ch3.formula.norm'),
        mi('N'),
        mo('='),
        mrow(mo('('), mi('r'), mo('−'), mi('μ'), mo(')'), mo('/'), mi('σ')),
      ),
    },
    tr('ch3.narrate.norm'),
  );
}

function buildMlp(ctx) {
  const { tr, numbers } = ctx;
  const block = numbers.learning.block;
  if (!block) return noBlock(ctx);
  return revealedRow(
    'scene-block block-mlp',
    // N·W₁, through the ReLU, is H; H·W₂ is M; R + M is Z: both weight matrices in the row.
    [
      view(ctx, 'normed'),
      op('·'),
      view(ctx, 'w1'),
      op('→'),
      view(ctx, 'hidden'),
      op('·'),
      view(ctx, 'w2'),
      op('='),
      view(ctx, 'mlp'),
      op('→'),
      view(ctx, 'output'),
    ],
    {
      sentences: [
        tr('ch3.block.mlp', { hidden: block.hidden.cols, d: block.x.cols }),
        tr('ch3.block.second'),
        tr('ch3.block.stack'),
      ],
      formula: formula(
        tr('ch3.formula.mlp'),
        mi('Z'),
        mo('='),
        mi('R'),
        mo('+'),
        mi('ReLU'),
        mo('('),
        mi('N'),
        sub(mi('W'), mi('1')),
        mo(')'),
        sub(mi('W'), mi('2')),
      ),
    },
    tr('ch3.narrate.mlp'),
  );
}

const noBlock = ({ tr }) => messageScene(tr('ch3.block.noShape'));

const step = (id, seconds, build) =>
  singleStep({ id, titleKey: `ch3.title.${id}`, duration: duration(seconds, 0.9), build });

const steps = () => [
  step('block-residual', 3, buildResidual),
  step('block-norm', 2, buildNorm),
  step('block-mlp', 4, buildMlp),
];

/** The block's parts in the order they are computed, then the MLP's weights. */
const PARTS = ['x', 'y', 'residual', 'normed', 'hidden', 'mlp', 'output'];
const MLP_WEIGHTS = ['w1', 'w2'];

/**
 * The tables and "Your numbers" on this stage: the block's parts and weights, the MLP's
 * weights beside (none before the block's numbers are computed).
 */
const panels = {
  note: 'ch3.panels.block',
  tables: (ctx) =>
    ctx.numbers.learning.block
      ? [...PARTS, ...MLP_WEIGHTS].map((field) => () => blockView(ctx, field))
      : null,
  sidebar: (ctx) =>
    ctx.numbers.learning.block ? MLP_WEIGHTS.map((name) => () => blockView(ctx, name)) : [],
};

export default { titleKey: 'stage.block', steps, panels, reads: ['learning'] };
