// Chapter 3's drawing parts: a small matrix of numbers with token row labels (the same
// matrixView as the other chapters, so the cells carry data-matrix / data-row / data-col for
// the tests and the export), a button the export leaves out, output 1's target editor and
// the loss curve.
import { h, svg } from '../dom.mjs';
import { itemAmount, progressOf, reveal } from './timing.mjs';
import { formatExact, subscript } from '../format.mjs';
import { gridTexts } from './layer-views.mjs';
import { matrixView } from './matrix-view.mjs';
import { symbolNode } from './matrices.mjs';
import { at } from '../model/matrix.mjs';

/**
 * A row-major matrix drawn with its role's colour.
 * @param {{ matrix: string, role: string, symbol: string, name: string, value: object,
 *   letter?: string, mark?: string, rowTokens?: number[], className?: string,
 *   inspectable?: boolean }} spec
 *   value { rows, cols, data }; rowTokens[i] the token row i holds (labels `${letter}ₖ${mark}`,
 *   mark '′' for a row after a change; none when letter is null); inspectable: the cell
 *   inspector shows the arithmetic behind a cell on hover and focus (arithmetic-learning.mjs)
 */
export function numberMatrix(spec) {
  const { value, letter = 'x', mark = '', rowTokens } = spec;
  const tokens = rowTokens ?? Array.from({ length: value.rows }, (_, i) => i);
  const view = matrixView({
    ...spec,
    symbol: Array.isArray(spec.symbol) ? symbolNode(spec.symbol) : spec.symbol,
    rows: value.rows,
    cols: value.cols,
    text: gridTexts(value.rows, value.cols, (i, j) => at(value, i, j)),
    rowLabels: letter ? tokens.map((k) => `${letter}${subscript(k + 1)}${mark}`) : undefined,
    dataset: { token: 0 },
  });
  view.cells.forEach((row, i) =>
    row.forEach((cell) => {
      cell.dataset.token = String(tokens[i]);
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
 * ctx.actions, which recomputes the step), and a button back to the page's suggestion;
 * `message` names a refused entry (placed by the scene under its row, so that a long one
 * does not push the editor away from the arrow that points at it).
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
  );
  return { element, fields, message };
}

/**
 * Round numbers from 0 to at least `top` for an axis: 0 and 2 to 4 more, a step of 1, 2 or 5
 * times a power of 10.
 */
export function axisTicks(top) {
  if (!(top > 0) || !Number.isFinite(top)) return [0, 1];
  const rough = top / 3;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const count = Math.ceil(top / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, k) => k * step);
}

/** A tick's number: plain up to 99,999, else as 2e6 (a diverging loss grows past that). */
export function tickText(value) {
  if (value === 0 || Math.abs(value) < 1e5) return formatExact(Number(value.toPrecision(6)));
  const [mantissa, exponent] = value.toExponential().split('e');
  return `${Number(Number(mantissa).toPrecision(3))}e${Number(exponent)}`;
}

/**
 * The loss after each step as a line (step 0 = before any step), on axes with their numbers
 * (steps along the bottom, the loss up the side), with its first and last values written as
 * text so the export and screen readers get the numbers.
 * @param {number[]} losses
 * @param {(key: string, params?: object) => string} tr its label and caption (the caption in
 *   the language's punctuation)
 */
export function lossPlot(losses, tr) {
  const label = tr('ch3.learn.plot');
  const box = { width: 340, height: 150, left: 52, right: 10, top: 10, bottom: 34 };
  const plotW = box.width - box.left - box.right;
  const plotH = box.height - box.top - box.bottom;
  const last = losses.length - 1;
  const finite = losses.filter(Number.isFinite);
  const yTicks = axisTicks(Math.max(...finite, 1e-9));
  const xTicks = axisTicks(Math.max(1, last)).filter((k) => Number.isInteger(k));
  const yTop = yTicks.at(-1);
  const xEnd = Math.max(1, xTicks.at(-1));
  const x = (k) => box.left + (plotW * k) / xEnd;
  const y = (loss) => box.top + plotH * (1 - Math.min(loss, yTop) / yTop);
  const shown = losses.map((loss, k) => ({ k, loss })).filter(({ loss }) => Number.isFinite(loss));
  const points = shown.map(({ k, loss }) => `${x(k).toFixed(1)},${y(loss).toFixed(1)}`).join(' ');
  const bottom = box.top + plotH;
  return h(
    'figure',
    { class: 'loss-plot' },
    svg(
      'svg',
      {
        viewBox: `0 0 ${box.width} ${box.height}`,
        role: 'img',
        'aria-label': label,
        class: 'loss-svg',
      },
      yTicks.map((v) => [
        svg('line', { x1: box.left, x2: box.width - box.right, y1: y(v), y2: y(v), class: 'grid' }),
        svg(
          'text',
          { x: box.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'loss-tick' },
          tickText(v),
        ),
      ]),
      xTicks.map((k) =>
        svg(
          'text',
          { x: x(k), y: bottom + 14, 'text-anchor': 'middle', class: 'loss-tick' },
          String(k),
        ),
      ),
      svg(
        'text',
        { x: box.left + plotW / 2, y: box.height - 4, 'text-anchor': 'middle', class: 'loss-axis' },
        tr('ch3.learn.plotSteps'),
      ),
      svg(
        'text',
        {
          x: 12,
          y: box.top + plotH / 2,
          'text-anchor': 'middle',
          class: 'loss-axis',
          transform: `rotate(-90 12 ${box.top + plotH / 2})`,
        },
        tr('ch3.learn.plotLoss'),
      ),
      svg('line', {
        x1: box.left,
        y1: bottom,
        x2: box.width - box.right,
        y2: bottom,
        class: 'axis',
      }),
      svg('polyline', { points, class: 'loss-line', fill: 'none' }),
      shown.map(({ k, loss }) =>
        svg('circle', { cx: x(k).toFixed(1), cy: y(loss).toFixed(1), r: 2.5, class: 'loss-dot' }),
      ),
    ),
    h('figcaption', {
      text: tr('ch3.learn.plotCaption', {
        first: formatExact(losses[0]),
        last: formatExact(losses[last]),
      }),
    }),
  );
}

