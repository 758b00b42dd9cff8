// What a learner hit on the page's screens, each kept fixed: the stage list never covers the
// numbers, the masked wording, an edit beside its effect, before/after for the switches, an
// unambiguous timeline, the keyboard, legibility, narration, the phone layout, glossary
// pop-ups, scenes never cut off on the left, and no stale status after Back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  nodeTrace,
  pageFixture,
  parseShown,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import { args as ARTICLE } from '../js/article.mjs';
import { STAGE_COUNT, STEP_COUNT, stepNumber } from './walkthrough-shape.mjs';

const web = pageFixture();

const editor = (name, row, col) =>
  `.workbench [data-editor="${name}"] input[data-row="${row}"][data-col="${col}"]`;

const overlaps = (a, b) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** An 8×8 example whose every number is 12.5: the widest scenes there are. */
function wideHash(step) {
  const matrix = Array.from({ length: 8 }, () => Array(8).fill('12.5').join(',')).join(';');
  return `step=${step}&x=${matrix}&wk=${matrix}&wq=${matrix}&wv=${matrix}`;
}

async function open(options) {
  const opened = await web.open(options);
  await waitForReady(opened.page);
  return opened;
}

test('the stage list never covers "Your numbers" (laptop sizes, stage-8 steps)', async () => {
  for (const [width, height] of [
    [1280, 800],
    [1280, 720],
    [1366, 768],
    [1024, 768],
    [1440, 900],
  ]) {
    for (const step of ['sum-3', 'result']) {
      const { page, context, problems } = await open({
        url: `${web.url}#step=${step}`,
        viewport: { width, height },
      });
      // Scroll through the page: at no point does the stage list lie over the workbench.
      const total = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y <= total; y += Math.round(height / 2)) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        const stages = await page.locator('.stages').boundingBox();
        const workbench = await page.locator('.workbench').boundingBox();
        assert.ok(!overlaps(stages, workbench), `${width}×${height} ${step} at y=${y}`);
      }
      // Randomise is clickable: the point at its centre is the button itself.
      const randomise = page.locator('.workbench .action-button:not(.is-secondary)');
      await randomise.scrollIntoViewIfNeeded();
      const hit = await randomise.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === button;
      });
      assert.ok(hit, `${width}×${height} ${step}: Randomise can be clicked`);
      // The current stage's last step ("The whole result") can be reached in the list.
      const last = page.locator('.stages .step-button').last();
      await last.scrollIntoViewIfNeeded();
      assert.ok(await last.isVisible(), `${width}×${height}: last step in the list`);
      if (step === 'result' && width === 1280 && height === 800)
        await screenshot(page, '60-laptop-1280x800-result');
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    }
  }
});

