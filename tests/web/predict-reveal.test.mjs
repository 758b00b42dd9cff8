// Predict, then reveal, as a learner (and a screen reader) meets it: what the step has not
// shown yet is not in the accessibility tree (neither the asked number nor the others, nor the
// arithmetic's results); while a cell is asked, the scene's own highlight of the moment it is
// held at does not sit on another column beside the hint's outlines; a cell already solved
// shows its number when the next question holds the step again.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();
const scoreCell = (col) =>
  `.scene-host td.cell[data-matrix="scores"][data-row="0"][data-col="${col}"]`;

async function answer(page, text) {
  await page.fill('.exercise-input', text);
  await page.click('.exercise-form button[type="submit"]');
}

test('Predict: unrevealed numbers are not read out; the hint alone is highlighted; solved cells fill in', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=scores-1` });
  await waitForReady(page);
  await waitForStep(page, 'scores-1');
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₁/);
  // Query 1's scores are 2, 4, 4: none of them, nor a line's result, is in the tree yet.
  const scores = page.locator('.scene-host figure:has(td.cell[data-matrix="scores"])');
  const lines = page.locator('.scene-host .term-lines');
  assert.doesNotMatch(await scores.ariaSnapshot(), /cell "\d/, 'no score is read out');
  assert.doesNotMatch(await lines.ariaSnapshot(), /= \d/, 'no line’s result is read out');

  // Right: the step plays to its end; then the next question holds it at its start again.
  await answer(page, '2');
  await page.waitForFunction(
    () => document.querySelector('.exercise')?.dataset.outcome === 'right',
  );
  await page.click('.exercise-form button:has-text("Another number")');
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₂/);
  await page.waitForFunction(
    (selector) => document.querySelector(selector)?.classList.contains('is-predicting'),
    scoreCell(1),
  );
  // The solved s₁,₁ shows its 2 (and reads out as 2); s₁,₂ and s₁,₃ (4 and 4) stay unread.
  const solved = await page.$eval(`${scoreCell(0)} .cell-value`, (value) => {
    const style = getComputedStyle(value);
    return { text: value.textContent, opacity: style.opacity, visibility: style.visibility };
  });
  assert.deepEqual(solved, { text: '2', opacity: '1', visibility: 'visible' });
  const tree = await scores.ariaSnapshot();
  assert.match(tree, /cell "2"/);
  assert.doesNotMatch(tree, /cell "4"/);
  // A wrong answer: the hint outlines s₁,₂'s sources (q₁ and key 2's column); the scene's
  // own highlight of key 1's column, where its sweep is held, is put away.
  await answer(page, '7');
  await page.waitForFunction(
    () => document.querySelector('.exercise')?.dataset.outcome === 'wrong',
  );
  const highlight = await page.evaluate(() => {
    const frame = document.querySelector('.scene-host .column-frame');
    return {
      frame: frame ? getComputedStyle(frame).visibility : 'none',
      active: [...document.querySelectorAll('.scene-host td.cell.is-active')].map((cell) => {
        const style = getComputedStyle(cell);
        const row = cell.closest('tr');
        const plain = row.querySelector('td.cell:not(.is-active):not(.is-source)');
        return plain ? style.backgroundColor === getComputedStyle(plain).backgroundColor : true;
      }),
      sources: [...document.querySelectorAll('.scene-host td.cell.is-source')].map(
        (cell) => `${cell.dataset.matrix}:${cell.dataset.row}`,
      ),
    };
  });
  assert.notEqual(highlight.frame, 'visible', 'the sweep’s frame is put away');
  assert.ok(
    highlight.active.every(Boolean),
    'no cell of the scene is highlighted as the active one',
  );
  // The hint's outlines: q₁ (row 1 of Q) and k₂ (row 2 of K, key 2's column of Kᵀ).
  assert.deepEqual([...new Set(highlight.sources)].sort(), ['keys:1', 'queries:0']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict at the softmax: the rounding note, which prints the weights, waits for the reveal', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=softmax-1` });
  await waitForReady(page);
  await waitForStep(page, 'softmax-1');
  assert.match(await page.textContent('.note-rounding'), /0\.063/);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /a₁,₁/);
  assert.equal(await page.isVisible('.note-rounding'), false, 'the note would give a₁,₁ away');
  assert.doesNotMatch(await page.locator('body').ariaSnapshot(), /0\.063/);
  await page.click('.exercise button:has-text("Reveal")');
  await page.waitForSelector('.note-rounding', { state: 'visible' });
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict: a cell answered right shows its number whole at once, as the step plays on', async () => {
  // With motion: the step plays from its start after the answer, and its cells land one by one.
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=softmax-1`,
    reducedMotion: 'no-preference',
  });
  await waitForReady(page);
  await waitForStep(page, 'softmax-1');
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /a₁,₁/);
  await answer(page, '0.063');
  await page.waitForFunction(
    () => document.querySelector('.exercise')?.dataset.outcome === 'right',
  );
  const looks = await page.$eval(
    '.scene-host td.cell[data-matrix="weights"][data-row="0"][data-col="0"] .cell-value',
    (value) => {
      const style = getComputedStyle(value);
      const score = document.querySelector('.scene-host td.cell[data-matrix="scores"] .cell-value');
      return {
        text: value.textContent,
        opacity: style.opacity,
        visibility: style.visibility,
        transform: style.transform,
        sameSize: style.fontSize === getComputedStyle(score).fontSize,
      };
    },
  );
  assert.deepEqual(looks, {
    text: '0.063',
    opacity: '1',
    visibility: 'visible',
    transform: 'none',
    sameSize: true,
  });
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
