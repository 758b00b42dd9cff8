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
 * The loss after each step as a line (step 0 = before any step), with its first and last
 * values written as text so the export and screen readers get the numbers.
 * @param {number[]} losses
 * @param {(key: string, params?: object) => string} tr its label and caption (the caption in
 *   the language's punctuation)
 */
export function lossPlot(losses, tr) {
  const label = tr('ch3.learn.plot');
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
