// Chapter 2: decoding, one token per step, with a KV cache. At step t the new
// token's query, key and value (projected by the module) go through onnxAttention with the
// cache so far as past_key / past_value; its present_key / present_value is the cache grown
// by one row. Only the new row of scores is computed, the causal triangle fills row by row,
// and the new output equals row t of full causal attention (trace() with isCausal).
import { h } from '../../dom.mjs';
import { formatVector, subscript } from '../../format.mjs';
import { formula, mi, mo, row as mrow, sub, sup } from '../../draw/mathml.mjs';
import {
  gridTexts,
  headBlocksMatrix,
  headCardTitle,
  headHeatmap,
} from '../../draw/layer-views.mjs';
import { matrixView } from '../../draw/matrix-view.mjs';
import { duration, itemAmount, land, progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { cacheNumbers, multiplyAdds } from '../../model/layer-numbers.mjs';
import { at } from '../../model/matrix.mjs';
import { ROLES } from '../../roles.mjs';

// The decoded output and the full computation agree to float32 rounding.
const TOLERANCE = 1e-5;

/** The new token's q (all query heads), k or v (all kv heads): one row, head-coloured. */
function newRow(ctx, field, t) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { heads, kvHeads, dHead, group } = layer.dims;
  const isKv = field !== 'queries';
  const blocks = isKv ? kvHeads : heads;
  const source = (b) => layer.causal.heads[isKv ? b * group : b][field];
  return headBlocksMatrix({
    matrix: `layer-${field}`,
    role: ROLES[field].role,
    symbol: `${ROLES[field].rowSymbol}${subscript(t + 1)}`,
    name: tr(`ch2.decode.new.${field}`, { t: t + 1 }),
    rows: 1,
    cols: blocks * dHead,
    rowIndex: () => t,
    value: (_, c) => at(source(Math.floor(c / dHead)), t, c % dHead),
    blockSize: dHead,
    blockLabel: isKv ? 'g' : 'h',
    headOf: isKv ? (g) => g * group : (b) => b,
    inspectable: true,
    shape: `1×${blocks * dHead}`,
  });
}

/** Kv head g's cache of keys or values after step t: present_key / present_value. */
function cacheView(ctx, step, g, field) {
  const { numbers, tr } = ctx;
  const { dHead, group } = numbers.layer.dims;
  const tensor = field === 'keys' ? step.cacheKey : step.cacheValue;
  const rows = step.length;
  const value = (j, c) => tensor.data[(g * rows + j) * dHead + c];
  const view = matrixView({
    matrix: field === 'keys' ? 'cache-keys' : 'cache-values',
    role: ROLES[field].role,
    symbol: `${ROLES[field].symbol}${subscript(g + 1)}`,
    name: tr(`ch2.decode.cache.${field}`, { g: g + 1 }),
    rows,
    cols: dHead,
    text: gridTexts(rows, dHead, value),
    rowLabels: Array.from(
      { length: rows },
      (_, j) => `${ROLES[field].rowSymbol}${subscript(j + 1)}`,
    ),
    dataset: { head: g },
    className: `cache head-${g * group + 1}`,
  });
  view.cells[rows - 1].forEach((cell) => cell.classList.add('is-new'));
  return view;
}

/**
 * Query head hd at decoding step `step`: its new row of scores, the causal triangle so far,
 * its decoded output and the check against row t of full causal attention.
 */
