// <attention-explainer>: examples/embed/ puts two elements in a course page's prose under a
// strict policy. Each is its own explainer (its own step, language, settings), keys reach
// one only while the focus is inside it, its styles stay in its shadow root and the page's
// stay out, the page's title and URL are left alone, and its tools work inside it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { collectProblems, openPage, repositoryFixture, screenshot } from './helpers.mjs';
import { gifFrames, pngSize } from './files.mjs';

// The repository's root is served, so that examples/embed/ finds ../../dist/.
const repo = repositoryFixture();

/** Opens the example page and waits until both explainers are ready. */
async function openExample(options = {}) {
  const opened = await openPage(repo.browser, { url: `${repo.url}examples/embed/`, ...options });
  // The example page has no icon: the browser's request for /favicon.ico is not a problem.
  const problems = opened.problems;
  opened.problems = [];
  opened.realProblems = () => problems.filter((p) => !/favicon\.ico|status of 404/.test(p));
  await opened.page.waitForFunction(
    () =>
      [...document.querySelectorAll('attention-explainer')].every(
        (element) => element.shadowRoot?.querySelector('.app')?.dataset.appState === 'ready',
      ),
    null,
    { timeout: 20_000 },
  );
  return opened;
}

/** Each element's current step and whether it is drawn finished. */
const steps = (page) =>
  page.$$eval('attention-explainer', (elements) =>
    elements.map((element) => element.shadowRoot.querySelector('.app').dataset.step),
  );

async function waitForSteps(page, expected) {
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('attention-explainer')].every((element, k) => {
        const app = element.shadowRoot.querySelector('.app');
        return app.dataset.step === wanted[k] && app.dataset.settled === 'true';
      }),
    expected,
    { timeout: 10_000 },
  );
}

test('two explainers in one page step independently; keys only when focused', async () => {
  const { page, context, realProblems } = await openExample();
  const title = await page.title();
  assert.deepEqual(await steps(page), ['scores-1', 'softmax-2']);
  // Their attributes: the second is in Chinese with both switches on, the first in English.
  assert.match(await page.textContent('#scores >> .scene-title'), /Attention scores of query 1/);
  assert.match(await page.textContent('#softmax >> .scene-title'), /输入2/);
  assert.match(await page.textContent('#softmax >> .workbench'), /你的数字/);
  assert.equal(
    await page.isChecked('#softmax >> .workbench input[type="checkbox"] >> nth=0'),
    true,
  );
  // controls="minimal": no stage list or numbers; "full": both.
  assert.equal(await page.isVisible('#scores >> .workbench'), false);
  assert.equal(await page.isVisible('#softmax >> .workbench'), true);

  // Next in the first moves the first only.
  await page.click('#scores >> [data-action="next"]');
  await waitForSteps(page, ['softmax-1', 'softmax-2']);
  // Keys typed inside the second move the second only.
  await page.focus('#softmax >> .scene-title');
  await page.keyboard.press('ArrowRight');
  await waitForSteps(page, ['softmax-1', 'weighted-2']);
  // Keys typed with the focus on the page itself reach neither.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.waitForTimeout(300);
  assert.deepEqual(await steps(page), ['softmax-1', 'weighted-2']);
  // The page's own title and URL are the page's.
  assert.equal(await page.title(), title);
  assert.equal(await page.evaluate(() => location.hash), '');
  await screenshot(page, 'element-two-explainers');
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});

test('styles leak neither in nor out of the shadow roots', async () => {
  const { page, context, realProblems } = await openExample();
  const styles = await page.evaluate(() => {
    const inside = document.querySelector('#softmax').shadowRoot;
    const read = (element, ...names) => {
      const style = getComputedStyle(element);
      return Object.fromEntries(names.map((name) => [name, style[name]]));
    };
    return {
      // The course page styles every button, table cell and .app-title in red Comic Sans.
      button: read(inside.querySelector('[data-action="next"]'), 'fontFamily', 'color'),
      cell: read(inside.querySelector('td.cell'), 'fontFamily', 'borderTopStyle'),
      title: read(inside.querySelector('.app-title'), 'fontSize', 'color'),
      align: read(inside.querySelector('.explanation p'), 'textAlign'),
      // The explainer's own rules (p { margin: 0 }, html colours) must not reach the page.
      pageParagraph: read(document.querySelector('p.after'), 'marginBottom'),
      pageBody: read(document.body, 'backgroundColor', 'fontFamily'),
    };
  });
  assert.doesNotMatch(styles.button.fontFamily, /Comic/);
  assert.notEqual(styles.button.color, 'rgb(204, 0, 0)');
  assert.doesNotMatch(styles.cell.fontFamily, /Comic/);
  assert.notEqual(styles.cell.borderTopStyle, 'dotted');
  assert.notEqual(styles.title.fontSize, '11px');
  assert.equal(styles.align.textAlign, 'start');
  assert.equal(styles.pageParagraph.marginBottom, '18px');
  assert.equal(styles.pageBody.backgroundColor, 'rgb(251, 248, 241)');
  assert.match(styles.pageBody.fontFamily, /Georgia/);
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});

