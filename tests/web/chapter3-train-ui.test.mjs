// The train stage's words as a new learner reads them while it trains: the live status is
// never behind a text that cites a step (when "The loss dropped at step N" appears, the status
// already says step N or later); a switch that makes a new model says that the trained one is
// gone; the link field appears only with a link; with one layer the red verdict and the
// paragraph under it do not say the same thing twice, and the "why" suits every positions
// choice; loading parameters is a button in the page's language (not the browser's "Choose
// File"); Chinese too.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();

async function openTrain(options = {}, hash = 'step=train') {
  const opened = await web.open(options);
  await opened.page.goto(`${web.url}#${hash}`);
  await waitForReady(opened.page);
  await opened.page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
  return opened;
}

test('the status is never behind the drop: it shows the drop step or later when the drop is told', async () => {
  const { page, context, problems } = await openTrain();
  // Every time the drop's text changes, the status at that moment.
  await page.evaluate(() => {
    window.__told = [];
    const story = document.querySelector('.train-drop');
    new MutationObserver(() => {
      window.__told.push({
        story: story.textContent,
        status: document.querySelector('.train-status').textContent,
      });
    }).observe(story, { childList: true, characterData: true, subtree: true });
  });
  await page.click('[data-control="train"]');
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.dropStep !== '',
    null,
    {
      timeout: 60_000,
    },
  );
  await page.click('[data-control="train"]');
  const told = await page.evaluate(() => window.__told);
  assert.ok(told.length > 0);
  for (const { story, status } of told) {
    const drop = Number(/step (\d+)/.exec(story)[1]);
    const shown = Number(/^(?:paused at )?step (\d+)/.exec(status)?.[1]);
    assert.ok(shown >= drop, `"${story}" while the status says "${status}"`);
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a switch that makes a new model says the trained one is gone; the link field waits for a link', async () => {
  const { page, context, problems } = await openTrain({ viewport: { width: 1366, height: 768 } });
  // No empty text box under "Copy link to this trained model" before there is a link.
  assert.equal(await page.isVisible('.train-files .share-field'), false);
  assert.equal(await page.isVisible('.train-gone'), false);
  await page.click('[data-control="train"]');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 50,
  );
  await page.click('[data-control="train"]');
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.status === 'paused',
  );
  const steps = Number(await page.$eval('.scene-train', (e) => e.dataset.step));
  // The speed keeps the model: nothing is said.
  await page.selectOption('.scene-train select[data-control="speed"]', 'slow');
  assert.equal(await page.isVisible('.train-gone'), false);
  await page.selectOption('.scene-train select[data-control="positions"]', 'learned');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  assert.equal(
    (await page.textContent('.train-gone')).trim(),
    `A new model from the seed: the trained one (${steps} steps) is gone. To keep a model, copy its link or save its parameters before changing a switch.`,
  );
  await screenshot(page, 'ch3-train-gone');
  // Train again: the note has been read.
  await page.click('[data-control="train"]');
  await page.waitForFunction(() => !document.querySelector('.train-gone').textContent);
  await page.click('[data-control="train"]');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('one layer: the "why" suits every positions choice, and the verdict is not said twice', async () => {
  const { page, context, problems } = await openTrain({ locale: 'zh-CN' }, 'step=train');
  await page.selectOption('.scene-train select[data-control="layers"]', '1');
  // The stage redraws after the change: wait for the one-layer text, then read it.
  await page.waitForFunction(() =>
    /一层/.test(document.querySelector('.scene-train .train-why')?.textContent ?? ''),
  );
  const why = await page.textContent('.train-why');
  assert.match(why, /一层学不会/);
  assert.match(why, /RoPE、ALiBi、学习的位置或没有/);
  await page.selectOption('.scene-train select[data-control="positions"]', 'learned');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  await page.click('[data-control="train"]');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.verdict, null, {
    timeout: 90_000,
  });
  await page.click('[data-control="train"]');
  assert.equal(await page.isVisible('.train-verdict'), true);
  assert.equal(await page.isVisible('.train-why'), false, 'the verdict says why: not twice');
  await screenshot(page, 'ch3-train-verdict-zh');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('zh: loading parameters is a button in Chinese that opens the file chooser', async () => {
  const { page, context, problems } = await openTrain({ locale: 'zh-CN' });
  const load = page.locator('[data-train-export="load"]');
  assert.equal((await load.textContent()).trim(), '载入参数（JSON）');
  assert.equal(await load.isEnabled(), true, 'a file can be loaded before any training');
  // The browser's own "Choose File" button is not on the page.
  assert.equal(await page.isVisible('.scene-train input[type="file"]'), false);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), load.click()]);
  await chooser.setFiles({
    name: 'x.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{}'),
  });
  await page.waitForFunction(() =>
    /^未载入/.test(document.querySelector('.train-files-status').textContent),
  );
  await screenshot(page, 'ch3-train-load-zh');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