test('with the causal mask, the words say which keys are seen, and why one masks', async () => {
  const { page, context, problems } = await open({ url: `${web.url}#step=scores-2&causal=1` });
  const scores = await page.textContent('.explanation-text');
  assert.doesNotMatch(scores, /key \(orange\) of every input/);
  assert.doesNotMatch(scores, /That gives 3 scores/);
  assert.match(scores, /keys \(orange\) of inputs 1 to 2/);
  assert.match(scores, /2 scores for input 2.*the later key gets −∞/);
  assert.match(await page.textContent('.notes'), /Why mask: a model that writes text/);
  await page.goto(`${web.url}#step=sum-1&causal=1`);
  await waitForStep(page, 'sum-1');
  const sum = await page.textContent('.explanation-text');
  assert.doesNotMatch(sum, /mixes the values of all inputs/);
  assert.match(sum, /mixes the values of input 1 only/);
  // Chinese, too.
  await page.click('[data-language="zh"]');
  assert.match(await page.textContent('.explanation-text'), /只混合了输入1的值/);
  await page.click('[data-language="en"]');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('an edit and its effect are on screen together; own numbers are named; reset resets the switches', async () => {
  const { page, context, problems } = await open({
    url: `${web.url}#step=sum-1&scaled=1`,
    viewport: { width: 1280, height: 800 },
  });
  assert.equal(await page.locator('.badge-own').count(), 0);
  await page.fill(editor('x', 0, 1), '3');
  const cell = await page.locator(editor('x', 0, 1)).boundingBox();
  const output = await page
    .locator('.scene-host td.cell[data-matrix="outputs"]')
    .first()
    .boundingBox();
  for (const [what, box] of [
    ['the edited cell', cell],
    ['output 1 in the scene', output],
  ]) {
    assert.ok(
      box.y >= 0 && box.y + box.height <= 800 && box.x + box.width <= 1280,
      `${what} on screen`,
    );
  }
  await screenshot(page, '61-edit-beside-its-effect');
  assert.equal(await page.textContent('.badge-own'), 'Your own numbers');
  assert.match(await page.textContent('.workbench-own'), /your own numbers now/);
  // The article's rounding note is for the article's numbers only.
  await page.click('text=Article’s rounding');
  assert.equal(await page.locator('.note-rounding').count(), 0, 'no rounding note for own numbers');
  await page.click('text=Reset to the article’s example');
  assert.equal(await page.isChecked('.workbench .switch-input >> nth=0'), false, 'scaling off');
  assert.equal(await page.locator('.badge-own').count(), 0);
  assert.equal(await page.evaluate(() => location.hash), '#step=sum-1');
  // Scaled article numbers: the article said nothing about them either.
  await page.goto(`${web.url}#step=softmax-1&scaled=1&rounding=article`);
  await waitForStep(page, 'softmax-1');
  assert.equal(await page.locator('.note-rounding').count(), 0, 'no rounding note when scaled');
  await page.goto(`${web.url}#step=softmax-1&rounding=article`);
  await waitForStep(page, 'softmax-1');
  assert.equal(await page.locator('.note-rounding').count(), 1, 'the article’s own: the note');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('scaling and masking: before and after side by side, with why', async () => {
  const { page, context, problems } = await open({
    url: `${web.url}#step=softmax-2&scaled=1&causal=1`,
  });
  const rows = async (setting) =>
    page.$$eval(`.compare-table[data-compare="${setting}"] tbody tr`, (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
  const scaled = await nodeTrace({ ...ARTICLE, scale: 1 / Math.sqrt(3), isCausal: true });
  const unscaled = await nodeTrace({ ...ARTICLE, isCausal: true });
  const unmasked = await nodeTrace({ ...ARTICLE, scale: 1 / Math.sqrt(3) });
  const weightsOf = (t) => Array.from(t.weights.data.slice(3, 6));
  const close = (texts, values) =>
    texts.every((text, j) => Math.abs(parseShown(text) - values[j]) < 0.0006);
  const [withoutScale, withScale] = await rows('scaled');
  assert.ok(close(withoutScale, weightsOf(unscaled)), `without scaling ${withoutScale}`);
  assert.ok(close(withScale, weightsOf(scaled)), `with scaling ${withScale}`);
  const [withoutMask, withMask] = await rows('causal');
  assert.ok(close(withoutMask, weightsOf(unmasked)), `without the mask ${withoutMask}`);
  assert.ok(close(withMask, weightsOf(scaled)), `with the mask ${withMask}`);
  const notes = await page.textContent('.notes');
  assert.match(notes, /Why scale:/);
  assert.match(notes, /Why mask:/);
  await screenshot(page, '62-before-after');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the timeline: stage markers are not step numbers', async () => {
  const { page, context, problems } = await open({ url: `${web.url}#step=keys-row-2` });
  assert.equal(await page.textContent('.step-counter'), `Step 4 of ${STEP_COUNT}`);
  assert.equal(await page.textContent('.stage-counter'), `Stage 3 of ${STAGE_COUNT}`);
  assert.equal(await page.textContent('.ticks-legend'), 'Stages');
  const ticks = await page.$$eval('.tick', (els) =>
    els.map((el) => {
      const number = el.querySelector('.tick-number');
      const style = getComputedStyle(number);
      return [el.textContent, el.title, parseFloat(style.fontSize), style.borderRadius];
    }),
  );
  // One number per stage, in digits of 11 px or more (Unicode's circled ① drew them about
  // 8 px high), in a drawn ring.
  assert.deepEqual(
    ticks.map(([text]) => text),
    Array.from({ length: STAGE_COUNT }, (_, k) => String(k + 1)),
  );
  for (const [text, , size, radius] of ticks) {
    assert.ok(size >= 11, `mark ${text}: ${size} px`);
    assert.notEqual(radius, '0px', `mark ${text} is not circled`);
  }
  assert.equal(ticks[2][1], 'Stage 3: Keys, values, queries');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('keyboard: Space presses a focused button in every chapter, and plays with none; ← → step from the Speed menu; the skip link keeps the stage label in view', async () => {
  const { page, context, problems } = await open({
    url: `${web.url}#step=weights`,
    reducedMotion: 'no-preference',
  });
  const playing = () => page.getAttribute('.transport-button.is-play', 'aria-pressed');
  // Chapter 1: Space on Next steps on (it does not play); on Predict it opens the panel.
  await page.focus('.transport-button.is-next');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.body.dataset.step === 'keys-row-1');
  assert.equal(await playing(), 'false', 'Space pressed Next, and did not play');
  await page.focus('[data-tool="predict"]');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-tool="predict"]', 'aria-expanded'), 'true');
  assert.equal(await playing(), 'false', 'Space pressed Predict, and did not play');
  await page.focus('[data-tool="predict"]'); // the open panel took the focus to its answer
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-tool="predict"]', 'aria-expanded'), 'false');
  // From chapter 2: a stage of the stage list (chapter 1's first).
  await page.goto(`${web.url}#step=kv-sharing`);
  await waitForStep(page, 'kv-sharing');
  await page.focus('.stage-list button >> nth=0');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.body.dataset.step === 'inputs');
  assert.equal(await playing(), 'false', 'Space pressed the stage, and did not play');
  // With nothing focused, Space plays and pauses.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Space');
  assert.equal(await playing(), 'true');
  await page.keyboard.press('Space');
  assert.equal(await playing(), 'false');
  await page.goto(`${web.url}#step=weights`);
  await waitForStep(page, 'weights');
  await page.focus('select.speed');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.body.dataset.step === 'keys-row-1');
  assert.equal(await page.inputValue('select.speed'), '1', 'the speed did not change');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.body.dataset.step === 'weights');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue('select.speed'), '1.5', '↓ still changes the speed');
  // Skip link, from a page scrolled to the middle.
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(`${web.url}#step=result`);
  await page.reload(); // a fresh document: focus starts at the top
  await waitForReady(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.classList.contains('scene-title'));
  const label = await page.locator('.scene-stage').boundingBox();
  assert.ok(label.y >= 0, `the stage label is on screen (top ${label.y})`);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/** WCAG contrast of two colours given as [r, g, b] in 0..255. */
function contrast(a, b) {
  const luminance = ([r, g, bl]) => {
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(bl);
  };
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

test('legibility: highlighted digits, real subscripts, alike decimals, every share labelled', async () => {
  const { page, context, problems } = await open({
    url: `${web.url}#step=keys-row-1`,
    reducedMotion: 'no-preference',
  });
  // Mid-animation, the current cells of every role: dark digits with enough contrast.
  for (const step of ['keys-row-1', 'values-row-1', 'queries-row-1', 'keys-matrix', 'sum-1']) {
    await page.goto(`${web.url}#step=${step}`);
    await waitForReady(page);
    // Every cell of the scene drawn as the current one; colours as sRGB through a canvas.
    const colours = await page.$$eval('.scene-host td.cell', (cells) => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const context2d = canvas.getContext('2d', { willReadFrequently: true });
      const rgb = (colour) => {
        context2d.clearRect(0, 0, 1, 1);
        context2d.fillStyle = '#fff';
        context2d.fillRect(0, 0, 1, 1);
        context2d.fillStyle = colour;
        context2d.fillRect(0, 0, 1, 1);
        return [...context2d.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      return cells.map((cell) => {
        cell.classList.add('is-current');
        const style = getComputedStyle(cell);
        return [rgb(style.color), rgb(style.backgroundColor)];
      });
    });
    for (const [fg, bg] of colours)
      assert.ok(
        contrast(fg, bg) >= 4.5,
        `${step}: ${fg} on ${bg} (${contrast(fg, bg).toFixed(2)})`,
      );
  }
  // Softmax row labels: s and a with a real <sub>, not Unicode's tiny ⱼ.
  await page.goto(`${web.url}#step=softmax-1`);
  await waitForStep(page, 'softmax-1');
  const subs = await page.$$eval('.softmax-table th.row-label sub', (els) =>
    els.map((el) => el.textContent),
  );
  assert.deepEqual(subs, ['1j', '1j']);
  assert.equal(await page.locator('.scene-host :text("ⱼ")').count(), 0);
  // Query 2's addition: every row alike ("0.000" beside "1.761", never "0").
  await page.goto(`${web.url}#step=sum-3`);
  await waitForStep(page, 'sum-3');
  const rows = await page.$$eval('.sum-table tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td.cell')].map((td) => td.textContent)),
  );
  for (const row of rows) {
    const decimals = new Set(row.map((text) => (text.split('.')[1] ?? '').length));
    assert.equal(decimals.size, 1, `one number of decimals per row: ${row}`);
  }
  // Where exact integers (the values) meet rounded ones (2.000), the page says which is which.
  await page.goto(`${web.url}#step=weighted-2&causal=1`);
  await waitForStep(page, 'weighted-2');
  assert.match(
    await page.textContent('.explanation-text'),
    /three decimals is rounded for display/,
  );
  // The narrow slice of query 1's share bar still shows its k₁ label.
  await page.goto(`${web.url}#step=softmax-1`);
  await waitForStep(page, 'softmax-1');
  const label = page.locator('.segment').first().locator('.segment-label');
  assert.equal(await label.evaluate((el) => getComputedStyle(el).visibility), 'visible');
  const box = await label.boundingBox();
  assert.ok(box && box.width > 0, 'k₁ label laid out');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('screen reader narration follows the rounding switch and every edit', async () => {
  const { page, context, problems } = await open({ url: `${web.url}#step=softmax-1` });
  assert.match(
    await page.textContent('#narration'),
    /Weights of query 1 = \[0\.063, 0\.468, 0\.468\]/,
  );
  await page.click('text=Article’s rounding');
  assert.match(await page.textContent('#narration'), /Weights of query 1 = \[0\.0, 0\.5, 0\.5\]/);
  await page.click('.segment-option >> text=Exact');
  await page.fill(editor('x', 0, 0), '2');
  const spoken = await page.textContent('#narration');
  const softmax = `Step ${stepNumber('softmax-1')} of ${STEP_COUNT}`;
  assert.ok(
    spoken.startsWith(`${softmax}: Softmax of the scores of query 1. Weights of query 1 = `),
  );
  const trace = await nodeTrace({ ...ARTICLE, x: [[2, 0, 1, 0], ...ARTICLE.x.slice(1)] });
  const first = trace.weights.data[0].toFixed(3);
  assert.ok(spoken.includes(first), `${spoken} has the new weight ${first}`);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('phone (390×844): the walkthrough first, Previous/Next in reach, nothing pans sideways', async () => {
  const { page, context, problems } = await open({
    url: `${web.url}#step=inputs`,
    viewport: { width: 390, height: 844 },
    reducedMotion: 'reduce',
    hasTouch: true,
  });
  const sceneTop = (await page.locator('.scene-host').boundingBox()).y;
  assert.ok(sceneTop < 844 * 0.6, `the scene starts on the first screen (at ${sceneTop})`);
  await screenshot(page, '63-phone-first-screen');
  const steps = await page.evaluate(() => document.querySelectorAll('.tick').length);
  assert.equal(steps, STAGE_COUNT, 'a tick per stage of every chapter');
  for (let k = 0; k < STEP_COUNT; k++) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    const step = await page.getAttribute('body', 'data-step');
    assert.ok(width <= 390, `${step}: page is ${width} px wide`);
    // Previous/Next are on screen wherever the reader has scrolled in a long step.
    await page.evaluate(() =>
      window.scrollTo(0, document.querySelector('.scene-host').offsetTop + 200),
    );
    const next = await page.locator('.transport-button.is-next').boundingBox();
    assert.ok(next.y >= 0 && next.y + next.height <= 844, `${step}: Next on screen`);
    if (step === 'queries-row-1') {
      // × and = between stacked matrices sit centred above and below, not at a side.
      const equation = await page.locator('.scene-host .equation').boundingBox();
      for (const box of await page
        .locator('.scene-host .operator')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON())))
        assert.ok(
          Math.abs(box.x + box.width / 2 - (equation.x + equation.width / 2)) < 4,
          'operator centred',
        );
      await screenshot(page, '64-phone-projection');
    }
    if (k < 35) {
      await page.click('.transport-button.is-next');
      await page.waitForFunction((old) => document.body.dataset.step !== old, step);
    }
  }
  // A tapped cell's pop-up closes when Next is tapped.
  await page.goto(`${web.url}#step=scores-1`);
  await waitForStep(page, 'scores-1');
  await page.tap('.scene-host td.cell[data-matrix="scores"]');
  await page.waitForSelector('.cell-popover:not([hidden])');
  await page.tap('.transport-button.is-next');
  await page.waitForFunction(() => document.body.dataset.step === 'softmax-1');
  assert.equal(await page.isHidden('.cell-popover'), true);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('glossary pop-ups and the intuition for query, key and value, in English and Chinese', async () => {
  for (const [locale, intuition, definition] of [
    ['en-US', /a query is what a token is looking for/, /bell-shaped normal distribution/],
    ['zh-CN', /查询是一个词元想要找的东西/, /钟形正态分布/],
  ]) {
    const { page, context, problems } = await open({ url: `${web.url}#step=weights`, locale });
    assert.match(await page.textContent('.explanation-text'), intuition);
    const terms = await page.$$eval('.explanation .glossary-term', (els) =>
      els.map((el) => el.textContent),
    );
    assert.deepEqual(terms, ['Gaussian', 'Xavier']);
    await page.click('.explanation .glossary-term >> nth=0');
    const popup = page.locator('.glossary-popup:popover-open');
    assert.match(await popup.textContent(), definition);
    await screenshot(page, `65-glossary-${locale}`);
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.glossary-popup:popover-open').count(), 0);
    // The page's own jargon: WebAssembly on the page (and the block's words the footer names),
    // Transformer where scaling is; no developer word (trace()) in the footer a learner reads.
    const pageTerms = await page.$$eval(
      '.app-subtitle .glossary-term, .page-footer .glossary-term',
      (els) => els.map((el) => el.textContent),
    );
    assert.deepEqual(pageTerms, ['WebAssembly', 'softmax', 'LayerNorm', 'MLP']);
    assert.doesNotMatch(await page.textContent('.page-footer'), /trace\(\)/);
    await page.goto(`${web.url}#step=scores-1&scaled=1`);
    await waitForStep(page, 'scores-1');
    assert.ok(
      (
        await page.$$eval('.explanation .glossary-term', (els) => els.map((el) => el.textContent))
      ).includes('Transformer'),
    );
    await page.goto(`${web.url}#step=inputs`);
    await waitForStep(page, 'inputs');
    assert.deepEqual(
      await page.$$eval('.explanation .glossary-term', (els) => els.map((el) => el.textContent)),
      [locale === 'en-US' ? 'token embedding' : '词元嵌入'],
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('wide scenes are never cut off on the left: they scroll', async () => {
  for (const width of [1400, 390]) {
    const { page, context, problems } = await open({
      url: `${web.url}#${wideHash('keys-row-1')}`,
      viewport: { width, height: 900 },
    });
    for (const step of ['keys-row-1', 'scores-1', 'softmax-1', 'weighted-1', 'sum-1', 'result']) {
      await page.goto(`${web.url}#${wideHash(step)}`);
      await waitForStep(page, step);
      const { host, left } = await page.evaluate(() => {
        const hostElement = document.querySelector('.scene-host');
        const box = hostElement.getBoundingClientRect();
        const lefts = [...hostElement.querySelectorAll('.scene *')].map(
          (el) => el.getBoundingClientRect().left,
        );
        return { host: box.left, left: Math.min(...lefts) };
      });
      assert.ok(
        left >= host - 0.5,
        `${width} px, ${step}: content starts at ${left}, host at ${host}`,
      );
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('after Next, Randomise and Back, the status no longer says "Randomised"', async () => {
  const { page, context, problems } = await open({ url: `${web.url}#step=inputs` });
  await page.click('.transport-button.is-next');
  await waitForStep(page, 'weights');
  await page.click('text=Randomise');
  assert.match(await page.textContent('.workbench-status'), /Randomised/);
  await page.goBack();
  await waitForStep(page, 'inputs');
  assert.deepEqual(
    await page.$$eval(`.workbench [data-editor="x"] input`, (inputs) =>
      inputs.map((i) => Number(i.value)),
    ),
    ARTICLE.x.flat(),
  );
  assert.equal(await page.textContent('.workbench-status'), '');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a link carries exactly what the editor accepted, and a bidi override in it stays inert', async () => {
  const { page, context, problems } = await open({ url: `${web.url}#step=inputs` });
  const typed = ['0.012345679', '0.000123456', '1e-100', '5e-324'];
  for (const [k, text] of typed.entries()) await page.fill(editor('x', 0, k), text);
  await page.click('.transport-button.is-next');
  await waitForStep(page, 'weights');
  await page.reload();
  await waitForReady(page);
  assert.equal(await page.locator('.notice').count(), 0, 'the link was read back');
  for (const [k, text] of typed.entries())
    assert.equal(Number(await page.inputValue(editor('x', 0, k))), Number(text), text);
  await page.goBack();
  await waitForStep(page, 'inputs');
  assert.equal(Number(await page.inputValue(editor('x', 0, 3))), 5e-324);
  await page.goto(`${web.url}#step=%E2%80%AEtluser`);
  await waitForReady(page);
  const notice = await page.textContent('.notice-text');
  assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(notice), 'no bidi control in the notice');
  assert.match(notice, /“\?tluser” is not a step name/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the "Your own numbers" badge only where the stage shows the edited example; the panel says chapter 2 has its own inputs', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const zh = locale === 'zh-CN';
    const { page, context, problems } = await open({
      url: `${web.url}#step=sum-1`,
      viewport: { width: 1280, height: 800 },
      locale,
    });
    await page.fill(editor('x', 0, 1), '-2.5');
    await page.waitForSelector('.badge-own');
    // Chapter 2 starts from the article's tokens, chapter 3's block and training from their
    // own numbers: no badge there; chapter 3's learning step uses the edit.
    for (const [id, badge] of [
      ['heads-split', false],
      ['learn-target', true],
      ['block-norm', false],
      ['train', false],
    ]) {
      await page.evaluate(
        (s) => (location.hash = location.hash.replace(/step=[^&]*/, `step=${s}`)),
        id,
      );
      await page.waitForFunction((s) => document.body.dataset.step === s, id);
      assert.equal(await page.locator('.badge-own').count(), badge ? 1 : 0, `${locale} ${id}`);
    }
    const intro = await page.textContent('.workbench .panel-intro');
    assert.match(
      intro,
      zh ? /第二章从原文的词元出发/ : /Chapter 2 starts from the article’s tokens/,
      intro,
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});
