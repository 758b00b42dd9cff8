// A whole matrix product A × B = C as a scene: the three matrices in one equation, and C
// filled cell by cell while the row of A and the column of B that make the current cell light
// up. Chapter 1's X·W (keys, values, queries) and chapter 2's C·W_O are drawn by it.
import { h } from '../dom.mjs';
import { operator } from './term-line.mjs';
import { activeItem, itemAmount, land, progressOf } from './timing.mjs';

/**
 * @param {string} className  the scene's own class, e.g. 'scene-projection-matrix'
 * @param {{ left: object, right: object, result: object }} views  matrixView()s of A
 *   (rows×inner), B (inner×cols) and C (rows×cols)
 * @returns {{ element: HTMLElement, render: (t: number) => void }}
 */
export function productScene(className, { left, right, result }) {
  const rows = result.cells.length;
  const cols = result.cells[0].length;
  const count = rows * cols;
  const element = h(
    'div',
    { class: `scene ${className}` },
    h(
      'div',
      { class: 'equation' },
      left.element,
      operator('×'),
      right.element,
      operator('='),
      result.element,
    ),
  );

  function render(t) {
    const p = progressOf(t);
    const active = activeItem(p, count);
    const activeRow = Math.floor(active / cols);
    const activeCol = active % cols;
    const running = p < 1;
    for (let k = 0; k < count; k++)
      land(result.cell(Math.floor(k / cols), k % cols), itemAmount(p, count, k));
    left.cells.forEach((row, r) =>
      row.forEach((cell) => cell.classList.toggle('is-active', running && r === activeRow)),
    );
    right.cells.forEach((row) =>
      row.forEach((cell, c) => cell.classList.toggle('is-active', running && c === activeCol)),
    );
    result.cells.forEach((row, r) =>
      row.forEach((cell, c) =>
        cell.classList.toggle('is-current', running && r === activeRow && c === activeCol),
      ),
    );
  }

  return { element, render };
}
