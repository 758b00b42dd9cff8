// Shared by chapter 3's page tests: the page's chapter 3 numbers computed in Node by the same
// module (dist/attention.mjs), and a check that a scene shows a matrix's numbers.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, parseShown } from './helpers.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { layerExample } from '../../web/model/layer.mjs';
import { computeLayerNumbers } from '../../web/model/layer-numbers.mjs';
import { computeLearningNumbers, LEARNING_DEFAULTS } from '../../web/model/learning.mjs';

/** Entry (i, j) of a row-major { rows, cols, data }. */
export const at = (m, i, j) => m.data[i * m.cols + j];

export const close = (a, b, tolerance, what) =>
  assert.ok(Math.abs(a - b) <= tolerance, `${what}: ${a} vs ${b} (±${tolerance})`);

let attnPromise;
/** The module, loaded once per test file. */
export const nodeAttention = () => {
  attnPromise ??= import(pathToFileURL(join(distDir, 'attention.mjs')).href).then((m) =>
    m.default(),
  );
  return attnPromise;
};

/** The page's chapter 3 numbers for the article's example, computed in Node. */
export async function nodeNumbers(learning = LEARNING_DEFAULTS) {
  const attn = await nodeAttention();
  const settings = { scaled: false, causal: false, rounding: 'exact' };
  const layer = computeLayerNumbers(attn, layerExample(), settings, true);
  return computeLearningNumbers(attn, articleExample(), learning, layer);
}

/** Every shown cell of a matrix equals expected(row, col) to the 3 decimals the page prints. */
export async function assertShown(page, matrix, expected) {
  const cells = await page.$$eval(`.scene-host td.cell[data-matrix="${matrix}"]`, (all) =>
    all.map((cell) => ({
      row: Number(cell.dataset.row),
      col: Number(cell.dataset.col),
      text: cell.querySelector('.cell-value').textContent,
    })),
  );
  assert.ok(cells.length > 0, `${matrix} is shown`);
  for (const { row, col, text } of cells)
    close(parseShown(text), expected(row, col), 0.0005 + 1e-6, `${matrix}[${row}][${col}]`);
}
