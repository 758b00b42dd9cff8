// The stage strip of a laptop's short screen (1366×768), in English and Chinese, at every
// step: no step's name is cut by the left edge of the row of steps (the row is scrolled to
// start with a whole step), and each chapter's name stands on the row of its stages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectProblems, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

/** What the strip shows wrongly now: steps cut at the row's left edge, chapters split. */
const stripFaults = () => {
  const faults = [];
  const row = document.querySelector('.stage-item.is-current > .step-list');
  if (row) {
    const edge = row.getBoundingClientRect().left;
    for (const button of row.querySelectorAll('.step-button')) {
      const box = button.getBoundingClientRect();
      if (box.left < edge - 0.5 && box.right > edge + 0.5)
        faults.push(`step “${button.textContent}” cut at the left edge`);
    }
  }
  for (const title of document.querySelectorAll('.stage-list .chapter-title')) {
    const { chapter } = title.dataset;
    const top = Math.round(title.getBoundingClientRect().top);
    const lines = title.getClientRects().length;
    if (lines !== 1 || title.getBoundingClientRect().height > 40)
      faults.push(`chapter ${chapter}'s name on ${lines} lines`);
    let next = title.nextElementSibling;
    while (next && !next.classList.contains('chapter-title')) {
      const button = next.querySelector(':scope > .stage-button');
      if (button && Math.abs(Math.round(button.getBoundingClientRect().top) - top) > 8) {
        faults.push(`chapter ${chapter}: stage ${next.dataset.stage} not on its name's row`);
        break;
      }
      next = next.nextElementSibling;
    }
  }
  return faults;
};