// A run redraws at every frame: what did not change must not be written again (a text written
// anew, a table built anew, has the frame lay out and paint them, and the sidebar around them).
test('while it trains, only what changed is written: the Train button keeps its text, the heads table its cells', async () => {
  const { page, context, problems } = await openTrain({ viewport: { width: 1366, height: 768 } });
  const cell = '.stage-numbers td.cell[data-matrix="run-heads"][data-row="0"][data-col="0"]';
  const before = await page.textContent(cell);
  await page.click('[data-control="train"]');
  await page.waitForFunction(() => Number(document.querySelector('.scene-train').dataset.step) > 0);
  await page.evaluate((selector) => {
    window.__kept = {
      buttonText: document.querySelector('[data-control="train"]').firstChild,
      cell: document.querySelector(selector),
    };
  }, cell);
  // Many frames and several snapshots later (one every 50 steps), still training.
  await page.waitForFunction(
    ([selector, first]) =>
      Number(document.querySelector('.scene-train').dataset.step) >= 200 &&
      document.querySelector(selector)?.textContent !== first,
    [cell, before],
    { timeout: 60_000 },
  );
  const kept = await page.evaluate((selector) => {
    const button = document.querySelector('[data-control="train"]');
    return {
      running: document.querySelector('.scene-train').dataset.status === 'running',
      button: button.textContent,
      sameText: button.firstChild === window.__kept.buttonText,
      sameCell: document.querySelector(selector) === window.__kept.cell,
    };
  }, cell);
  assert.ok(kept.running, 'still training');
  assert.equal(kept.button, 'Pause');
  assert.ok(kept.sameText, 'the button\'s text "Pause" was written again while it trained');
  assert.ok(kept.sameCell, 'the heads table was built anew instead of its numbers changed');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a run that has taken its last step says why Train is greyed out, and Reset starts anew', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=train`,
    viewport: { width: 1366, height: 768 },
  });
  await waitForReady(page);
  const done = '.scene-train .train-done';
  assert.equal(await page.isVisible(done), false, 'nothing said before a run ends');
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => document.querySelector('.scene-train .train-button').disabled,
    null,
    {
      timeout: 120_000,
    },
  );
  assert.ok(await page.isVisible(done));
  assert.match(await page.textContent(done), /taken its 2000 steps.*Reset/);
  await page.click('.scene-train [data-control="reset"]');
  await page.waitForFunction(() => !document.querySelector('.scene-train .train-button').disabled);
  assert.equal(await page.isVisible(done), false, 'said no more once Reset made a new model');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

