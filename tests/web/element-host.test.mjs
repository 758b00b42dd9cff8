// <attention-explainer> on host pages that are not left-to-right, horizontal text: an RTL
// page (<html dir="rtl">) and a vertical-text page (writing-mode: vertical-rl). The element
// is the same explainer there: rows of a matrix read left to right, and it keeps its width.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openPage, repositoryFixture, screenshot } from './helpers.mjs';

const repo = repositoryFixture();

/** examples/embed/ with the host page changed before its elements start. */
async function openHost(change) {
  const opened = await openPage(repo.browser, { viewport: { width: 1366, height: 900 } });
  await opened.page.addInitScript(change);
  await opened.page.goto(`${repo.url}examples/embed/`);
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

/** Query 1's row as drawn in the first element: each cell's text and its left edge. */
const queryRow = (page) =>
  page.$eval('#scores', (element) =>
    [...element.shadowRoot.querySelectorAll('.scene-host td.cell[data-matrix="queries"]')].map(
      (cell) => ({ text: cell.textContent, left: cell.getBoundingClientRect().left }),
    ),
  );

test('on an RTL host page the matrices still read left to right', async () => {
  const { page, context } = await openHost(() =>
    document.addEventListener('DOMContentLoaded', () => {
      document.documentElement.dir = 'rtl';
    }),
  );
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).direction), 'rtl');
  const row = await queryRow(page);
  assert.deepEqual(
    row.map((cell) => cell.text),
    ['1', '0', '2'],
  );
  for (let k = 1; k < row.length; k++)
    assert.ok(row[k].left > row[k - 1].left, `q₁'s entry ${k + 1} is right of entry ${k}`);
  // The shapes read rows × columns: "1×3" is not turned into "3×1" by the bidi algorithm.
  const direction = await page.$eval(
    '#scores',
    (element) => getComputedStyle(element.shadowRoot.querySelector('.matrix-shape')).direction,
  );
  assert.equal(direction, 'ltr');
  await screenshot(page, 'element-rtl-host');
  await context.close();
});

test('on a vertical-text host page the element keeps its width', async () => {
  const { page, context } = await openHost(() =>
    document.addEventListener('DOMContentLoaded', () => {
      document.body.style.writingMode = 'vertical-rl';
    }),
  );
  const sizes = await page.$$eval('attention-explainer', (elements) =>
    elements.map((element) => element.getBoundingClientRect().width),
  );
  for (const width of sizes) assert.ok(width >= 320, `the element is ${width} px wide`);
  const row = await queryRow(page);
  for (let k = 1; k < row.length; k++) assert.ok(row[k].left > row[k - 1].left);
  await screenshot(page, 'element-vertical-host');
  await context.close();
});
