// The controls stay under the pointer: a learner who clicks Next again and again at the same
// spot keeps moving forward. On laptop screens the stage strip sits above the controls, and
// it once grew by the current stage's row of steps (stages with one step had none) and
// re-wrapped around the current stage's name, so Next moved down 36 px at stage 3 and the
// clicks after it hit nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

for (const [width, height] of [
  [1366, 768],
  [1280, 1024],
  [1024, 768],
]) {
  test(`${width}×${height}: Next stays where it was through every step, clicked at one spot`, async () => {
    const { page, context, problems } = await web.open({
      url: `${web.url}#step=inputs`,
      viewport: { width, height },
    });
    await waitForReady(page);
    const next = page.locator('.transport button', { hasText: /^Next$/ });
    const first = await next.boundingBox();
    const x = first.x + first.width / 2;
    const y = first.y + first.height / 2;
    const moved = [];
    // Every step to the last, where Next is disabled.
    while (moved.length === 0 && (await next.isEnabled())) {
      const before = await page.evaluate(() => document.body.dataset.step);
      await page.mouse.click(x, y);
      const advanced = await page
        .waitForFunction((step) => document.body.dataset.step !== step, before, { timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      const box = await next.boundingBox();
      const step = await page.evaluate(() => document.body.dataset.step);
      if (!advanced) moved.push(`a click at Next's first place did nothing at ${step}`);
      if (Math.abs(box.y - first.y) > 0.5 || Math.abs(box.x - first.x) > 0.5)
        moved.push(`at ${step} Next is at (${box.x}, ${box.y}), not (${first.x}, ${first.y})`);
    }
    assert.deepEqual(moved, [], 'Next stays put');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}
