// Chapter 3's drawing parts: a small matrix of numbers with token row labels (the same
// matrixView as the other chapters, so the cells carry data-matrix / data-row / data-col for
// the tests and the export), and a button the export leaves out.
import { h } from '../dom.mjs';
import { subscript } from '../format.mjs';
import { gridTexts } from './layer-views.mjs';
import { matrixView } from './matrix-view.mjs';
import { at } from '../model/matrix.mjs';

/**
 * A row-major matrix drawn with its role's colour.
 * @param {{ matrix: string, role: string, symbol: string, name: string, value: object,
 *   letter?: string, rowTokens?: number[], className?: string, title?: (i, j) => string }} spec
 *   value { rows, cols, data }; rowTokens[i] the token row i holds (labels `${letter}ₖ`);
 *   title(i, j) the arithmetic behind a cell, shown on hover and read by screen readers
 */
export function numberMatrix(spec) {
  const { value, letter = 'x', rowTokens, title } = spec;
  const tokens = rowTokens ?? Array.from({ length: value.rows }, (_, i) => i);
  const view = matrixView({
    ...spec,
    rows: value.rows,
    cols: value.cols,
    text: gridTexts(value.rows, value.cols, (i, j) => at(value, i, j)),
    rowLabels: tokens.map((k) => `${letter}${subscript(k + 1)}`),
    dataset: { token: 0 },
  });
  view.cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      cell.dataset.token = String(tokens[i]);
      if (title) cell.title = title(i, j);
    }),
  );
  return view;
}

/** A button inside a scene: kept out of the export, focus kept when the scene is rebuilt. */
export const sceneButton = (key, text, onclick) =>
  h('button', {
    type: 'button',
    class: `scene-button ch3-${key}`,
    dataset: { focusKey: key, export: 'skip' },
    text,
    onclick,
  });
