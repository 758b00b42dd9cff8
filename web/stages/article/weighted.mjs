// Chapter 1: each value row multiplied by query i's weight for it, giving the weighted values
// (yellow). Row by row: the weight and the value light up, then their product lands.
import { h } from '../../dom.mjs';
import {
  formatExact,
  formatGrid,
  formatList,
  formatVector,
  relation,
  subscript,
} from '../../format.mjs';
import { rowOf } from '../../model/matrix.mjs';
import { entry, formula, mi, sub } from '../../draw/mathml.mjs';
import { matrixView } from '../../draw/matrix-view.mjs';
import { fullMatrix, indexed } from '../../draw/matrices.mjs';
import { operator, termLines } from '../../draw/term-line.mjs';
import {
  activeItem,
  duration,
  itemAmount,
  land,
  progressOf,
  ramp,
  reveal,
  setActive,
} from '../../draw/timing.mjs';
import { ROLES } from '../../roles.mjs';
import { perQuery } from './query-step.mjs';

function build(ctx, i) {
  const { numbers, tr } = ctx;
  const { n, dV } = numbers.dims;
  const shown = numbers.shown;
  // Each matrix with the same decimals throughout (no "0" beside "0.000").
  const weightedTexts = formatGrid(
    Array.from({ length: n }, (_, j) =>
      Array.from({ length: dV }, (_, c) => shown.weighted(i, j, c)),
    ),
    shown.format,
  );
  const weightTexts = formatList(
    Array.from({ length: n }, (_, j) => shown.weight(i, j)),
    shown.format,
  );
  const keyLabels = Array.from({ length: n }, (_, j) => tr('label.key', { j: j + 1, i: j + 1 }));
  const weights = matrixView({
    matrix: 'weights',
    role: ROLES.weights.role,
    symbol: indexed('a', `${i + 1},j`),
    symbolText: `a_${i + 1},j`,
    name: tr('matrix.weights'),
    rows: n,
    cols: 1,
    transpose: true,
    rowIndex: (j) => j,
    colIndex: () => i,
    text: (j) => weightTexts[j],
    rowLabels: keyLabels,
    inspectable: true,
    shape: `${n}×1`,
  });
  const values = fullMatrix(ctx, 'values', { rowLabels: false });
  const weighted = matrixView({
    matrix: 'weighted',
    role: ROLES.weighted.role,
    symbol: indexed('a', `${i + 1},j`, h('span', {}, ' v', h('sub', { text: 'j' }))),
    symbolText: `a_${i + 1},j v_j`,
    name: tr('matrix.weighted'),
    rows: n,
    cols: dV,
    text: (j, c) => weightedTexts[j][c],
    dataset: { query: i },
    inspectable: true,
  });
  // The article's notation for each row: "a₁,₂ · v₂ = 0.5 · [2, 8, 0] = [1.0, 4.0, 0.0]".
  // A product printed from the exact weight may not be the printed weight times the value
  // (0.063 · 2 printed 0.127: the weight is 0.0634): such a line says "≈", and why.
  const signs = Array.from({ length: n }, (_, j) => {
    const valueTexts = formatList(rowOf(numbers.values, j), formatExact);
    const exact = weightedTexts[j].every(
      (product, c) => relation(product, [weightTexts[j], valueTexts[c]], ([w, v]) => w * v) === '=',
    );
    return exact ? '=' : '≈';
  });
  const lines = Array.from({ length: n }, (_, j) => {
    const products = `[${weightedTexts[j].join(', ')}]`;
    return `${weightTexts[j]} · ${formatVector(rowOf(numbers.values, j), formatExact)} ${signs[j]} ${products}`;
  });
  const lineElements = lines.map((text, j) =>
    h(
      'li',
      { class: 'term-line' },
      h('span', {
        class: 'lhs',
        text: `a${subscript(i + 1)},${subscript(j + 1)} · v${subscript(j + 1)} = `,
      }),
      h('span', { class: 'result', text }),
    ),
  );
  const element = h(
    'div',
    { class: 'scene scene-weighted' },
    h(
      'div',
      { class: 'equation' },
      weights.element,
      operator('×'),
      values.element,
      operator('='),
      weighted.element,
    ),
    termLines(tr, lineElements),
  );

  function render(t) {
    const p = progressOf(t);
    const active = activeItem(p, n);
    for (let j = 0; j < n; j++) {
      const local = itemAmount(p, n, j);
      const lit = p < 1 && j === active;
      setActive([weights.cell(j, 0), ...values.cells[j], ...weighted.cells[j]], lit);
      weighted.cells[j].forEach((cell) => land(cell, ramp(local, 0.35, 1)));
      reveal(lineElements[j], ramp(local, 0.35, 1));
    }
  }

  const sentences = [tr('weighted.multiply', { n }), tr('numbers.decimals')];
  if (signs.includes('≈')) sentences.push(tr('weighted.approx'));
  if (numbers.settings.rounding === 'article') sentences.push(tr('weighted.article'));
  return {
    element,
    render,
    explanation: {
      sentences,
      formula: formula(tr('formula.weighted'), entry('a', 'i', 'j'), sub(mi('v'), mi('j'))),
    },
    narration: tr('narrate.weighted', { i: i + 1, lines: lines.join('; ') }),
  };
}

const { queryStep, stage } = perQuery({
  family: 'weighted',
  titleKey: 'stage.weighted',
  duration: (dims) => duration(dims.n, 0.9),
  build,
  // Predict: each entry of each weighted value.
  questions: (i, { dims: { n, dV } }) =>
    Array.from({ length: n * dV }, (_, k) => ({
      cell: { matrix: 'weighted', query: i, row: Math.floor(k / dV), col: k % dV },
    })),
});

export { queryStep };
export default stage;
