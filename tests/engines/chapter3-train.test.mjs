// In Firefox and in WebKit: chapter 3's train stage. Served, Train trains the tiny model in
// its Worker until the loss drops: the live text counts "step N · loss X.XXX" (paused, "paused
// at step N · loss X.XXX"), the sentence under the curve names the drop, every head's heatmap
// is drawn. The offline file (dist/explainer.html from file://, a classic worker from a blob:
// URL) trains too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ENGINES, engineFixture, explainerFileUrl } from './engines.mjs';
import { WORDS, findControl, inPageTraining } from './page.mjs';
import { waitForReady, waitForScene } from './scene.mjs';

const LIVE = /^step (\d+) · loss (\d+\.\d{3})$/;
// Paused, it says so.
const PAUSED = /^paused at step (\d+) · loss (\d+\.\d{3})$/;

/** Polls inPageTraining() until `done(seen)`; fails with what a reader saw instead. */
async function waitForTraining(page, done, what, timeout) {
  const deadline = Date.now() + timeout;
  let seen = null;
  while (!(seen && done(seen))) {
    if (Date.now() > deadline) {
      assert.fail(
        `${page.engine}: waited ${timeout} ms for ${what}; the page shows ${JSON.stringify(seen)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    seen = await page.evaluate(inPageTraining).catch(() => null);
  }
  return seen;
}

/** At #step=train: presses Train once the worker is ready, waits for `done`, presses Pause. */
async function train(page, done, what, timeout) {
  await waitForTraining(page, (seen) => seen.ready, 'the training worker to start', 30000);
  await page.click(findControl, { role: 'button', name: WORDS.train });
  const seen = await waitForTraining(page, done, what, timeout);
  await page.click(findControl, { role: 'button', name: WORDS.pause });
  return seen;
}

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);

    /** Opens #step=train at `url`; its live text before Train. */
    async function openTrain(url) {
      const page = await web.open();
      try {
        await page.goto(url);
        await waitForReady(page);
        await waitForScene(page, 'train', []);
        assert.equal((await page.evaluate(inPageTraining)).live, 'Ready: press Train.');
        return page;
      } catch (error) {
        await page.close(); // a window left open would refuse the next test its own
        throw error;
      }
    }

    /** Paused: the live text says so, with the step it stopped at, at least `least`. */
    const pausedAt = (page, least) =>
      waitForTraining(
        page,
        (t) => PAUSED.test(t.live) && Number(t.live.match(PAUSED)[1]) >= least,
        `the live text to read “paused at step N · loss X.XXX” with N ≥ ${least}`,
        10000,
      );

    test('served: Train trains in a Worker until the loss drops; the live text counts steps', async () => {
      const page = await openTrain(`${web.url}#step=train`);
      try {
        const { dropStep } = await train(page, (t) => t.dropStep !== null, 'the drop', 90000);
        // While counting the live text changes at most once a second: it may lag the drop.
        const seen = await pausedAt(page, dropStep);
        const loss = Number(seen.live.match(PAUSED)[2]);
        assert.ok(loss < 1.5, `after the drop at step ${dropStep} the loss reads ${loss}`);
        assert.equal(seen.heatmaps, 8, 'every head of both layers drawn');
        await page.screenshot(`engines-${engine.name}-ch3-train`);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });

    test('the offline file trains too (a classic worker from a blob: URL)', async () => {
      const page = await openTrain(`${explainerFileUrl}#step=train`);
      try {
        // The first attention snapshot comes at step 50: the heads are drawn from it (their
        // eight labelled frames are on the page from the start, so the step is waited for too).
        const atStep50 = (t) =>
          t.heatmaps === 8 && LIVE.test(t.live) && Number(t.live.match(LIVE)[1]) >= 50;
        await train(page, atStep50, 'the heads drawn at step 50', 60000);
        await pausedAt(page, 50);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });
  });
}
