// Chapter 4's live run as the tests drive it: the snapshot the page opens with, scored by the
// worker, and "Keep training" from it.

/** The train stage's status line once the worker has scored the snapshot's held-out loss. */
export async function snapshotStatus(page) {
  await page.waitForFunction(
    () =>
      /held-out loss \d/.test(document.querySelector('.scene-ch4-train .ch4-status')?.textContent),
    null,
    { timeout: 60_000 },
  );
  return page.textContent('.scene-ch4-train .ch4-status');
}

/** From the train stage: the snapshot scored, "Keep training" pressed, `steps` steps trained. */
export async function keepTrainingFor(page, steps) {
  await snapshotStatus(page);
  await page.click('[data-control="ch4-keep"]');
  await page.waitForFunction(
    (n) => Number(document.querySelector('.scene-ch4-train')?.dataset.step) >= n,
    steps,
    { timeout: 60_000 },
  );
}
