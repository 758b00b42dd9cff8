// The table view ("All numbers as tables") and "Your numbers" on chapter 3's steps, in
// headless Chromium: each stage shows its own numbers there (the order stage's matrices and
// positions, the learning step's gradients, the block's parts), the same numbers as its
// scene; the train stage's tables follow the run (the loss every 100 steps, each head's
// scores), in en and zh; back on chapter 1 the panels show chapter 1's matrices again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { collectProblems, pageFixture, screenshot, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();

/** Opens a step through its link, with the tables panel open. */
async function openWithTables(hash, options = {}) {
  const opened = await web.open({ url: `${web.url}#step=${hash}`, ...options });
  await waitForReady(opened.page);
  await opened.page.evaluate(() => {
    document.querySelector('.tables-panel').open = true;
  });
  return opened;
}

/** The texts of a matrix's cells, row by row, inside `scope`. */
const cellsOf = (page, scope, matrix) =>
  page.$$eval(`${scope} td.cell[data-matrix="${matrix}"]`, (cells) =>
    cells.map((cell) => `${cell.dataset.row},${cell.dataset.col}:${cell.textContent}`).sort(),
  );

const matricesIn = (page, scope) =>
  page.$$eval(`${scope} td.cell[data-matrix]`, (cells) => [
    ...new Set(cells.map((cell) => cell.dataset.matrix)),
  ]);

test('the learning step: its gradients in the tables and in "Your numbers", as in the scene', async () => {
  const { page, problems, context } = await openWithTables('learn-weights');
  const tables = await matricesIn(page, '.tables-grid');
  assert.deepEqual(tables.slice(0, 3), ['grad-outputs', 'grad-weights', 'grad-scores']);
  assert.ok(tables.includes('learn-new-wValue'), tables.join(' '));
  assert.ok(!tables.includes('x') && !tables.includes('scores'), tables.join(' '));
  const scene = await cellsOf(page, '.scene-host', 'grad-wQuery');
  assert.equal(scene.length, 12);
  assert.deepEqual(await cellsOf(page, '.tables-grid', 'grad-wQuery'), scene);
  assert.deepEqual(await cellsOf(page, '.stage-numbers', 'grad-wQuery'), scene);
  assert.match(await page.textContent('.stage-numbers'), /gradient of the loss for every matrix/);
  await screenshot(page, 'ch3-panels-learn');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the order stage: X, X′, outputs and positions; back on chapter 1, chapter 1 again', async () => {
  const { page, problems, context } = await openWithTables('order-positions');
  const tables = await matricesIn(page, '.tables-grid');
  for (const name of ['order-x', 'order-y-shuffled', 'order-p', 'order-y-placed-shuffled'])
    assert.ok(tables.includes(name), `${name} in ${tables.join(' ')}`);
  assert.deepEqual(
    await cellsOf(page, '.tables-grid', 'order-y-placed-shuffled'),
    await cellsOf(page, '.scene-host', 'order-y-placed-shuffled'),
  );
  assert.deepEqual(await matricesIn(page, '.stage-numbers'), ['order-p']);
  await page.evaluate(() => {
    location.hash = 'step=scores-1';
  });
  await waitForStep(page, 'scores-1');
  await page.waitForFunction(() =>
    document.querySelector('.tables-grid td.cell[data-matrix="scores"]'),
  );
  // Gone, not just marked hidden: the group's own display: grid once kept an empty band with
  // its rule in "Your numbers" on every chapter 1 and 2 step.
  assert.deepEqual(
    await page.$eval('.stage-numbers', (e) => [e.hidden, e.getClientRects().length]),
    [true, 0],
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the train stage: the run’s loss and heads as tables, following the run (en, zh)', async () => {
  const zh = await openWithTables('train', { locale: 'zh-CN' });
  assert.match(await zh.page.textContent('.tables-panel .panel-intro'), /训练过程中的数字/);
  assert.match(await zh.page.textContent('.tables-grid'), /还没有训练步/);
  await zh.page.$eval('.tables-panel', (e) => e.scrollIntoView());
  await screenshot(zh.page, 'ch3-panels-train-zh');
  assert.deepEqual(await collectProblems(zh.page, zh.problems), []);
  await zh.context.close();

  const { page, problems, context } = await openWithTables('train');
  assert.match(await page.textContent('.tables-grid'), /No training steps yet/);
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 200,
    null,
    { timeout: 60_000 },
  );
  await page.click('.scene-train .train-button');
  await page.waitForFunction(() =>
    ['paused', 'done'].includes(document.querySelector('.scene-train').dataset.status),
  );
  const step = await page.$eval('.scene-train', (e) => Number(e.dataset.step));
  // Rows at steps 1, 100, 200, … and the step where the run paused, each that step's loss.
  const rows = await page.$$eval('.tables-grid [data-view="run-loss"] th.row-label', (all) =>
    all.map((e) => Number(e.textContent)),
  );
  assert.deepEqual(rows.slice(0, 3), [1, 100, 200]);
  assert.equal(rows.at(-1), step);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-train-export="csv"]'),
  ]);
  const losses = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const expected = rows.map((s, i) => `${i},0:${Number(losses[s - 1].split(',')[1]).toFixed(3)}`);
  assert.deepEqual(await cellsOf(page, '.tables-grid', 'run-loss'), expected.sort());
  // Every head of both layers (8), each with its previous-token and induction scores and its
  // reading, in the tables and in "Your numbers".
  assert.equal((await cellsOf(page, '.tables-grid', 'run-heads')).length, 8 * 3);
  assert.equal((await cellsOf(page, '.stage-numbers', 'run-heads')).length, 8 * 3);
  // "Your numbers" shows the heads only: its note sends the reader to the tables, by their
  // title, for the loss.
  const note = await page.textContent('.stage-numbers .panel-intro');
  const tablesTitle = await page.textContent('.tables-summary');
  assert.ok(note.includes(`“${tablesTitle.trim()}”`), `${note} names "${tablesTitle}"`);
  await page.$eval('.tables-panel', (e) => e.scrollIntoView());
  await screenshot(page, 'ch3-panels-train');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
