// "Your numbers" on chapter 4 shows what the learner changes there, not chapter 1's matrices
// (which the character model never reads): the text, their sentence, and the temperature and
// top-k it writes with, on the same run as the stages (a change in the panel is seen in the
// stage, and back); nor "All numbers as tables" (the article's example). Leaving chapter 4
// brings chapter 1's editors and the tables back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectProblems, goToStep, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

describe('chapter 4: "Your numbers"', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`${viewport.width}×${viewport.height}: the text, the sentence, temperature and top-k, shared with the stages`, async () => {
      const { page, context, problems } = await web.open({ viewport });
      await page.goto(`${web.url}#step=lm-chars`);
      await waitForReady(page);
      await page.waitForSelector('.scene-ch4-chars[data-text="ready"]', { timeout: 30_000 });
      const panel = page.locator('.workbench .language-numbers');
      assert.equal(await panel.isVisible(), true);
      assert.equal(await page.isVisible('.workbench .editors'), false);
      // Nor the article's example as tables: the character model never reads it.
      const tables = page.locator('details:has-text("All numbers as tables")');
      assert.equal(await tables.isVisible(), false);
      for (const control of ['ch4-text', 'ch4-sentence', 'ch4-temperature', 'ch4-top-k'])
        assert.equal(await panel.locator(`[data-control="${control}"]`).isVisible(), true, control);

      // The sentence typed in the panel is the stage's.
      await panel.locator('[data-control="ch4-sentence"]').fill('举头望明月');
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.scene-ch4-chars .ch4-chars .char')]
            .map((c) => c.textContent)
            .join('') === '举头望明月',
      );
      // The temperature and top-k chosen in the panel are the writing stage's, and back.
      await panel.locator('[data-control="ch4-temperature"]').selectOption('1.5');
      await panel.locator('[data-control="ch4-top-k"]').selectOption('5');
      await goToStep(page, 'lm-write');
      const scene = page.locator('.scene-ch4-write');
      assert.equal(await scene.locator('[data-control="ch4-temperature"]').inputValue(), '1.5');
      assert.equal(await scene.locator('[data-control="ch4-top-k"]').inputValue(), '5');
      await scene.locator('[data-control="ch4-temperature"]').selectOption('0.2');
      await page.waitForFunction(
        () =>
          document.querySelector('.language-numbers [data-control="ch4-temperature"]').value ===
          '0.2',
      );

      // Chapter 1: its editors again, chapter 4's controls gone.
      await goToStep(page, 'sum-1');
      assert.equal(await page.isVisible('.workbench .editors'), true);
      assert.equal(await tables.isVisible(), true);
      assert.equal(await panel.isVisible(), false);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
  }
});
