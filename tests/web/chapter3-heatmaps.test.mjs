// Chapter 3's heatmaps as files (web/tools/export/heatmaps.mjs): the drawing and the CSV in
// Node, then the page: after some training the train stage saves every head's heatmap as PNG,
// SVG and CSV (each query's weights summing to 1, none on a later key), and the heads-learned
// stage saves them for the reader's sequence, with the weight its sentence tells.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { heatmapCsv, heatmapDrawing } from '../../web/tools/export/heatmaps.mjs';
import { pngSize } from './files.mjs';
import {
  collectProblems,
  pageFixture,
  screenshot,
  screenshotDir,
  waitForReady,
} from './helpers.mjs';

const web = pageFixture();

/** The CSV's lines as { layer, head, query, key, queryToken, keyToken, weight }. */
function readCsv(text) {
  const [header, ...lines] = text.trimEnd().split('\r\n');
  assert.equal(header, 'layer,head,query,key,query_token,key_token,weight,head_reads');
  return lines.map((line) => {
    const [layer, head, query, key, queryToken, keyToken, weight] = line.split(',');
    return {
      layer: Number(layer),
      head: Number(head),
      query: Number(query),
      key: Number(key),
      queryToken,
      keyToken,
      weight: Number(weight),
    };
  });
}

/** Every head's rows sum to 1 and put nothing on a later key (the causal mask). */
function assertAttention(rows, what) {
  const sums = new Map();
  for (const { layer, head, query, key, weight } of rows) {
    if (key > query)
      assert.equal(weight, 0, `${what}: layer ${layer} head ${head} ${query}→${key}`);
    const id = `${layer}|${head}|${query}`;
    sums.set(id, (sums.get(id) ?? 0) + weight);
  }
  for (const [id, sum] of sums)
    assert.ok(Math.abs(sum - 1) < 1e-5, `${what}: row ${id} sums to ${sum}`);
}

test('Node: the drawing has a named square per head, each cell coloured by its weight', () => {
  const tokens = [0, 1, 2, 1];
  const weights = [
    [1, 0, 0, 0],
    [0.5, 0.5, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 1, 0],
  ];
  const heads = [0, 1].flatMap((layer) =>
    [0, 1, 2].map((head) => ({ layer, head, name: `L${layer + 1}H${head + 1}`, weights })),
  );
  const drawing = heatmapDrawing({ tokens, heads }, 'sans-serif');
  const texts = drawing.items.filter((item) => item.type === 'text').map((item) => item.text);
  for (const { name } of heads) assert.ok(texts.includes(name), `${name} is named`);
  assert.ok(texts.includes('⟨s⟩') && texts.includes('B'), 'tokens along the edges');
  const cells = drawing.items.filter((item) => item.type === 'box' && item.fill);
  assert.equal(cells.length, heads.length * 16);
  // Weight 1 is the scores' blue, 0 is white, ½ halfway.
  const fills = new Set(cells.map((cell) => cell.fill));
  assert.ok(fills.has('rgb(28, 111, 209)') && fills.has('rgb(255, 255, 255)'));
  assert.ok(fills.has('rgb(142, 183, 232)'));
  // Three heads a row, one row per layer, nothing outside the drawing.
  for (const cell of cells) {
    assert.ok(cell.x + cell.width <= drawing.width && cell.y + cell.height <= drawing.height);
  }
  const rows = readCsv(heatmapCsv({ tokens, heads }));
  assert.equal(rows.length, heads.length * 16);
  assert.deepEqual(rows[5], {
    layer: 1,
    head: 1,
    query: 2,
    key: 2,
    queryToken: 'A',
    keyToken: 'A',
    weight: 0.5,
  });
  assertAttention(rows, 'made up');
});

/** Clicks a heatmap export button in the scene; returns the file's name and bytes. */
async function save(page, format) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`.scene-host [data-heatmap-export="${format}"]`),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

