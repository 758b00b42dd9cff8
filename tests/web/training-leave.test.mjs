// A training run and the reader who walks away from it: chapter 4's character model (stage 21)
// and chapter 3's tiny model (stage 17) go on training while the reader moves between their
// own chapter's stages (those read the model as it trains), and pause when the reader leaves
// the chapter (a run left going took a core from chapter 1's playback, and moved on unseen).
// Back on chapter 4's train stage, the status says the run is paused and the button offers to
// resume; chapter 3's shows the run as its Pause leaves it (its step, and Train to go on).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, goToStep, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();

/** The train scene's status, step, status line and Train button, read in the page. */
const readScene = (page, scene, button) =>
  page.$eval(
    scene,
    (element, selector) => ({
      status: element.dataset.status,
      step: Number(element.dataset.step),
      text: element.querySelector('.ch4-status, .train-status').textContent,
      button: element.querySelector(selector).textContent,
    }),
    button,
  );

for (const locale of ['en-US', 'zh-CN']) {
  const zh = locale === 'zh-CN';
  test(`${locale}: chapter 4's training goes on through chapter 4's stages and pauses when the reader leaves the chapter`, async () => {
    const { page, context, problems } = await web.open({
      locale,
      viewport: { width: 1366, height: 768 },
    });
    await page.goto(`${web.url}#step=lm-train`);
    await waitForReady(page);
    const scene = '.scene-ch4-train';
    const button = '[data-control="ch4-train"]';
    await page.waitForSelector(`${scene}[data-text="ready"]`, { timeout: 30_000 });
    await page.click(`${scene} ${button}`); // From scratch: a new model, training
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) > 0, scene, {
      timeout: 60_000,
    });
    // Another stage of chapter 4: the run goes on.
    await goToStep(page, 'lm-next');
    await page.waitForTimeout(300);
    await goToStep(page, 'lm-train');
    assert.equal((await readScene(page, scene, button)).status, 'running');
    // Chapter 1: the run pauses.
    await goToStep(page, 'inputs');
    await goToStep(page, 'lm-train');
    await page.waitForSelector(`${scene}[data-status="paused"]`);
    const back = await readScene(page, scene, button);
    assert.match(back.text, zh ? /^已暂停，第 [\d,]+ 步/ : /^paused at step [\d,]+/);
    assert.equal(back.button, zh ? '继续' : 'Resume');
    await page.waitForTimeout(500);
    assert.equal((await readScene(page, scene, button)).step, back.step, 'no step taken paused');
    await page.$eval(scene, (el) => el.querySelector('.ch4-status').scrollIntoView());
    await screenshot(page, `ch4-paused-on-return-${locale}`);
    // Resume goes on from there.
    await page.click(`${scene} ${button}`);
    await page.waitForFunction(
      ([s, step]) => Number(document.querySelector(s).dataset.step) > step,
      [scene, back.step],
      { timeout: 60_000 },
    );
    await page.click(`${scene} ${button}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}

test('chapter 3’s training goes on through chapter 3’s stages and pauses when the reader leaves the chapter', async () => {
  const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${web.url}#step=train`);
  await waitForReady(page);
  const scene = '.scene-train';
  const button = '.train-button';
  await page.waitForSelector(`${scene}[data-worker="ready"]`, { timeout: 30_000 });
  // The slow speed: the run's 2000 steps outlast the walk.
  await page.selectOption(`${scene} select[data-control="speed"]`, 'slow');
  await page.click(`${scene} ${button}`);
  await page.waitForFunction((s) => Number(document.querySelector(s).dataset.step) > 0, scene);
  await goToStep(page, 'heads-learned');
  await page.waitForTimeout(300);
  await goToStep(page, 'train');
  assert.equal((await readScene(page, scene, button)).status, 'running');
  await goToStep(page, 'inputs');
  await goToStep(page, 'train');
  await page.waitForSelector(`${scene}[data-status="paused"]`);
  const back = await readScene(page, scene, button);
  assert.equal(back.button, 'Train'); // as after Pause: Train goes on from the step shown
  assert.match(back.text.trim(), /^paused at step [\d,]+ · loss \d+\.\d{3}$/);
  await page.waitForTimeout(500);
  assert.equal((await readScene(page, scene, button)).step, back.step, 'no step taken paused');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
