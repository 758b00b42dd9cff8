// The arithmetic behind a cell of chapter 2 (the layer), as the cell inspector shows it: the
// formula with the actual numbers, the result from trace() or onnxAttention, and the cells
// it came from. Cells name their head in data-head (see draw/layer-views.mjs).
import { formatExact, operand, subscript } from '../format.mjs';
import { dotTerms as dot, index2, ref as cellRef } from './formula.mjs';
import { at, range } from './matrix.mjs';

const f = formatExact;
// Chapter 2's cells name their head.
const ref = (matrix, row, col, head) => cellRef(matrix, row, col, { head });

function projection(layer, name, i, c, tr) {
  const { dModel, dHead, group } = layer.dims;
  const block = Math.floor(c / dHead);
  const within = c % dHead;
  const weight = { 'layer-queries': 'wQuery', 'layer-keys': 'wKey', 'layer-values': 'wValue' }[
    name
  ];
  const field = { 'layer-queries': 'queries', 'layer-keys': 'keys', 'layer-values': 'values' }[
    name
  ];
  // Query head `block`, or kv head `block` (read from the first query head of its group).
  const head = name === 'layer-queries' ? block : block * group;
  const inputs = range(dModel).map((m) => at(layer.x, i, m));
  const weights = range(dModel).map((m) => at(layer[weight], m, c));
  const letter = field[0];
  return {
    title: tr(`arith2.${field}`, { i: i + 1, c: c + 1, head: block + 1 }),
    expression: `${letter}${index2(i, c)} = ${dot(inputs, weights)} = ${f(at(layer.heads[head][field], i, within))}`,
    sources: [
      ...range(dModel).map((m) => ref('layer-x', i, m)),
      ...range(dModel).map((m) => ref(`layer-${weight}`, m, c)),
    ],
  };
}

function score(layer, h, i, j, tr) {
  const trace = layer.heads[h];
  const { dHead } = layer.dims;
  const title = tr('arith2.score', { head: h + 1, i: i + 1, j: j + 1, g: layer.kvHeadOf(h) + 1 });
  const sources = [
    ...range(dHead).map((c) => ref('layer-queries', i, h * dHead + c)),
    ...range(dHead).map((c) => ref('layer-keys', j, layer.kvHeadOf(h) * dHead + c)),
  ];
  if (layer.masked(h, i, j))
    return { title, expression: `s${index2(i, j)} = ${f(-Infinity)}`, sources };
  const q = range(dHead).map((c) => at(trace.queries, i, c));
  const k = range(dHead).map((c) => at(trace.keys, j, c));
  const scaled = layer.scale !== 1 ? ` × ${f(layer.scale)}` : '';
  return {
    title,
    expression: `s${index2(i, j)} = (${dot(q, k)})${scaled} = ${f(at(trace.scores, i, j))}`,
    sources,
  };
}

function weight(layer, h, i, j, tr) {
  const trace = layer.heads[h];
  const { n } = layer.dims;
  const title = tr('arith2.weight', { head: h + 1, i: i + 1, j: j + 1 });
  const sources = range(n).map((l) => ref('head-scores', i, l, h));
  if (layer.masked(h, i, j)) return { title, expression: `a${index2(i, j)} = 0`, sources };
  return {
    title,
    expression: `a${index2(i, j)} = e^(${f(at(trace.scores, i, j))} − ${f(trace.rowMax[i])}) ÷ ${f(trace.rowSums[i])} = ${f(at(trace.exponentials, i, j))} ÷ ${f(trace.rowSums[i])} = ${f(at(trace.weights, i, j))}`,
    sources,
  };
}

function headOutput(layer, h, i, c, tr) {
  const trace = layer.heads[h];
  const { n } = layer.dims;
  const terms = range(n)
    .map((j) => `${f(at(trace.weights, i, j))}·${operand(f(at(trace.values, j, c)))}`)
    .join(' + ');
  return {
    title: tr('arith2.headOutput', { head: h + 1, i: i + 1, c: c + 1 }),
    expression: `o${index2(i, c)} = ${terms} = ${f(at(trace.outputs, i, c))}`,
    sources: range(n).map((j) => ref('head-weights', i, j, h)),
  };
}