test('the page: every head’s heatmap as PNG, SVG and CSV, in training and on your sequence', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=train` });
  await waitForReady(page);
  await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
  // Nothing trained, nothing to save.
  assert.equal(await page.isDisabled('[data-heatmap-export="csv"]'), true);
  await page.click('.scene-train .train-button');
  // Past the drop (near step 364): the model has its induction head, which the sentence of
  // the heads-learned stage below names (before it, the page says the model has none).
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 600,
    null,
    { timeout: 120_000 },
  );
  await page.click('.scene-train .train-button'); // Pause
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.status === 'paused',
  );
  const paused = await page.$eval('.scene-train', (e) => Number(e.dataset.step));
  await page.waitForFunction(() => !document.querySelector('[data-heatmap-export="csv"]').disabled);

  const csv = await save(page, 'csv');
  assert.equal(csv.name, 'tiny-transformer-rope-seed1-heads.csv');
  const rows = readCsv(csv.bytes.toString('utf8'));
  assert.equal(rows.length, 2 * 4 * 25 * 25, '2 layers × 4 heads × 25 × 25 weights');
  assertAttention(rows, 'train stage');
  // The row is the held-out row the page shows above the heatmaps.
  const shown = await page.$$eval('.scene-train .train-probe .token', (all) =>
    all.map((e) => e.textContent),
  );
  assert.deepEqual(
    rows.filter((r) => r.layer === 1 && r.head === 1 && r.query === 1).map((r) => r.keyToken),
    shown,
  );
  const png = await save(page, 'png');
  const size = pngSize(png.bytes);
  assert.ok(size.width > 4 * 200 && size.height > 2 * 200, `PNG ${size.width}×${size.height}`);
  // Kept beside the screenshots, to be looked at.
  mkdirSync(screenshotDir, { recursive: true });
  writeFileSync(join(screenshotDir, 'ch3-heatmaps-export.png'), png.bytes);
  const svg = (await save(page, 'svg')).bytes.toString('utf8');
  for (let layer = 1; layer <= 2; layer++)
    for (let head = 1; head <= 4; head++)
      assert.match(svg, new RegExp(`>Layer ${layer} · head ${head}</text>`));
  assert.equal(svg.match(/<rect [^>]*fill="rgb\(/g).length, 8 * 625, 'a box per weight');
  assert.match(svg, /<title>Every head’s attention on one held-out row/);
  // The caption names the step of the heads drawn: the model as paused (a pause between two
  // snapshots takes one of its own, so every view reads the same model).
  const snapshot = Number(svg.match(/>After (\d+) training steps · /)[1]);
  assert.equal(snapshot, paused);

  // What the heads learned: the same files for "A B C D A B C".
  await page.evaluate(() => {
    location.hash = 'step=heads-learned';
  });
  await page.waitForFunction(
    () => document.querySelector('.scene-heads-learned')?.dataset.ready === 'true',
  );
  const prediction = await page.textContent('.heads-prediction');
  const [, layer, head, position, weight] = prediction.match(
    /layer (\d)’s head (\d), looks .* \(position (\d+), weight ([\d.]+)\)/,
  );
  const sequence = readCsv((await save(page, 'csv')).bytes.toString('utf8'));
  assert.equal(sequence.length, 2 * 4 * 8 * 8);
  assertAttention(sequence, 'heads-learned');
  // The sentence's weight: the induction head, from the last token (C, query 8).
  const told = sequence.find(
    (r) =>
      r.layer === Number(layer) &&
      r.head === Number(head) &&
      r.query === 8 &&
      r.key === Number(position) + 1,
  );
  assert.equal(told.queryToken, 'C');
  assert.ok(Math.abs(told.weight - Number(weight)) <= 0.0005 + 1e-6, `${told.weight} vs ${weight}`);
  const sequencePng = await save(page, 'png');
  assert.equal(sequencePng.name, 'tiny-transformer-rope-seed1-sequence-heads.png');
  assert.ok(pngSize(sequencePng.bytes).width > 400);
  await page.$eval('.scene-heads-learned .heatmap-files', (e) => e.scrollIntoView());
  await screenshot(page, 'ch3-heads-learned-heatmap-files');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
