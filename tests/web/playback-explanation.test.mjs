// During playback the explanation under the scene follows the step on screen within a few
// frames, and a step the reader moves to during playback keeps its own explanation. (A guard
// for work that moves the explanation's writing out of a step's first frame, the costliest
// frame of playback.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();

const explanationOf = (page) => page.textContent('.explanation');

test('playback: the explanation follows the step on screen, and stepping keeps it', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=weights`,
    reducedMotion: 'no-preference',
  });
  await waitForReady(page);
  assert.match(await explanationOf(page), /multiplied by three weight matrices/);
  await page.keyboard.press('Space'); // play: on to keys-row-1 once weights has played
  await page.waitForFunction(() => document.body.dataset.step === 'keys-row-1', null, {
    timeout: 15000,
  });
  // Within a few frames of the step change (the step runs for seconds).
  await page.waitForFunction(
    () => /Input 1 times .*key 1/.test(document.querySelector('.explanation').textContent),
    null,
    { timeout: 1000 },
  );
  assert.doesNotMatch(await explanationOf(page), /three weight matrices/);
  // Next during playback: that step's explanation, and it stays (no late write of another).
  await page.click('[data-action="next"]');
  await waitForStep(page, 'keys-row-2');
  await page.waitForTimeout(300);
  const explanation = await explanationOf(page);
  assert.match(explanation, /Input 2 times .*key 2/);
  assert.match(explanation, /input 2 gets its key from the same matrix/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
