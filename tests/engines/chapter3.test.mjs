// In Firefox and in WebKit: chapter 3's scenes. → walks its steps from a deep link to the
// first, each scene showing the numbers the module computes in Node (chapter3-scene.mjs), on
// to the train stage and what the heads learned. (Training itself: chapter3-train.test.mjs.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ENGINES, engineFixture } from './engines.mjs';
import { CHAPTER_3_STEPS, chapter3Rows, nodeLearningNumbers } from './chapter3-scene.mjs';
import { waitForReady, waitForScene } from './scene.mjs';

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);
    let numbers;

    test('→ walks chapter 3’s steps, each with the numbers the module gives in Node', async (t) => {
      numbers ??= await nodeLearningNumbers();
      const page = await web.open();
      t.diagnostic(page.version);
      try {
        await page.goto(`${web.url}#step=${CHAPTER_3_STEPS[0]}`);
        await waitForReady(page);
        for (const [k, id] of CHAPTER_3_STEPS.entries()) {
          if (k > 0) await page.press('ArrowRight');
          await waitForScene(page, id, chapter3Rows(numbers, id));
        }
        await page.screenshot(`engines-${engine.name}-ch3-block-mlp`);
        // After the block: the train stage, then what the heads learned.
        await page.press('ArrowRight');
        await waitForScene(page, 'train', []);
        await page.press('ArrowRight');
        await waitForScene(page, 'heads-learned', []);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });
  });
}
