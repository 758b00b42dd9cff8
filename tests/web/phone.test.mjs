// A phone (390×844, a touch screen), as a learner found it: the control bar at the bottom took
// a fifth of the screen, the stage marks under the timeline were 9 px numbers (too small to
// read or tap), the stage list showed one name and a half, stage 13 had to be swiped sideways
// with no cue, and the page said "hover" where there is no hover. Each is checked as a user
// would notice it, in English and Chinese.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, screenshot, waitForReady, waitForStep } from './helpers.mjs';
import { STAGE_COUNT, chapterSteps } from './walkthrough-shape.mjs';

const web = pageFixture();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

/** Every stage's mark under the timeline is its own target of 24×24 px or more, none on another. */
async function checkMarkTargets(page, where) {
  const boxes = await page.$$eval('.tick, .ticks-legend', (all) =>
    all
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const { left, right, top, bottom, width, height } = el.getBoundingClientRect();
        const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
        const number = el.querySelector('.tick-number');
        return {
          fontSize: number ? parseFloat(getComputedStyle(number).fontSize) : null,
          digits: number?.textContent,
          name: el.dataset.stage ? `mark ${el.dataset.stage}` : 'legend',
          button: el.tagName === 'BUTTON',
          hitsItself: hit === el || el.contains(hit),
          ...{ left, right, top, bottom, width, height },
        };
      }),
  );
  const marks = boxes.filter((box) => box.name !== 'legend');
  assert.equal(marks.length, STAGE_COUNT, `${where}: a mark per stage`);
  // Readable numbers: the stage's digits at 11 px or more.
  for (const box of marks) {
    assert.match(box.digits ?? '', /^\d+$/, `${where}: ${box.name} shows its number in digits`);
    assert.ok(box.fontSize >= 11, `${where}: ${box.name}'s number is ${box.fontSize} px`);
  }
  for (const box of boxes) {
    assert.ok(box.button, `${where}: ${box.name} is a button`);
    assert.ok(
      box.width >= 24 && box.height >= 24,
      `${where}: ${box.name} is ${box.width}×${box.height}`,
    );
    assert.ok(
      box.left >= 0 && box.right <= (await page.viewportSize()).width,
      `${where}: ${box.name} on screen`,
    );
    assert.ok(box.hitsItself, `${where}: a tap on ${box.name}'s middle reaches it`);
  }
  for (let a = 0; a < boxes.length; a++)
    for (let b = a + 1; b < boxes.length; b++) {
      const [p, q] = [boxes[a], boxes[b]];
      const overlap =
        p.left < q.right - 0.5 &&
        q.left < p.right - 0.5 &&
        p.top < q.bottom - 0.5 &&
        q.top < p.bottom - 0.5;
      assert.ok(!overlap, `${where}: ${p.name} and ${q.name} overlap`);
    }
}

