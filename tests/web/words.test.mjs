// Words a learner knows, in headless Chromium: the module's names (onnxAttention, past_key,
// trace(), onnxRotaryEmbedding) are not in the prose of stages 10, 13 and 14 but in a folded
// "For developers" note under it, in English and Chinese.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();
const DEVELOPER_WORDS = /onnx|past_key|present_key|trace\(|rotaryCaches/i;

test('developer words sit in a "For developers" note, not in the prose (stages 10, 13, 14)', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({ url: web.url, locale });
    await waitForReady(page);
    for (const step of ['heads-attention', 'decode-2', 'order-rope']) {
      await page.goto(`${web.url}#step=${step}`);
      await waitForStep(page, step);
      const prose = await page.$$eval('.explanation-text > p', (all) =>
        all.map((p) => p.textContent).join(' '),
      );
      assert.doesNotMatch(prose, DEVELOPER_WORDS, `${step} (${locale}): ${prose}`);
      const note = await page.$eval('.explanation-text details.developer-note', (details) => ({
        open: details.open,
        summary: details.querySelector('summary').textContent,
        text: details.textContent,
      }));
      assert.equal(note.open, false, 'folded until asked for');
      assert.equal(note.summary, locale === 'en-US' ? 'For developers' : '给开发者');
      assert.match(note.text, DEVELOPER_WORDS, `${step}: the note names the module's calls`);
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});
