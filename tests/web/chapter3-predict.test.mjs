// Predict in chapter 3, as a new learner meets it: a step without a question says so
// honestly and names the chapter's steps that ask (its numbers are computed, not "given"); the
// box shows only what applies (no −∞ typing where no score is masked, no practice example of
// chapter 1's small whole numbers, no "arithmetic of that cell" for a question that is not a
// cell); the heads-learned question waits for a trained model and says so (and, trained, its
// heatmaps name rows and columns with the sequence's letters); on a 1366×768
// laptop, opening Predict keeps the scene's first matrices (Y, which the shuffle question
// needs) on screen. English and Chinese.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();

async function openPredict(page, step) {
  await page.goto(`${web.url}#step=${step}`);
  await waitForReady(page);
  // A step held by an open question never settles: its id is enough.
  await page.waitForFunction((id) => document.body.dataset.step === id, step);
  const toggle = page.locator('[data-tool="predict"]');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

const boxText = (page) => page.locator('.exercise').innerText();

test('a chapter 3 step without a question names the steps that ask; only what applies is shown', async () => {
  const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
  await openPredict(page, 'block-mlp');
  const prompt = await page.textContent('.exercise-prompt');
  assert.doesNotMatch(prompt, /given, not computed/);
  assert.match(prompt, /No question at this step/);
  // The steps that ask, by their titles: the shuffle, the scores' gradient, the update, the heads.
  assert.equal(prompt.match(/“[^”]+”/g).length, 4, prompt);
  assert.equal(await page.isVisible('.exercise-form'), false);
  assert.equal(await page.isVisible('[data-tool="practice"]'), false);
  assert.doesNotMatch(await boxText(page), /-inf|Practice with a new example/);
  await screenshot(page, 'ch3-predict-none');

  // A sign question: no −∞, and a wrong answer gets the question's hint, not a cell's arithmetic.
  await openPredict(page, 'learn-scores');
  assert.doesNotMatch(await boxText(page), /-inf|Practice with a new example/);
  await page.fill('.exercise-input', '7');
  await page.click('.exercise-form button[type="submit"]');
  const feedback = await page.textContent('.exercise-feedback');
  assert.match(feedback, /A hint/);
  assert.doesNotMatch(feedback, /arithmetic of that cell|outlined in the scene/);
  assert.ok((await page.locator('.exercise-hint li').count()) > 0);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the heads-learned question waits for a trained model and says so', async () => {
  const { page, context, problems } = await web.open();
  await openPredict(page, 'heads-learned');
  await page.waitForSelector('.scene-heads-learned[data-ready="untrained"]');
  const prompt = await page.textContent('.exercise-prompt');
  assert.match(prompt, /once the model is trained/);
  assert.equal(await page.isVisible('.exercise-form'), false);
  assert.doesNotMatch(await boxText(page), /Within 1%|-inf/);
  await screenshot(page, 'ch3-predict-heads-wait');
  // Trained for a while, the question is asked (the open box follows the scene).
  await page.goto(`${web.url}#step=train`);
  await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
  await page.click('[data-control="train"]');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 100,
    null,
    {
      timeout: 60_000,
    },
  );
  await page.click('[data-control="train"]');
  await openPredict(page, 'heads-learned');
  await page.waitForSelector('.scene-heads-learned[data-ready="true"]', { timeout: 30_000 });
  await page.waitForFunction(() =>
    /which position/.test(document.querySelector('.exercise-prompt').textContent),
  );
  assert.equal(await page.isVisible('.exercise-form'), true);
  assert.match(await page.textContent('.exercise-tolerance'), /whole number/);
  // Every head's heatmap (2 layers × 4 heads, whichever of them the reader features) names its
  // rows (queries) and columns (keys) with the letters.
  const letters = ['⟨s⟩', 'A', 'B', 'C', 'D', 'A', 'B', 'C'];
  for (const axis of ['keys', 'queries']) {
    const found = await page.$$eval(`.learned-every .heatmap-${axis}`, (rows) =>
      rows.map((row) => [...row.children].map((s) => s.textContent)),
    );
    assert.deepEqual(found, Array(8).fill(letters), axis);
  }
  await page.locator('.learned-every').screenshot({
    path: 'test-results/screenshots/ch3-heads-labelled.png',
  });
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('1366×768: opening Predict on the shuffle keeps Y and the answer field on screen', async () => {
  const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
  await openPredict(page, 'order-shuffle');
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => {
    const inView = (el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight && getComputedStyle(el).opacity !== '0';
    };
    return {
      y: [...document.querySelectorAll('.scene-host td.cell[data-matrix="order-y"]')].map(inView),
      field: inView(document.querySelector('.exercise-input')),
      focused: document.activeElement?.classList.contains('exercise-input'),
    };
  });
  assert.equal(seen.y.length, 9);
  assert.ok(seen.y.every(Boolean), 'every cell of Y is on screen');
  assert.ok(seen.field && seen.focused, 'the answer field is on screen and focused');
  assert.doesNotMatch(await boxText(page), /-inf/);
  await screenshot(page, 'ch3-predict-shuffle-1366');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('zh: the same words in Chinese', async () => {
  const { page, context, problems } = await web.open({ locale: 'zh-CN' });
  await openPredict(page, 'block-norm');
  const prompt = await page.textContent('.exercise-prompt');
  assert.match(prompt, /这一步没有问题/);
  assert.equal(prompt.split('；').length, 4, prompt);
  await openPredict(page, 'heads-learned');
  await page.waitForSelector('.scene-heads-learned[data-ready="untrained"]');
  assert.match(await page.textContent('.exercise-prompt'), /模型训练好之后/);
  await screenshot(page, 'ch3-predict-zh');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
