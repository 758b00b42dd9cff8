// Chapter 3's attention heatmaps as files, from the train stage (every head on the held-out
// row, as trained so far) and the heads-learned stage (every head on the reader's sequence):
// PNG and SVG of all heads side by side, drawn as a drawing of boxes and text (the same
// writers as the scene's PNG and SVG: svg.mjs, canvas.mjs), and CSV of every weight (the
// matrices' CSV cells, matrices.mjs).
//
// Names: L layers, H heads per layer, T tokens of the row; a head's weights are [T][T], rows
// are queries, columns keys.
import { h } from '../../dom.mjs';
import { weightRgb } from '../../draw/training-views.mjs';
import { tokenLabel } from '../../model/training.mjs';
import { figure } from './capture.mjs';
import { canvasToPng, drawOnCanvas } from './canvas.mjs';
import { saveBlob } from './download.mjs';
import { csvRow } from './matrices.mjs';
import { toSvg } from './svg.mjs';

/** A head's square is about this wide whatever T; cells never smaller than MIN_CELL. */
const HEAD_SIZE = 200;
const MIN_CELL = 8;
/** Token letters along a head's edges from this cell size on (smaller, they would collide). */
const LABELS_FROM = 12;
const GAP = 24;
const NAME_SIZE = 13;
const LABEL_SIZE = 10;
const READING_SIZE = 10;
const INK = 'rgb(27, 33, 48)';
const GRID = 'rgb(214, 219, 228)';

/**
 * Every head's heatmap as a drawing ({ width, height, items }, capture.mjs's form): one row
 * of H heads per layer, each named with its reading under the name (model/head-reading.mjs,
 * as the page words it), its cells coloured as on the page, the tokens' letters along the top
 * (keys) and the left (queries) when there is room.
 * @param {{ tokens: ArrayLike<number>, heads: { layer, head, name, reading?, weights }[] }} source
 */
export function heatmapDrawing({ tokens, heads }, font) {
  const T = tokens.length;
  const cell = Math.max(MIN_CELL, Math.floor(HEAD_SIZE / T));
  const labelled = cell >= LABELS_FROM;
  const edge = labelled ? LABEL_SIZE * 2 : 0; // room for the letters
  const side = edge + T * cell;
  const layers = Math.max(...heads.map((x) => x.layer)) + 1;
  const perLayer = Math.max(...heads.map((x) => x.head)) + 1;
  const read = heads.some((x) => x.reading);
  const nameH = NAME_SIZE + 8 + (read ? READING_SIZE + 6 : 0);
  const panelH = nameH + side;
  const items = [];
  const text = (x, y, value, size, weight = '400') =>
    items.push({
      type: 'text',
      x,
      y,
      text: value,
      font: { family: font, size, weight, style: 'normal' },
      color: INK,
      opacity: 1,
    });
  for (const { layer, head, name, reading, weights } of heads) {
    const left = head * (side + GAP);
    const top = layer * (panelH + GAP);
    text(left, top + NAME_SIZE / 2, name, NAME_SIZE, '700');
    if (reading) text(left, top + NAME_SIZE + 6 + READING_SIZE / 2, reading, READING_SIZE);
    const x0 = left + edge;
    const y0 = top + nameH + edge;
    for (let t = 0; labelled && t < T; t++) {
      const label = tokenLabel(tokens[t]);
      text(x0 + t * cell + cell / 2 - LABEL_SIZE / 3, y0 - LABEL_SIZE, label, LABEL_SIZE);
      text(left, y0 + t * cell + cell / 2, label, LABEL_SIZE);
    }
    for (let i = 0; i < T; i++) {
      for (let j = 0; j < T; j++) {
        const [r, g, b] = weightRgb(weights[i][j]).map(Math.round);
        items.push({
          type: 'box',
          x: x0 + j * cell,
          y: y0 + i * cell,
          width: cell,
          height: cell,
          fill: `rgb(${r}, ${g}, ${b})`,
          opacity: 1,
        });
      }
    }
    items.push({
      type: 'box',
      x: x0,
      y: y0,
      width: T * cell,
      height: T * cell,
      stroke: GRID,
      strokeWidth: 1,
      opacity: 1,
    });
  }
  return {
    width: perLayer * side + (perLayer - 1) * GAP,
    height: layers * panelH + (layers - 1) * GAP,
    items,
  };
}

/**
 * Every weight of every head, one line each: layer, head, query and key (positions from 1,
 * as the heatmaps' rows and columns), the two tokens as letters, the weight, and what the
 * head reads as (model/head-reading.mjs's kind: previous, induction, copy, fixed, self,
 * diffuse, mixed). Keys after the query (the causal mask's) are there too, with their weight 0.
 */
export function heatmapCsv({ tokens, heads }) {
  const lines = [
    csvRow(['layer', 'head', 'query', 'key', 'query_token', 'key_token', 'weight', 'head_reads']),
  ];
  for (const { layer, head, weights, kind = '' } of heads) {
    weights.forEach((row, i) =>
      row.forEach((w, j) =>
        lines.push(
          csvRow([
            layer + 1,
            head + 1,
            i + 1,
            j + 1,
            tokenLabel(tokens[i]),
            tokenLabel(tokens[j]),
            w,
            kind,
          ]),
        ),
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const FORMATS = ['png', 'svg', 'csv'];

/**
 * The heatmaps' row of buttons: { element, update(source) }. `source` is what the stage
 * shows now: { title, caption, tokens, heads: { layer, head, name, weights }[] }, or null
 * (nothing trained: the buttons are off, or the row hidden when `hideEmpty`).
 * @param {{ tr, language: string, fileBase: () => string, hideEmpty?: boolean }} options
 */
export function heatmapFiles({ tr, language, fileBase, hideEmpty = false }) {
  let current = null;
  const status = h('p', { class: 'train-files-status', role: 'status' });
  const say = (key, params) => (status.textContent = tr(key, params));
  const save = async (format) => {
    const source = current;
    try {
      const name = `${fileBase()}-heads.${format}`;
      if (format === 'csv') {
        saveBlob(new Blob([heatmapCsv(source)], { type: 'text/csv' }), name);
      } else {
        const font = getComputedStyle(element).fontFamily;
        const { title, caption } = source;
        const drawing = figure(heatmapDrawing(source, font), { title, caption, font });
        saveBlob(
          format === 'svg'
            ? new Blob([toSvg(drawing, { title, lang: language })], { type: 'image/svg+xml' })
            : await canvasToPng(drawOnCanvas(drawing, 2)),
          name,
        );
      }
      say('tools.export.saved', { format: format.toUpperCase() });
    } catch (error) {
      say('tools.export.failed', { format: format.toUpperCase(), reason: error.message });
    }
  };
  const buttons = FORMATS.map((format) =>
    h('button', {
      type: 'button',
      class: 'tools-button',
      disabled: true,
      dataset: { heatmapExport: format },
      text: tr(`ch3.files.heatmaps.${format}`),
      onclick: () => save(format),
    }),
  );
  const element = h(
    'div',
    { class: 'train-files heatmap-files', 'data-export': 'skip' },
    h('div', { class: 'tools-row' }, buttons),
    status,
  );
  element.hidden = hideEmpty;
  const update = (source) => {
    current = source;
    element.hidden = hideEmpty && !source;
    buttons.forEach((button) => {
      button.disabled = !source;
    });
  };
  return { element, update };
}
