// A highlight frame that sweeps across the columns of a table, where it is at a moment, and
// the frame of a scene that computes column by column under it.
import { h, setStyle } from '../dom.mjs';
import { activeItem, ease, itemAmount, land, lerp, ramp } from './timing.mjs';

/**
 * A highlight frame that sweeps across the columns of a table: placed over column `column`
 * (fractional values glide between columns). The columns' boxes are measured from the laid-out
 * cells when the table is first laid out and again only when its box changes size (window
 * resizes, zoom, late fonts), from a ResizeObserver, which runs after layout: measuring there
 * forces no layout. Each frame then only writes the frame's position, read from that cache.
 * @param {HTMLElement} host  the table's frame, which the sweep frame is placed in
 * @param {(c: number) => [Element, Element]} cellsOfColumn  first and last swept cell of column c
 * @param {number} columns  how many columns the table has
 */
export function columnSweep(host, role, cellsOfColumn, columns) {
  const frame = h('div', { class: `column-frame role-${role}`, 'aria-hidden': 'true' });
  host.classList.add('has-sweep');
  host.append(frame);
  const pad = 3;
  let boxes = null; // per column: { left, top, width, height } relative to the host
  let hostSize = '';
  let shown = null; // the column to show, or null when hidden

  function measure() {
    const hostRect = host.getBoundingClientRect();
    hostSize = `${hostRect.width}×${hostRect.height}`;
    boxes = Array.from({ length: columns }, (_, c) => {
      const [first, last] = cellsOfColumn(c);
      const a = first.getBoundingClientRect();
      const b = last.getBoundingClientRect();
      return {
        left: a.left - hostRect.left - pad,
        top: a.top - hostRect.top - pad,
        width: a.width + 2 * pad,
        height: b.bottom - a.top + 2 * pad,
      };
    });
  }

  const canObserve = typeof ResizeObserver === 'function';
  let observer = null;

  /** Starts watching the table once it is in the page (a scene can be built ahead of time). */
  function watch() {
    if (observer || !canObserve || !host.isConnected) return;
    observer = new ResizeObserver(() => {
      if (!host.isConnected) {
        observer.disconnect(); // the scene was replaced
        return;
      }
      const rect = host.getBoundingClientRect();
      if (boxes && `${rect.width}×${rect.height}` === hostSize) return;
      measure();
      if (shown !== null) draw();
    });
    observer.observe(host);
  }

  function draw() {
    if (!boxes) {
      if (canObserve) return; // drawn from the observer, once the table is laid out
      measure();
    }
    const from = boxes[Math.floor(shown)];
    const to = boxes[Math.ceil(shown)];
    const x = shown - Math.floor(shown);
    // Placed with left/top (an absolutely positioned box: moving it lays out only itself),
    // which snap to the same device pixels as the cells do.
    setStyle(frame, 'left', `${lerp(from.left, to.left, x).toFixed(1)}px`);
    setStyle(frame, 'top', `${from.top.toFixed(1)}px`);
    setStyle(frame, 'width', `${lerp(from.width, to.width, x).toFixed(1)}px`);
    setStyle(frame, 'height', `${from.height.toFixed(1)}px`);
    setStyle(frame, 'opacity', '1');
  }

  return {
    place(column, visible) {
      shown = visible ? column : null;
      watch();
      if (visible) draw();
      else setStyle(frame, 'opacity', '0');
    },
  };
}

/**
 * Where the sweep is while item `index` of `count` animates with local progress `local`:
 * it glides from the previous column during the first `glide` of the item.
 */
export function sweepPosition(index, local, glide = 0.15) {
  if (index === 0) return 0;
  return index - 1 + ease(ramp(local, 0, glide));
}

/**
 * One frame of a computation column by column (a row of X·W, q·Kᵀ, the sum of the weighted
 * values): each column takes its share of the step; within it, its arithmetic line shows its
 * terms between `from` and `to`, then its result cell lands; the frame sits on the active
 * column while the step runs. `each(k, { terms, landing, current })` adds a scene's own
 * highlights (current: column k is the one being computed).
 * @param {{ lines: { show(terms: number, landing: number): void }[], terms: (k: number) =>
 *   number, from: number, to: number, result: (k: number) => Element, sweep: object,
 *   each?: Function }} spec
 * @returns {{ active: number, activeLocal: number }}
 */
export function sweepFrame(p, count, { lines, terms, from, to, result, sweep, each }) {
  const active = activeItem(p, count);
  const activeLocal = itemAmount(p, count, active);
  for (let k = 0; k < count; k++) {
    const local = itemAmount(p, count, k);
    const shown = ramp(local, from, to) * terms(k);
    const landing = ramp(local, to, 1);
    lines[k].show(shown, landing);
    land(result(k), landing);
    each?.(k, { terms: shown, landing, current: p < 1 && k === active });
  }
  sweep.place(sweepPosition(active, activeLocal), p < 1);
  return { active, activeLocal };
}
