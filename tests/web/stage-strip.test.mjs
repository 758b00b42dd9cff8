// The stage strip of a laptop's short screen (1366×768), in English and Chinese, at every
// step: no step's name is cut by the left edge of the row of steps (the row is scrolled to
// start with a whole step), and each chapter's name stands on the row of its stages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectProblems, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

/** What the strip shows wrongly now: steps cut at the row's left edge, chapters split. */
const stripFaults = () => {
  const faults = [];
  const row = document.querySelector('.stage-item.is-current > .step-list');
  if (row) {
    const edge = row.getBoundingClientRect().left;
    for (const button of row.querySelectorAll('.step-button')) {
      const box = button.getBoundingClientRect();
      if (box.left < edge - 0.5 && box.right > edge + 0.5)
        faults.push(`step “${button.textContent}” cut at the left edge`);
    }
  }
  for (const title of document.querySelectorAll('.stage-list .chapter-title')) {
    const { chapter } = title.dataset;
    const top = Math.round(title.getBoundingClientRect().top);
    const lines = title.getClientRects().length;
    if (lines !== 1 || title.getBoundingClientRect().height > 40)
      faults.push(`chapter ${chapter}'s name on ${lines} lines`);
    let next = title.nextElementSibling;
    while (next && !next.classList.contains('chapter-title')) {
      const button = next.querySelector(':scope > .stage-button');
      if (button && Math.abs(Math.round(button.getBoundingClientRect().top) - top) > 8) {
        faults.push(`chapter ${chapter}: stage ${next.dataset.stage} not on its name's row`);
        break;
      }
      next = next.nextElementSibling;
    }
  }
  return faults;
};

describe('the stage strip at 1366×768', () => {
  for (const locale of ['en-US', 'zh-CN'])
    test(`${locale}: no step cut at the left edge, each chapter on one row, at every step`, async () => {
      const { page, context, problems } = await web.open({
        url: web.url,
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await waitForReady(page);
      const faults = new Set();
      let step = '';
      for (;;) {
        // Two frames: the row's observer reports after the next layout, and scrolls then.
        await page.evaluate(
          () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
        );
        const id = await page.evaluate(() => document.body.dataset.step);
        for (const fault of await page.evaluate(stripFaults)) faults.add(`${id}: ${fault}`);
        if (id === step) break;
        step = id;
        await page.keyboard.press('ArrowRight');
        await page
          .waitForFunction((was) => document.body.dataset.step !== was, step, { timeout: 3000 })
          .catch(() => {});
      }
      assert.deepEqual([...faults], []);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
});