/**
 * RoPE's 2-D picture: the query's and the key's first pair as arrows from the origin (their
 * directions: each at a fixed length), turned to position m (the module's numbers for each m;
 * faint dots where the other positions put them), on axes named by the columns they plot,
 * with a legend (the scene says that the lengths are not the pairs'). show(m) moves both
 * arrows.
 */
export function pairPicture(rope, tr) {
  const size = 200;
  const centre = size / 2;
  // Only the angles matter: each arrow is drawn at its own fixed length (the key a little
  // shorter, so both stay visible when they point the same way).
  const lengths = { query: 0.85 * centre, key: 0.65 * centre };
  const point = (pair, role) => {
    const scale = lengths[role] / Math.max(Math.hypot(pair[0], pair[1]), 1e-9);
    return [centre + pair[0] * scale, centre - pair[1] * scale];
  };
  const arrow = (role) => {
    const line = svg('line', {
      x1: centre,
      y1: centre,
      x2: centre,
      y2: centre,
      class: `arrow arrow-${role}`,
    });
    const tip = svg('circle', { r: 4, cx: centre, cy: centre, class: `tip tip-${role}` });
    return { line, tip };
  };
  const trail = (turned, role) =>
    turned.map((pair) => {
      const [cx, cy] = point(pair, role);
      return svg('circle', {
        cx: cx.toFixed(1),
        cy: cy.toFixed(1),
        r: 2,
        class: `trail trail-${role}`,
      });
    });
  const q = arrow('query');
  const k = arrow('key');
  const label = svg('text', { x: 8, y: size - 8, class: 'pair-label' });
  const picture = svg(
    'svg',
    {
      viewBox: `0 0 ${size} ${size}`,
      class: 'pair-picture',
      role: 'img',
      'aria-label': tr('ch3.rope.picture'),
    },
    svg('line', { x1: 0, y1: centre, x2: size, y2: centre, class: 'axis' }),
    svg('line', { x1: centre, y1: 0, x2: centre, y2: size, class: 'axis' }),
    svg('text', {
      x: size - 4,
      y: centre + 14,
      'text-anchor': 'end',
      class: 'pair-label axis-label',
      text: tr('ch3.rope.axis', { c: 1 }),
    }),
    svg('text', {
      x: centre + 6,
      y: 12,
      class: 'pair-label axis-label',
      text: tr('ch3.rope.axis', { c: 2 }),
    }),
    trail(rope.qTurned, 'query'),
    trail(rope.kTurned, 'key'),
    q.line,
    q.tip,
    k.line,
    k.tip,
    label,
  );
  let shown = -1;
  const show = (m) => {
    if (m === shown) return;
    shown = m;
    [
      [q, rope.qTurned[m], 'query'],
      [k, rope.kTurned[m], 'key'],
    ].forEach(([{ line, tip }, pair, role]) => {
      const [x, y] = point(pair, role);
      line.setAttribute('x2', x.toFixed(1));
      line.setAttribute('y2', y.toFixed(1));
      tip.setAttribute('cx', x.toFixed(1));
      tip.setAttribute('cy', y.toFixed(1));
    });
    label.textContent = tr('ch3.rope.position', { m });
  };
  const caption = h('figcaption', { class: 'pair-caption' }, pairLegend(rope, tr));
  return { element: h('figure', { class: 'pair-figure' }, picture, caption), show };
}

/** The picture's legend: each arrow's line and tip in its role's colour, and its name. */
function pairLegend(rope, tr) {
  const entries = [
    ['query', tr('ch3.rope.legendQuery', { i: rope.query + 1 })],
    ['key', tr('ch3.rope.legendKey', { j: rope.key + 1 })],
  ];
  const width = 200;
  return svg(
    'svg',
    { class: 'pair-legend', width, height: 20, viewBox: `0 0 ${width} 20`, 'aria-hidden': 'true' },
    entries.map(([role, text], k) => {
      const x = (k * width) / 2;
      return [
        svg('line', { x1: x + 4, y1: 10, x2: x + 24, y2: 10, class: `arrow arrow-${role}` }),
        svg('circle', { cx: x + 24, cy: 10, r: 3, class: `tip tip-${role}` }),
        svg('text', { x: x + 32, y: 14, class: 'pair-label', text }),
      ];
    }),
  );
}

/**
 * A scene of one row of matrices (and operators between them), the matrices revealed one
 * after the other on the clock.
 * @param {string} className the scene's classes
 * @param {{ element: Element, operator?: boolean }[]} parts views, and operators marked so
 * @param {{ sentences: string[], formula: Node | null }} explanation
 * @param {string} narration
 */
export function revealedRow(className, parts, explanation, narration) {
  const views = parts.filter((part) => !part.operator);
  const element = h(
    'div',
    { class: `scene ${className}` },
    h(
      'div',
      { class: 'equation learn-row' },
      parts.map((part) => part.element),
    ),
  );
  const render = (t) => {
    const p = progressOf(t);
    views.forEach((view, k) => reveal(view.element, itemAmount(p, views.length, k), 8));
  };
  return { element, render, explanation, narration };
}

/** A scene that only says why it has nothing to show for these numbers. */
export function messageScene(text) {
  return {
    element: h('div', { class: 'scene' }, h('p', { text })),
    render: () => {},
    explanation: { sentences: [text], formula: null },
    narration: text,
  };
}
