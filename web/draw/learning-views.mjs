// Chapter 3's drawing parts: a small matrix of numbers with token row labels (the same
// matrixView as the other chapters, so the cells carry data-matrix / data-row / data-col for
// the tests and the export), a button the export leaves out, output 1's target editor and
// the loss curve.
import { h, svg } from '../dom.mjs';
import { formatExact, subscript } from '../format.mjs';
import { gridTexts } from './layer-views.mjs';
import { matrixView } from './matrix-view.mjs';
import { at } from '../model/matrix.mjs';

/**
 * A row-major matrix drawn with its role's colour.
 * @param {{ matrix: string, role: string, symbol: string, name: string, value: object,
 *   letter?: string, rowTokens?: number[], className?: string, title?: (i, j) => string }} spec
 *   value { rows, cols, data }; rowTokens[i] the token row i holds (labels `${letter}ₖ`, none when letter is null);
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
    rowLabels: letter ? tokens.map((k) => `${letter}${subscript(k + 1)}`) : undefined,
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

/**
 * Output 1's target as one number field per column (a valid edit is written back through
 * ctx.actions, which recomputes the step), and a button back to the page's suggestion.
 */
export function targetEditor(ctx, target, suggested) {
  const { tr } = ctx;
  const message = h('p', { class: 'target-message', role: 'alert' });
  const fields = target.map((value, c) => {
    const input = h('input', {
      type: 'text',
      inputmode: 'decimal',
      class: 'target-input',
      value: String(value),
      'aria-label': tr('ch3.learn.targetEntry', { c: c + 1 }),
      dataset: { focusKey: `target-${c}`, col: c },
    });
    input.addEventListener('change', () => {
      const typed = Number(input.value.trim().replace(/\u2212/g, '-'));
      if (input.value.trim() === '' || !Number.isFinite(typed) || Math.abs(typed) > 1000) {
        input.setAttribute('aria-invalid', 'true');
        message.textContent = tr('ch3.learn.targetInvalid', { c: c + 1, given: input.value });
        return;
      }
      const next = target.slice();
      next[c] = typed;
      ctx.actions.setLearning({ target: next, steps: 1 });
    });
    return input;
  });
  const suggest = sceneButton('suggest', tr('ch3.learn.suggestion'), () =>
    ctx.actions.setLearning({ target: null, steps: 1 }),
  );
  suggest.disabled = target.every((value, c) => value === suggested[c]);
  const element = h(
    'div',
    { class: 'target-editor' },
    h('span', { class: 'target-label', text: tr('ch3.learn.target') }),
    h('span', { class: 'target-fields' }, '[', fields, ']'),
    suggest,
    message,
  );
  return { element, fields };
}

/**
 * The loss after each step as a line (step 0 = before any step), with its first and last
 * values written as text so the export and screen readers get the numbers.
 */
export function lossPlot(losses, label) {
  const width = 320;
  const height = 120;
  const pad = 8;
  const top = Math.max(...losses, 1e-9);
  const x = (k) => pad + ((width - 2 * pad) * k) / Math.max(1, losses.length - 1);
  const y = (loss) => height - pad - ((height - 2 * pad) * loss) / top;
  const points = losses.map((loss, k) => `${x(k).toFixed(1)},${y(loss).toFixed(1)}`).join(' ');
  const last = losses.length - 1;
  return h(
    'figure',
    { class: 'loss-plot' },
    svg(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'loss-svg' },
      svg('line', { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: 'axis' }),
      svg('polyline', { points, class: 'loss-line', fill: 'none' }),
      losses.map((loss, k) =>
        svg('circle', { cx: x(k).toFixed(1), cy: y(loss).toFixed(1), r: 2.5, class: 'loss-dot' }),
      ),
    ),
    h('figcaption', {
      text: `${label}: ${formatExact(losses[0])} → ${formatExact(losses[last])}`,
    }),
  );
}
