// Scores or weights as a heatmap: the same table of numbers (so values stay readable and
// inspectable), with each cell shaded by its size. Masked scores (−∞) are hatched instead.
import { h } from '../dom.mjs';
import { at } from '../model/matrix.mjs';
import { formatExact, subscript } from '../format.mjs';
import { fullMatrix } from './matrices.mjs';

/** @param {'scores' | 'weights'} name */
export function heatmap(ctx, name) {
  const { numbers, tr } = ctx;
  const { n } = numbers.dims;
  const view = fullMatrix(ctx, name, {
    colLabels: Array.from({ length: n }, (_, j) => `k${subscript(j + 1)}`),
    className: 'heatmap',
  });
  const valueAt = (i, j) =>
    name === 'weights' ? numbers.shown.weight(i, j) : at(numbers.scores, i, j);
  const finite = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (Number.isFinite(valueAt(i, j))) finite.push(valueAt(i, j));
  // Weights are already in [0, 1]; scores are stretched over their own range.
  const low = name === 'weights' ? 0 : Math.min(...finite);
  const high = name === 'weights' ? 1 : Math.max(...finite);
  view.cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      const value = valueAt(i, j);
      if (!Number.isFinite(value)) {
        cell.classList.add('is-masked');
        return;
      }
      shade(cell, value, low, high);
    }),
  );
  view.element.append(heatLegend(finite, low, high, name === 'weights', tr));
  view.element.setAttribute('aria-description', tr('heatmap.description'));
  return view;
}

/**
 * Shades a cell by where its value lies between low and high. Values all alike (head 4's zero
 * queries) have nothing to stand out: all pale.
 */
export function shade(cell, value, low, high) {
  const heat = high > low ? (value - low) / (high - low) : 0;
  cell.style.setProperty('--heat', heat.toFixed(3));
  cell.classList.toggle('is-dark', heat > 0.55);
}

/**
 * The colour scale under a heatmap, from the lowest value to the highest, as five swatches
 * (boxes, which exports draw; a CSS gradient they would lose). One value (every score
 * alike, head 4's zero queries) is one pale swatch that says so ("every score is 0"), not a
 * range from 0 to 0.
 * @param {number[]} finite the values shaded; weights: the scale is 0 to 1
 * @param {Function} tr the page's translator
 */
export function heatLegend(finite, low, high, weights, tr) {
  const flat = finite.length > 0 && !weights && high === low;
  const steps = flat ? [0] : [0, 0.25, 0.5, 0.75, 1];
  const swatches = h(
    'span',
    { class: 'heat-gradient' },
    steps.map((heat) => {
      const step = h('span', { class: 'heat-step' });
      step.style.setProperty('--heat', String(heat));
      return step;
    }),
  );
  if (flat) {
    return h(
      'div',
      { class: 'heat-legend is-flat', 'aria-hidden': 'true' },
      swatches,
      h('span', { text: tr('heatmap.flat', { value: formatExact(low) }) }),
    );
  }
  return h(
    'div',
    { class: 'heat-legend', 'aria-hidden': 'true' },
    h('span', { text: finite.length ? formatExact(low) : '' }),
    swatches,
    h('span', { text: finite.length ? formatExact(high) : '' }),
  );
}
