// Chapter 1: keys, values and queries. Row by row first: input i times a weight matrix gives
// key / value / query i (a frame sweeps across the weight columns; for each column the
// products x·w appear one by one and their sum lands in the result cell). Then all rows at
// once: X · W as one matrix product, filled cell by cell while the row of X and the column
// of W that make each cell light up.
import { h } from '../../dom.mjs';
import { formatExact, formatVector, operand, subscript } from '../../format.mjs';
import { at, rowOf } from '../../model/matrix.mjs';
import {
  entry,
  formula,
  gap,
  mi,
  mo,
  row as mrow,
  sub,
  sumOver,
  weightSymbol,
} from '../../draw/mathml.mjs';
import { fullMatrix, rowVector } from '../../draw/matrices.mjs';
import { columnSweep, sweepFrame } from '../../draw/sweep.mjs';
import { operator, termLine, termLines } from '../../draw/term-line.mjs';
import { productScene } from '../../draw/product-scene.mjs';
import { duration, progressOf, ramp, setActive } from '../../draw/timing.mjs';
import { PROJECTIONS, ROLES, symbolText } from '../../roles.mjs';

const TERMS_FROM = 0.15;
const TERMS_TO = 0.8;

function buildRow(ctx) {
  const { numbers, tr, step } = ctx;
  const { role, row: i } = step.params;
  const meta = ROLES[role];
  const { weight } = meta;
  const { dIn } = numbers.dims;
  const cols = numbers[role].cols;
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
          `${operand(formatExact(at(numbers.x, i, m)))}·${operand(formatExact(at(numbers[weight], m, c)))}`,
      ),
      `= ${formatExact(at(numbers[role], i, c))}`,
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
    termLines(
      tr,
      lines.map((line) => line.element),
    ),
  );

  function render(t) {
    const p = progressOf(t);
    const { activeLocal } = sweepFrame(p, cols, {
      lines,
      terms: () => dIn,
      from: TERMS_FROM,
      to: TERMS_TO,
      result: (c) => result.cell(0, c),
      sweep,
      // The weight column being multiplied, its current entry marked.
      each(c, { terms, landing, current: highlighted }) {
        for (let m = 0; m < dIn; m++) {
          const current = highlighted && Math.ceil(terms) - 1 === m && landing <= 0;
          weights.cell(m, c).classList.toggle('is-active', highlighted);
          weights.cell(m, c).classList.toggle('is-current', current);
        }
      },
    });
    const currentTerm = Math.ceil(ramp(activeLocal, TERMS_FROM, TERMS_TO) * dIn) - 1;
    input.cells[0].forEach((cell, m) =>
      cell.classList.toggle('is-current', p < 1 && m === currentTerm),
    );
    setActive(input.cells[0], p < 1);
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
        mrow(entry(symbol, 'i', 'c')),
        mo('='),
        sumOver('m'),
        entry('x', 'i', 'm'),
        mrow(weightSymbolFor(weight), mo('['), mi('m'), mo(','), mi('c'), mo(']')),
      ),
    },
    narration: tr('narrate.projectionRow', {
      role: tr(`role.${meta.role}`),
      i: i + 1,
      weight: weightLabel(weight),
      vector: formatVector(rowOf(numbers[role], i)),
    }),
  };
}

const weightLabel = (weight) => symbolText(ROLES[weight].symbol);
const weightSymbolFor = (weight) => weightSymbol(ROLES[weight].symbol[1]);

function buildMatrix(ctx) {
  const { tr, step } = ctx;
  const { role } = step.params;
  const meta = ROLES[role];
  const { weight } = meta;
  const { element, render } = productScene('scene-projection-matrix', {
    left: fullMatrix(ctx, 'x'),
    right: fullMatrix(ctx, weight),
    result: fullMatrix(ctx, role),
  });

  const roleName = tr(`role.${meta.role}`);
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('projection.matrix.faster'),
        tr('projection.matrix.rows', { symbol: meta.symbol, role: roleName }),
      ],
      formula: formula(
        tr('formula.projectionMatrix', { symbol: meta.symbol, weight: weightLabel(weight) }),
        mi(meta.symbol),
        mo('='),
        mi('X'),
        weightSymbolFor(weight),
      ),
    },
    narration: tr('narrate.projectionMatrix', {
      symbol: meta.symbol,
      weight: weightLabel(weight),
      role: roleName,
    }),
  };
}

/** One step per input and role (keys, values, queries), each followed by its matrix product. */
function steps({ n, dK, dV }) {
  return PROJECTIONS.flatMap((role) => {
    const cols = role === 'values' ? dV : dK;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `${role}-row-${i + 1}`,
      family: `${role}-row`,
      params: { role, row: i },
      duration: duration(cols),
      title: (tr) => tr(`title.row.${role}`, { i: i + 1 }),
      build: buildRow,
      // Predict (tools/exercises.mjs): each entry of the row.
      questions: ({ dims }) =>
        Array.from({ length: role === 'values' ? dims.dV : dims.dK }, (_, c) => ({
          cell: { matrix: role, row: i, col: c },
        })),
    }));
    const matrix = {
      id: `${role}-matrix`,
      family: `${role}-matrix`,
      params: { role },
      duration: duration(n * cols, 0.25),
      title: (tr) => tr(`title.matrix.${role}`),
      build: buildMatrix,
      questions: ({ dims }) => {
        const width = role === 'values' ? dims.dV : dims.dK;
        return Array.from({ length: dims.n * width }, (_, k) => ({
          cell: { matrix: role, row: Math.floor(k / width), col: k % width },
        }));
      },
    };
    return [...rows, matrix];
  });
}

export default { titleKey: 'stage.projections', steps };
