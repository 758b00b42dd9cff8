// Chapter 3's drawings of a training run and of a trained model's heads: the loss curve (SVG,
// growing as the run reports), one head's attention as a heatmap (canvas: 25 × 25 cells,
// redrawn at every snapshot), a row of tokens as letters, and BertViz-style token lines (each
// token joined to the tokens it attends to, the line as thick as the weight).
import { h, setStyle, setText, svg } from '../dom.mjs';
import { tokenLabel } from '../model/training.mjs';

const CURVE = { width: 560, height: 200, left: 44, right: 10, top: 10, bottom: 28 };
/** The curve's y axis: from 0 to ln 16 (a uniform guess over the 16 tokens), nats. */
const LOSS_TOP = Math.log(16);
/** At most this many points are drawn: the curve is ~500 px wide. */
const MAX_POINTS = 500;

/**
 * The loss curve: { element, update(run, maxSteps) }. The x axis runs to maxSteps; the drop
 * (run.dropStep) is a dashed line with its step.
 */
export function lossCurve(tr) {
  const { width, height, left, right, top, bottom } = CURVE;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const line = svg('polyline', { class: 'loss-line', fill: 'none', points: '' });
  const dropLine = svg('line', {
    class: 'loss-drop',
    y1: top,
    y2: top + plotH,
    visibility: 'hidden',
  });
  const dropText = svg('text', { class: 'loss-drop-label', y: top + 12, visibility: 'hidden' });
  const ticks = [0, 1, 2].map((v) => {
    const y = top + plotH * (1 - v / LOSS_TOP);
    return [
      svg('line', { class: 'loss-grid', x1: left, x2: width - right, y1: y, y2: y }),
      svg('text', { class: 'loss-tick', x: left - 6, y: y + 4, 'text-anchor': 'end' }, String(v)),
    ];
  });
  const xEnd = svg('text', {
    class: 'loss-tick',
    x: width - right,
    y: height - 8,
    'text-anchor': 'end',
  });
  const element = svg(
    'svg',
    {
      class: 'loss-curve',
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': tr('ch3.train.curveLabel'),
    },
    ticks,
    svg('text', { class: 'loss-tick', x: left, y: height - 8 }, '0'),
    xEnd,
    svg(
      'text',
      { class: 'loss-axis', x: left + plotW / 2, y: height - 8, 'text-anchor': 'middle' },
      tr('ch3.train.axisSteps'),
    ),
    line,
    dropLine,
    dropText,
  );
  const x = (step, maxSteps) => left + (plotW * step) / maxSteps;
  const y = (loss) => top + plotH * (1 - Math.min(loss, LOSS_TOP) / LOSS_TOP);

  function update(run, maxSteps) {
    const points = lossPoints(run.losses, (step) => x(step, maxSteps), y);
    line.setAttribute('points', points.join(' '));
    // Texts written only when they change (a text written has the frame lay the page out).
    setText(xEnd, String(maxSteps));
    const dropped = run.dropStep !== null;
    dropLine.setAttribute('visibility', dropped ? 'visible' : 'hidden');
    dropText.setAttribute('visibility', dropped ? 'visible' : 'hidden');
    if (dropped) {
      const dx = x(run.dropStep, maxSteps);
      dropLine.setAttribute('x1', dx);
      dropLine.setAttribute('x2', dx);
      dropText.setAttribute('x', dx + 4);
      setText(dropText, tr('ch3.train.dropMark', { step: run.dropStep }));
    }
    element.dataset.points = String(points.length);
  }
  return { element, update };
}

/**
 * A loss curve's points, "x,y" each, at most MAX_POINTS: each point the mean of as many steps
 * as it takes (the curve is as smooth at 2,000 steps as at 200), at the last of them.
 * @param losses every step's loss, step 1 first; x(step) and y(loss) place a point
 */
export function lossPoints(losses, x, y) {
  const every = Math.max(1, Math.ceil(losses.length / MAX_POINTS));
  const points = [];
  for (let s = 0; s < losses.length; s += every) {
    const chunk = losses.slice(s, s + every);
    const mean = chunk.reduce((a, b) => a + b, 0) / chunk.length;
    points.push(`${x(s + chunk.length).toFixed(1)},${y(mean).toFixed(1)}`);
  }
  return points;
}

/** A weight's colour in a head's heatmap, [r, g, b]: white to the scores' blue (#1c6fd1). */
export function weightRgb(weight) {
  const w = Math.min(1, Math.max(0, weight));
  return [255 + (0x1c - 255) * w, 255 + (0x6f - 255) * w, 255 + (0xd1 - 255) * w];
}

/**
 * Cells of a labelled heatmap are at least this many px, the map 150 to 300 px: room for a
 * letter of 10.5 px at chapter 3's 25 tokens (at 9 px a cell, its letters were 7.5 px).
 */
const LABELLED_CELL = 12;
const MIN_MAP = 150;
const MAX_MAP = 300;

/**
 * The canvas with the tokens' `labels` (letters, or a text's characters) along its top (keys)
 * and left side (queries), sized so that each cell has room for its label.
 */
function tokenAxes(canvas, labels, cell = LABELLED_CELL, most = MAX_MAP) {
  const letters = (axis) =>
    h(
      'div',
      { class: `heatmap-axis heatmap-${axis}`, 'aria-hidden': 'true' },
      labels.map((text) => h('span', { text })),
    );
  const side = Math.min(most, Math.max(MIN_MAP, cell * labels.length));
  setStyle(canvas, 'width', `${side}px`);
  setStyle(canvas, 'height', `${side}px`);
  // The letters a little smaller than their cells, so that neighbours never touch.
  const letterPx = Math.min(Math.max(11, cell - 2), Math.max(7, side / labels.length - 1.5));
  return h(
    'div',
    { class: 'heatmap-labelled', style: { fontSize: `${letterPx.toFixed(1)}px` } },
    h('span'),
    letters('keys'),
    letters('queries'),
    canvas,
  );
}

