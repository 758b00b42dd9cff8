// Chapter 3 on a phone (390×844) and a laptop (1366×768): at every step of the chapter the
// page is no wider than the screen, every row of tokens (the task's 25 letters, the held-out
// row, the decoded sequence) is one line, and the scene fits its box (RoPE's 2×5 scores and
// the MLP's 4×8 hidden layer in smaller cells on a phone). One screenshot per step and size.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, screenshot, waitForReady, waitForStep } from './helpers.mjs';
import { chapterSteps } from './walkthrough-shape.mjs';

const web = pageFixture();
const CHAPTER_3 = chapterSteps(3);

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true },
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
];

/** What a reader would see go wrong: the page's width, wrapped token rows, a cut-off scene. */
const measure = () => {
  const host = document.querySelector('.scene-host');
  const strips = [...host.querySelectorAll('.token-strip')].filter((s) => s.offsetParent);
  return {
    pageWidth: document.documentElement.scrollWidth,
    wrapped: strips
      .map((strip) => ({
        letters: strip.children.length,
        lines: new Set([...strip.children].map((c) => Math.round(c.getBoundingClientRect().top)))
          .size,
      }))
      .filter((strip) => strip.lines > 1),
    strips: strips.length,
    sceneOverflow: host.scrollWidth - host.clientWidth,
  };
};

for (const { name, viewport, hasTouch } of SIZES) {
  test(`${name} ${viewport.width}×${viewport.height}: every chapter 3 step fits, token rows on one line`, async () => {
    assert.ok(CHAPTER_3.includes('train') && CHAPTER_3.includes('heads-learned'));
    const { page, context, problems } = await web.open({ viewport, hasTouch });
    for (const step of CHAPTER_3) {
      await page.goto(`${web.url}#step=${step}`);
      await waitForReady(page);
      await waitForStep(page, step);
      if (step === 'train') {
        // The held-out row appears once the worker is ready.
        await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
      }
      const seen = await page.evaluate(measure);
      assert.ok(seen.pageWidth <= viewport.width, `${step}: the page is ${seen.pageWidth} px wide`);
      assert.deepEqual(seen.wrapped, [], `${step}: rows of tokens wrapped`);
      assert.ok(seen.sceneOverflow <= 1, `${step}: the scene is ${seen.sceneOverflow} px too wide`);
      if (step === 'train') assert.equal(seen.strips, 4, 'three task rows and the held-out row');
      await screenshot(page, `ch3-layout-${name}-${step}`);
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}
