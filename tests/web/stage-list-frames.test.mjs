// The stage list brings the current stage and step into view without costing a frame: while
// chapter 1 plays, its reveal once read the layout in an animation frame right after the list
// was rebuilt, which forced a layout of the whole page there (10.8 ms, one frame of 33 ms).
// A Chromium trace of stage changes shows every layout run inside a script.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { TRACE_CATEGORIES, framesOfTrace } from '../../bench/page-trace.mjs';
import { collectProblems, gotoStep, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();

test('changing stage forces no layout in an animation frame, and the step chip comes into view', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=1`,
    viewport: { width: 1366, height: 768 },
    reducedMotion: 'no-preference',
  });
  await waitForReady(page);
  await web.browser.startTracing(page, { categories: TRACE_CATEGORIES });
  // Stage by stage through chapter 1's first stages: each rebuilds the list.
  for (const step of ['weights', 'keys-row-1', 'result']) {
    await gotoStep(page, web.url, `step=${step}`);
    await waitForStep(page, step);
  }
  const { forced } = framesOfTrace(JSON.parse(await web.browser.stopTracing()));
  const inFrames = forced.filter((layout) => layout.in === 'FireAnimationFrame');
  assert.deepEqual(
    inFrames.map((layout) => `${layout.name} ${layout.ms.toFixed(1)} ms`),
    [],
    'layouts forced inside animation frames',
  );
  // Stage 8's row of steps: the current one's chip is scrolled into its row.
  await page.waitForFunction(
    () => {
      const chip = document.querySelector('.step-list [aria-current="step"]');
      const row = chip?.closest('.step-list').getBoundingClientRect();
      const box = chip?.getBoundingClientRect();
      return box && box.left >= row.left - 0.5 && box.right <= row.right + 0.5;
    },
    null,
    { timeout: 5000 },
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
