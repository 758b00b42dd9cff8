// Chapter 4's next-character stage while "Keep training" runs: the dot product's z of the true
// character and the logits table's z are of one step of the run (one copy of the model), so
// they never disagree, not even for a moment between two redraws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectProblems, goToStep, pageFixture, waitForReady } from './helpers.mjs';
import { keepTrainingFor } from './chapter4-run.mjs';

const web = pageFixture();

describe('chapter 4: the next character while the model trains', () => {
  test('the dot line’s z is the table’s z at every redraw', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${web.url}#step=lm-train`);
    await waitForReady(page);
    await page.waitForSelector('[data-control="ch4-keep"]:not([hidden])', { timeout: 60_000 });
    await keepTrainingFor(page, 20);
    await goToStep(page, 'lm-next');
    await page.waitForSelector('.scene-ch4-next[data-ready="true"] .ch4-dot', { timeout: 30_000 });
    // Every state the scene passes through for a few seconds of training: the two z's read.
    const seen = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const scene = document.querySelector('.scene-ch4-next');
          const states = [];
          const read = () => {
            const dot = scene.querySelector('.ch4-dot')?.textContent ?? '';
            const cell = scene.querySelector('.logit-table tr.is-true td:nth-child(2)');
            if (!dot || !cell) return;
            states.push({ dot: /= (\S+)$/.exec(dot)?.[1], table: cell.textContent });
          };
          const observer = new MutationObserver(read);
          observer.observe(scene, { childList: true, characterData: true, subtree: true });
          setTimeout(() => {
            observer.disconnect();
            resolve(states);
          }, 6000);
        }),
    );
    const steps = await page.$eval('.scene-ch4-next .ch4-status', (p) => p.textContent);
    assert.ok(seen.length >= 4, `too few redraws to tell: ${JSON.stringify(seen)} (${steps})`);
    const differ = seen.filter((s) => s.dot !== s.table);
    assert.deepEqual(differ, [], `${differ.length} of ${seen.length} redraws disagree`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});