for (const locale of ['en-US', 'zh-CN']) {
  const zh = locale === 'zh-CN';
  test(`phone, ${locale}: a compact control bar, a stage list with every name, marks a finger can use`, async () => {
    const { page, context, problems } = await web.open({ ...PHONE, locale });
    await page.goto(`${web.url}#step=decode-4`);
    await waitForReady(page);
    await waitForStep(page, 'decode-4');
    // The control bar: at most an eighth of the screen, its buttons 24 px or more.
    const bar = await page.$eval('.transport', (el) => {
      const box = el.getBoundingClientRect();
      return {
        height: box.height,
        bottom: box.bottom,
        buttons: [...el.querySelectorAll('button')]
          .filter((b) => b.checkVisibility())
          .map((b) => {
            const r = b.getBoundingClientRect();
            return { name: b.className, width: r.width, height: r.height };
          }),
      };
    });
    assert.ok(bar.height <= 844 / 8, `the control bar is ${Math.round(bar.height)} px tall`);
    assert.ok(Math.abs(bar.bottom - 844) <= 1, 'the bar stays at the bottom of the screen');
    for (const button of bar.buttons)
      assert.ok(
        button.width >= 24 && button.height >= 24,
        `${button.name}: ${button.width}×${button.height}`,
      );
    // Each stage's mark is a target of its own, 24 px or more, on the screen, apart from the
    // others (on a laptop, from the legend that opens the stage list); a tap on one goes to it.
    await checkMarkTargets(page, 'phone');
    // No keys to press on a touch screen: the keyboard's hint is not shown.
    assert.equal(await page.isVisible('.keys-hint'), false, 'the keyboard hint on a phone');
    await page.tap('.tick[data-stage="4"]');
    await waitForStep(page, 'scores-1');
    await page.tap('.tick[data-stage="13"]');
    await waitForStep(page, 'decode-1');
    await page.goto(`${web.url}#step=decode-4`);
    await waitForStep(page, 'decode-4');
    // Closed, the stage list names the current stage.
    assert.equal(
      await page.textContent('.stages-toggle'),
      zh
        ? `第13阶段，共${STAGE_COUNT}个阶段：带 KV 缓存的解码`
        : `Stage 13 of ${STAGE_COUNT}: Decoding with a KV cache`,
    );
    await page.tap('.stages-toggle');
    await page.waitForSelector('.stages.is-open');
    // Open: every stage's name on screen (scrolling the list), each a target of 24 px or more.
    const stages = await page.$$eval('.stages .stage-button', (buttons) =>
      buttons.map((b) => {
        b.scrollIntoView({ block: 'nearest' });
        const r = b.getBoundingClientRect();
        const name = b.querySelector('.stage-name');
        const n = name.getBoundingClientRect();
        return {
          height: r.height,
          nameWidth: n.width,
          nameHeight: n.height,
          name: name.textContent,
        };
      }),
    );
    assert.equal(stages.length, STAGE_COUNT);
    for (const stage of stages) {
      assert.ok(stage.height >= 24, `${stage.name}: ${stage.height} px tall`);
      assert.ok(stage.nameWidth > 20 && stage.nameHeight > 10, `${stage.name} is not shown`);
    }
    await screenshot(page, `phone-stage-list-${locale}`);
    // Escape closes it (a phone with a keyboard), focus back on its button; a tap opens it again.
    await page.focus('.stages .stage-button[data-stage="13"]');
    await page.keyboard.press('Escape');
    assert.equal(await page.$('.stages.is-open'), null, 'Escape closed the list');
    assert.equal(await page.getAttribute('.stages-toggle', 'aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'stages-toggle');
    await page.tap('.stages-toggle');
    await page.waitForSelector('.stages.is-open');
    // A tap on a stage goes there and closes the list.
    await page.tap('.stages .stage-button[data-stage="10"]');
    await waitForStep(page, 'heads-attention');
    assert.equal(await page.$('.stages.is-open'), null);
    // Where the page says "hover", a touch screen reads "tap", and a tap shows the arithmetic.
    const explanation = await page.textContent('.explanation');
    assert.match(explanation, zh ? /轻点一个格子/ : /tap a cell/);
    assert.doesNotMatch(explanation, zh ? /悬停/ : /hover/i);
    await page.tap('.scene-host td.cell[data-matrix="head-weights"][data-row="3"][data-col="3"]');
    await page.waitForSelector('.cell-popover:not([hidden])');
    assert.match(await page.textContent('.cell-popover'), /0\.776/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}

test('the stage marks at 1366×768, en and zh: each its own target, a click goes to its stage', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({
      viewport: { width: 1366, height: 768 },
      locale,
    });
    await page.goto(`${web.url}#step=weights`);
    await waitForReady(page);
    await checkMarkTargets(page, `1366 ${locale}`);
    await page.click('.tick[data-stage="12"]');
    await waitForStep(page, 'kv-sharing');
    await page.click('.tick[data-stage="1"]');
    await waitForStep(page, 'inputs');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('phone: stage 13 fits the screen at every token, nothing to swipe sideways', async () => {
  const { page, context, problems } = await web.open(PHONE);
  const decoding = chapterSteps(2).filter((id) => id.startsWith('decode-'));
  assert.equal(decoding.length, 4);
  for (const id of decoding) {
    await page.goto(`${web.url}#step=${id}`);
    await waitForReady(page);
    await waitForStep(page, id);
    const host = await page.$eval('.scene-host', (el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
    }));
    assert.ok(host.scroll <= host.client, `${id}: ${host.scroll - host.client} px to swipe`);
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/**
 * How close the digits of the scene's head-coloured cells come to their cell: the least room
 * (px) between the digits' ink and the cell's coloured band above them, and between the
 * digits and the cell's left and right borders (the ink's top from the font's measured ascent).
 */
function headCellRoom(page) {
  return page.evaluate(() => {
    const measure = document.createElement('canvas').getContext('2d');
    const room = { cells: 0, top: Infinity, left: Infinity, right: Infinity };
    for (const cell of document.querySelectorAll('.scene-host td.cell[class*="head-"]')) {
      const value = cell.querySelector('.cell-value');
      if (!value?.textContent.trim()) continue;
      const style = getComputedStyle(cell);
      measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const metrics = measure.measureText(value.textContent);
      const range = document.createRange();
      range.selectNodeContents(value);
      const text = range.getBoundingClientRect();
      const box = cell.getBoundingClientRect();
      const band = Number.parseFloat(style.boxShadow.match(/0px (\d+(?:\.\d+)?)px 0px/)[1]);
      const inkTop = text.top + metrics.fontBoundingBoxAscent - metrics.actualBoundingBoxAscent;
      room.cells++;
      room.top = Math.min(
        room.top,
        inkTop - (box.top + Number.parseFloat(style.borderTopWidth) + band),
      );
      room.left = Math.min(
        room.left,
        text.left - box.left - Number.parseFloat(style.borderLeftWidth),
      );
      room.right = Math.min(
        room.right,
        box.right - Number.parseFloat(style.borderRightWidth) - text.right,
      );
    }
    return room;
  });
}

test('phone: chapter 2’s three-decimal numbers clear their cell’s coloured band and sides', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({ ...PHONE, locale });
    for (const id of ['heads-split', 'heads-concat', 'output-projection']) {
      await page.goto(`${web.url}#step=${id}`);
      await waitForReady(page);
      await waitForStep(page, id);
      const room = await headCellRoom(page);
      const where = `${locale} ${id}`;
      assert.ok(room.cells >= 8, `${where}: ${room.cells} head cells`);
      assert.ok(room.top >= 2, `${where}: digits ${room.top.toFixed(1)} px below the band`);
      assert.ok(room.left >= 2 && room.right >= 2, `${where}: ${room.left} / ${room.right} px`);
      const host = await page.$eval('.scene-host', (el) => el.scrollWidth - el.clientWidth);
      assert.ok(host <= 0, `${where}: ${host} px to swipe`);
    }
    await screenshot(page, `phone-heads-concat-${locale}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('phone: "All numbers as tables", opened, keeps the page as wide as the screen', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({ ...PHONE, locale });
    for (const id of ['scores-1', 'heads-split']) {
      await page.goto(`${web.url}#step=${id}`);
      await waitForReady(page);
      await waitForStep(page, id);
      await page.click('.tables-summary');
      await page.waitForSelector('.tables-grid .matrix');
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        tables: document.querySelector('.tables-grid').getBoundingClientRect().right,
      }));
      assert.ok(widths.page <= 390, `${locale} ${id}: the page is ${widths.page} px wide`);
      assert.ok(widths.tables <= 390, `${locale} ${id}: the tables end at ${widths.tables} px`);
      await page.click('.tables-summary'); // closed again for the next step
    }
    // The stage marks are named for screen readers in the page's language, its own colon too.
    const mark = await page.getAttribute('.tick[data-stage="1"]', 'aria-label');
    assert.match(mark, locale === 'zh-CN' ? /^第1阶段：\S/ : /^Stage 1: \S/);
    await page.$eval('.tables-panel', (el) => {
      el.open = true;
      el.scrollIntoView();
    });
    await screenshot(page, `phone-tables-open-${locale}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('phone: after an edit, the "Your own numbers" badge sits below the step’s title, not beside it', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({ ...PHONE, locale });
    await page.goto(`${web.url}#step=sum-1`);
    await waitForReady(page);
    await waitForStep(page, 'sum-1');
    await page.fill('.workbench [data-editor="x"] input[data-row="0"][data-col="1"]', '3');
    await page.waitForFunction(() => document.querySelector('.badge-own')?.checkVisibility());
    const shown = await page.evaluate(() => {
      const box = (selector) => document.querySelector(selector).getBoundingClientRect();
      const [header, title, badges] = ['.scene-header', '.scene-title', '.badges'].map(box);
      return { header, title, badges, text: document.querySelector('.badges').textContent };
    });
    assert.match(shown.text, locale === 'zh-CN' ? /你自己的数字/ : /Your own numbers/);
    // The title keeps the header's whole width: the badge took a column of it before.
    assert.ok(
      shown.title.width >= shown.header.width - 1,
      `${locale}: the title is ${shown.title.width} of ${shown.header.width} px wide`,
    );
    assert.ok(shown.badges.top >= shown.title.bottom, `${locale}: the badge is below the title`);
    assert.ok(shown.badges.right <= shown.header.right + 0.5, `${locale}: the badge fits`);
    await page.$eval('.scene-header', (el) => el.scrollIntoView());
    await screenshot(page, `phone-own-numbers-badge-${locale}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('phone: a scene wider than the screen (a reader’s 8×8 numbers) says it scrolls sideways', async () => {
  const { page, context, problems } = await web.open(PHONE);
  const matrix = Array.from({ length: 8 }, () => Array(8).fill('12.5').join(',')).join(';');
  const cue = () =>
    page.$eval('.scroll-cue', (el) => ({ shown: !el.hidden, text: el.textContent }));
  const overflow = () => page.$eval('.scene-host', (el) => el.scrollWidth - el.clientWidth);
  await page.goto(`${web.url}#step=keys-matrix&x=${matrix}&wk=${matrix}&wq=${matrix}&wv=${matrix}`);
  await waitForReady(page);
  await waitForStep(page, 'keys-matrix');
  assert.ok((await overflow()) > 0);
  await page.waitForFunction(() => !document.querySelector('.scroll-cue').hidden);
  assert.match((await cue()).text, /swipe it sideways/);
  await screenshot(page, 'phone-scroll-cue');
  // The article's 3×4 fits: no cue.
  await page.goto(`${web.url}#step=keys-matrix`);
  await waitForStep(page, 'keys-matrix');
  await page.waitForFunction(() => document.querySelector('.scroll-cue').hidden);
  assert.equal(await overflow(), 0);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/** Whether two boxes ({ left, right, top, bottom }) share any area. */
const overlap = (a, b) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const boxOf = (el) => {
  const { left, right, top, bottom } = el.getBoundingClientRect();
  return { left, right, top, bottom };
};

test('phone zh: a glossary pop-up opens beside its term, a cell’s pop-up above the controls', async () => {
  const { page, context, problems } = await web.open({ ...PHONE, locale: 'zh-CN' });
  await page.goto(`${web.url}#step=softmax-1`);
  await waitForReady(page);
  await waitForStep(page, 'softmax-1');
  // The term in the middle of the screen: a pop-up centred there covered its paragraph.
  const term = page.locator('.explanation .glossary-term[data-term="softmax"]');
  await term.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await term.tap();
  const popup = page.locator('.glossary-popup:popover-open');
  await popup.waitFor();
  const sentence = term.locator('xpath=ancestor::p[1]');
  const [termBox, popupBox] = [await sentence.evaluate(boxOf), await popup.evaluate(boxOf)];
  assert.ok(
    !overlap(termBox, popupBox),
    `paragraph ${JSON.stringify(termBox)}, pop-up ${JSON.stringify(popupBox)}`,
  );
  await screenshot(page, 'phone-zh-glossary');
  await page.keyboard.press('Escape');

  // Stage 10's head cards, a cell of the last one just above the control bar (stuck to the bottom of the screen): its pop-up goes
  // over the cell, not onto Play and Next.
  await page.goto(`${web.url}#step=heads-attention`);
  await waitForStep(page, 'heads-attention');
  const cell = page.locator('.scene-host .is-inspectable td.cell').last();
  await cell.evaluate((el) => {
    const bar = document.querySelector('.transport').getBoundingClientRect();
    window.scrollBy(0, el.getBoundingClientRect().bottom - (bar.top - 6));
  });
  await cell.tap();
  const inspector = page.locator('.cell-popover:not([hidden])');
  await inspector.waitFor();
  const bar = await page.locator('.transport').evaluate(boxOf);
  const shown = await inspector.evaluate(boxOf);
  assert.ok(
    !overlap(shown, bar),
    `pop-up ${JSON.stringify(shown)}, controls ${JSON.stringify(bar)}`,
  );
  assert.ok(!overlap(shown, await cell.evaluate(boxOf)), 'the pop-up leaves its cell in view');
  await screenshot(page, 'phone-zh-cell-popup');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('phone zh: the cost table’s column headers stay whole words, each on one line', async () => {
  const { page, context, problems } = await web.open({ ...PHONE, locale: 'zh-CN' });
  await page.goto(`${web.url}#step=decode-4`);
  await waitForReady(page);
  await waitForStep(page, 'decode-4');
  const headers = await page.$$eval('.count-table thead th', (all) =>
    all.map((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { text: th.textContent, lines: lines.size };
    }),
  );
  assert.deepEqual(
    headers.map((x) => x.text),
    ['用缓存', '重算前缀'],
  );
  for (const { text, lines } of headers) assert.equal(lines, 1, `“${text}” is on ${lines} lines`);
  await page.locator('.count-table').scrollIntoViewIfNeeded();
  await screenshot(page, 'phone-zh-count-table');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/** The characters on the last line of the step's title (its text's own line boxes). */
const lastTitleLine = () => {
  const title = document.querySelector('.scene-title');
  const text = title.textContent;
  const range = document.createRange();
  const tops = [];
  const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let k = 0; k < node.length; k++) {
      range.setStart(node, k);
      range.setEnd(node, k + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0) tops.push({ top: Math.round(box.top), char: node.data[k] });
    }
  const last = Math.max(...tops.map(({ top }) => top));
  return {
    text,
    lines: new Set(tops.map(({ top }) => top)).size,
    last: tops
      .filter((c) => c.top === last)
      .map((c) => c.char)
      .join(''),
  };
};

test('phone zh and en: chapter 4’s step titles leave no character alone on their last line', async () => {
  for (const locale of ['zh-CN', 'en-US']) {
    const { page, context, problems } = await web.open({
      viewport: { width: 390, height: 844 },
      locale,
      hasTouch: true,
    });
    await page.goto(`${web.url}#step=lm-chars`);
    await waitForReady(page);
    for (const id of ['lm-chars', 'lm-next', 'lm-train', 'lm-heads', 'lm-switch', 'lm-write']) {
      await page.evaluate((step) => (location.hash = `step=${step}`), id);
      await waitForStep(page, id);
      const { text, lines, last } = await page.evaluate(lastTitleLine);
      if (lines > 1)
        assert.ok(last.trim().length >= 2, `${locale} ${id}: “${text}” ends with “${last}” alone`);
    }
    if (locale === 'zh-CN') {
      await page.evaluate(() => (location.hash = 'step=lm-next'));
      await waitForStep(page, 'lm-next');
      await screenshot(page, 'phone-zh-lm-next-title');
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});
