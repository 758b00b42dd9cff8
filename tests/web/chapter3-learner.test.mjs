// Chapter 3's first stages as a new learner walks them: after "Take 10 more steps" the scene
// and the export show the weights and output 1 after every step taken; the link carries the
// chapter's own state; RoPE's headings, legend and note; the row labels; Chinese punctuation
// and terms. Each check is one the learner noticed missing; the screenshots are for looking.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  collectProblems,
  pageFixture,
  screenshot,
  screenshotDir,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import { assertShown, at, close, nodeAttention, nodeNumbers } from './chapter3-numbers.mjs';
import { LEARNING_DEFAULTS } from '../../web/model/learning.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { computeNumbers } from '../../web/model/numbers.mjs';
import { matricesCsv } from '../../web/tools/export/matrices.mjs';

const web = pageFixture();

/** A picture of the scene alone (for looking at what changed). */
const sceneShot = (page, name) =>
  page.locator('.scene-host').screenshot({ path: join(screenshotDir, `${name}.png`) });

async function openStep(hash, options = {}) {
  const opened = await web.open({
    url: `${web.url}#${hash}`,
    viewport: { width: 1366, height: 900 },
    ...options,
  });
  await waitForReady(opened.page);
  await waitForStep(opened.page, hash.replace(/^step=([^&]*).*$/, '$1'));
  return opened;
}

test('10 more steps: W_Q, W_K, W_V, o₁′ and its distance are those after 11 steps, in the CSV too', async () => {
  const eleven = (await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 })).step;
  const { page, context, problems } = await openStep('step=learn-update');
  await page.click('.ch3-more-steps');
  await page.waitForFunction(() => document.querySelector('.learn-status')?.dataset.steps === '11');
  await waitForStep(page, 'learn-update');
  for (const name of ['wQuery', 'wKey', 'wValue'])
    await assertShown(page, `learn-new-${name}`, (i, j) => at(eleven.weightsAfter[name], i, j));
  await assertShown(page, 'learn-o1-after', (i, j) => at(eleven.after.outputs, i, j));
  const scene = await page.textContent('.scene-learn-update');
  assert.match(scene, /after 11 steps/);
  assert.doesNotMatch(scene, /after one step/);
  const o1 = Array.from(eleven.after.outputs.data.slice(0, 3));
  const distance = Math.hypot(...o1.map((v, c) => v - eleven.target[c]));
  close(
    Number(await page.getAttribute('.learn-distance', 'data-distance')),
    distance,
    1e-9,
    '‖o₁′ − t‖',
  );
  assert.ok(distance < 0.5, `output 1 arrives near its target (${distance})`);
  assert.match(await page.textContent('.learn-distance'), new RegExp(distance.toFixed(3)));
  // A weight's arithmetic: the first step, then where the 11 steps took it.
  await page.hover(
    '.scene-host td.cell[data-matrix="learn-new-wValue"][data-row="0"][data-col="1"]',
  );
  const after11 = at(eleven.weightsAfter.wValue, 0, 1).toFixed(3).replace('-', '−');
  assert.match(
    await page.textContent('#cell-popover'),
    new RegExp(`2 − 0\\.01·.* = 1\\.975; after 11 steps: ${after11}`),
  );
  await screenshot(page, 'ch3-learner-update-11');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
  // The CSV export: the weights after the 11 steps, whose forward pass has the loss after 11.
  const attn = await nodeAttention();
  const settings = { scaled: false, causal: false, rounding: 'exact' };
  const numbers = computeNumbers(attn, articleExample(), settings, true);
  numbers.learning = await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 });
  const csv = matricesCsv(numbers).split('\r\n');
  const exported = (name) => {
    const rows = [];
    for (const line of csv.filter((l) => l.startsWith(`ch3-${name}-after-step,`))) {
      const [, , r, c, value] = line.split(',');
      (rows[r - 1] ??= [])[c - 1] = Number(value);
    }
    return rows;
  };
  const { x } = articleExample();
  const [wQuery, wKey, wValue] = ['wQuery', 'wKey', 'wValue'].map(exported);
  const { outputs } = attn.trace({ x, wQuery, wKey, wValue, scale: 1, isCausal: false });
  const loss = eleven.target.reduce((sum, t, c) => sum + (at(outputs, 0, c) - t) ** 2, 0) / 2;
  close(loss, eleven.losses[11], 1e-6, 'the exported weights’ loss is the loss after 11 steps');
});

