// In Firefox and in WebKit: the served page walked with the keyboard, step by step, shows the
// article's numbers at every one of its 27 steps; Home, End and ← jump as they promise.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ENGINES, engineFixture } from './engines.mjs';
import { STEPS, expectedRows, waitForReady, waitForScene } from './scene.mjs';
import { LAST_STEP, STEPS as WALKTHROUGH } from '../web/walkthrough-shape.mjs';

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);

    test('→ walks the article’s 27 steps with its numbers, on into chapter 2; Home, End, ← jump', async (t) => {
      const page = await web.open();
      t.diagnostic(page.version);
      try {
        await page.goto(web.url);
        await waitForReady(page);
        for (const [k, id] of STEPS.entries()) {
          if (k > 0) await page.press('ArrowRight');
          await waitForScene(page, id, expectedRows(id));
        }
        await page.screenshot(`engines-${engine.name}-result`);
        // After the article's result, chapter 2 (a real layer) begins.
        await page.press('ArrowRight');
        await waitForScene(page, 'heads-split', []);
        await page.press('ArrowLeft');
        await waitForScene(page, 'result', expectedRows('result'));
        await page.press('Home');
        await waitForScene(page, 'inputs', expectedRows('inputs'));
        // End: the walkthrough's last step, and back one.
        await page.press('End');
        await waitForScene(page, LAST_STEP, []);
        await page.press('ArrowLeft');
        await waitForScene(page, WALKTHROUGH[WALKTHROUGH.length - 2].id, []);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });
  });
}
