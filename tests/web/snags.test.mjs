// What a learner noticed on the page ("Hardening, round 3"), each kept by a test: printed
// arithmetic that adds up (or says "≈" and why), Predict's feedback, words and layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

const valueOf = (text) => Number(text.replace(/\u2212/g, '-'));
const decimals = (text) => (text.split('.')[1] ?? '').length;
/** Whether `result` is what `value` rounds to at the printed decimals. */
const printsAs = (value, result) =>
  Math.abs(Number(value.toFixed(decimals(result))) - valueOf(result)) < 1e-9;

test('printed arithmetic adds up, or says "≈" and why', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=weighted-1` });
  await waitForReady(page);
  const lines = await page.$$eval('.scene-host .term-line', (all) => all.map((l) => l.textContent));
  let approx = 0;
  for (const line of lines) {
    // "a₁,₁ · v₁ = 0.063 · [1, 2, 3] ≈ [0.063, 0.127, 0.190]"
    const match = /= (\S+) · \[([^\]]+)\] ([=≈]) \[([^\]]+)\]$/.exec(line);
    assert.ok(match, line);
    const [, weight, values, sign, products] = match;
    const exact = values
      .split(', ')
      .every((v, c) => printsAs(valueOf(weight) * valueOf(v), products.split(', ')[c]));
    assert.equal(sign, exact ? '=' : '≈', line);
    if (!exact) approx += 1;
  }
  assert.ok(approx > 0, 'the article’s weights 0.063 and 0.468 do not multiply out exactly');
  assert.match(await page.textContent('.explanation'), /“≈” marks a line/);
  // The cell inspector writes the same product the same way.
  await page.hover('.scene-host td.cell[data-matrix="weighted"][data-row="0"][data-col="1"]');
  assert.match(await page.textContent('.cell-popover'), /0\.063·2 ≈ 0\.127/);

  await page.goto(`${web.url}#step=sum-1`);
  await waitForReady(page);
  for (const line of await page.$$eval('.scene-host .term-line', (all) =>
    all.map((l) => l.textContent),
  )) {
    const [left, result] = line.split(/ [=≈] (?=\S+$)/);
    const terms = left.split('=')[1].trim().split(' + ');
    const sum = terms.reduce((total, t) => total + valueOf(t), 0);
    assert.equal(line.includes(`≈ ${result}`), !printsAs(sum, result), line);
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict: no placeholder answer, a named slip, and the verdict in view on a phone', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=softmax-1`,
    viewport: { width: 390, height: 844 },
  });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  await page.waitForFunction(() => document.body.dataset.settled === 'false');
  // Held at the start: no bar stands at 1/3 as if it were the answer.
  const bars = await page.$$eval('.scene-host .bar', (all) =>
    all.map((bar) => bar.getBoundingClientRect().height),
  );
  assert.deepEqual(bars, [0, 0, 0]);
  const stacked = await page.$eval('.scene-host .stacked', (el) => getComputedStyle(el).opacity);
  assert.equal(stacked, '0');
  // a₁,₁ = e^(2 − 4) ÷ (…) = 0.063; e^(2 − 4) = 0.135 is the numerator alone.
  await page.fill('.exercise-input', '0.135');
  await page.press('.exercise-input', 'Enter');
  const feedback = page.locator('.exercise-feedback');
  assert.match(await feedback.textContent(), /numerator: divide it by the sum/);
  assert.match(await feedback.textContent(), /Here is the arithmetic of that cell/);
  const box = await feedback.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `the verdict is on screen (at ${box.y})`);
  // 0.07 is not 0.063 (it was right within ±0.01).
  await page.fill('.exercise-input', '0.07');
  await page.press('.exercise-input', 'Enter');
  assert.equal(await page.getAttribute('.exercise', 'data-outcome'), 'wrong');
  await page.fill('.exercise-input', '0.063');
  await page.press('.exercise-input', 'Enter');
  assert.equal(await page.getAttribute('.exercise', 'data-outcome'), 'right');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('words: counts agree with nouns, the mask is in the formula, no English in Chinese', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=scores-1&causal=1`,
  });
  await waitForReady(page);
  // s₁,ⱼ = q₁·kⱼ + m₁,ⱼ: the formula shows the mask term.
  assert.match(await page.textContent('.formula'), /\+\s*m/, 'the mask term is in the formula');
  // Query 1 with the mask: one score, of input 1.
  const explanation = await page.textContent('.explanation');
  assert.match(explanation, /keys \(orange\) of input 1, its own/);
  assert.match(explanation, /That gives 1 score for input 1/);
  await page.goto(`${web.url}#step=decode-1`);
  await waitForReady(page);
  assert.match(await page.textContent('.decode-cache h3'), /^KV cache: 1 token$/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('chapter 2: alike scores pale with one legend value, ties named, what sharing and no cache cost', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=heads-attention` });
  await waitForReady(page);
  // Head 4 asks nothing: every score is 0, painted pale, its legend says so in words (not a
  // scale from 0 to 0, nor a "0" beside a stub of a bar).
  const head4 = '.scene-host .head-heatmap.head-4[data-view="head-scores"]';
  const heats = await page.$$eval(`${head4} td.cell[data-matrix="head-scores"]`, (cells) =>
    cells.map((cell) => cell.style.getPropertyValue('--heat')),
  );
  assert.ok(heats.length > 0 && heats.every((heat) => Number(heat) === 0), heats.join());
  const legend = await page.$eval(`${head4} .heat-legend`, (el) => ({
    flat: el.classList.contains('is-flat'),
    text: el.textContent,
  }));
  assert.deepEqual(legend, { flat: true, text: 'every score is 0' });
  // With GQA, head 2's third query weighs keys 1, 3 and 4 alike: all three are named.
  await page.goto(`${web.url}#step=kv-sharing`);
  await waitForReady(page);
  await page.click('.scene-host label:has(input[data-kv="2"])');
  await page.waitForFunction(() => location.hash.includes('kv=2'));
  assert.match(await page.textContent('.explanation'), /head 2 loses its focus on token 2/);
  await page.goto(
    `${web.url}${(await page.evaluate(() => location.hash)).replace('kv-sharing', 'heads-attention')}`,
  );
  await waitForReady(page);
  const strongest = await page.textContent('.head-card-strongest[data-head="1"]');
  assert.match(strongest, /q₃→k₁, k₃, k₄ 0\.319/);
  await page.goto(`${web.url}#step=decode-2`);
  await waitForReady(page);
  assert.match(await page.textContent('.explanation'), /A model is a stack of layers/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('layout: one row of K/V choices, ticks apart on a phone, the current step chip in view', async () => {
  const phone = await web.open({
    url: `${web.url}#step=kv-sharing`,
    viewport: { width: 390, height: 844 },
  });
  await waitForReady(phone.page);
  const tops = await phone.page.$$eval('.scene-host .kv-switch .segment-option', (all) =>
    all.map((option) => Math.round(option.getBoundingClientRect().top)),
  );
  assert.equal(new Set(tops).size, 1, `MHA, GQA and MQA on one row (${tops})`);
  const bytes = await phone.page.$eval('.scene-host select[data-size="bytes"]', (select) => ({
    width: select.getBoundingClientRect().width,
    needed: select.scrollWidth,
  }));
  assert.ok(bytes.width >= bytes.needed - 1, `the bytes menu shows its choice (${bytes.width})`);
  // The stage ticks on the phone's short timeline: no two overlap.
  const ticks = await phone.page.$$eval('.tick', (all) =>
    all.map((tick) => {
      const { left, right, top, bottom } = tick.getBoundingClientRect();
      return { left, right, top, bottom, text: tick.textContent };
    }),
  );
  for (let a = 0; a < ticks.length; a++)
    for (let b = a + 1; b < ticks.length; b++) {
      const [p, q] = [ticks[a], ticks[b]];
      const overlap =
        p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom && q.top < p.bottom;
      assert.ok(!overlap, `ticks ${p.text} and ${q.text} overlap`);
    }
  await phone.context.close();

  const laptop = await web.open({
    url: `${web.url}#step=result`,
    viewport: { width: 1366, height: 768 },
  });
  await waitForReady(laptop.page);
  // The row brings its chip into view when the browser reports where the chip lies, after the
  // first frame's layout (stage-list.mjs watchInRow): within a few frames of ready, not at it.
  const chipInView = () => {
    const button = document.querySelector('.step-list [aria-current="step"]');
    const row = button.closest('.step-list').getBoundingClientRect();
    const box = button.getBoundingClientRect();
    return box.left >= row.left - 0.5 && box.right <= row.right + 0.5;
  };
  const inView = await laptop.page
    .waitForFunction(chipInView, null, { timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  assert.ok(inView, 'the current step’s chip is in view in its row within 2 s of ready');
  // Stage 10's cards hold their matrices: no bracket on or past a card's border.
  await laptop.page.goto(`${web.url}#step=heads-attention`);
  await waitForReady(laptop.page);
  const overflows = await laptop.page.$$eval('.scene-host .head-card', (cards) =>
    cards.flatMap((card) => {
      const box = card.getBoundingClientRect();
      return [...card.querySelectorAll('.matrix')]
        .map((matrix) => matrix.getBoundingClientRect())
        .filter((inner) => inner.right > box.right - 1 || inner.left < box.left + 1)
        .map(() => card.dataset.head);
    }),
  );
  assert.deepEqual(overflows, [], 'matrices inside their cards');
  // The header and stage strip leave the scene on the first screen.
  const sceneTop = (await laptop.page.locator('.scene-host').boundingBox()).y;
  assert.ok(sceneTop < 768 * 0.66, `the scene starts at ${sceneTop} px`);
  assert.deepEqual(await collectProblems(laptop.page, laptop.problems), []);
  await laptop.context.close();
});

test('keyboard: each matrix in "Your numbers" is one Tab stop with arrows inside', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=inputs` });
  await waitForReady(page);
  const stops = await page.$$eval(
    '.workbench input, .workbench select, .workbench button',
    (all) => all.filter((el) => el.tabIndex >= 0 && !el.disabled && el.offsetParent).length,
  );
  assert.ok(stops < 60, `${stops} Tab stops in "Your numbers" (one per matrix, not per cell)`);
  const first = '.workbench [data-editor="x"] input[data-row="0"][data-col="0"]';
  await page.focus(first);
  await page.keyboard.press('ArrowRight'); // the whole number is selected on arrival
  assert.equal(
    await page.evaluate(() => document.activeElement.dataset.col),
    '1',
    '→ moves to the next entry',
  );
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.row), '1');
  // Tab leaves the matrix; Shift+Tab comes back to the entry last used.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(
    await page.evaluate(() => [
      document.activeElement.dataset.row,
      document.activeElement.dataset.col,
    ]),
    ['1', '1'],
  );
  assert.equal(await page.getAttribute('.workbench [data-editor="x"] table', 'role'), 'grid');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
