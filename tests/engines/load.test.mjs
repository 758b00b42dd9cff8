// In Firefox and in WebKit: the page loads served (scripts/lib/serve.mjs, with its CSP header) and
// as the one offline file dist/explainer.html from file://, shows the article's output
// [1.937, 6.683, 1.595] from a deep link, and switches to Chinese and back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ENGINES, engineFixture, explainerFileUrl } from './engines.mjs';
import {
  WORDS,
  findControl,
  inPageIsOn,
  inPageLanguage,
  inPageScene,
  inPageSetStep,
} from './page.mjs';
import { expectedRows, waitForReady, waitForScene } from './scene.mjs';

const CHINESE = /[\u4e00-\u9fff]/;

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);

    test('served: a deep link to output 1 shows exactly 1.937, 6.683, 1.595', async () => {
      const page = await web.open();
      try {
        await page.goto(`${web.url}#step=sum-1`);
        await waitForReady(page);
        await waitForScene(page, 'sum-1', [['1.937', '6.683', '1.595']]);
        await page.evaluate(inPageSetStep, 'softmax-1');
        await waitForScene(page, 'softmax-1', [['0.063', '0.468', '0.468']]);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });

    test('offline from file://, then in Chinese and back in English', async () => {
      const page = await web.open();
      try {
        await page.goto(`${explainerFileUrl}#step=sum-2`);
        await waitForReady(page);
        const english = await waitForScene(page, 'sum-2', expectedRows('sum-2'));
        assert.match(await page.evaluate(inPageLanguage), /^en/);
        assert.doesNotMatch(english.title, CHINESE);

        await page.click(findControl, { role: 'button', name: WORDS.chinese });
        await page.waitFor(() => document.documentElement.lang.startsWith('zh'), null, {
          what: 'the page to declare Chinese',
        });
        assert.equal(
          await page.evaluate(inPageIsOn, { role: 'button', name: WORDS.chinese }),
          true,
        );
        const chinese = await waitForScene(page, 'sum-2', expectedRows('sum-2'));
        assert.match(chinese.title, CHINESE, `the scene title in Chinese: ${chinese.title}`);
        assert.match(chinese.text, CHINESE);
        // Another step, still in Chinese, with the article's numbers.
        await page.evaluate(inPageSetStep, 'softmax-1');
        const softmax = await waitForScene(page, 'softmax-1', expectedRows('softmax-1'));
        assert.match(softmax.title, CHINESE);
        await page.screenshot(`engines-${engine.name}-offline-zh-softmax-1`);

        await page.click(findControl, { role: 'button', name: WORDS.english });
        await page.waitFor(() => document.documentElement.lang.startsWith('en'), null, {
          what: 'the page to declare English',
        });
        const back = await page.evaluate(inPageScene);
        assert.doesNotMatch(back.title, CHINESE);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });
  });
}
