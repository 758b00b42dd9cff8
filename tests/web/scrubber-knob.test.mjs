// The scrubber's knob reads as the stage shown (whose mark is filled): a finished stage's knob stands past its own
// stage mark and clear of the next stage's mark (before the fix, stage 17 finished put the knob
// on mark 18: a finished step's clock ends where the next stage starts). Both as a deep link
// opens a stage (reduced motion: each step shown finished) and as the arrow keys move the knob;
// and the knob's coordinate and the clock's are each other's inverse (timeline.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';
import { KNOB_STAGE_GAP, knobPosition, stepAtKnob } from '../../web/timeline.mjs';

const web = pageFixture();

/** Where the knob's centre and each stage's mark stand, px from the strip's left end. */
const knobAndMarks = () => {
  const scrubber = document.querySelector('.scrubber');
  const strip = document.querySelector('.scrubber-ticks').getBoundingClientRect();
  const marks = {};
  for (const tick of document.querySelectorAll('.tick')) {
    const box = tick.getBoundingClientRect();
    marks[tick.dataset.stage] = box.left + box.width / 2 - strip.left;
  }
  return {
    knob: (Number(scrubber.value) / Number(scrubber.max)) * strip.width,
    marks,
    stage: Number(/\d+/.exec(document.querySelector('.stage-counter').textContent)[0]),
    mark: document.querySelector('.tick').getBoundingClientRect().width,
    filled: [...document.querySelectorAll('.tick.is-current')].map((tick) => tick.dataset.stage),
  };
};

/** The knob is past the stage's mark, nearer it than the next one, and off the next mark. */
function assertKnobOnStage({ knob, marks, stage, mark }, where) {
  const own = marks[stage];
  const next = marks[stage + 1];
  assert.ok(knob >= own - 0.5, `${where}: the knob (${knob}) before mark ${stage} (${own})`);
  if (next === undefined) return;
  // Off the next mark's circle (the mark's number is drawn in 18 of its 24 px).
  assert.ok(
    next - knob > (mark * 3) / 8,
    `${where}: the knob (${knob.toFixed(1)}) on mark ${stage + 1} (${next.toFixed(1)})`,
  );
}

test('a finished stage’s knob stands on its own stage, not on the next stage’s mark (1366×768)', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=51`, // stage 17, one step
    viewport: { width: 1366, height: 768 },
  });
  await waitForReady(page);
  // Stage 17 and stage 20 (one step each), stage 3's last step (of twelve), stage 19.
  for (const [hash, id, stage] of [
    ['51', null, 17],
    ['lm-next', 'lm-next', 20],
    ['14', null, 3],
    ['lm-chars', 'lm-chars', 19],
  ]) {
    await page.evaluate((h) => (location.hash = `step=${h}`), hash);
    if (id) await waitForStep(page, id);
    await page.waitForFunction(
      (s) => document.querySelector('.stage-counter').textContent.includes(String(s)),
      stage,
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const shown = await page.evaluate(knobAndMarks);
    assert.equal(shown.stage, stage);
    assert.deepEqual(shown.filled, [String(stage)], 'the mark of the stage shown is filled');
    assertKnobOnStage(shown, `stage ${stage}`);
    // One-step stage: nearer its own mark than the next one.
    if (stage === 17 || stage === 20)
      assert.ok(
        shown.knob - shown.marks[stage] < shown.marks[stage + 1] - shown.knob,
        `stage ${stage}: the knob nearer mark ${stage + 1}`,
      );
  }
  // The arrow keys move the knob through the gap before the next mark, then onto it.
  await page.evaluate(() => (location.hash = 'step=51'));
  await page.waitForFunction(() =>
    document.querySelector('.stage-counter').textContent.includes('17'),
  );
  await page.focus('.scrubber');
  const seen = [];
  for (let k = 0; k < 20; k++) {
    await page.keyboard.press('ArrowRight');
    const shown = await page.evaluate(knobAndMarks);
    seen.push(shown.stage);
    assertKnobOnStage(shown, `key ${k + 1}`);
  }
  assert.ok(seen.includes(18), `the arrow keys never reached stage 18: ${seen.join(' ')}`);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the knob’s coordinate and the clock’s are each other’s inverse', () => {
  const steps = [1, 2, 2, 2, 3, 4, 4].map((stage) => ({ stage }));
  for (let index = 0; index < steps.length; index++)
    for (const t of [0, 0.25, 0.5, 1]) {
      const back = stepAtKnob(steps, knobPosition(steps, index, t));
      const same = back.index === index && Math.abs(back.t - t) < 1e-9;
      // Inside a stage, a step finished is the next one at its start.
      const next = t === 1 && back.index === index + 1 && back.t === 0;
      assert.ok(same || next, `${index} ${t}: ${JSON.stringify(back)}`);
    }
  // A stage's last step finished: before the next stage's mark, by the gap.
  assert.equal(knobPosition(steps, 0, 1), 1 - KNOB_STAGE_GAP);
  assert.equal(knobPosition(steps, 3, 1), 4 - KNOB_STAGE_GAP);
  assert.equal(knobPosition(steps, 2, 1), 3); // inside a stage, the next step's start
  assert.equal(knobPosition(steps, 6, 1), 7); // the last step runs to the end
  // In the gap: its first half the stage finished, its second the next stage's start.
  assert.deepEqual(stepAtKnob(steps, 1 - KNOB_STAGE_GAP / 4), { index: 1, t: 0 });
  assert.deepEqual(stepAtKnob(steps, 1 - (KNOB_STAGE_GAP * 3) / 4), { index: 0, t: 1 });
});
