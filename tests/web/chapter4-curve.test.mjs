// Chapter 4's loss curve as a learner reads it: the unigram and bigram lines' labels lie
// neither over each other nor over a held-out dot, on a laptop and a phone, in English and
// Chinese, for both texts' snapshots (the snapshot's dot sits on the plot's right edge, near
// the bigram line it beats). The labels' placement itself: chapter4-units.test.mjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectProblems, pageFixture, waitForReady } from './helpers.mjs';

const web = pageFixture();

const SCREENS = [
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const LANGUAGES = [
  { language: 'en', locale: 'en-US' },
  { language: 'zh', locale: 'zh-CN' },
];

/**
 * The curve's labels and dots as drawn on screen, once it shows the text's snapshot: its
 * baselines (not those of the text shown before, `before`) and the held-out dot it was scored at.
 */
async function curveBoxes(page, before) {
  await page.waitForFunction(
    (previous) => {
      const curve = document.querySelector('.scene-ch4-train .ch4-curve');
      const labels = [...(curve?.querySelectorAll('.baseline-label') ?? [])];
      const shown = labels.map((label) => label.textContent).join('|');
      return (
        shown !== previous &&
        labels.every((label) => label.textContent) &&
        curve.querySelector('.heldout-dot') !== null
      );
    },
    before,
    { timeout: 60_000 },
  );
  return page.$eval('.scene-ch4-train .ch4-curve', (curve) => {
    const box = (element) => {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    return {
      labels: [...curve.querySelectorAll('.baseline-label')].map((label) => ({
        text: label.textContent,
        ...box(label),
      })),
      dots: [...curve.querySelectorAll('.heldout-dot')].map(box),
      curve: box(curve),
    };
  });
}

const overlap = (a, b) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
// A label that touches a dot reads as one mark with it: at least this many pixels between.
const CLEAR = 2;
const widened = ({ left, top, right, bottom }) => ({
  left: left - CLEAR,
  top: top - CLEAR,
  right: right + CLEAR,
  bottom: bottom + CLEAR,
});

function assertApart({ labels, dots, curve }, where) {
  assert.equal(labels.length, 2, where);
  for (const label of labels) {
    assert.ok(label.text.length > 0, `${where}: a label without text`);
    for (const dot of dots)
      assert.ok(
        !overlap(label, widened(dot)),
        `${where}: '${label.text}' touches a held-out dot (${JSON.stringify({ label, dot })})`,
      );
    assert.ok(label.right <= curve.right + 0.5, `${where}: '${label.text}' runs past the curve`);
  }
  assert.ok(!overlap(labels[0], labels[1]), `${where}: the two labels overlap`);
}

describe("chapter 4's loss curve", () => {
  for (const { name, viewport } of SCREENS)
    for (const { language, locale } of LANGUAGES)
      test(`${name}, ${language}: the baselines' labels lie clear of the dots and each other`, async () => {
        const { page, context, problems } = await web.open({ viewport, locale });
        await page.goto(`${web.url}#step=lm-train`);
        await waitForReady(page);
        let shown = '';
        for (const text of ['tang', 'kjv']) {
          await page.selectOption('[data-control="ch4-text"]', text);
          const boxes = await curveBoxes(page, shown);
          shown = boxes.labels.map((label) => label.text).join('|');
          assertApart(boxes, `${name}, ${language}, ${text}`);
        }
        assert.deepEqual(await collectProblems(page, problems), []);
        await context.close();
      });
});
