// What a figure draws, at every step of every chapter: on a laptop (1366×768) and a phone
// (390×844), in English and Chinese, each step at its end (reduced motion). A figure (a
// matrix, a heatmap, a chart, a canvas) draws its whole extent: the union of its own box and
// every descendant's, text included, so content that spills out of its box counts. No
// figure's extent may lie over another figure's or over the scene's text; no box the scene
// draws (a card with a border all round) may have a figure spill past its edge; nothing the
// scene holds may be cut off by a box that clips or scrolls (the scene itself too: at these
// sizes every scene fits its panel). Chapter 2's head cards once drew each head's scores
// and weights over each other and over the card's words, at every laptop width; no test
// looked at what a figure drew over.
//
// One browser page per size and language; the geometry is measured inside the page, one
// evaluate per step.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';
import { STEPS } from './walkthrough-shape.mjs';
import { chapterOf } from '../../web/stages/index.mjs';

const web = pageFixture();

/**
 * Chapter 4's steps drawn with the model's numbers (the snapshot it opens with: the
 * embedding, h and the logits, every head, the samples, a text written), not before.
 */
const MODEL_DRAWN = {
  'lm-chars': '.scene-ch4-chars[data-embed-step]',
  'lm-next': '.scene-ch4-next[data-h-size][data-ready="true"]',
  'lm-train': '.scene-ch4-train .ch4-sample',
  'lm-heads': '.scene-ch4-heads[data-ready="true"]',
  'lm-switch': '.scene-ch4-switch[data-off]',
  'lm-write': '.scene-ch4-write[data-written]',
};

async function waitForModel(page, id) {
  if (id === 'lm-write') await page.click('[data-control="ch4-write"]');
  await page.waitForSelector(MODEL_DRAWN[id], { state: 'attached', timeout: 60_000 });
}

const SIZES = [
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true },
];
const LANGUAGES = [
  { language: 'en', locale: 'en-US' },
  { language: 'zh', locale: 'zh-CN' },
];

/**
 * Runs in the page: what the scene draws over what, and what it cuts off. Returns a list of
 * sentences, empty when the scene is clean. Boxes touching (1 px) do not count.
 */
