// Chapter 3's state in the link, in headless Chromium: the train stage's switches and seed are
// written into the hash (defaults left out) and a reload gives the same model and, from its
// seed, the same first losses; "Copy link to this trained model" carries the parameters
// (float16, deflate-raw, base64url) and a page opened from it predicts what the model that
// made it predicts for "A B C D A B C", without training; a cut-short or damaged model link
// says so in the page and changes nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { collectProblems, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();
/** Every engine opens a URL this long; the model link stays well under it. */
const URL_BOUND = 64 * 1024;

async function openStep(url, options = {}) {
  const opened = await web.open({ url, ...options });
  await waitForReady(opened.page);
  return opened;
}

const sceneData = (page, name) => page.$eval('.scene-train', (e, key) => e.dataset[key], name);

/** Trains until the run has taken at least `steps` steps, then pauses it. */
async function trainFor(page, steps) {
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    (n) => Number(document.querySelector('.scene-train').dataset.step) >= n,
    steps,
    { timeout: 120_000 },
  );
  await page.click('.scene-train .train-button');
  await page.waitForFunction(() =>
    ['paused', 'done'].includes(document.querySelector('.scene-train').dataset.status),
  );
}

/** The run's losses so far, from its CSV file (every step's float32 loss as it prints). */
async function lossesOf(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-train-export="csv"]'),
  ]);
  return readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[1]);
}

const switches = (page) =>
  page.$$eval('.scene-train select[data-control], .scene-train input[data-control]', (all) =>
    Object.fromEntries(all.map((e) => [e.dataset.control, e.value])),
  );

test('the switches and seed in the link: a reload gives the same model and the same losses', async () => {
  const { page, problems, context } = await openStep(`${web.url}#step=train`);
  assert.equal(new URL(page.url()).hash, '#step=train'); // the defaults are not written
  await page.selectOption('.scene-train select[data-control="positions"]', 'learned');
  await page.selectOption('.scene-train select[data-control="heads"]', '2');
  await page.fill('.scene-train input[data-control="seed"]', '7');
  await page.dispatchEvent('.scene-train input[data-control="seed"]', 'change');
  await page.waitForFunction(() => location.hash.includes('tseed=7'));
  assert.equal(new URL(page.url()).hash, '#step=train&tpos=learned&theads=2&tseed=7');
  await trainFor(page, 30);
  const first = (await lossesOf(page)).slice(0, 30);
  await page.reload();
  await waitForReady(page);
  await page.waitForSelector('.scene-train');
  assert.deepEqual(await switches(page), {
    positions: 'learned',
    layers: '2',
    heads: '2',
    seed: '7',
    speed: 'fast',
  });
  assert.equal(await sceneData(page, 'step'), '0');
  await trainFor(page, 30);
  assert.deepEqual((await lossesOf(page)).slice(0, 30), first);
  // Back and Forward keep the run: to the first step and back again.
  const step = await sceneData(page, 'step');
  await page.evaluate(() => {
    location.hash = 'step=inputs&tpos=learned&theads=2&tseed=7';
  });
  await page.waitForFunction(() => document.body.dataset.step === 'inputs');
  await page.goBack();
  await page.waitForSelector('.scene-train');
  assert.equal(await sceneData(page, 'step'), step);
  assert.equal((await switches(page)).heads, '2');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

describe('a trained model by link', () => {
  let link;
  let made;
  test('"Copy link to this trained model" gives a link well under 64 KB', async () => {
    const session = await openStep(`${web.url}#step=train`);
    const { page, problems } = session;
    await trainFor(page, 700);
    await page.click('[data-train-export="link"]');
    await page.waitForFunction(() => document.querySelector('.train-files .share-link')?.value);
    link = await page.inputValue('.train-files .share-link');
    const trained = new URL(link).hash.match(/trained=([A-Za-z0-9_-]+)/)[1];
    console.log(`model link: ${link.length} characters (${trained.length} of parameters)`);
    assert.ok(link.length < URL_BOUND / 2, `the link is ${link.length} characters`);
    assert.match(await page.textContent('.train-files-status'), /characters/);
    // What the model that made the link predicts for A B C D A B C.
    await page.evaluate(() => {
      location.hash = 'step=heads-learned';
    });
    await page.waitForFunction(
      () => document.querySelector('.scene-heads-learned')?.dataset.ready === 'true',
    );
    made = await page.$eval('.scene-heads-learned', (scene) => ({
      next: scene.querySelector('.heads-prediction').dataset.next,
      decoded: scene.dataset.decoded,
    }));
    assert.deepEqual(await collectProblems(page, problems), []);
    await session.context.close();
  });

  test('the link opens the heads stage with the same predictions, without training', async () => {
    const url = link.replace('step=train', 'step=heads-learned');
    const { page, problems, context } = await openStep(url);
    await page.waitForFunction(
      () => document.querySelector('.scene-heads-learned')?.dataset.ready === 'true',
      null,
      { timeout: 30_000 },
    );
    const opened = await page.$eval('.scene-heads-learned', (scene) => ({
      next: scene.querySelector('.heads-prediction').dataset.next,
      decoded: scene.dataset.decoded,
    }));
    assert.deepEqual(opened, made);
    assert.match(await page.textContent('.heads-decoded p'), /trained for|700|7\d\d/);
    await screenshot(page, 'ch3-heads-from-link');
    // The train stage holds the loaded model, paused at its step; a reload loads it again.
    await page.evaluate(() => {
      location.hash = location.hash.replace('step=heads-learned', 'step=train');
    });
    await page.waitForFunction(() =>
      /Loaded a model trained for \d+ steps/.test(
        document.querySelector('.scene-train .train-status')?.textContent,
      ),
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('a cut-short or damaged model link says so, in en and zh, and changes nothing', async () => {
    const cut = link.slice(0, -200);
    const { page, problems, context } = await openStep(cut);
    await page.waitForFunction(() => /could not be loaded/.test(document.body.textContent));
    const notice = await page.textContent('[data-notice="trained"]');
    assert.match(notice, /trained model link: the data is cut short or damaged/);
    // Nothing changed: the train stage is on screen, at step 0 from the seed, ready to train.
    await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
    assert.equal(await sceneData(page, 'step'), '0');
    assert.equal((await page.textContent('.train-status')).trim(), 'Ready: press Train.');
    assert.doesNotMatch(new URL(page.url()).hash, /trained=/);
    await screenshot(page, 'ch3-broken-model-link');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
    const zh = await openStep(`${web.url}#step=train&trained=AAAA`, { locale: 'zh-CN' });
    await zh.page.waitForFunction(() =>
      /无法载入这个链接里的训练好的模型/.test(document.body.textContent),
    );
    await screenshot(zh.page, 'ch3-broken-model-link-zh');
    assert.deepEqual(await collectProblems(zh.page, zh.problems), []);
    await zh.context.close();
  });
});
