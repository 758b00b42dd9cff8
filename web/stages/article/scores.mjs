// Chapter 1: the attention scores of query i: q_i dotted with every key (Kᵀ's columns), one
// dot product at a time; scaled by 1/√d_k when that switch is on; −∞ where the causal mask
// hides a later key.
import { h } from '../../dom.mjs';
import { formatExact, formatVector, operand, subscript } from '../../format.mjs';
import { at, rowOf } from '../../model/matrix.mjs';
import {
  entry,
  formula,
  frac,
  gap,
  mi,
  mn,
  mo,
  row as mrow,
  sqrt,
  sub,
  transposed,
} from '../../draw/mathml.mjs';
import { beforeAfter } from '../../draw/before-after.mjs';
import { matrixView } from '../../draw/matrix-view.mjs';
import { rowVector } from '../../draw/matrices.mjs';
import { columnSweep, sweepFrame } from '../../draw/sweep.mjs';
import { operator, termLine, termLines } from '../../draw/term-line.mjs';
import { duration, progressOf, setActive } from '../../draw/timing.mjs';
import { ROLES } from '../../roles.mjs';
import { perQuery, rowQuestions } from './query-step.mjs';

/**
 * s_ij = q_i·k_j (over √d_k when scaled), and the row s_i = q_i Kᵀ. With the causal mask on,
 * the formula says so: + m_ij, 0 for a key the query may see, −∞ after.
 */
function scoresFormula(tr, { scaled, causal }) {
  const dot = mrow(sub(mi('q'), mi('i')), mo('·'), sub(mi('k'), mi('j')));
  return formula(
    [tr(scaled ? 'formula.scoresScaled' : 'formula.scores'), causal && tr('formula.mask')]
      .filter(Boolean)
      .join(' '),
    entry('s', 'i', 'j'),
    mo('='),
    scaled ? frac(dot, sqrt(sub(mi('d'), mi('k')))) : dot,
    ...(causal ? [mo('+'), entry('m', 'i', 'j')] : []),
    gap(),
    sub(mi('s'), mi('i')),
    mo('='),
    sub(mi('q'), mi('i')),
    transposed('K'),
    ...(causal ? [mo('+'), sub(mi('m'), mi('i'))] : []),
    ...(causal
      ? [
          gap(),
          entry('m', 'i', 'j'),
          mo('='),
          mrow(mn('0'), mo('('), mi('j'), mo('≤'), mi('i'), mo(')'), mo(','), mo('−∞')),
        ]
      : []),
  );
}

function build(ctx, i) {
  const { numbers, tr } = ctx;
  const { n, dK } = numbers.dims;
  const { scaled } = numbers.settings;
  const query = rowVector(ctx, 'queries', i);
  const keysT = matrixView({
    matrix: 'keys',
    role: ROLES.keys.role,
    symbol: h('span', { class: 'symbol' }, 'K', h('sup', { text: 'T' })),
    symbolText: 'K^T',
    name: tr('matrix.keysTransposed'),
    rows: dK,
    cols: n,
    transpose: true,
    text: (m, j) => formatExact(at(numbers.keys, j, m)),
    colLabels: Array.from({ length: n }, (_, j) => `k${subscript(j + 1)}`),
    inspectable: true,
  });
  const scores = rowVector(ctx, 'scores', i, {
    name: tr('label.scoresOf', { i: i + 1 }),
    colLabels: Array.from({ length: n }, (_, j) => `k${subscript(j + 1)}`),
  });
  const sweep = columnSweep(
    keysT.element.querySelector('.matrix-frame'),
    ROLES.keys.role,
    (j) => [keysT.cell(0, j), keysT.cell(dK - 1, j)],
    n,
  );
  const lines = Array.from({ length: n }, (_, j) => {
    const lhs = `s${subscript(i + 1)},${subscript(j + 1)} = q${subscript(i + 1)}·k${subscript(j + 1)} =`;
    const value = formatExact(at(numbers.scores, i, j));
    if (numbers.masked(i, j)) {
      return termLine(
        lhs,
        [tr('scores.maskedTerm', { i: i + 1, j: j + 1 })],
        `→ ${value}`,
        'is-masked',
      );
    }
    const terms = Array.from(
      { length: dK },
      (_, m) =>
        `${operand(formatExact(at(numbers.queries, i, m)))}·${operand(formatExact(at(numbers.keys, j, m)))}`,
    );
    return scaled
      ? termLine(`${lhs} (`, terms, `) ÷ √${dK} = ${value}`)
      : termLine(lhs, terms, `= ${value}`);
  });
  scores.cells[0].forEach((cell, j) => cell.classList.toggle('is-masked', numbers.masked(i, j)));
  const element = h(
    'div',
    { class: 'scene scene-scores' },
    h(
      'div',
      { class: 'equation' },
      query.element,
      operator('×'),
      keysT.element,
      operator('='),
      scores.element,
    ),
    termLines(
      tr,
      lines.map((line) => line.element),
    ),
  );

  function render(t) {
    const p = progressOf(t);
    sweepFrame(p, n, {
      lines,
      // A masked key's line is one term: "−∞ (masked)".
      terms: (j) => (numbers.masked(i, j) ? 1 : dK),
      from: 0.15,
      to: 0.8,
      result: (j) => scores.cell(0, j),
      sweep,
      each(j, { current }) {
        for (let m = 0; m < dK; m++) keysT.cell(m, j).classList.toggle('is-active', current);
      },
    });
    setActive(query.cells[0], p < 1);
  }

  const { causal } = numbers.settings;
  const hidden = n - 1 - i; // keys after query i, which the causal mask hides
  const sentences = causal
    ? [
        tr('scores.dotCausal', { i: i + 1 }),
        tr(hidden > 0 ? 'scores.countCausal' : 'scores.countCausalNone', {
          i: i + 1,
          visible: i + 1,
          hidden,
        }),
      ]
    : [tr('scores.dot', { i: i + 1 }), tr('scores.count', { i: i + 1, n })];
  if (i === 0 && n > 1) sentences.push(tr('scores.onlyFirst'));
  if (scaled) sentences.push(tr('scores.scaled', { dK }));
  return {
    element,
    render,
    explanation: {
      sentences,
      formula: scoresFormula(tr, numbers.settings),
      notes: [...beforeAfter(ctx, i, 'scores'), { kind: 'slip', text: tr('note.articleSlip') }],
    },
    narration: tr('narrate.scores', { i: i + 1, vector: formatVector(rowOf(numbers.scores, i)) }),
  };
}

const { queryStep, stage } = perQuery({
  family: 'scores',
  titleKey: 'stage.scores',
  duration: (dims) => duration(dims.n),
  build,
  // Predict: the score of query i for each key.
  questions: rowQuestions('scores'),
});

export { queryStep };
export default stage;
