// Chapter 2: one layer, several heads. The same inputs X (the article's three tokens
// and a fourth) are projected by W_Q, W_K and W_V as in chapter 1, but the columns of the
// results are split into heads, one colour per head: head h works with its own block of
// d_head columns. Each head's block lands in turn.
import { h } from '../../dom.mjs';
import { formula, mi, mo, row as mrow, sub, sup } from '../../draw/mathml.mjs';
import { headChip, layerInput, layerProjection } from '../../draw/layer-views.mjs';
import { operator } from '../../draw/term-line.mjs';
import { duration, itemAmount, land, progressOf } from '../../draw/timing.mjs';
import { singleStep } from '../single-step.mjs';

function build(ctx) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { heads, kvHeads, dHead, dModel, n } = layer.dims;
  const x = layerInput(ctx, 'x');
  const rows = ['queries', 'keys', 'values'].map((field) => {
    const weight = { queries: 'wQuery', keys: 'wKey', values: 'wValue' }[field];
    const w = layerInput(ctx, weight);
    const result = layerProjection(ctx, field);
    return {
      result,
      element: h(
        'div',
        { class: 'equation layer-equation' },
        operator('X ×'),
        w.element,
        operator('='),
        result.element,
      ),
    };
  });
  const legend = h(
    'ul',
    { class: 'head-legend', 'aria-label': tr('ch2.heads.legend') },
    Array.from({ length: heads }, (_, hd) =>
      h(
        'li',
        {},
        headChip(hd, tr('ch2.head', { h: hd + 1 })),
        ' ',
        tr('ch2.heads.columns', {
          from: hd * dHead + 1,
          to: (hd + 1) * dHead,
          g: layer.kvHeadOf(hd) + 1,
        }),
      ),
    ),
  );
  const element = h(
    'div',
    { class: 'scene scene-heads' },
    h('div', { class: 'layer-inputs' }, x.element, legend),
    rows.map((row) => row.element),
  );

  function render(t) {
    const p = progressOf(t);
    // One head after another: its columns of Q, K and V land together.
    for (const { result } of rows) {
      result.cells.forEach((row) =>
        row.forEach((cell) => land(cell, itemAmount(p, heads, cell.colourHead))),
      );
    }
  }

  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch2.heads.grown', { n, dModel }),
        tr('ch2.heads.split', { heads, dHead, width: heads * dHead }),
        tr(kvHeads === heads ? 'ch2.heads.kvSame' : 'ch2.heads.kvShared', { heads, kvHeads }),
      ],
      formula: formula(
        tr('ch2.formula.split'),
        sub(mi('Q'), mi('h')),
        mo('='),
        mi('X'),
        sup(sub(mi('W'), mi('Q')), mrow(mo('('), mi('h'), mo(')'))),
        mo(','),
        mo('  '),
        sub(mi('d'), mi('head')),
        mo('='),
        mi(String(dHead)),
      ),
    },
    narration: tr('ch2.narrate.heads', { heads, dHead, kvHeads }),
  };
}

const steps = () => [
  singleStep({
    id: 'heads-split',
    titleKey: 'ch2.title.heads',
    duration: duration(4, 0.8),
    build,
  }),
];

export default { titleKey: 'stage.heads', steps, reads: ['layer'] };