/**
 * One head's weights as a heatmap: { element, update(weights), read(text) } with weights
 * [T][T] (rows are queries). Darker is more weight; above the diagonal (future keys) stays
 * blank. One pixel per cell, written at once (putImageData) and scaled up by CSS: a redraw of
 * every head costs well under a millisecond. With `tokens`, the rows and columns are labelled
 * with their letters (or with `labels`, one string per token: a text's characters; `cell`
 * and `most` then give the least px per cell and the largest map, for letters that must be
 * read, as Chinese characters); read(text) writes the head's reading under its name.
 */
export function headHeatmap(label, headClass, { tokens, labels, cell, most } = {}) {
  const canvas = h('canvas', { class: 'head-heatmap', 'aria-hidden': 'true' });
  const reading = h('span', { class: 'head-reading' });
  const axes = labels ?? (tokens ? Array.from(tokens, tokenLabel) : null);
  const element = h(
    'figure',
    { class: `train-head ${headClass}` },
    axes ? tokenAxes(canvas, axes, cell, most) : canvas,
    h('figcaption', {}, h('span', { class: 'head-name', text: label }), reading),
  );
  function update(weights) {
    const T = weights.length;
    if (canvas.width !== T) {
      canvas.width = T;
      canvas.height = T;
    }
    const g = canvas.getContext('2d');
    const image = g.createImageData(T, T);
    const { data } = image;
    for (let i = 0; i < T; i++) {
      for (let j = 0; j <= i; j++) {
        const k = 4 * (i * T + j);
        data.set(weightRgb(weights[i][j]), k);
        data[k + 3] = 255;
      }
    }
    g.putImageData(image, 0, 0);
    element.dataset.filled = 'true';
  }
  const read = (text, kind = '') => {
    setText(reading, text);
    element.dataset.kind = kind;
  };
  return { element, update, read };
}

/**
 * What a head reads as, in two or three words: "previous token", "fixed token ⟨s⟩", "leans to
 * previous token".
 */
export function kindName(head, tr) {
  const token = head.token === undefined ? '' : tokenLabel(head.token);
  const toward = head.kind === 'leans' ? tr(`ch3.kind.${head.toward}`, { token }) : '';
  return tr(`ch3.kind.${head.kind}`, { token, toward });
}

/** The kind and its share, short enough for a file's drawing: "previous token 0.87". */
export function readingShort(head, tr) {
  const name = kindName(head, tr);
  return head.share > 0 ? `${name} ${shareText(head.share)}` : name;
}

/** Two decimals of a share of weight ("0.87"). */
const shareText = (share) => share.toFixed(2);

/**
 * A head's reading (model/head-reading.mjs) in one line: "previous token: 0.87 of its weight
 * on the token just before", "diffuse: spread over about 12 tokens". The share is printed by
 * `formatShare` (two decimals unless given).
 */
export function readingText(head, tr, formatShare = shareText) {
  const token = head.token === undefined ? '' : tokenLabel(head.token);
  return tr(`ch3.read.${head.kind}`, {
    share: formatShare(head.share),
    keys: head.keys.toFixed(1),
    token,
    toward: head.kind === 'leans' ? tr(`ch3.kind.${head.toward}`, { token }) : '',
  });
}

/** A row of tokens as letters (BOS as ⟨s⟩); `marks` maps a position to a class. */
export function tokenStrip(tokens, marks = new Map()) {
  return h(
    'ol',
    { class: 'token-strip' },
    Array.from(tokens, (id, t) =>
      h(
        'li',
        { class: `token ${marks.get(t) ?? ''}`.trim(), dataset: { position: t } },
        tokenLabel(id),
      ),
    ),
  );
}

/**
 * BertViz-style lines: the tokens twice (queries left, keys right), each query joined to the
 * keys it gives at least 5 % of its weight, the line's width and opacity its weight. The
 * tokens are written as letters, or as `labels` (one string per token: a text's characters).
 */
export function tokenLines(tokens, weights, { label, headClass, labels }) {
  const rowH = 22;
  const width = 220;
  const T = tokens.length;
  const height = T * rowH + 8;
  const yOf = (t) => 4 + rowH * t + rowH / 2;
  const lines = [];
  for (let i = 0; i < T; i++) {
    for (let j = 0; j <= i; j++) {
      const w = weights[i][j];
      if (w < 0.05) continue;
      lines.push(
        svg('line', {
          class: 'token-line',
          x1: 40,
          y1: yOf(i),
          x2: width - 40,
          y2: yOf(j),
          'stroke-width': (0.5 + 5 * w).toFixed(2),
          'stroke-opacity': (0.25 + 0.75 * w).toFixed(2),
          dataset: { query: i, key: j, weight: w.toFixed(3) },
        }),
      );
    }
  }
  const names = labels ?? Array.from(tokens, tokenLabel);
  const words = names.map((name, t) => [
    svg('text', { x: 32, y: yOf(t) + 5, 'text-anchor': 'end' }, name),
    svg('text', { x: width - 32, y: yOf(t) + 5 }, name),
  ]);
  return svg(
    'svg',
    {
      class: `token-lines ${headClass}`,
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': label,
    },
    lines,
    words,
  );
}
