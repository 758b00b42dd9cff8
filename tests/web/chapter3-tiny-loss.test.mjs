// Chapter 3's status late in a run: the tiny model's loss falls below 0.0005 (0.00017 at step
// 1,500, 0.00003 at 3,000), where three decimals read "loss 0.000", as if it were sure and
// right everywhere. The status and the loss table give it two significant digits there.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { INDUCTION_BATCH, createInductionTask } from '../../src/js/tasks/induction-task.mjs';
import { encodeParametersLink } from '../../web/model/parameters-link.mjs';
import { TRAINING_DEFAULTS, modelConfig } from '../../web/model/training.mjs';
import { collectProblems, distDir, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();
let link = '';
before(async () => {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  const model = attn.createTinyTransformer(modelConfig(TRAINING_DEFAULTS));
  const task = createInductionTask(TRAINING_DEFAULTS.seed);
  for (let s = 0; s < 2500; s++) {
    const { tokens, targets } = task.batch(INDUCTION_BATCH);
    model.trainStep({ tokens, targets, batch: INDUCTION_BATCH });
  }
  link = await encodeParametersLink({
    settings: TRAINING_DEFAULTS,
    step: 2500,
    parameters: model.parameters(),
  });
  model.free();
});

describe('chapter 3: a loss below 0.0005', () => {
  for (const [locale, pattern] of [
    ['en-US', /^(?:paused at )?step [\d,]+ · loss (\S+)$/],
    ['zh-CN', /^(?:已暂停，)?第 [\d,]+ 步 · 损失 (\S+)$/],
  ])
    test(`${locale}: the status reads its digits, not “0.000”`, async () => {
      const { page, context, problems } = await web.open({
        url: `${web.url}#step=train&trained=${link}`,
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await waitForReady(page);
      await page.waitForFunction(
        () => /^(Loaded|已载入)/.test(document.querySelector('.train-status')?.textContent),
        null,
        { timeout: 30_000 },
      );
      // Every status line of a few seconds of training, as written.
      await page.evaluate(() => {
        const status = document.querySelector('.train-status');
        window.statusLines = [];
        new MutationObserver(() => window.statusLines.push(status.textContent.trim())).observe(
          status,
          { childList: true, characterData: true, subtree: true },
        );
      });
      await page.click('[data-control="train"]');
      await page
        .waitForFunction(() => window.statusLines.length >= 15, null, { timeout: 30_000 })
        .catch(() => {}); // the assertions below say what was seen
      await page.click('[data-control="train"]'); // Pause
      await page.waitForFunction(() =>
        /^(paused|已暂停)/.test(document.querySelector('.train-status').textContent),
      );
      const lines = await page.evaluate(() => window.statusLines);
      const losses = lines.map((line) => line.match(pattern)?.[1]).filter(Boolean);
      assert.ok(losses.length >= 8, lines.join('\n'));
      assert.deepEqual(
        lines.filter((line) => /(loss|损失) 0\.000$/.test(line)),
        [],
        'a loss read as 0.000',
      );
      // The run was where it matters: some of its losses below 0.0005, given in digits.
      assert.ok(
        losses.some((x) => Number(x) > 0 && Number(x) < 0.0005),
        `no loss below 0.0005 shown: ${losses.join(', ')}`,
      );
      // The loss table's last row the same.
      const last = await page.$$eval(
        '.stage-numbers td.cell[data-matrix="run-loss"]',
        (cells) => cells.at(-1)?.textContent,
      );
      if (last !== undefined) assert.notEqual(last, '0.000');
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
});