function headCard(ctx, hd, step) {
  const { numbers, tr } = ctx;
  const layer = numbers.layer;
  const { n, dHead } = layer.dims;
  const t = step.position;
  const scores = matrixView({
    matrix: 'decode-scores',
    role: ROLES.scores.role,
    symbol: `${ROLES.scores.letter}${subscript(t + 1)}`,
    name: tr('ch2.decode.scoresRow', { h: hd + 1 }),
    rows: 1,
    cols: step.length,
    rowIndex: () => t,
    text: gridTexts(1, step.length, (_, j) => step.scores[hd][j]),
    colLabels: Array.from({ length: step.length }, (_, j) => `k${subscript(j + 1)}`),
    dataset: { head: hd },
    inspectable: true,
    shape: `1×${step.length}`,
  });
  const causal = layer.causal.heads[hd];
  const triangle = headHeatmap({
    matrix: 'causal-weights',
    head: hd,
    n,
    value: (i, j) => at(causal.weights, i, j),
    masked: (i, j) => causal.mask.data[i * n + j] === 1,
    weights: true,
    symbol: `${ROLES.weights.symbol}${subscript(hd + 1)}`,
    name: tr('ch2.decode.triangle', { h: hd + 1 }),
    rows: t + 1,
    tr,
  });
  const decoded = matrixView({
    matrix: 'decode-outputs',
    role: ROLES.outputs.role,
    symbol: `${ROLES.outputs.rowSymbol}${subscript(t + 1)}`,
    name: tr('ch2.decode.outputCached', { h: hd + 1 }),
    rows: 1,
    cols: dHead,
    rowIndex: () => t,
    text: gridTexts(1, dHead, (_, c) => step.outputs[hd][c]),
    dataset: { head: hd },
    inspectable: true,
    shape: `1×${dHead}`,
  });
  const full = Array.from({ length: dHead }, (_, c) => at(causal.outputs, t, c));
  const equal = full.every((value, c) => Math.abs(value - step.outputs[hd][c]) <= TOLERANCE);
  const check = h('p', {
    class: `decode-check ${equal ? 'is-equal' : 'is-different'}`,
    dataset: { head: hd, equal },
    text: tr(equal ? 'ch2.decode.equal' : 'ch2.decode.different', {
      t: t + 1,
      full: formatVector(full),
    }),
  });
  const card = h(
    'section',
    { class: `head-card decode-card head-${hd + 1}`, dataset: { head: hd } },
    headCardTitle(layer, hd, tr),
    h(
      'div',
      { class: 'head-card-maps' },
      triangle.element,
      h('div', {}, scores.element, decoded.element, check),
    ),
  );
  return { card, scores, triangle, decoded, check };
}

/** Multiply-adds of this step with and without the cache, part by part. */
function countsTable(tr, t, n, counts, count) {
  const countRows = ['projections', 'scores', 'sums', 'output', 'total'].map((part) =>
    h(
      'tr',
      { class: part === 'total' ? 'is-total' : '' },
      h('th', { scope: 'row', text: tr(`ch2.decode.count.${part}`) }),
      h('td', { dataset: { count: `with-${part}` }, text: count(counts.withCache[part]) }),
      h('td', { dataset: { count: `without-${part}` }, text: count(counts.withoutCache[part]) }),
    ),
  );
  // Its caption counts the decoding steps ("step 4 of 4"): not the page's "Step 36 of 52".
  const countTable = h(
    'table',
    { class: 'count-table' },
    h('caption', { text: tr('ch2.decode.count.title', { t: t + 1, n }) }),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('td', {}),
        h('th', { scope: 'col', text: tr('ch2.decode.count.with') }),
        h('th', { scope: 'col', text: tr('ch2.decode.count.without') }),
      ),
    ),
    h('tbody', {}, countRows),
  );

  return countTable;
}

