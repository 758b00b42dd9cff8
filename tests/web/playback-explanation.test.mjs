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

// The address bar names the step on screen during playback: once written 400 ms after each
// step change, it showed the stage before for that long (a link copied then was one behind).
// Measured on the steps playback moves on to by itself (keys-row-2 and keys-row-3): the first,
// keys-row-1, comes with the key press in the page's first moments, when start-up work (the
// next scenes built ahead) can hold any timer back.
test('playback: the URL names the step on screen within a few frames of each step change', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=weights`,
    reducedMotion: 'no-preference',
  });
  await waitForReady(page);
  await page.keyboard.press('Space'); // play: on to keys-row-1, then keys-row-2 and keys-row-3
  // Every frame: when each step was first shown, and when the URL first named it.
  const lags = await page.evaluate(
    () =>
      new Promise((done) => {
        const shownAt = new Map();
        const linkedAt = new Map();
        const tick = (now) => {
          const shown = document.body.dataset.step;
          const linked = /step=([^&]+)/.exec(location.hash)?.[1];
          if (!shownAt.has(shown)) shownAt.set(shown, now);
          if (linked && !linkedAt.has(linked)) linkedAt.set(linked, now);
          if (linkedAt.has('keys-row-3')) {
            const lag = (step) => Math.round(linkedAt.get(step) - shownAt.get(step));
            done({ 'keys-row-2': lag('keys-row-2'), 'keys-row-3': lag('keys-row-3') });
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  // A step lasts seconds; its link follows within a frame or two (and an idle moment).
  for (const [step, lag] of Object.entries(lags))
    assert.ok(lag < 150, `#step=${step} written ${lag} ms after the step showed`);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