test('inside an element: Predict, and the PNG and GIF exports under the host page’s policy', async () => {
  const { page, context, realProblems } = await openExample();
  await page.click('#scores >> [data-tool="predict"]');
  assert.match(await page.textContent('#scores >> .exercise-prompt'), /s₁,₁/);
  await page.fill('#scores >> .exercise-input', '2');
  await page.press('#scores >> .exercise-input', 'Enter');
  assert.equal(await page.getAttribute('#scores >> .exercise', 'data-outcome'), 'right');
  // Typing a number did not step either explainer.
  await waitForSteps(page, ['scores-1', 'softmax-2']);
  // The cell inspector's pop-up opens inside the element, next to the cell.
  const cell = '#scores >> .scene-host td.cell[data-matrix="scores"][data-col="2"]';
  await page.hover(cell);
  const popover = '#scores >> .cell-popover';
  assert.match(await page.textContent(popover), /s₁,₃ = 1·2 \+ 0·3 \+ 2·1 = 4/);
  const [cellBox, popoverBox] = [
    await page.locator(cell).boundingBox(),
    await page.locator(popover).boundingBox(),
  ];
  assert.ok(Math.abs(popoverBox.y - (cellBox.y + cellBox.height)) < 40, 'just below the cell');

  await page.click('#softmax >> [data-tool="export"]');
  // Embedded, the share field offers the element's markup for this state.
  assert.equal(
    await page.inputValue('#softmax >> .share-link'),
    '<attention-explainer lang="zh" step="softmax-2" example="scaled=1&amp;causal=1"></attention-explainer>',
  );
  const save = async (format) => {
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.click(`#softmax >> [data-export="${format}"]`),
    ]);
    return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
  };
  const png = await save('png');
  assert.ok(pngSize(png.bytes).width > 300);
  // softmax-2 is in stage 8 (every other query): 2 queries × 4 steps and the result, 5
  // moments each.
  const gif = await save('gif');
  assert.equal(gif.name, 'self-attention-stage-8-zh.gif');
  assert.equal(gifFrames(gif.bytes).frames, 9 * 5);
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});

test('controls="none", autoplay and chapter, on an element added by a script', async () => {
  const { page, context, realProblems } = await openExample({ reducedMotion: 'no-preference' });
  await page.evaluate(() => {
    const element = document.createElement('attention-explainer');
    element.id = 'added';
    element.setAttribute('chapter', '1');
    element.setAttribute('controls', 'none');
    element.setAttribute('autoplay', '');
    document.querySelector('p.after').after(element);
  });
  const app = '#added >> .app';
  await page.waitForFunction(
    () => document.querySelector('#added').shadowRoot?.querySelector('.app')?.dataset.appState,
    null,
    { timeout: 20_000 },
  );
  // The scene only: no playback controls, tools, stage list or numbers.
  for (const part of ['.transport', '.tools-bar', '.stages', '.workbench', '.masthead'])
    assert.equal(await page.isVisible(`${app} ${part}`), false, `${part} hidden`);
  assert.equal(await page.isVisible(`${app} .scene-host`), true);
  // Chapter 1 starts at its first step, and autoplay moves on by itself.
  await page.waitForFunction(
    () =>
      document.querySelector('#added').shadowRoot.querySelector('.app').dataset.step !== 'inputs',
    null,
    { timeout: 15_000 },
  );
  // The others did not move.
  const others = await steps(page);
  assert.deepEqual(others.slice(0, 2), ['scores-1', 'softmax-2']);
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});