describe('the stage strip at 1366×768', () => {
  for (const locale of ['en-US', 'zh-CN'])
    test(`${locale}: no step cut at the left edge, each chapter on one row, at every step`, async () => {
      const { page, context, problems } = await web.open({
        url: web.url,
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await waitForReady(page);
      const faults = new Set();
      let step = '';
      for (;;) {
        // Two frames: the row's observer reports after the next layout, and scrolls then.
        await page.evaluate(
          () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
        );
        const id = await page.evaluate(() => document.body.dataset.step);
        for (const fault of await page.evaluate(stripFaults)) faults.add(`${id}: ${fault}`);
        if (id === step) break;
        step = id;
        await page.keyboard.press('ArrowRight');
        await page
          .waitForFunction((was) => document.body.dataset.step !== was, step, { timeout: 3000 })
          .catch(() => {});
      }
      assert.deepEqual([...faults], []);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
});

/** The row of steps: its buttons at the edges, and how many steps are not wholly in view. */
const rowState = () => {
  const row = document.querySelector('.stage-item.is-current > .step-list');
  const view = row.getBoundingClientRect();
  const steps = [...row.querySelectorAll('.step-button')].map((b) => b.getBoundingClientRect());
  const edge = (side) => {
    const button = row.querySelector(`.step-more-edge.is-${side} > .step-more`);
    const box = button?.getBoundingClientRect();
    return {
      shown: Boolean(box && box.width > 0 && !button.hidden),
      text: button?.textContent ?? '',
      label: button?.getAttribute('aria-label') ?? '',
      tag: button?.tagName,
      tabIndex: button?.tabIndex,
      inRow: Boolean(box && box.left >= view.left - 0.5 && box.right <= view.right + 0.5),
    };
  };
  return {
    scrollLeft: row.scrollLeft,
    before: edge('before'),
    after: edge('after'),
    hiddenBefore: steps.filter((b) => b.left < view.left - 0.5).length,
    hiddenAfter: steps.filter((b) => b.right > view.right + 0.5).length,
  };
};

const twoFrames = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('the row of steps says it scrolls', () => {
  for (const locale of ['en-US', 'zh-CN'])
    test(`${locale}: a button at each edge steps lie beyond, with their count, keyboard-reachable`, async () => {
      const zh = locale === 'zh-CN';
      const { page, context, problems } = await web.open({
        url: `${web.url}#step=3`, // stage 3: twelve steps, more than the row holds
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await waitForReady(page);
      await twoFrames(page);
      let state = await page.evaluate(rowState);
      assert.ok(state.hiddenAfter > 0, 'stage 3’s row holds all its steps: nothing to test');
      assert.equal(state.before.shown, false, 'a button before the first step');
      assert.equal(state.after.shown, true, 'no sign that more steps follow');
      assert.equal(state.after.inRow, true);
      assert.equal(state.after.text, `${state.hiddenAfter} ›`);
      assert.match(
        state.after.label,
        zh
          ? new RegExp(`后面还有 ${state.hiddenAfter} 步`)
          : new RegExp(`^${state.hiddenAfter} more steps`),
      );
      assert.equal(state.after.tag, 'BUTTON');
      assert.equal(state.after.tabIndex, 0);
      // Keyboard: Tab reaches it from the steps, Enter scrolls the row on.
      // (from the last step: each step is a Tab stop of its own)
      await page.evaluate(() =>
        [...document.querySelectorAll('.stage-item.is-current .step-button')]
          .at(-1)
          .focus({ preventScroll: true }),
      );
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'step-more');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (was) => document.querySelector('.stage-item.is-current > .step-list').scrollLeft > was,
        state.scrollLeft,
      );
      await twoFrames(page);
      state = await page.evaluate(rowState);
      assert.equal(state.before.shown, true, 'scrolled on, no sign of the steps before');
      assert.equal(state.before.text, `‹ ${state.hiddenBefore}`);
      assert.match(state.before.label, zh ? /前面还有/ : /earlier step/);
      assert.equal(state.after.shown, state.hiddenAfter > 0);
      // The focus stays in the row (on the button, or on the last step once all are in view).
      assert.ok(
        await page.evaluate(() => document.activeElement.closest('.step-list') !== null),
        'focus left the row',
      );
      // Other stages: a button exactly where steps lie beyond, saying how many (one whose
      // steps all fit has none).
      let fits = 0;
      for (const [step, stage] of [
        ['30', '11'],
        ['48', '16'],
        ['37', '14'],
        ['41', '15'],
        ['29', '10'], // one step
      ]) {
        await page.evaluate((s) => (location.hash = `step=${s}`), step);
        await page.waitForFunction(
          (n) => document.querySelector('.stage-item.is-current')?.dataset.stage === n,
          stage,
        );
        await twoFrames(page);
        state = await page.evaluate(rowState);
        assert.equal(state.after.shown, state.hiddenAfter > 0, `stage ${stage}: after`);
        assert.equal(state.before.shown, state.hiddenBefore > 0, `stage ${stage}: before`);
        if (state.after.shown) assert.equal(state.after.text, `${state.hiddenAfter} ›`);
        if (state.before.shown) assert.equal(state.before.text, `‹ ${state.hiddenBefore}`);
        if (state.hiddenAfter + state.hiddenBefore === 0) fits += 1;
      }
      assert.ok(fits > 0, 'no stage whose steps all fit was tried');
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
});

describe('the row of steps at its end', () => {
  for (const locale of ['en-US', 'zh-CN'])
    test(`${locale}: a line of its own; each “more” click moves; at the end the last step whole, no button over it`, async () => {
      const { page, context, problems } = await web.open({
        url: `${web.url}#step=learn-target`, // stage 15: long names
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await waitForReady(page);
      await twoFrames(page);
      // The row under the stages' rows (it was tacked onto chapter 4's, as if its steps were
      // chapter 4's).
      const lines = await page.evaluate(() => {
        const row = document.querySelector('.stage-item.is-current > .step-list');
        const last = [...document.querySelectorAll('.stage-list > li:not(.is-current)')].at(-1);
        return {
          row: row.getBoundingClientRect().top,
          stages: last.getBoundingClientRect().bottom,
        };
      });
      assert.ok(
        lines.row >= lines.stages - 1,
        `the row of steps beside the stages (${JSON.stringify(lines)})`,
      );
      for (let clicks = 0; ; clicks++) {
        const state = await page.evaluate(rowState);
        if (!state.after.shown) break;
        assert.ok(clicks < 12, 'the “more” button never went');
        await page.click('.stage-item.is-current .step-more-edge.is-after .step-more');
        await page.waitForFunction(
          (was) => document.querySelector('.stage-item.is-current > .step-list').scrollLeft > was,
          state.scrollLeft,
          { timeout: 3000 },
        );
        await page.waitForTimeout(400); // the smooth scroll's end
        await twoFrames(page);
      }
      const end = await page.evaluate(() => {
        const row = document.querySelector('.stage-item.is-current > .step-list');
        const view = row.getBoundingClientRect();
        const last = [...row.querySelectorAll('.step-button')].at(-1).getBoundingClientRect();
        const before = row.querySelector('.step-more-edge.is-before > .step-more');
        const cover = before.hidden ? view.left : before.getBoundingClientRect().right;
        return { view: [view.left, view.right], last: [last.left, last.right], cover };
      });
      assert.ok(
        end.last[1] <= end.view[1] + 0.5,
        `the last step cut at the right: ${JSON.stringify(end)}`,
      );
      assert.ok(end.last[0] >= end.cover - 0.5, `the last step under “‹”: ${JSON.stringify(end)}`);
      const state = await page.evaluate(rowState);
      assert.equal(state.after.shown, false);
      assert.equal(state.before.shown, state.hiddenBefore > 0);
      if (state.before.shown) assert.equal(state.before.text, `‹ ${state.hiddenBefore}`);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
});