// At 1366×768 the heads table stands in a 330 px column: what a head reads as was written in
// the numbers' font, "previous token" in two lines pressed against the cell's borders.
test('1366×768: in "Your numbers", "previous token" reads on one line and no name touches its cell’s border', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await openTrain({
      locale,
      viewport: { width: 1366, height: 768 },
    });
    const previous = locale === 'zh-CN' ? '前一个词元' : 'previous token';
    await page.click('[data-control="train"]');
    await page.waitForFunction(
      (name) =>
        [...document.querySelectorAll('.stage-numbers td.cell[data-matrix="run-heads"]')].some(
          (cell) => cell.textContent === name,
        ),
      previous,
      { timeout: 60_000 },
    );
    await page.click('[data-control="train"]');
    await page.waitForFunction(
      () => document.querySelector('.scene-train').dataset.status !== 'running',
    );
    const shown = await page.evaluate(() => {
      const table = document.querySelector('.stage-numbers .matrix-table');
      const column = document.querySelector('.stage-numbers').getBoundingClientRect();
      const cells = [...table.querySelectorAll('td.cell[data-col="2"]')].map((cell) => {
        const text = cell.querySelector('.cell-value').firstChild;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const ink = range.getBoundingClientRect();
        const box = cell.getBoundingClientRect();
        const style = getComputedStyle(cell);
        return {
          name: cell.textContent,
          lines,
          above: ink.top - box.top - Number.parseFloat(style.borderTopWidth),
          below: box.bottom - Number.parseFloat(style.borderBottomWidth) - ink.bottom,
        };
      });
      return { right: table.getBoundingClientRect().right, column: column.right, cells };
    });
    assert.ok(shown.right <= shown.column + 0.5, `${locale}: the table fits its column`);
    for (const cell of shown.cells) {
      if (cell.name === previous)
        assert.equal(cell.lines, 1, `${locale}: "${cell.name}" on one line`);
      assert.ok(
        cell.above >= 1 && cell.below >= 1,
        `${locale}: "${cell.name}" is ${cell.above.toFixed(1)} / ${cell.below.toFixed(1)} px from its borders`,
      );
    }
    await page.$eval('.stage-numbers .matrix-table', (el) => el.scrollIntoView());
    await screenshot(page, `train-heads-table-${locale}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('the announcement says the loss falls slowly, then drops: no plateau it does not show (en, zh)', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await openTrain({ locale });
    const spoken = await page.textContent('p[aria-live][id$="narration"]');
    // The curve slopes from about 2.7 to 2.2 before the drop: it never sits still.
    assert.doesNotMatch(spoken, /plateau|平台/, spoken);
    assert.match(
      spoken,
      locale === 'zh-CN' ? /缓慢下降.*骤降/ : /fall slowly.*drop sharply/,
      spoken,
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

// What the heads show at step 0 (a fresh model from the seed) on opening the stage: a reset or
// a new switch makes such a model again, and the heads must show it the same way, not as
// empty frames waiting for Train.
test('after Reset, and after a new switch, the heads show the new model at step 0 as on opening', async () => {
  const { page, context, problems } = await openTrain({ viewport: { width: 1366, height: 768 } });
  const heads = () =>
    page.$$eval('.scene-train .train-head', (figures) =>
      figures.map((figure) => ({
        reading: figure.querySelector('.head-reading')?.textContent ?? '',
        keys: figure.querySelector('.heatmap-keys')?.textContent ?? '',
      })),
    );
  const readingsShown = (count) =>
    page.waitForFunction(
      (n) => {
        const figures = [...document.querySelectorAll('.scene-train .train-head')];
        return (
          figures.length === n &&
          figures.every((figure) => figure.querySelector('.head-reading')?.textContent)
        );
      },
      count,
      { timeout: 30_000 },
    );
  await readingsShown(8);
  const opened = await heads();
  await page.click('[data-control="train"]');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 150,
    null,
    {
      timeout: 60_000,
    },
  );
  await page.click('[data-control="train"]'); // Pause
  await page.waitForSelector('.scene-train[data-status="paused"]');
  assert.notDeepEqual(await heads(), opened, 'training changed what the heads read');
  await page.click('.scene-train [data-control="reset"]');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  await readingsShown(8);
  assert.deepEqual(await heads(), opened, 'the same model from the seed reads the same at step 0');
  await page.selectOption('.scene-train [data-control="heads"]', '2');
  await readingsShown(4);
  assert.ok(
    (await heads()).every((head) => head.keys !== ''),
    'each map’s keys are labelled',
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
