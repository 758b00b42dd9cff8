// Stage 3, all rows at once: X · W as one matrix product. The result fills cell by cell
// while the row of X and the column of W that make each cell light up.
import { h } from '../dom.mjs';
import { formula, mi, mo } from '../mathml.mjs';
import { MATRICES, fullMatrix, operator } from './parts.mjs';
import { weightLabel, weightSymbolFor } from './projection-row.mjs';
import { activeItem, itemAmount, land, progressOf } from './timing.mjs';

export function build(ctx) {
  const { figures, tr, step } = ctx;
  const { role, weight } = step.params;
  const meta = MATRICES[role];
  const { n } = figures.dims;
  const cols = figures[role].cols;
  const x = fullMatrix(ctx, 'x');
  const weights = fullMatrix(ctx, weight);
  const result = fullMatrix(ctx, role);
  const element = h(
    'div',
    { class: 'scene scene-projection-matrix' },
    h(
      'div',
      { class: 'equation' },
      x.element,
      operator('×'),
      weights.element,
      operator('='),
      result.element,
    ),
  );
  const count = n * cols;

  function render(t) {
    const p = progressOf(t);
    const active = activeItem(p, count);
    const activeRow = Math.floor(active / cols);
    const activeCol = active % cols;
    const running = p < 1;
    for (let k = 0; k < count; k++) {
      land(result.cell(Math.floor(k / cols), k % cols), itemAmount(p, count, k));
    }
    x.cells.forEach((row, r) =>
      row.forEach((cell) => cell.classList.toggle('is-active', running && r === activeRow)),
    );
    weights.cells.forEach((row) =>
      row.forEach((cell, c) => cell.classList.toggle('is-active', running && c === activeCol)),
    );
    result.cells.forEach((row, r) =>
      row.forEach((cell, c) =>
        cell.classList.toggle('is-current', running && r === activeRow && c === activeCol),
      ),
    );
  }

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