function concat(layer, i, c, tr) {
  const { dHead } = layer.dims;
  const h = Math.floor(c / dHead);
  return {
    title: tr('arith2.concat', { i: i + 1, c: c + 1, head: h + 1, k: (c % dHead) + 1 }),
    expression: `${f(at(layer.concat, i, c))} = o${subscript(h + 1)}[${i + 1}, ${(c % dHead) + 1}]`,
    sources: [ref('head-outputs', i, c % dHead, h)],
  };
}

function layerOutput(layer, i, c, tr) {
  const width = layer.concat.cols;
  const row = range(width).map((m) => at(layer.concat, i, m));
  const column = range(width).map((m) => at(layer.wOut, m, c));
  return {
    title: tr('arith2.output', { i: i + 1, c: c + 1 }),
    expression: `y${index2(i, c)} = ${dot(row, column)} = ${f(at(layer.outputs, i, c))}`,
    sources: [
      ...range(width).map((m) => ref('concat', i, m)),
      ...range(width).map((m) => ref('layer-wOut', m, c)),
    ],
  };
}

function decodeScore(layer, h, t, j, tr) {
  const { dHead } = layer.dims;
  const step = layer.decode[t];
  const g = layer.kvHeadOf(h);
  const q = range(dHead).map((c) => at(layer.causal.heads[h].queries, t, c));
  const cached = step.cacheKey.data;
  const k = range(dHead).map((c) => cached[(g * step.length + j) * dHead + c]);
  const scaled = layer.scale !== 1 ? ` × ${f(layer.scale)}` : '';
  return {
    title: tr('arith2.decodeScore', { head: h + 1, t: t + 1, j: j + 1, g: g + 1 }),
    expression: `s${index2(t, j)} = (${dot(q, k)})${scaled} = ${f(step.scores[h][j])}`,
    sources: [...range(dHead).map((c) => ref('cache-keys', j, c, g))],
  };
}

function decodeOutput(layer, h, t, c, tr) {
  const full = at(layer.causal.heads[h].outputs, t, c);
  return {
    title: tr('arith2.decodeOutput', { head: h + 1, t: t + 1, c: c + 1 }),
    expression: tr('arith2.decodeOutputEquals', {
      y: f(layer.decode[t].outputs[h][c]),
      full: f(full),
      t: t + 1,
    }),
    sources: [],
  };
}

/** The layer as the causal trace sees it (for the decoding scenes' triangles). */
function causalView(layer) {
  const { n } = layer.dims;
  const heads = layer.causal.heads;
  return { ...layer, heads, masked: (h, i, j) => heads[h].mask.data[i * n + j] === 1 };
}

/**
 * @param layer computeLayerNumbers()'s result
 * @param cell { matrix, row, col, head? } as in the cell's data attributes
 * @returns the explanation, or null for a cell that is not chapter 2's or not computed
 */
export function explainLayerCell(layer, cell, tr) {
  const { matrix, row, col, head } = cell;
  switch (matrix) {
    case 'layer-queries':
    case 'layer-keys':
    case 'layer-values':
      return projection(layer, matrix, row, col, tr);
    case 'head-scores':
      return score(layer, head, row, col, tr);
    case 'head-weights':
      return weight(layer, head, row, col, tr);
    case 'causal-weights':
      // The decoding scenes' triangle: the causal trace's weights.
      return weight(causalView(layer), head, row, col, tr);
    case 'head-outputs':
      return headOutput(layer, head, row, col, tr);
    case 'concat':
      return concat(layer, row, col, tr);
    case 'layer-outputs':
      return layerOutput(layer, row, col, tr);
    case 'decode-scores':
      return decodeScore(layer, head, row, col, tr);
    case 'decode-outputs':
      return decodeOutput(layer, head, row, col, tr);
    default:
      return null;
  }
}
