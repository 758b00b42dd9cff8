// Chapter 2 (a real layer): every scene shows the module's numbers. Heads, concatenation and
// W_O against trace() in Node; decoding (onnxAttention's KV cache in the page) against the
// rows of full causal attention from trace(); the MHA/GQA/MQA switch, the cache sizes, the
// multiply-add counts, deep links, keyboard, Chinese, the table view and the offline file;
// shapes of 1–4 heads, kv heads dividing them and 1–8 tokens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  nodeTrace,
  pageFixture,
  parseShown,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import {
  layerExample,
  withKvHeads,
  withLayerDims,
  withLayerEntry,
} from '../../web/model/layer.mjs';
import { LAST_STEP } from './walkthrough-shape.mjs';

const web = pageFixture();
const CHAPTER_2 = ['heads-split', 'heads-attention', 'heads-concat', 'output-projection'];

const text = (m) => m.map((row) => row.join(',')).join(';');
/** The link of a layer (and a step): what the page writes for numbers that are not its own. */
const layerHash = (layer, step) =>
  `step=${step}&heads=${layer.heads}&kv=${layer.kvHeads}&lx=${text(layer.x)}` +
  `&lq=${text(layer.wQuery)}&lk=${text(layer.wKey)}&lv=${text(layer.wValue)}&lo=${text(layer.wOut)}`;

const at = (matrix, i, j) => matrix.data[i * matrix.cols + j];

/** trace() of a layer in Node, as the page runs it (unscaled; causal for decoding). */
const traceOf = (layer, isCausal = false) =>
  nodeTrace({
    x: layer.x,
    wQuery: layer.wQuery,
    wKey: layer.wKey,
    wValue: layer.wValue,
    heads: layer.heads,
    kvHeads: layer.kvHeads,
    wOut: layer.wOut,
    scale: 1,
    isCausal,
  });

/** The numbers of a scene's cells of one matrix (and head), as { row, col, value }. */
async function cells(page, matrix, head) {
  const selector =
    `.scene-host td.cell[data-matrix="${matrix}"]` +
    (head === undefined ? '' : `[data-head="${head}"]`);
  return page.$$eval(selector, (all) =>
    all.map((cell) => ({
      row: Number(cell.dataset.row),
      col: Number(cell.dataset.col),
      text: cell.textContent,
    })),
  );
}

/** Every shown cell equals expected(row, col) to the 3 decimals the page prints. */
function assertCells(shown, expected, what) {
  assert.ok(shown.length > 0, `${what}: cells are shown`);
  for (const { row, col, text } of shown) {
    const want = expected(row, col);
    const value = parseShown(text);
    if (want === -Infinity) assert.equal(value, -Infinity, `${what}[${row}][${col}]`);
    else
      assert.ok(
        Math.abs(value - want) <= 0.0005 + 1e-6,
        `${what}[${row}][${col}]: shown ${text}, expected ${want}`,
      );
  }
}

/** Multiply-adds of decoding step t, written out independently of the page's code. */
function expectedCounts({ dModel, heads, kvHeads, dHead }, t) {
  const tokens = t + 1;
  const projections = dModel * (heads + 2 * kvHeads) * dHead;
  const output = heads * dHead * dModel;
  const withCache = projections + 2 * heads * tokens * dHead + output;
  const triangle = (tokens * (tokens + 1)) / 2;
  const withoutCache = tokens * projections + 2 * heads * triangle * dHead + tokens * output;
  return { withCache, withoutCache };
}