test('the example page on a phone, and in Chinese', async () => {
  const { page, context, realProblems } = await openExample({
    viewport: { width: 390, height: 844 },
    locale: 'zh-CN',
  });
  await page.$eval('#softmax', (element) => element.scrollIntoView());
  await screenshot(page, 'element-phone');
  // Nothing wider than the phone's screen.
  const widest = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(widest <= 390, `page is ${widest} px wide`);
  // Chapter 3's rows of 25 letters stay on one line, inside their box and each letter inside
  // its own, in an element narrower than the phone.
  await page.evaluate(() => {
    const element = document.createElement('attention-explainer');
    element.id = 'train';
    element.setAttribute('step', 'train');
    document.querySelector('p.after').after(element);
  });
  const rows = await page.waitForFunction(() => {
    const strips = document
      .querySelector('#train')
      .shadowRoot?.querySelectorAll('.task-rows .token-strip');
    if (!strips?.length) return null;
    return [...strips].map((strip) => {
      const tops = [...strip.children].map((token) =>
        Math.round(token.getBoundingClientRect().top),
      );
      // A letter wider than its box would spill into the next one.
      const spilled = [...strip.children].filter((token) => {
        const text = document.createRange();
        text.selectNodeContents(token);
        return text.getBoundingClientRect().width > token.clientWidth + 0.5;
      });
      // The scene's box scrolls sideways when a row is wider than it.
      const host = strip.closest('.scene-host');
      const overflow = Math.max(0, host.scrollWidth - host.clientWidth);
      return { lines: new Set(tops).size, spilled: spilled.length, overflow };
    });
  });
  assert.deepEqual(await rows.jsonValue(), Array(3).fill({ lines: 1, spilled: 0, overflow: 0 }));
  await page.$eval('#train', (element) => element.scrollIntoView());
  await screenshot(page, 'element-phone-chapter3');
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});

test('chapter="3": the element opens chapter 3 and trains under the course page’s policy', async () => {
  const { page, context, realProblems } = await openExample();
  await page.evaluate(() => {
    for (const [id, name, value] of [
      ['chapter3', 'chapter', '3'],
      ['training', 'step', 'train'],
    ]) {
      const element = document.createElement('attention-explainer');
      element.id = id;
      element.setAttribute(name, value);
      element.setAttribute('controls', 'minimal');
      document.querySelector('p.after').after(element);
    }
  });
  const app = (id) => `#${id} >> .app`;
  await page.waitForFunction(
    () =>
      ['chapter3', 'training'].every(
        (id) =>
          document.querySelector(`#${id}`).shadowRoot?.querySelector('.app')?.dataset.appState ===
          'ready',
      ),
    null,
    { timeout: 20_000 },
  );
  // Chapter 3 starts at its first step: the shuffled tokens, whose outputs are the same rows.
  assert.equal(await page.getAttribute(app('chapter3'), 'data-step'), 'order-shuffle');
  assert.match(
    await page.textContent(`${app('chapter3')} .scene-title`),
    /Shuffle the tokens: the outputs only move/,
  );
  // Train: the worker starts (from a blob: URL, which the page's worker-src allows), the
  // live text counts steps and the loss drops.
  const scene = `${app('training')} .scene-train`;
  await page.waitForSelector(`${scene}[data-worker="ready"]`, { timeout: 30_000 });
  await page.click(`${scene} .train-button`);
  await page.waitForFunction(
    () =>
      document.querySelector('#training').shadowRoot.querySelector('.scene-train').dataset.dropStep,
    null,
    { timeout: 60_000 },
  );
  assert.match(
    (await page.textContent(`${scene} .train-status`)).trim(),
    /^step \d+ · loss \d\.\d{3}$/,
  );
  await page.click(`${scene} .train-button`); // Pause
  assert.equal(
    await page.$$eval(`${scene} .train-head[data-filled="true"]`, (all) => all.length),
    8,
  );
  // The other explainers did not move.
  assert.deepEqual((await steps(page)).slice(0, 2), ['scores-1', 'softmax-2']);
  await page.$eval('#training', (element) => element.scrollIntoView());
  await screenshot(page, 'element-chapter3-training');
  assert.deepEqual(await collectProblems(page, realProblems()), []);
  await context.close();
});