test('the link keeps chapter 3’s shuffle, target and steps: a reload shows the same numbers', async () => {
  const { page, context, problems } = await openStep('step=order-shuffle');
  await page.click('.ch3-shuffle');
  await page.waitForFunction(() => /[#&]order=2,1,3(&|$)/.test(location.hash));
  await page.goto(`${web.url}#step=learn-target`);
  await waitForStep(page, 'learn-target');
  await page.fill('.target-input[data-col="0"]', '5');
  await page.press('.target-input[data-col="0"]', 'Enter');
  await page.waitForFunction(() => /[#&]target=5,2,3(&|$)/.test(location.hash));
  await page.goto(`${web.url}#step=learn-update`);
  await waitForStep(page, 'learn-update');
  await page.click('.ch3-more-steps');
  await page.waitForFunction(() => /[#&]steps=11(&|$)/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  const shownUpdate = () =>
    page.$eval('.scene-learn-update', (scene) => ({
      status: scene.querySelector('.learn-status').textContent,
      loss: scene.querySelector('.learn-status').dataset.loss,
      cells: [...scene.querySelectorAll('td.cell')].map((cell) => cell.textContent),
    }));
  const before = await shownUpdate();
  await page.reload();
  await waitForReady(page);
  await waitForStep(page, 'learn-update');
  assert.equal(await page.evaluate(() => location.hash), hash);
  assert.deepEqual(await shownUpdate(), before);
  assert.match(before.status, /After 11 steps/);
  // The model behind it: the reader's target [5, 2, 3], 11 steps.
  const own = (await nodeNumbers({ order: [1, 0, 2], target: [5, 2, 3], steps: 11 })).step;
  close(Number(before.loss), own.losses[11], 1e-9, 'loss after 11 steps for the target 5, 2, 3');
  // A shared link opens the shuffled order too, in a fresh page.
  const shared = await openStep(hash.slice(1).replace('step=learn-update', 'step=order-shuffle'));
  assert.equal(
    await shared.page.getAttribute(
      '.scene-host td.cell[data-matrix="order-x-shuffled"][data-row="0"]',
      'data-token',
    ),
    '1',
  );
  assert.deepEqual(await collectProblems(shared.page, shared.problems), []);
  await shared.context.close();
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/** The caption of a matrix view of the scene, and its box. */
const captionOf = (page, view) =>
  page.$eval(`.scene-host .matrix[data-view="${view}"] .matrix-caption`, (caption) => {
    const box = caption.getBoundingClientRect();
    return { text: caption.textContent, left: box.left, right: box.right, top: box.top };
  });

test('RoPE: the two headings apart, "columns 1–2", a legend, axes and the note on lengths (en, zh)', async () => {
  for (const [locale, columns, legend, note] of [
    ['en-US', /q₁columns 1–2, turned to position m/, /query 1.*key 2/, /Only the angle matters/],
    ['zh-CN', /q₁第 1–2 列，转到位置 m/, /查询 1.*键 2/, /只有角度有意义/],
  ]) {
    const { page, context, problems } = await openStep('step=order-rope', { locale });
    const q = await captionOf(page, 'rope-q');
    const k = await captionOf(page, 'rope-k');
    assert.match(q.text, columns);
    assert.doesNotMatch(q.text + k.text, /\(1, 2\)/);
    assert.ok(
      k.top > q.top + 1 || k.left - q.right >= 12,
      `headings apart: ${JSON.stringify({ q, k })}`,
    );
    assert.match(await page.textContent('.scene-host .pair-figure'), legend);
    assert.match(await page.textContent('.scene-host .scene-rope'), note);
    const axes = await page.$$eval('.scene-host .pair-picture .axis-label', (all) =>
      all.map((label) => label.textContent),
    );
    assert.equal(axes.length, 2);
    await sceneShot(page, `ch3-learner-rope-${locale}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

/** The row labels of a matrix view of the scene. */
const rowLabels = (page, view) =>
  page.$$eval(`.scene-host .matrix[data-view="${view}"] .row-label`, (all) =>
    all.map((label) => label.textContent),
  );

test('labels: Y’s rows y₁…, o₁′’s row o₁′, the target named once, ∂L/∂A’s rows; the editor’s error under its row', async () => {
  const { page, context, problems } = await openStep('step=block-residual');
  assert.deepEqual(await rowLabels(page, 'block-y'), ['y₁', 'y₂', 'y₃', 'y₄']);
  assert.deepEqual(await rowLabels(page, 'block-residual'), ['r₁', 'r₂', 'r₃', 'r₄']);
  await page.goto(`${web.url}#step=learn-update`);
  await waitForStep(page, 'learn-update');
  assert.deepEqual(await rowLabels(page, 'learn-o1-after'), ['o₁′']);
  assert.deepEqual(await rowLabels(page, 'learn-o1-before'), ['o₁']);
  const caption = (part) =>
    page.textContent(`.scene-host .matrix[data-view="learn-target-shown"] .matrix-${part}`);
  assert.deepEqual([await caption('symbol'), await caption('name')], ['t', 'target']);
  await page.goto(`${web.url}#step=learn-attention`);
  await waitForStep(page, 'learn-attention');
  assert.deepEqual(await rowLabels(page, 'grad-weights'), ['q₁', 'q₂', 'q₃']);
  // A refused entry: the message under the row; o₁ → the editor stay on one line.
  await page.goto(`${web.url}#step=learn-target`);
  await waitForStep(page, 'learn-target');
  await page.fill('.target-input[data-col="1"]', 'abc');
  await page.press('.target-input[data-col="1"]', 'Enter');
  await page.waitForFunction(() => document.querySelector('.target-message')?.textContent);
  const boxes = await page.evaluate(() => {
    const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
    return {
      output: box('.scene-host .matrix[data-view="learn-output-1"] .matrix-table'),
      arrow: box('.scene-learn-target .operator'),
      editor: box('.scene-host .target-editor'),
      message: box('.scene-host .target-message'),
    };
  });
  const middle = (b) => b.top + b.height / 2;
  const { output, arrow, editor, message } = boxes;
  assert.ok(Math.abs(middle(editor) - middle(output)) < output.height / 2, JSON.stringify(boxes));
  assert.ok(arrow.left > output.right - 1 && editor.left > arrow.right - 1, JSON.stringify(boxes));
  assert.ok(message.top >= Math.max(editor.bottom, output.bottom) - 1, JSON.stringify(boxes));
  await sceneShot(page, 'ch3-learner-target-refused');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('zh: the loss plot’s caption in Chinese punctuation; the sidebar says 键 in every chapter', async () => {
  const { page, context, problems } = await openStep('step=learn-update', { locale: 'zh-CN' });
  const caption = await page.textContent('.scene-host .loss-plot figcaption');
  assert.match(caption, /^每一步后的损失：12\.391 → 4\.596$/);
  // The editors of the reader's example and of chapter 2's layer.
  const names = () =>
    page.$$eval('.workbench .matrix-name', (all) => all.map((n) => n.textContent));
  assert.ok((await names()).includes('键的权重'));
  assert.deepEqual(
    (await names()).filter((name) => /key|query|value/.test(name)),
    [],
  );
  await page.screenshot({ path: join(screenshotDir, 'ch3-learner-update-zh.png'), fullPage: true });
  // Chapter 1 says 键 too: one set of Chinese terms in every chapter.
  await page.goto(`${web.url}#step=inputs`);
  await waitForStep(page, 'inputs');
  assert.ok((await names()).includes('键的权重'));
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