async function checkDecoding(page, layer, causal, t) {
  const { heads } = layer;
  const dHead = layer.wQuery[0].length / heads;
  for (let h = 0; h < heads; h++) {
    const trace = causal.heads[h];
    const scores = await cells(page, 'decode-scores', h);
    assert.equal(scores.length, t + 1, `head ${h + 1}: one new row of ${t + 1} scores`);
    assert.ok(scores.every((cell) => cell.row === t));
    assertCells(scores, (i, j) => at(trace.scores, i, j), `decode-${t + 1} head ${h + 1} scores`);
    assertCells(
      await cells(page, 'decode-outputs', h),
      (i, c) => at(trace.outputs, i, c),
      `decode-${t + 1} head ${h + 1} output`,
    );
    // The causal triangle: rows up to t filled, later rows still empty.
    const triangle = await page.$$eval(
      `.scene-host td.cell[data-matrix="causal-weights"][data-head="${h}"]`,
      (all) =>
        all.map((cell) => ({ row: Number(cell.dataset.row), empty: cell.textContent === '' })),
    );
    assert.ok(
      triangle.every(({ row, empty }) => empty === row > t),
      'rows after t are empty',
    );
  }
  const check = await page.$$eval('.scene-host .decode-check', (all) =>
    all.map((p) => p.dataset.equal),
  );
  assert.deepEqual(check, Array(heads).fill('true'), 'every head equals full causal attention');
  // The cache has grown to t + 1 rows per kv head.
  const cacheRows = await page.$$eval(
    '.scene-host td.cell[data-matrix="cache-keys"][data-head="0"][data-col="0"]',
    (all) => all.length,
  );
  assert.equal(cacheRows, t + 1);
  const counts = expectedCounts({ dModel: 4, heads, kvHeads: layer.kvHeads, dHead }, t);
  const shown = async (key) =>
    Number((await page.textContent(`[data-count="${key}"]`)).replace(/[^0-9]/g, ''));
  assert.equal(await shown('with-total'), counts.withCache);
  assert.equal(await shown('without-total'), counts.withoutCache);
}

