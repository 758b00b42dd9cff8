// Chapter 3's failing models told as failing (web/model/plateau.mjs): the rule on made-up
// loss curves; the promise it rests on, in Node (the page's 2-layer model with RoPE drops
// long before VERDICT_AFTER steps); and the page: a 1-layer run trained past VERDICT_AFTER
// says it has not dropped and why, in English and in Chinese, and so does a 2-layer run
// without positions (its loss creeps down, with no sudden drop).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { INDUCTION_BATCH, createInductionTask } from '../../src/js/tasks/induction-task.mjs';
import {
  VERDICT_AFTER,
  VERDICT_EVERY,
  failureReason,
  plateauVerdict,
} from '../../web/model/plateau.mjs';
import { TRAINING_DEFAULTS, findDrop, modelConfig } from '../../web/model/training.mjs';
import { collectProblems, distDir, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();
const ONE_LAYER = { ...TRAINING_DEFAULTS, layers: 1 };
const NO_POSITIONS = { ...TRAINING_DEFAULTS, positions: 'none' };
/** A loss curve on a plateau at 2.3 (after a fast start from ln 16), `steps` long. */
const plateau = (steps) => Array.from({ length: steps }, (_, s) => (s < 100 ? 2.7 - s / 250 : 2.3));

test('the rule: only a model that cannot learn, past VERDICT_AFTER steps, with no drop', () => {
  assert.equal(failureReason(TRAINING_DEFAULTS), null);
  assert.equal(failureReason({ ...TRAINING_DEFAULTS, positions: 'learned' }), null);
  // ALiBi's recency bias is enough: two layers drop (seed 1, in Node: between steps 200 and 400).
  assert.equal(failureReason({ ...TRAINING_DEFAULTS, positions: 'alibi' }), null);
  assert.equal(failureReason(ONE_LAYER), 'oneLayer');
  assert.equal(failureReason(NO_POSITIONS), 'none');
  // One layer fails with or without positions; it is named first.
  assert.equal(failureReason({ ...ONE_LAYER, positions: 'none' }), 'oneLayer');

  const long = plateau(VERDICT_AFTER + 200);
  const run = (settings, losses, dropStep = null) => ({ settings, losses, dropStep });
  assert.equal(plateauVerdict(run(ONE_LAYER, plateau(VERDICT_AFTER - 1))), null, 'too early');
  assert.equal(plateauVerdict(run(TRAINING_DEFAULTS, long)), null, 'a model that can learn');
  assert.equal(plateauVerdict(run(NO_POSITIONS, long, 900)), null, 'it dropped after all');
  // While it runs: the mean of the 20 steps up to VERDICT_AFTER (not the latest step's), the
  // same text until the next VERDICT_EVERY steps.
  const noisy = long.map((loss, s) => (s < VERDICT_AFTER ? loss + (s % 2 ? 0.1 : -0.1) : 9));
  assert.deepEqual(plateauVerdict({ ...run(ONE_LAYER, noisy), status: 'running' }), {
    key: 'ch3.fail.oneLayer',
    params: { step: VERDICT_AFTER, loss: '2.300', smoothing: 20 },
  });
  const longer = plateau(VERDICT_AFTER + VERDICT_EVERY + 30);
  assert.equal(
    plateauVerdict({ ...run(ONE_LAYER, longer), status: 'running' }).params.step,
    VERDICT_AFTER + VERDICT_EVERY,
  );
  // Stopped (paused, or done at 2000): the step the status shows, and the loss up to it.
  assert.deepEqual(plateauVerdict({ ...run(ONE_LAYER, plateau(2000)), status: 'done' }).params, {
    step: 2000,
    loss: '2.300',
    smoothing: 20,
  });
  assert.equal(
    plateauVerdict({ ...run(ONE_LAYER, noisy), status: 'paused' }).params.step,
    noisy.length,
  );
  assert.equal(plateauVerdict(run(NO_POSITIONS, long)).key, 'ch3.fail.none');
});

test('the promise behind VERDICT_AFTER: the page’s 2-layer model drops long before it (Node)', async () => {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  // The page's model and batches (the trainer's default: INDUCTION_BATCH rows a step, from
  // the seed's task).
  const model = attn.createTinyTransformer(modelConfig(TRAINING_DEFAULTS));
  const task = createInductionTask(TRAINING_DEFAULTS.seed);
  const losses = [];
  let drop = null;
  while (drop === null && losses.length < VERDICT_AFTER) {
    const { tokens, targets } = task.batch(INDUCTION_BATCH);
    losses.push(model.trainStep({ tokens, targets, batch: INDUCTION_BATCH }));
    drop = findDrop(losses);
  }
  model.free();
  assert.ok(drop !== null && drop < VERDICT_AFTER / 2, `the default model dropped at ${drop}`);
  console.log(`2 layers, RoPE, seed 1: the loss dropped at step ${drop}`);
});

test('the page: 1 layer, and no positions, say past 1500 steps that they have not dropped and why', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=train` });
  await waitForReady(page);
  await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
  await page.selectOption('.scene-train select[data-control="layers"]', '1');
  await page.waitForFunction(
    () => document.querySelectorAll('.scene-train .train-head').length === 4,
  );
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    (n) => Number(document.querySelector('.scene-train').dataset.step) >= n - 100,
    VERDICT_AFTER,
    { timeout: 90_000 },
  );
  // Not yet: nothing is said before VERDICT_AFTER steps.
  assert.equal(await page.isVisible('.scene-train .train-verdict'), false);
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.verdict === 'ch3.fail.oneLayer',
    null,
    { timeout: 30_000 },
  );
  await page.click('.scene-train .train-button'); // Pause
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.status === 'paused',
  );
  // The verdict names the step the status shows (not 1500 beside "step 1530").
  const step = Number(
    (await page.textContent('.scene-train .train-status')).match(/^paused at step (\d+)/)[1],
  );
  assert.ok(step >= VERDICT_AFTER, `paused at step ${step}`);
  const said = await page.textContent('.scene-train .train-verdict');
  assert.match(
    said,
    new RegExp(
      `^After ${step} steps there has been no drop: the loss, averaged over its last 20 steps, is still (\\d\\.\\d{3}),`,
    ),
  );
  assert.match(said, /One layer has no earlier layer/);
  const loss = Number(said.match(/still (\d\.\d{3})/)[1]);
  assert.ok(loss > 1, `the loss told (${loss}) is the plateau's, far from a dropped model's`);
  assert.ok(await page.isVisible('.scene-train .train-verdict'));
  await page.$eval('.scene-train .train-status', (e) => e.scrollIntoView());
  await screenshot(page, 'ch3-train-one-layer-fails');
  // In Chinese, the same verdict with the same numbers.
  await page.click('.language-button[data-language="zh"]');
  await page.waitForFunction(
    (n) =>
      new RegExp(`训练了 ${n} 步，损失没有骤降`).test(
        document.querySelector('.scene-train .train-verdict').textContent,
      ),
    step,
  );
  assert.match(await page.textContent('.scene-train .train-verdict'), new RegExp(`仍是 ${loss}`));
  // Two layers again: a new run, and nothing to say about it.
  await page.click('.language-button[data-language="en"]');
  await page.selectOption('.scene-train select[data-control="layers"]', '2');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.verdict === '');
  assert.equal(await page.isVisible('.scene-train .train-verdict'), false);
  // Two layers without positions: the loss creeps down, with no sudden drop, and is told so.
  await page.selectOption('.scene-train select[data-control="positions"]', 'none');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.verdict === 'ch3.fail.none',
    null,
    { timeout: 120_000 },
  );
  await page.click('.scene-train .train-button'); // Pause
  await page.waitForFunction(
    () => document.querySelector('.scene-train').dataset.status === 'paused',
  );
  const noneStep = Number(
    (await page.textContent('.scene-train .train-status')).match(/^paused at step (\d+)/)[1],
  );
  const none = await page.textContent('.scene-train .train-verdict');
  assert.match(
    none,
    new RegExp(
      `^After ${noneStep} steps there has been no sudden drop: the loss, averaged over its last 20 steps, has only crept`,
    ),
  );
  assert.match(none, /Without positions no head can ask for “the token just before me”/);
  assert.equal(await page.$eval('.scene-train', (e) => e.dataset.dropStep), '');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
