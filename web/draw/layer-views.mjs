// Chapter 2's drawing parts: the layer's matrices with their columns coloured by head, and
// one head's scores or weights as a small heatmap. Cells carry data-matrix / data-row /
// data-col and data-head (the head, or kv head, they belong to), which the cell inspector
// (arithmetic-layer.mjs) and the tests read.
import { h } from '../dom.mjs';
import { formatExact, formatList, subscript } from '../format.mjs';
import { matrixView } from './matrix-view.mjs';
import { roleLabels } from './matrices.mjs';
import { at } from '../model/matrix.mjs';
import { heatLegend, shade } from './heatmap.mjs';
import { ROLES } from '../roles.mjs';

/** Texts of a rows × cols grid of numbers, all with the same decimals. */
export function gridTexts(rows, cols, value) {
  const values = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) values.push(value(i, j));
  const texts = formatList(values, formatExact);
  return (i, j) => texts[i * cols + j];
}

/** Column labels "h₁ h₁ h₂ h₂ …": which head each column belongs to. */
export const headColumnLabels = (blocks, size, letter = 'h') =>
  Array.from(
    { length: blocks * size },
    (_, c) => `${letter}${subscript(Math.floor(c / size) + 1)}`,
  );

/**
 * A matrix of the layer whose columns are split into head blocks (one colour per head).
 * @param {object} spec matrixView's spec plus: value(i, j) the number, blockSize the columns
 *   of one head, blockLabel 'h' (query heads) or 'g' (kv heads), headOf(block) -> the colour
 *   index of the block (query head, or the first query head of a kv head's group)
 */
export function headBlocksMatrix(spec) {
  const { rows, cols, value, blockSize, blockLabel = 'h', headOf = (b) => b } = spec;
  const text = gridTexts(rows, cols, value);
  const view = matrixView({
    ...spec,
    text,
    colLabels: spec.colLabels ?? headColumnLabels(cols / blockSize, blockSize, blockLabel),
    dataset: spec.dataset ?? {},
  });
  view.cells.forEach((row) =>
    row.forEach((cell, j) => {
      const block = Math.floor(j / blockSize);
      cell.classList.add(`head-${headOf(block) + 1}`);
      cell.dataset.head = String(block);
      cell.colourHead = headOf(block); // the query head whose colour the block wears
    }),
  );
  return view;
}

/**
 * One head's scores or weights (n × n) as a heatmap: the numbers are in the cells (shown on
 * demand, always there for screen readers and the inspector), the colour is their size.
 * @param {object} spec { matrix: 'head-scores' | 'head-weights', head, n, value(i, j),
 *   masked(i, j), symbol, name, weights: boolean, rows?: rows shown (others left empty),
 *   tr: the page's translator }
 */
export function headHeatmap(spec) {
  const { matrix, head, n, value, masked, weights, symbol, name } = spec;
  const shownRows = spec.rows ?? n;
  const finite = [];
  for (let i = 0; i < shownRows; i++)
    for (let j = 0; j < n; j++) if (!masked(i, j)) finite.push(value(i, j));
  // A hidden key's score is −∞; its weight is 0 (hatched either way).
  const text = gridTexts(n, n, (i, j) => (masked(i, j) && !weights ? -Infinity : value(i, j)));
  const view = matrixView({
    matrix,
    role: ROLES.scores.role,
    symbol,
    name,
    rows: n,
    cols: n,
    text: (i, j) => (i < shownRows ? text(i, j) : ''),
    colLabels: Array.from({ length: n }, (_, j) => `k${subscript(j + 1)}`),
    rowLabels: Array.from({ length: n }, (_, i) => `q${subscript(i + 1)}`),
    inspectable: true,
    dataset: { head },
    className: `heatmap head-heatmap head-${head + 1}`,
  });
  const low = weights ? 0 : Math.min(...finite);
  const high = weights ? 1 : Math.max(...finite);
  view.cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      if (i >= shownRows) {
        cell.classList.add('is-empty');
        return;
      }
      if (masked(i, j)) {
        cell.classList.add('is-masked');
        return;
      }
      shade(cell, value(i, j), low, high);
    }),
  );
  view.element.append(heatLegend(finite, low, high, weights, spec.tr));
  return view;
}