test('the example: each scene shows trace()’s numbers, and each head attends differently', async () => {
  const layer = layerExample();
  const trace = await traceOf(layer);
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=heads-split`,
    viewport: { width: 1280, height: 800 },
  });
  await waitForReady(page);
  await waitForStep(page, 'heads-split');
  for (const [field, blocks] of [
    ['queries', 4],
    ['keys', 4],
    ['values', 4],
  ]) {
    assertCells(
      await cells(page, `layer-${field}`),
      (i, c) => at(trace.heads[Math.floor(c / 2)][field], i, c % 2),
      field,
    );
    assert.equal((await cells(page, `layer-${field}`)).length, 4 * blocks * 2);
  }
  await screenshot(page, 'ch2-01-heads-en-desktop');

  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 'heads-attention');
  for (let h = 0; h < 4; h++) {
    assertCells(
      await cells(page, 'head-scores', h),
      (i, j) => at(trace.heads[h].scores, i, j),
      `S${h + 1}`,
    );
    assertCells(
      await cells(page, 'head-weights', h),
      (i, j) => at(trace.heads[h].weights, i, j),
      `A${h + 1}`,
    );
  }
  // What each head attends to, in words and from the weights.
  const strongest = await page.$$eval('.scene-host .head-card-strongest', (all) =>
    all.map((p) => p.textContent),
  );
  assert.match(strongest[0], /q₄→k₄ 0\.776/, 'head 1: token 4 looks at itself');
  assert.match(strongest[1], /q₂→k₂ 0\.979 · q₃→k₂ 0\.831 · q₄→k₂ 0\.534/, 'head 2: token 2');
  assert.match(strongest[2], /q₁→k₂ 0\.831 · q₂ evenly · q₃→k₂ 0\.831 · q₄→k₂ 0\.853/);
  assert.equal(strongest[3], 'q₁ evenly · q₂ evenly · q₃ evenly · q₄ evenly', 'head 4 averages');
  assert.match(await page.textContent('.scene-host'), /Head 4 has all-zero queries/);
  // Numbers on demand: hidden in the small multiples until the switch is on.
  const colour = () =>
    page.$eval(
      '.scene-host td.cell[data-matrix="head-weights"] .cell-value',
      (v) => getComputedStyle(v).color,
    );
  assert.equal(await colour(), 'rgba(0, 0, 0, 0)');
  await page.click('.numbers-switch');
  assert.notEqual(await colour(), 'rgba(0, 0, 0, 0)');
  // The arithmetic behind a cell, on hover.
  await page.hover(
    '.scene-host td.cell[data-matrix="head-weights"][data-head="1"][data-row="1"][data-col="1"]',
  );
  assert.match(
    await page.textContent('.cell-popover'),
    /Head 2: weight of key 2 for query 2.*= 0\.979/s,
  );
  await screenshot(page, 'ch2-02-attention-en-desktop');
  await page.$eval('.scene-host .head-card[data-head="2"]', (card) => card.scrollIntoView());
  await screenshot(page, 'ch2-02b-attention-heads-3-4-en-desktop');

  // The switch keeps its arrow keys (as every field does): Next moves on.
  await page.click('[data-action="next"]');
  await waitForStep(page, 'heads-concat');
  assertCells(await cells(page, 'concat'), (i, c) => at(trace.concat, i, c), 'concat');
  for (let h = 0; h < 4; h++)
    assertCells(
      await cells(page, 'head-outputs', h),
      (i, c) => at(trace.heads[h].outputs, i, c),
      `O${h + 1}`,
    );
  await screenshot(page, 'ch2-03-concat-en-desktop');

  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 'output-projection');
  assertCells(await cells(page, 'layer-outputs'), (i, c) => at(trace.outputs, i, c), 'Y');
  await page.focus('.scene-host td.cell[data-matrix="layer-outputs"]');
  assert.match(await page.textContent('.cell-popover'), /y₁,₁ = .* = /);
  await screenshot(page, 'ch2-04-output-en-desktop');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('MHA → GQA → MQA: who shares which K/V head, the numbers saved, a real model’s cache', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=kv-sharing`,
    viewport: { width: 1280, height: 800 },
  });
  await waitForReady(page);
  const saving = () =>
    page.$eval('.scene-host .kv-saving', (p) => ({ ...p.dataset, text: p.textContent }));
  assert.equal((await saving()).saved, '0');
  await screenshot(page, 'ch2-05-kv-mha-en-desktop');
  await page.click('.scene-host label:has(input[data-kv="2"])');
  await page.waitForFunction(() => location.hash.includes('kv=2'));
  // 2 (K and V) × 4 tokens × 2 kv heads × d_head 2 = 32 numbers, instead of 64.
  assert.deepEqual(
    { cached: (await saving()).cached, mha: (await saving()).mha, saved: (await saving()).saved },
    { cached: '32', mha: '64', saved: '32' },
  );
  assert.match((await saving()).text, /Saved: 32 numbers/);
  const groups = await page.$$eval('.scene-host .kv-group', (all) =>
    all.map((g) => [...g.querySelectorAll('.head-chip')].map((chip) => chip.textContent)),
  );
  assert.deepEqual(groups, [
    ['Head 1', 'Head 2'],
    ['Head 3', 'Head 4'],
  ]);
  assert.equal(
    await page.evaluate(() => document.activeElement?.dataset.kv),
    '2',
    'the switch keeps the focus',
  );
  await screenshot(page, 'ch2-06-kv-gqa-en-desktop');
  // The other scenes follow: heads 1 and 2 now read K/V head 1 (head 1's keys).
  const gqa = withLayerDims(layerExample(), { kvHeads: 2 });
  const trace = await traceOf(gqa);
  await page.goto(
    `${web.url}${await page.evaluate(() => location.hash.replace('kv-sharing', 'heads-attention'))}`,
  );
  await waitForStep(page, 'heads-attention');
  for (let h = 0; h < 4; h++)
    assertCells(
      await cells(page, 'head-weights', h),
      (i, j) => at(trace.heads[h].weights, i, j),
      `GQA A${h + 1}`,
    );
  assert.match(
    await page.textContent('.scene-host .head-card[data-head="1"]'),
    /reads K\/V head 1/,
  );

  await page.goto(`${web.url}#step=kv-sharing`);
  await waitForStep(page, 'kv-sharing');
  await page.click('.scene-host label:has(input[data-kv="1"])');
  await page.waitForFunction(() => location.hash.includes('kv=1'));
  assert.equal((await saving()).saved, '48');
  // A real model: 32 layers, 32 query heads, 8 kv heads, 128, 8192 tokens, 2 bytes.
  const result = () =>
    page.$eval('.scene-host .calc-result', (p) => ({ ...p.dataset, text: p.textContent }));
  assert.equal((await result()).cacheBytes, String(2 * 32 * 8192 * 8 * 128 * 2));
  assert.match(
    (await result()).text,
    /KV cache: 1 GiB per sequence.* 4 GiB\. Sharing saves 3 GiB \(4× smaller\)/,
  );
  await page.fill('.scene-host input[data-size="layers"]', '80');
  await page.fill('.scene-host input[data-size="kvHeads"]', '1');
  await page.selectOption('.scene-host select[data-size="bytes"]', '4');
  assert.equal((await result()).cacheBytes, String(2 * 80 * 8192 * 1 * 128 * 4));
  assert.equal((await result()).mhaBytes, String(2 * 80 * 8192 * 32 * 128 * 4));
  await page.fill('.scene-host input[data-size="kvHeads"]', '5');
  assert.match((await result()).text, /must divide/);
  // The reader's sizes are part of the page's state: the switch rebuilds the scene (and
  // another step and back builds it again) without losing them.
  await page.fill('.scene-host input[data-size="kvHeads"]', '8');
  await page.click('.scene-host label:has(input[data-kv="2"])');
  await page.waitForFunction(() => location.hash.includes('kv=2'));
  await page.click('[data-action="next"]');
  await waitForStep(page, 'decode-1');
  await page.click('[data-action="previous"]');
  await waitForStep(page, 'kv-sharing');
  assert.equal(await page.inputValue('.scene-host input[data-size="layers"]'), '80');
  assert.equal(await page.inputValue('.scene-host select[data-size="bytes"]'), '4');
  assert.equal((await result()).cacheBytes, String(2 * 80 * 8192 * 8 * 128 * 4));
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('sharing can be undone: MHA → MQA → MHA (or → GQA → MHA) gives every head its own K and V back', async () => {
  // The model: back to more K/V heads from the layer before sharing, while nothing was edited.
  const example = layerExample();
  const mqa = withKvHeads(example, 1, null);
  assert.deepEqual(withKvHeads(mqa.layer, 4, mqa.remembered).layer, example);
  const gqa = withKvHeads(mqa.layer, 2, mqa.remembered);
  assert.deepEqual(withKvHeads(gqa.layer, 4, gqa.remembered).layer, example);
  // An entry edited while shared: that layer is the one switched (each head gets the copy).
  const edited = withLayerEntry(mqa.layer, 'wKey', 0, 0, 5);
  assert.deepEqual(
    withKvHeads(edited, 4, mqa.remembered).layer,
    withLayerDims(edited, { kvHeads: 4 }),
  );

  // The page: the switch and back leave the chapter's own example (nothing in the link).
  const { page, context, problems } = await web.open({ url: `${web.url}#step=kv-sharing` });
  await waitForStep(page, 'kv-sharing');
  const choose = async (kv) => {
    await page.click(`.scene-host label:has(input[data-kv="${kv}"])`);
    await page.waitForFunction(
      (k) => document.querySelector(`.scene-host input[data-kv="${k}"]`)?.checked,
      kv,
    );
  };
  await choose(1);
  assert.match(await page.evaluate(() => location.hash), /kv=1/);
  await choose(4);
  assert.equal(await page.evaluate(() => location.hash), '#step=kv-sharing');
  await choose(2);
  await choose(1);
  await choose(4);
  assert.equal(await page.evaluate(() => location.hash), '#step=kv-sharing');
  // Every head attends as before: head 2 still finds token 2 (0.979 on itself).
  await page.goto(`${web.url}#step=heads-attention`);
  await waitForStep(page, 'heads-attention');
  const head2 = await cells(page, 'head-weights', 1);
  assert.equal(head2.find((c) => c.row === 1 && c.col === 1).text, '0.979');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('decoding: the cache grows a row per token, one new row of scores, equal to causal attention', async () => {
  const layer = layerExample();
  const causal = await traceOf(layer, true);
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=decode-1`,
    viewport: { width: 1280, height: 800 },
  });
  await waitForReady(page);
  for (let t = 0; t < 4; t++) {
    if (t > 0) await page.keyboard.press('ArrowRight');
    await waitForStep(page, `decode-${t + 1}`);
    assert.equal(await page.evaluate(() => location.hash), `#step=decode-${t + 1}`);
    await checkDecoding(page, layer, causal, t);
    if (t === 2) {
      // Focus a decoded output: its arithmetic names both computations and their numbers.
      await page.focus('.scene-host td.cell[data-matrix="decode-outputs"][data-head="1"]');
      assert.match(
        await page.textContent('.cell-popover'),
        /Y = 1\.851; row 3 of full causal attention = 1\.851/,
      );
      await page.hover(
        '.scene-host td.cell[data-matrix="decode-scores"][data-head="2"][data-col="1"]',
      );
      assert.match(await page.textContent('.cell-popover'), /s₃,₂ = \(1·2 \+ 1·2\) = 4/);
      // A focused cell keeps the arrow keys (they move between cells): leave it.
      await page.evaluate(() => document.activeElement.blur());
      await page.mouse.move(0, 0);
      await screenshot(page, 'ch2-07-decode-3-en-desktop');
      // The counts and the why, in view.
      await page.$eval('.explanation', (element) => element.scrollIntoView({ block: 'end' }));
      await screenshot(page, 'ch2-07b-decode-3-why-en-desktop');
    }
  }
  // Step 4's counts, by hand: projections 4·(4 + 2·4)·2 = 96 per token, W_O 4·2·4 = 32 per
  // token; scores and sums 2·4 heads·2 per key: 4 keys with the cache, 1+2+3+4 without.
  assert.equal((await page.textContent('[data-count="with-total"]')).trim(), '192');
  assert.equal((await page.textContent('[data-count="without-total"]')).trim(), '672');
  assert.match(
    await page.textContent('.explanation'),
    /Why one new row of scores and not the whole matrix/,
  );
  assert.match(await page.textContent('#narration'), /Token 4: the cache holds 4 tokens/);
  // The walkthrough's last step (today): Next is disabled; Home and End go to either end.
  if (LAST_STEP === 'decode-4') assert.equal(await page.isDisabled('[data-action="next"]'), true);
  await page.keyboard.press('Home');
  await waitForStep(page, 'inputs');
  await page.keyboard.press('End');
  await waitForStep(page, LAST_STEP);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the stage list shows every chapter; → from "The whole result" enters chapter 2', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=result` });
  await waitForReady(page);
  const chapters = await page.$$eval('.stage-list .chapter-title', (all) =>
    all.map((li) => li.textContent),
  );
  assert.deepEqual(chapters, [
    'Chapter 1 · The article',
    'Chapter 2 · A real layer',
    'Chapter 3 · Where the weights come from',
    'Chapter 4 · A tiny language model',
  ]);
  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 'heads-split');
  assert.equal(await page.textContent('.scene-stage'), 'Stage 9 · Several heads');
  await page.keyboard.press('ArrowLeft');
  await waitForStep(page, 'result');
  await page.click('.stage-button[data-stage="13"]');
  await waitForStep(page, 'decode-1');
  // Back returns to the step the reader left.
  await page.goBack();
  await waitForStep(page, 'result');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

// Shapes: 1–4 heads, kv heads dividing them, 1–8 tokens, head sizes 1–4, from the links a
// reader's edits write.
const SHAPES = [
  { heads: 1, kvHeads: 1, n: 1, dHead: 1 },
  { heads: 2, kvHeads: 1, n: 3, dHead: 3 },
  { heads: 3, kvHeads: 3, n: 8, dHead: 2 },
  { heads: 4, kvHeads: 2, n: 8, dHead: 4 },
  { heads: 4, kvHeads: 1, n: 5, dHead: 1 },
];

test('shapes: heads 1–4, kv heads dividing them, 1–8 tokens, every scene still trace()’s', async () => {
  const { page, context, problems } = await web.open({ url: web.url });
  await waitForReady(page);
  for (const shape of SHAPES) {
    const layer = withLayerDims(layerExample(), shape);
    // Numbers with negatives and decimals in every block, so no head is all zeros.
    layer.wQuery = layer.wQuery.map((row, i) => row.map((_, j) => (((i * 5 + j * 3) % 7) - 3) / 2));
    layer.wKey = layer.wKey.map((row, i) => row.map((_, j) => (((i * 3 + j * 2 + 1) % 5) - 2) / 2));
    layer.x = layer.x.map((row, i) => row.map((_, j) => ((i + 2 * j) % 4) - 1));
    const trace = await traceOf(layer);
    const causal = await traceOf(layer, true);
    const what = `heads ${shape.heads}, kv ${shape.kvHeads}, n ${shape.n}, d_head ${shape.dHead}`;

    await page.goto(`${web.url}#${layerHash(layer, 'heads-attention')}`);
    await waitForStep(page, 'heads-attention');
    assert.equal(await page.$$eval('.notice', (all) => all.length), 0, `${what}: link accepted`);
    assert.equal(await page.$$eval('.scene-host .head-card', (all) => all.length), shape.heads);
    for (let h = 0; h < shape.heads; h++)
      assertCells(
        await cells(page, 'head-weights', h),
        (i, j) => at(trace.heads[h].weights, i, j),
        `${what} A${h + 1}`,
      );

    await page.goto(`${web.url}#${layerHash(layer, 'output-projection')}`);
    await waitForStep(page, 'output-projection');
    assertCells(await cells(page, 'layer-outputs'), (i, c) => at(trace.outputs, i, c), `${what} Y`);

    await page.goto(`${web.url}#${layerHash(layer, 'kv-sharing')}`);
    await waitForStep(page, 'kv-sharing');
    const saved = await page.$eval('.scene-host .kv-saving', (p) => Number(p.dataset.saved));
    assert.equal(
      saved,
      2 * shape.n * (shape.heads - shape.kvHeads) * shape.dHead,
      `${what}: saved`,
    );

    const last = shape.n - 1;
    await page.goto(`${web.url}#${layerHash(layer, `decode-${last + 1}`)}`);
    await waitForStep(page, `decode-${last + 1}`);
    await checkDecoding(page, layer, causal, last);
    if (shape.n === 8 && shape.heads === 4) await screenshot(page, 'ch2-08-decode-8-gqa-en');
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('editing the layer: head counts and entries in "Your numbers" recompute chapter 2', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=heads-attention`,
    viewport: { width: 1280, height: 800 },
  });
  await waitForReady(page);
  const editor = '.layer-editor';
  await page.selectOption(`${editor} .dim-select >> nth=1`, '2');
  await page.waitForFunction(() => location.hash.includes('heads=2'));
  assert.equal(await page.$$eval('.scene-host .head-card', (all) => all.length), 2);
  let layer = withLayerDims(layerExample(), { heads: 2 });
  // An entry of W_Q: head 2's first column, first row.
  await page.fill(`${editor} [data-editor="layer-wQuery"] input[data-row="0"][data-col="2"]`, '3');
  await page.waitForFunction(() => location.hash.includes('lq=1,0,3'));
  layer.wQuery[0][2] = 3;
  const trace = await traceOf(layer);
  for (let h = 0; h < 2; h++)
    assertCells(
      await cells(page, 'head-scores', h),
      (i, j) => at(trace.heads[h].scores, i, j),
      `edited S${h + 1}`,
    );
  // Tokens: 6, and the decoding steps follow.
  await page.selectOption(`${editor} .dim-select >> nth=0`, '6');
  await page.goto(
    `${web.url}${await page.evaluate(() => location.hash.replace('heads-attention', 'decode-6'))}`,
  );
  await waitForStep(page, 'decode-6');
  layer = withLayerDims(layer, { n: 6 });
  await checkDecoding(page, layer, await traceOf(layer, true), 5);
  // Reset brings the chapter's own example back.
  await page.click('.workbench .action-button.is-secondary');
  await page.waitForFunction(() => !location.hash.includes('heads='));
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Chinese, phone, table view and the offline file', async () => {
  const zh = await web.open({
    url: `${web.url}#step=kv-sharing`,
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
  });
  await waitForReady(zh.page);
  assert.match(await zh.page.textContent('.scene-title'), /查询头共享 K\/V 头/);
  assert.match(await zh.page.textContent('.stage-list'), /第二章 · 真实的一层/);
  await screenshot(zh.page, 'ch2-09-kv-zh-desktop');
  for (const step of ['heads-attention', 'decode-3']) {
    await zh.page.goto(`${web.url}#step=${step}`);
    await waitForStep(zh.page, step);
    await screenshot(zh.page, `ch2-10-${step}-zh-desktop`);
  }
  assert.match(await zh.page.textContent('.explanation'), /为什么只算新的一行分数/);
  assert.deepEqual(await collectProblems(zh.page, zh.problems), []);
  await zh.context.close();

  for (const locale of ['en-US', 'zh-CN']) {
    const phone = await web.open({
      url: `${web.url}#step=heads-attention`,
      locale,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    });
    await waitForReady(phone.page);
    const tag = locale === 'en-US' ? 'en' : 'zh';
    for (const step of ['heads-attention', 'kv-sharing', 'decode-2']) {
      await phone.page.goto(`${web.url}#step=${step}`);
      await waitForStep(phone.page, step);
      const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${step}: the page is ${width} px wide`);
      // The stage row scrolls to show the current stage (13 lies beyond the screen's edge).
      const shown = await phone.page.evaluate(() => {
        const list = document.querySelector('.stage-list').getBoundingClientRect();
        const button = document
          .querySelector('.stage-item.is-current > .stage-button')
          .getBoundingClientRect();
        return button.left >= list.left - 1 && button.right <= list.right + 1;
      });
      assert.ok(shown, `${step}: the current stage is in the stage row`);
      await screenshot(phone.page, `ch2-11-${step}-${tag}-phone`);
    }
    assert.deepEqual(await collectProblems(phone.page, phone.problems), []);
    await phone.context.close();
  }

  // The table view lists the layer too: every head's weights, the concatenation, Y.
  const tables = await web.open({ url: `${web.url}#step=inputs` });
  await waitForReady(tables.page);
  await tables.page.click('.tables-summary');
  const trace = await traceOf(layerExample());
  for (let h = 0; h < 4; h++) {
    const shown = await tables.page.$$eval(
      `.tables-grid td.cell[data-matrix="head-weights"][data-head="${h}"]`,
      (all) =>
        all.map((cell) => ({
          row: +cell.dataset.row,
          col: +cell.dataset.col,
          text: cell.textContent,
        })),
    );
    assertCells(shown, (i, j) => at(trace.heads[h].weights, i, j), `table A${h + 1}`);
  }
  assert.equal(
    await tables.page.$$eval('.tables-grid td.cell[data-matrix="layer-outputs"]', (a) => a.length),
    16,
  );
  assert.deepEqual(await collectProblems(tables.page, tables.problems), []);
  await tables.context.close();

  // The single offline file runs chapter 2's KV cache too.
  const offline = await web.open({ url: `${explainerFileUrl}#step=decode-4` });
  await waitForReady(offline.page);
  await waitForStep(offline.page, 'decode-4');
  await checkDecoding(offline.page, layerExample(), await traceOf(layerExample(), true), 3);
  assert.deepEqual(await collectProblems(offline.page, offline.problems), []);
  await offline.context.close();
});

test('motion: Next animates the new row of scores filling in; reduced motion shows it at once', async () => {
  const moving = await web.open({
    url: `${web.url}#step=decode-1`,
    reducedMotion: 'no-preference',
  });
  await waitForReady(moving.page);
  await moving.page.click('[data-action="next"]');
  await moving.page.waitForFunction(() => document.body.dataset.step === 'decode-2');
  const pending = () =>
    moving.page.$$eval(
      '.scene-host td.cell.is-pending[data-matrix="decode-scores"], .scene-host td.cell.is-pending[data-matrix="cache-keys"]',
      (all) => all.length,
    );
  assert.ok((await pending()) > 0, 'the new cache row and scores are still arriving');
  await waitForStep(moving.page, 'decode-2');
  assert.equal(await pending(), 0, 'and all are there once the step is drawn');
  assert.deepEqual(await collectProblems(moving.page, moving.problems), []);
  await moving.context.close();

  const still = await web.open({ url: `${web.url}#step=decode-1`, reducedMotion: 'reduce' });
  await waitForReady(still.page);
  await still.page.click('[data-action="next"]');
  await still.page.waitForFunction(() => document.body.dataset.step === 'decode-2');
  assert.equal(
    await still.page.$$eval('.scene-host td.cell.is-pending', (all) => all.length),
    0,
    'reduced motion: the finished picture at once',
  );
  assert.match(
    await still.page.textContent('#narration'),
    /every head equals full causal attention/,
  );
  assert.deepEqual(await collectProblems(still.page, still.problems), []);
  await still.context.close();
});
