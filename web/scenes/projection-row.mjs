// Stage 3, row by row: input i times a weight matrix gives key / value / query i. A frame
// sweeps across the weight columns; for each column the products x·w appear one by one and
// their sum (from trace()) lands in the result cell.
import { h } from '../dom.mjs';
import { formatExact, formatVector, operand, subscript } from '../format.mjs';
import { at, rowOf } from '../figures.mjs';
import { formula, gap, mi, mo, row as mrow, sub, sumOver, weightSymbol } from '../mathml.mjs';
import {
  MATRICES,
  columnSweep,
  fullMatrix,
  operator,
  rowVector,
  sweepPosition,
  termLine,
} from './parts.mjs';
import { activeItem, itemAmount, land, progressOf, ramp, setActive } from './timing.mjs';

const TERMS_FROM = 0.15;
const TERMS_TO = 0.8;

export function build(ctx) {
  const { figures, tr, step } = ctx;
  const { role, weight, row: i } = step.params;
  const meta = MATRICES[role];
  const { dIn } = figures.dims;
  const cols = figures[role].cols;
  const input = rowVector(ctx, 'x', i);
  const weights = fullMatrix(ctx, weight);
  const result = rowVector(ctx, role, i);
  const sweep = columnSweep(
    weights.element.querySelector('.matrix-frame'),
    meta.role,
    (c) => [weights.cell(0, c), weights.cell(dIn - 1, c)],
    cols,
  );
  const lines = Array.from({ length: cols }, (_, c) =>
    termLine(
      `${meta.letter}${subscript(i + 1)},${subscript(c + 1)} =`,
      Array.from(
        { length: dIn },
        (_, m) =>
          `${operand(formatExact(at(figures.x, i, m)))}·${operand(formatExact(at(figures[weight], m, c)))}`,
      ),
      `= ${formatExact(at(figures[role], i, c))}`,
    ),
  );
  const element = h(
    'div',
    { class: 'scene scene-projection-row' },
    h(
      'div',
      { class: 'equation' },
      input.element,
      operator('×'),
      weights.element,
      operator('='),
      result.element,
    ),
    h(
      'ol',
      { class: 'term-lines', 'aria-label': tr('scene.arithmetic') },
      lines.map((line) => line.element),
    ),
  );

  function render(t) {
    const p = progressOf(t);
    const active = activeItem(p, cols);
    const activeLocal = itemAmount(p, cols, active);
    for (let c = 0; c < cols; c++) {
      const local = itemAmount(p, cols, c);
      const termsShown = ramp(local, TERMS_FROM, TERMS_TO) * dIn;
      const landing = ramp(local, TERMS_TO, 1);
      lines[c].show(termsShown, landing);
      land(result.cell(0, c), landing);
      const highlighted = c === active && p < 1;
      for (let m = 0; m < dIn; m++) {
        const current = highlighted && Math.ceil(termsShown) - 1 === m && landing <= 0;
        weights.cell(m, c).classList.toggle('is-active', highlighted);
        weights.cell(m, c).classList.toggle('is-current', current);
      }
    }
    const currentTerm = Math.ceil(ramp(activeLocal, TERMS_FROM, TERMS_TO) * dIn) - 1;
    input.cells[0].forEach((cell, m) =>
      cell.classList.toggle('is-current', p < 1 && m === currentTerm),
    );
    setActive(input.cells[0], p < 1);
    sweep.place(sweepPosition(active, activeLocal), p < 1);
  }

  const symbol = meta.letter;
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr(`projection.row.${role}`, { i: i + 1, weight: weightLabel(weight) }),
        tr(i === 0 ? 'projection.row.first' : 'projection.row.same', {
          i: i + 1,
          role: tr(`role.${meta.role}`),
        }),
      ],
      formula: formula(
        tr('formula.projectionRow', { role: tr(`role.${meta.role}`), i: i + 1 }),
        sub(mi(symbol), mi('i')),
        mo('='),
        sub(mi('x'), mi('i')),
        weightSymbolFor(weight),
        gap(),
        mrow(sub(mi(symbol), mrow(mi('i'), mo(','), mi('c')))),
        mo('='),
        sumOver('m'),
        sub(mi('x'), mrow(mi('i'), mo(','), mi('m'))),
        mrow(weightSymbolFor(weight), mo('['), mi('m'), mo(','), mi('c'), mo(']')),
      ),
    },
    narration: tr('narrate.projectionRow', {
      role: tr(`role.${meta.role}`),
      i: i + 1,
      weight: weightLabel(weight),
      vector: formatVector(rowOf(figures[role], i)),
    }),
  };
}

const WEIGHT_LETTER = { wKey: 'K', wQuery: 'Q', wValue: 'V' };
export const weightLabel = (weight) => `W_${WEIGHT_LETTER[weight]}`;
export const weightSymbolFor = (weight) => weightSymbol(WEIGHT_LETTER[weight]);