/** A head's name chip, in its colour: "Head 2". */
export const headChip = (head, text) =>
  h('span', { class: `head-chip head-${head + 1}`, text, dataset: { head } });

/** A head card's title: the head's chip and the K/V head it reads. */
export const headCardTitle = (layer, hd, tr) =>
  h(
    'h3',
    { class: 'head-card-title' },
    headChip(hd, tr('ch2.head', { h: hd + 1 })),
    h('span', {
      class: 'head-card-kv',
      text: tr('ch2.attention.readsKv', { g: layer.kvHeadOf(hd) + 1 }),
    }),
  );

/** The layer's inputs or a weight matrix, as the reader typed them (not inspectable). */
export function layerInput(ctx, name, options = {}) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const matrix = layer[name];
  const meta = ROLES[name];
  const value = (i, j) => matrix.data[i * matrix.cols + j];
  if (name === 'x') {
    return matrixView({
      matrix: 'layer-x',
      role: meta.role,
      symbol: meta.symbol,
      name: tr(meta.nameKey),
      rows: matrix.rows,
      cols: matrix.cols,
      text: gridTexts(matrix.rows, matrix.cols, value),
      rowLabels: Array.from({ length: matrix.rows }, (_, i) => `x${subscript(i + 1)}`),
    });
  }
  const { dHead, group } = layer.dims;
  const isKv = name === 'wKey' || name === 'wValue';
  const blocks = name === 'wOut' ? null : { blockSize: dHead };
  const view = blocks
    ? headBlocksMatrix({
        matrix: `layer-${name}`,
        ...roleLabels(meta, tr),
        rows: matrix.rows,
        cols: matrix.cols,
        value,
        blockSize: dHead,
        blockLabel: isKv ? 'g' : 'h',
        headOf: isKv ? (g) => g * group : (b) => b,
      })
    : matrixView({
        matrix: 'layer-wOut',
        ...roleLabels(meta, tr),
        rows: matrix.rows,
        cols: matrix.cols,
        text: gridTexts(matrix.rows, matrix.cols, value),
        className: options.className,
      });
  if (name === 'wOut')
    view.cells.forEach((row, r) =>
      row.forEach((cell) => cell.classList.add(`head-${Math.floor(r / dHead) + 1}`)),
    );
  return view;
}

/**
 * Q, K or V of the whole layer: n × (heads or kv heads) · d_head, each head's block in its
 * colour. The numbers are the heads' own (trace().heads[h].queries, keys, values).
 */
export function layerProjection(ctx, field) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { n, heads, kvHeads, dHead, group } = layer.dims;
  const isKv = field !== 'queries';
  const blocks = isKv ? kvHeads : heads;
  // Block b comes from query head b, or (keys, values) from kv head b's first query head.
  const source = (b) => layer.heads[isKv ? b * group : b][field];
  const meta = ROLES[field];
  return headBlocksMatrix({
    matrix: `layer-${field}`,
    role: meta.role,
    symbol: meta.symbol,
    name: tr(meta.nameKey),
    rows: n,
    cols: blocks * dHead,
    value: (i, c) => {
      const matrix = source(Math.floor(c / dHead));
      return matrix.data[i * dHead + (c % dHead)];
    },
    blockSize: dHead,
    blockLabel: isKv ? 'g' : 'h',
    headOf: isKv ? (g) => g * group : (b) => b,
    rowLabels: Array.from({ length: n }, (_, i) => `${meta.rowSymbol}${subscript(i + 1)}`),
    inspectable: true,
  });
}

/** Head h's scores and weights heatmaps. */
export function headPair(ctx, hd, options = {}) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const trace = layer.heads[hd];
  // The two differ in their numbers, letter and name only (the weights' cells are shaded 0 to 1).
  const heatmap = (field, letter, nameKey) =>
    headHeatmap({
      matrix: `head-${field}`,
      head: hd,
      n: layer.dims.n,
      value: (i, j) => at(trace[field], i, j),
      masked: (i, j) => layer.masked(hd, i, j),
      weights: field === 'weights',
      symbol: `${letter}${subscript(hd + 1)}`,
      name: tr(nameKey, { h: hd + 1 }),
      rows: options.rows,
      tr,
    });
  return {
    scores: heatmap('scores', 'S', 'ch2.attention.scores'),
    weights: heatmap('weights', 'A', 'ch2.attention.weights'),
  };
}
