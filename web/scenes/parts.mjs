// Building blocks the scenes share: the matrices of the computation drawn with their role,
// symbol and name; a moving frame that sweeps across the columns of a table; arithmetic
// lines whose terms appear one by one.
import { h, setStyle } from '../dom.mjs';
import { formatExact, subscript } from '../format.mjs';
import { at } from '../figures.mjs';
import { matrixView } from '../widgets/matrix-view.mjs';
import { ease, lerp, ramp } from './timing.mjs';

/** Role colour, letters and whether the cells are computed (inspectable) or typed. */
export const MATRICES = {
  x: { role: 'input', symbol: 'X', letter: 'x', rowLabel: 'label.input', rowSymbol: 'x' },
  wKey: { role: 'key', symbol: ['W', 'K'], weight: true },
  wQuery: { role: 'query', symbol: ['W', 'Q'], weight: true },
  wValue: { role: 'value', symbol: ['W', 'V'], weight: true },
  keys: {
    role: 'key',
    symbol: 'K',
    letter: 'k',
    rowLabel: 'label.key',
    rowSymbol: 'k',
    computed: true,
  },
  queries: {
    role: 'query',
    symbol: 'Q',
    letter: 'q',
    rowLabel: 'label.query',
    rowSymbol: 'q',
    computed: true,
  },
  values: {
    role: 'value',
    symbol: 'V',
    letter: 'v',
    rowLabel: 'label.value',
    rowSymbol: 'v',
    computed: true,
  },
  // Scores and weights have one row per query.
  scores: {
    role: 'score',
    symbol: 'S',
    letter: 's',
    rowLabel: 'label.query',
    rowSymbol: 'q',
    computed: true,
  },
  weights: {
    role: 'score',
    symbol: 'A',
    letter: 'a',
    rowLabel: 'label.query',
    rowSymbol: 'q',
    computed: true,
  },
  outputs: {
    role: 'output',
    symbol: 'O',
    letter: 'o',
    rowLabel: 'label.output',
    rowSymbol: 'o',
    computed: true,
  },
};

/** "W" with a subscript role letter, or a plain symbol; as a node. */
export function symbolNode(symbol) {
  if (Array.isArray(symbol))
    return h('span', { class: 'symbol' }, symbol[0], h('sub', { text: symbol[1] }));
  return h('span', { class: 'symbol', text: symbol });
}

const symbolText = (symbol) => (Array.isArray(symbol) ? `${symbol[0]}_${symbol[1]}` : symbol);

/** The text of cell (i, j) of a named matrix, in the current rounding. */
export function cellText(figures, name, i, j) {
  if (name === 'weights') return figures.shown.format(figures.shown.weight(i, j));
  if (name === 'outputs') return figures.shown.format(figures.shown.output(i, j));
  return formatExact(at(figures[name], i, j));
}

/** A whole matrix of the computation. */
export function fullMatrix(ctx, name, options = {}) {
  const { figures, tr } = ctx;
  const meta = MATRICES[name];
  const matrix = figures[name];
  // Rows are labelled compactly (k₁, k₂…) with their names in words for hover and screen
  // readers; options.wordLabels shows the words themselves ("input 1").
  const hasLabels = options.rowLabels !== false && meta.rowLabel;
  const rowNames = hasLabels
    ? Array.from({ length: matrix.rows }, (_, i) => tr(meta.rowLabel, { i: i + 1 }))
    : undefined;
  const rowLabels =
    hasLabels && !options.wordLabels
      ? Array.from({ length: matrix.rows }, (_, i) => `${meta.rowSymbol}${subscript(i + 1)}`)
      : rowNames;
  return matrixView({
    matrix: name,
    role: meta.role,
    symbol: symbolNode(meta.symbol),
    symbolText: symbolText(meta.symbol),
    name: tr(`matrix.${name}`),
    rows: matrix.rows,
    cols: matrix.cols,
    text: (i, j) => cellText(figures, name, i, j),
    rowLabels,
    rowNames,
    colLabels: options.colLabels,
    inspectable: Boolean(meta.computed),
    className: options.className,
  });
}

/** One row of a matrix as a 1×cols vector, e.g. q₁ (data attributes keep the real row). */
export function rowVector(ctx, name, row, options = {}) {
  const { figures, tr } = ctx;
  const meta = MATRICES[name];
  const matrix = figures[name];
  const symbol = `${meta.letter}${subscript(row + 1)}`;
  return matrixView({
    matrix: name,
    role: meta.role,
    symbol,
    name: options.name ?? tr(meta.rowLabel, { i: row + 1 }),
    rows: 1,
    cols: matrix.cols,
    rowIndex: () => row,
    text: (_, j) => cellText(figures, name, row, j),
    inspectable: Boolean(meta.computed),
    colLabels: options.colLabels,
    shape: `1×${matrix.cols}`,
    className: options.className,
  });
}

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
 * An arithmetic line: "k₁,₂ = 1·0 + 0·1 + … = 2", whose terms appear one by one.
 * @param {string} lhs  left-hand side, e.g. "k₁,₂ ="
 * @param {string[]} terms
 * @param {string} result  e.g. "= 2" or "÷ √3 = 1.155"
 */
export function termLine(lhs, terms, result, className = '') {
  const termElements = terms.map((text) => h('span', { class: 'term', text }));
  const parts = [];
  termElements.forEach((term, m) => {
    if (m > 0) parts.push(h('span', { class: 'op', text: ' + ' }));
    parts.push(term);
  });
  const plusSigns = parts.filter((part) => part.classList.contains('op'));
  // No space inside parentheses: "(1·0 + 2·1) ÷ √3".
  const resultElement = h('span', {
    class: 'result',
    text: result.startsWith(')') ? result : ` ${result}`,
  });
  const element = h(
    'li',
    { class: `term-line ${className}`.trim() },
    h('span', { class: 'lhs', text: lhs.endsWith('(') ? lhs : `${lhs} ` }),
    parts,
    resultElement,
  );
  return {
    element,
    /** terms: how many terms are shown (fractional = the next one fading in); result 0..1 */
    show(termsShown, resultAmount) {
      const latest = termsShown > 0 && resultAmount <= 0 ? Math.ceil(termsShown) - 1 : -1;
      termElements.forEach((term, m) => {
        const amount = String(Math.min(1, Math.max(0, termsShown - m)));
        setStyle(term, 'opacity', amount);
        term.classList.toggle('is-latest', m === latest);
        if (m > 0) setStyle(plusSigns[m - 1], 'opacity', amount);
      });
      setStyle(resultElement, 'opacity', String(ease(resultAmount)));
      element.classList.toggle('is-pending', termsShown <= 0);
    },
  };
}

/** An operator between matrices: ×, =, ·, + */
export const operator = (text, label) =>
  h('span', { class: 'operator', 'aria-hidden': label ? null : 'true', 'aria-label': label, text });