function layoutProblems() {
  const SLACK = 1;
  const host = document.querySelector('.scene-host');
  const shown = (element) =>
    element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const boxesOf = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!node.data.trim() || !shown(node.parentElement)) return [];
      const range = document.createRange();
      range.selectNodeContents(node);
      return [...range.getClientRects()];
    }
    if (!shown(node)) return [];
    return [node.getBoundingClientRect()];
  };
  const area = (r) => r.width > 0 && r.height > 0;
  const overlap = (a, b) =>
    a.left < b.right - SLACK &&
    b.left < a.right - SLACK &&
    a.top < b.bottom - SLACK &&
    b.top < a.bottom - SLACK;
  /** The union of a figure's box and its descendants' boxes, text included. */
  const extentOf = (element) => {
    const walker = document.createTreeWalker(
      element,
      NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
    );
    let extent = null;
    for (let node = element; node; node = walker.nextNode()) {
      for (const r of boxesOf(node).filter(area)) {
        extent = extent
          ? {
              left: Math.min(extent.left, r.left),
              top: Math.min(extent.top, r.top),
              right: Math.max(extent.right, r.right),
              bottom: Math.max(extent.bottom, r.bottom),
            }
          : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }
    }
    return extent;
  };
  const name = (element) => {
    const caption = element.querySelector(':scope > figcaption')?.textContent.trim();
    const classes = [...element.classList].slice(0, 3).join('.');
    const head = element.dataset.head ? `[head ${Number(element.dataset.head) + 1}]` : '';
    const label = caption ?? element.getAttribute('aria-label') ?? '';
    return `${element.localName}${classes ? `.${classes}` : ''}${head}${label ? ` “${label.slice(0, 40)}”` : ''}`;
  };
  const size = (e) => `${Math.round(e.right - e.left)}×${Math.round(e.bottom - e.top)}`;

  const problems = [];
  const figures = [...host.querySelectorAll('figure, svg, canvas, table')]
    .filter((element) => !element.closest('svg') || element.localName === 'svg')
    .filter((element) => !element.parentElement.closest('svg'))
    .map((element) => ({ element, extent: extentOf(element) }))
    .filter((figure) => figure.extent);
  for (let a = 0; a < figures.length; a++) {
    for (let b = a + 1; b < figures.length; b++) {
      const [f, g] = [figures[a], figures[b]];
      if (f.element.contains(g.element) || g.element.contains(f.element)) continue;
      if (overlap(f.extent, g.extent))
        problems.push(
          `${name(f.element)} (${size(f.extent)}) overlaps ${name(g.element)} (${size(g.extent)})`,
        );
    }
  }
  // The scene's words: every text node, each figure tested against the words not its own.
  const texts = [];
  const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (const r of boxesOf(node).filter(area)) texts.push({ node, r });
  for (const { element, extent } of figures) {
    const over = texts.filter(({ node, r }) => !element.contains(node) && overlap(extent, r));
    if (over.length)
      problems.push(
        `${name(element)} (${size(extent)}) lies over the text “${over
          .slice(0, 3)
          .map(({ node }) => node.data.trim().slice(0, 30))
          .join('”, “')}”${over.length > 3 ? ` and ${over.length - 3} more` : ''}`,
      );
  }
  // A box with a border all round (a card, a group) holds its figures inside it.
  for (const box of [host, ...host.querySelectorAll('*')]) {
    if (!shown(box) || box.closest('svg')) continue;
    const style = getComputedStyle(box);
    // Cut off: a box that clips or scrolls, with more inside than it shows.
    const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
    const cutX = box.scrollWidth - box.clientWidth;
    const cutY = box.scrollHeight - box.clientHeight;
    if (clips && (cutX > SLACK || cutY > SLACK))
      problems.push(
        `${name(box)} cuts off ${cutX > SLACK ? `${cutX} px of width` : ''}${cutX > SLACK && cutY > SLACK ? ' and ' : ''}${cutY > SLACK ? `${cutY} px of height` : ''}`,
      );
    const framed = ['Top', 'Right', 'Bottom', 'Left'].every(
      (side) =>
        style[`border${side}Style`] !== 'none' && parseFloat(style[`border${side}Width`]) > 0,
    );
    // (A box that clips or scrolls was judged above: what passes its edge is cut off.)
    if (clips || !framed || box.localName === 'td' || box.localName === 'th') continue;
    const edge = box.getBoundingClientRect();
    for (const { element, extent } of figures) {
      if (!box.contains(element) || element === box) continue;
      const past = Math.max(
        edge.left - extent.left,
        extent.right - edge.right,
        edge.top - extent.top,
        extent.bottom - edge.bottom,
      );
      if (past > SLACK)
        problems.push(`${name(element)} spills ${Math.round(past)} px past ${name(box)}'s edge`);
    }
  }
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > window.innerWidth)
    problems.push(`the page is ${pageWidth} px wide on a ${window.innerWidth} px screen`);
  return problems;
}

// The head cards broke at every laptop width the learner tried: chapter 2 at three more.
test('chapter 2 at 1024, 1440 and 1920 px wide, en and zh: the head cards hold their maps', async () => {
  const found = [];
  for (const width of [1024, 1440, 1920]) {
    for (const { locale } of LANGUAGES) {
      const { page, context, problems } = await web.open({
        viewport: { width, height: 900 },
        locale,
      });
      for (const { id } of STEPS.filter((step) => chapterOf(step.stage) === 2)) {
        await page.goto(`${web.url}#step=${id}`);
        await waitForReady(page);
        await waitForStep(page, id);
        for (const problem of await page.evaluate(layoutProblems))
          found.push(`${width} ${locale} ${id}: ${problem}`);
      }
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    }
  }
  assert.deepEqual(found, [], `${found.length} problems:\n${found.join('\n')}`);
});

for (const { name, viewport, hasTouch } of SIZES) {
  for (const { language, locale } of LANGUAGES) {
    test(`${name} ${viewport.width}×${viewport.height}, ${language}: no figure draws over another, over the words, or past its card, at every step`, async () => {
      const { page, context, problems } = await web.open({ viewport, hasTouch, locale });
      await page.goto(`${web.url}#step=${STEPS[0].id}`);
      await waitForReady(page);
      assert.equal(await page.evaluate(() => document.documentElement.lang.slice(0, 2)), language);
      const found = [];
      for (const { id } of STEPS) {
        await page.goto(`${web.url}#step=${id}`);
        await waitForStep(page, id);
        if (id === 'train')
          await page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
        if (MODEL_DRAWN[id]) await waitForModel(page, id);
        for (const problem of await page.evaluate(layoutProblems)) found.push(`${id}: ${problem}`);
      }
      assert.deepEqual(found, [], `${found.length} problems:\n${found.join('\n')}`);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
  }
}
