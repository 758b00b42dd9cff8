// Chapter 3's first stages as a new learner walks them: after "Take 10 more steps" the scene
// and the export show the weights and output 1 after every step taken; the link carries the
// chapter's own state; RoPE's headings, legend and note; the row labels; Chinese punctuation
// and terms. Each check is one the learner noticed missing; the screenshots are for looking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectProblems, pageFixture, screenshot, waitForReady, waitForStep } from './helpers.mjs';
import { assertShown, at, close, nodeAttention, nodeNumbers } from './chapter3-numbers.mjs';
import { LEARNING_DEFAULTS } from '../../web/model/learning.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { computeNumbers } from '../../web/model/numbers.mjs';
import { matricesCsv } from '../../web/tools/export/matrices.mjs';

const web = pageFixture();

async function openStep(hash, options = {}) {
  const opened = await web.open({
    url: `${web.url}#${hash}`,
    viewport: { width: 1366, height: 900 },
    ...options,
  });
  await waitForReady(opened.page);
  await waitForStep(opened.page, hash.replace(/^step=([^&]*).*$/, '$1'));
  return opened;
}

test('10 more steps: W_Q, W_K, W_V, o₁′ and its distance are those after 11 steps, in the CSV too', async () => {
  const eleven = (await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 })).step;
  const { page, context, problems } = await openStep('step=learn-update');
  await page.click('.ch3-more-steps');
  await page.waitForFunction(() => document.querySelector('.learn-status')?.dataset.steps === '11');
  await waitForStep(page, 'learn-update');
  for (const name of ['wQuery', 'wKey', 'wValue'])
    await assertShown(page, `learn-new-${name}`, (i, j) => at(eleven.weightsAfter[name], i, j));
  await assertShown(page, 'learn-o1-after', (i, j) => at(eleven.after.outputs, i, j));
  const scene = await page.textContent('.scene-learn-update');
  assert.match(scene, /after 11 steps/);
  assert.doesNotMatch(scene, /after one step/);
  const o1 = Array.from(eleven.after.outputs.data.slice(0, 3));
  const distance = Math.hypot(...o1.map((v, c) => v - eleven.target[c]));
  close(
    Number(await page.getAttribute('.learn-distance', 'data-distance')),
    distance,
    1e-9,
    '‖o₁′ − t‖',
  );
  assert.ok(distance < 0.5, `output 1 arrives near its target (${distance})`);
  assert.match(await page.textContent('.learn-distance'), new RegExp(distance.toFixed(3)));
  await screenshot(page, 'ch3-learner-update-11');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
  // The CSV export: the weights after the 11 steps, whose forward pass has the loss after 11.
  const attn = await nodeAttention();
  const settings = { scaled: false, causal: false, rounding: 'exact' };
  const numbers = computeNumbers(attn, articleExample(), settings, true);
  numbers.learning = await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 });
  const csv = matricesCsv(numbers).split('\r\n');
  const exported = (name) => {
    const rows = [];
    for (const line of csv.filter((l) => l.startsWith(`ch3-${name}-after-step,`))) {
      const [, , r, c, value] = line.split(',');
      (rows[r - 1] ??= [])[c - 1] = Number(value);
    }
    return rows;
  };
  const { x } = articleExample();
  const [wQuery, wKey, wValue] = ['wQuery', 'wKey', 'wValue'].map(exported);
  const { outputs } = attn.trace({ x, wQuery, wKey, wValue, scale: 1, isCausal: false });
  const loss = eleven.target.reduce((sum, t, c) => sum + (at(outputs, 0, c) - t) ** 2, 0) / 2;
  close(loss, eleven.losses[11], 1e-6, 'the exported weights’ loss is the loss after 11 steps');
});
