// <attention-explainer> as apps and course pages use it over time: taken out of the page it
// stops its training worker (a course page's tabs or an app's routes left one more worker
// training at each visit), moved within the page it keeps it; and its base-url attribute
// finds the package's files when the element's module is served somewhere else.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { openPage, repositoryFixture } from './helpers.mjs';

const repo = repositoryFixture();
const TRAIN = '.scene-train';

/** Adds <attention-explainer id step="train" ...attributes> after the page's first paragraph. */
async function addTrainer(page, id, attributes = {}) {
  await page.evaluate(
    ([elementId, more]) => {
      const element = document.createElement('attention-explainer');
      element.id = elementId;
      element.setAttribute('step', 'train');
      element.setAttribute('controls', 'minimal');
      for (const [name, value] of Object.entries(more)) element.setAttribute(name, value);
      document.querySelector('p').after(element);
    },
    [id, attributes],
  );
  await page.waitForSelector(`#${id} >> ${TRAIN}[data-worker="ready"]`, { timeout: 30_000 });
}

/** Presses Train and waits until the live text counts steps. */
async function train(page, id) {
  await page.click(`#${id} >> ${TRAIN} .train-button`);
  await page.waitForFunction(
    (elementId) =>
      /^step [1-9]/.test(
        document.querySelector(`#${elementId}`).shadowRoot.querySelector('.train-status')
          ?.textContent ?? '',
      ),
    id,
    { timeout: 30_000 },
  );
}

/** Waits up to 5 s for the page's Workers to number `count`; returns how many there are. */
async function workersSettleAt(page, count) {
  for (let i = 0; i < 50 && page.workers().length !== count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return page.workers().length;
}

test('removed, an explainer ends its training worker; moved, it trains on', async () => {
  const { page, context } = await openPage(repo.browser, { url: `${repo.url}examples/embed/` });
  try {
    const before = page.workers().length;
    await addTrainer(page, 'moved');
    await train(page, 'moved');
    // Moved within the page (out and back in at once): the same worker, still training.
    const stepAt = () =>
      page.$eval('#moved', (element) => element.shadowRoot.querySelector('.train-status').textContent);
    await page.evaluate(() => document.body.append(document.querySelector('#moved')));
    const movedAt = await stepAt();
    await page.waitForFunction(
      (text) => document.querySelector('#moved').shadowRoot.querySelector('.train-status').textContent !== text,
      movedAt,
      { timeout: 10_000 },
    );
    assert.equal(await workersSettleAt(page, before + 1), before + 1);
    // Removed: its worker ends.
    await page.evaluate(() => document.querySelector('#moved').remove());
    assert.equal(await workersSettleAt(page, before), before, 'the removed explainer’s worker runs on');
    // Put back, it starts anew and trains again.
    await page.evaluate(() => {
      const element = document.createElement('attention-explainer');
      element.id = 'back';
      element.setAttribute('step', 'train');
      document.querySelector('p').after(element);
    });
    await page.waitForSelector(`#back >> ${TRAIN}[data-worker="ready"]`, { timeout: 30_000 });
    await train(page, 'back');
  } finally {
    await context.close();
  }
}); // prettier-ignore

test('base-url: the element served alone elsewhere finds the module and the worker there', async () => {
  const { page, context, problems } = await openPage(repo.browser, {
    url: `${repo.url}tests/js/fixtures/empty.html`,
  });
  try {
    // The element's module alone at /elsewhere/, no attention.mjs or train-worker.mjs beside it.
    const element = await readFile(new URL('../../dist/attention-explainer.mjs', import.meta.url));
    await page.route('**/elsewhere/attention-explainer.mjs', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: element }),
    );
    await page.evaluate(async () => {
      await import('/elsewhere/attention-explainer.mjs');
      document.body.append(document.createElement('p'));
    });
    await addTrainer(page, 'based', { 'base-url': '/dist/' });
    await train(page, 'based');
    assert.equal(
      await page.$eval('#based', (explainer) => explainer.baseUrl),
      '/dist/',
      'the baseUrl property reflects the attribute',
    );
    assert.deepEqual(
      problems.filter((problem) => !/favicon\.ico/.test(problem)),
      [],
    );
  } finally {
    await context.close();
  }
});
