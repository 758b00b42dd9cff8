// Chapter 2: the heads' outputs put side by side (the concatenation, each head's
// block in its colour), then multiplied by W_O back to d_model columns, filled cell by cell
// as chapter 1's X·W products are: the row of the concatenation and the column of W_O that
// make each cell light up.
import { h } from '../../dom.mjs';
import { formatVector, subscript } from '../../format.mjs';
import { formula, mi, mo, row as mrow, sub } from '../../draw/mathml.mjs';
import { gridTexts, headBlocksMatrix, layerInput } from '../../draw/layer-views.mjs';
import { matrixView } from '../../draw/matrix-view.mjs';
import { productScene } from '../../draw/product-scene.mjs';
import { operator } from '../../draw/term-line.mjs';
import { activeItem, duration, itemAmount, land, progressOf } from '../../draw/timing.mjs';
import { at } from '../../model/matrix.mjs';
import { ROLES } from '../../roles.mjs';
import { singleStep } from '../single-step.mjs';

function concatView(ctx) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { n, dHead } = layer.dims;
  return headBlocksMatrix({
    matrix: 'concat',
    role: ROLES.concat.role,
    symbol: ROLES.concat.symbol,
    name: tr(ROLES.concat.nameKey),
    rows: n,
    cols: layer.concat.cols,
    value: (i, c) => at(layer.concat, i, c),
    blockSize: dHead,
    rowLabels: Array.from({ length: n }, (_, i) => `${ROLES.concat.letter}${subscript(i + 1)}`),
    inspectable: true,
  });
}

function outputsView(ctx) {
  const { numbers, tr } = ctx;
  const { outputs } = numbers.layer;
  return matrixView({
    matrix: 'layer-outputs',
    role: ROLES.y.role,
    symbol: ROLES.y.symbol,
    name: tr('ch2.output.name'),
    rows: outputs.rows,
    cols: outputs.cols,
    text: gridTexts(outputs.rows, outputs.cols, (i, c) => at(outputs, i, c)),
    rowLabels: Array.from(
      { length: outputs.rows },
      (_, i) => `${ROLES.y.letter}${subscript(i + 1)}`,
    ),
    inspectable: true,
  });
}

function buildConcat(ctx) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { n, heads, dHead } = layer.dims;
  const headViews = Array.from({ length: heads }, (_, hd) => {
    const outputs = layer.heads[hd].outputs;
    const view = matrixView({
      matrix: 'head-outputs',
      role: ROLES.outputs.role,
      symbol: `${ROLES.outputs.symbol}${subscript(hd + 1)}`,
      name: tr('ch2.concat.headOutput', { h: hd + 1 }),
      rows: n,
      cols: dHead,
      text: gridTexts(n, dHead, (i, c) => at(outputs, i, c)),
      dataset: { head: hd },
      inspectable: true,
      className: `head-${hd + 1} head-output`,
    });
    view.cells.flat().forEach((cell) => cell.classList.add(`head-${hd + 1}`));
    return view;
  });
  const concat = concatView(ctx);
  const element = h(
    'div',
    { class: 'scene scene-concat' },
    h(
      'div',
      { class: 'equation head-outputs' },
      headViews.flatMap((view, hd) => [hd > 0 ? operator('|') : null, view.element]),
    ),
    h('div', { class: 'equation' }, operator('→'), concat.element),
  );

  function render(t) {
    const p = progressOf(t);
    concat.cells.forEach((row) =>
      row.forEach((cell) => land(cell, itemAmount(p, heads, Number(cell.dataset.head)))),
    );
    headViews.forEach((view, hd) => {
      const running = p < 1 && activeItem(p, heads) === hd;
      view.cells.flat().forEach((cell) => cell.classList.toggle('is-active', running));
    });
  }

  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch2.concat.why', { heads, dHead, width: heads * dHead }),
        tr('ch2.concat.noMixing'),
      ],
      formula: formula(
        tr('ch2.formula.concat'),
        mi('C'),
        mo('='),
        mrow(
          mo('['),
          sub(mi('O'), mi('1')),
          mo('|'),
          mo('…'),
          mo('|'),
          sub(mi('O'), mi('H')),
          mo(']'),
        ),
      ),
    },
    narration: tr('ch2.narrate.concat', {
      heads,
      row: formatVector(Array.from(layer.concat.data.slice(0, layer.concat.cols))),
    }),
  };
}

function buildProjection(ctx) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { dModel } = layer.dims;
  const { element, render } = productScene('scene-output-projection', {
    left: concatView(ctx),
    right: layerInput(ctx, 'wOut'),
    result: outputsView(ctx),
  });

  return {
    element,
    render,
    explanation: {
      sentences: [tr('ch2.output.why', { dModel }), tr('ch2.output.mix')],
      formula: formula(tr('ch2.formula.output'), mi('Y'), mo('='), mi('C'), sub(mi('W'), mi('O'))),
    },
    narration: tr('ch2.narrate.output', {
      row: formatVector(Array.from(layer.outputs.data.slice(0, dModel))),
    }),
  };
}

const steps = (dims, layerDims) => [
  singleStep({
    id: 'heads-concat',
    titleKey: 'ch2.title.concat',
    duration: duration(layerDims.heads, 0.8),
    build: buildConcat,
  }),
  singleStep({
    id: 'output-projection',
    titleKey: 'ch2.title.output',
    duration: duration(layerDims.n * layerDims.dModel, 0.25),
    build: buildProjection,
  }),
];

export default { titleKey: 'stage.output', steps, reads: ['layer'] };