function build(ctx) {
  const { numbers, tr, language, step: current } = ctx;
  const layer = numbers.layer;
  const t = current.params.position;
  const { heads, kvHeads, group } = layer.dims;
  const step = layer.decode[t];
  const count = (value) => new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en').format(value);

  const x = matrixView({
    matrix: 'layer-x',
    role: ROLES.x.role,
    symbol: `${ROLES.x.rowSymbol}${subscript(t + 1)}`,
    name: tr('ch2.decode.token', { t: t + 1 }),
    rows: 1,
    cols: layer.dims.dModel,
    rowIndex: () => t,
    text: gridTexts(1, layer.dims.dModel, (_, j) => at(layer.x, t, j)),
    shape: `1×${layer.dims.dModel}`,
  });
  const projections = ['queries', 'keys', 'values'].map((field) => newRow(ctx, field, t));
  const caches = Array.from({ length: kvHeads }, (_, g) =>
    h(
      'div',
      { class: `cache-pair head-${g * group + 1}`, dataset: { kv: g } },
      cacheView(ctx, step, g, 'keys').element,
      cacheView(ctx, step, g, 'values').element,
    ),
  );
  const cacheCells = [...caches].flatMap((pair) => [...pair.querySelectorAll('td.is-new')]);

  const perHead = Array.from({ length: heads }, (_, hd) => headCard(ctx, hd, step));

  const counts = multiplyAdds(layer.dims, t);
  const countTable = countsTable(tr, t, layer.dims.n, counts, count);

  const element = h(
    'div',
    { class: 'scene scene-decoding' },
    h(
      'div',
      { class: 'decode-new' },
      x.element,
      projections.map((view) => view.element),
    ),
    h(
      'section',
      {
        class: 'decode-cache',
        'aria-label': tr('ch2.decode.cache.title', { length: step.length }),
      },
      h('h3', {
        class: 'group-title',
        text: tr('ch2.decode.cache.title', { length: step.length }),
      }),
      h('div', { class: 'cache-pairs' }, caches),
    ),
    h(
      'div',
      { class: 'head-grid decode-heads' },
      perHead.map((item) => item.card),
    ),
    countTable,
  );

  function render(tt) {
    const p = progressOf(tt);
    const pCache = ramp(p, 0, 0.25);
    const pScores = ramp(p, 0.25, 0.75);
    const pOut = ramp(p, 0.75, 1);
    projections.forEach((view) =>
      view.cells.flat().forEach((cell) => land(cell, ramp(p, 0, 0.15))),
    );
    cacheCells.forEach((cell) => land(cell, pCache));
    for (const { scores, triangle, decoded, check } of perHead) {
      scores.cells[0].forEach((cell, j) => land(cell, itemAmount(pScores, step.length, j)));
      // Row t of the triangle: its t + 1 keys land with the scores, the hidden rest with the last.
      triangle.cells[t].forEach((cell, j) =>
        land(cell, itemAmount(pScores, step.length, Math.min(j, t))),
      );
      triangle.cells[t].forEach((cell) => cell.classList.toggle('is-current', p < 1));
      decoded.cells[0].forEach((cell) => land(cell, pOut));
      reveal(check, pOut);
    }
  }

  const saved = counts.withoutCache.total - counts.withCache.total;
  const allEqual = perHead.every(({ check }) => check.dataset.equal === 'true');
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr(t === 0 ? 'ch2.decode.first' : 'ch2.decode.arrives', { t: t + 1, length: step.length }),
        tr('ch2.decode.oneRow', { t: t + 1 }),
        tr('ch2.decode.counts', {
          with: count(counts.withCache.total),
          without: count(counts.withoutCache.total),
          saved: count(saved),
        }),
        tr('ch2.decode.whyRecompute'),
      ],
      developer: [tr('ch2.decode.module')],
      formula: formula(
        tr('ch2.formula.decode'),
        sub(mi('o'), mi('t')),
        mo('='),
        mi('softmax'),
        mo('('),
        sub(mi('q'), mi('t')),
        sup(mrow(mo('['), sub(mi('k'), mi('1')), mo('…'), sub(mi('k'), mi('t')), mo(']')), mi('T')),
        mo(')'),
        mrow(mo('['), sub(mi('v'), mi('1')), mo('…'), sub(mi('v'), mi('t')), mo(']')),
      ),
    },
    narration: tr('ch2.narrate.decode', {
      t: t + 1,
      length: step.length,
      with: counts.withCache.total,
      without: counts.withoutCache.total,
      output: formatVector(Array.from(step.outputs[0])),
      check: tr(allEqual ? 'ch2.narrate.decodeEqual' : 'ch2.narrate.decodeDifferent'),
    }),
  };
}

const steps = (dims, layerDims) =>
  Array.from({ length: layerDims.n }, (_, t) => ({
    id: `decode-${t + 1}`,
    family: 'decode',
    params: { position: t },
    duration: duration(3, 1),
    title: (tr) => tr('ch2.title.decode', { t: t + 1 }),
    build,
    // Predict (tools/exercises.mjs): the size of the KV cache once this token is in.
    questions: () => [
      {
        id: `cache-numbers:${t}`,
        prompt: (tr) => tr('tools.ask.cacheNumbers', { t: t + 1 }),
        answer: ({ layer }) => cacheNumbers({ tokens: t + 1, ...layer.dims }),
        hint: (tr, { layer }) => [
          tr('tools.hint.cacheTitle'),
          tr('tools.hint.cacheNumbers', { tokens: t + 1, ...layer.dims }),
        ],
      },
    ],
  }));

export default { titleKey: 'stage.decoding', steps, reads: ['layer'] };
