// <attention-explainer> attributes that name nothing, in headless Chromium: a chapter that
// does not exist (99, -1, 3abc) is refused in the element's own notice, naming the chapter
// and the chapters there are; it used to start silently at stage 1.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CHAPTERS } from '../../web/stages/index.mjs';
import { collectProblems, openPage, repositoryFixture } from './helpers.mjs';

// The repository's root is served, so that examples/embed/ finds ../../dist/.
const repo = repositoryFixture();

test('chapter="99", "-1" and "3abc" are refused by name in the element', async () => {
  const { page, problems, context } = await openPage(repo.browser, {
    url: `${repo.url}examples/embed/`,
  });
  const chapters = ['99', '-1', '3abc'];
  await page.evaluate((values) => {
    values.forEach((value, k) => {
      const element = document.createElement('attention-explainer');
      element.id = `bad-${k}`;
      element.setAttribute('chapter', value);
      document.querySelector('p.after').after(element);
    });
  }, chapters);
  for (const [k, value] of chapters.entries()) {
    await page.waitForFunction(
      (id) =>
        document.getElementById(id)?.shadowRoot?.querySelector('.app')?.dataset.appState ===
        'ready',
      `bad-${k}`,
      { timeout: 20_000 },
    );
    const notice = await page.textContent(`#bad-${k} >> [data-notice="url"]`);
    assert.ok(
      notice.includes(`there is no chapter “${value}” (the chapters are 1 to ${CHAPTERS.length})`),
      notice,
    );
  }
  // The example page has no icon: the browser's request for /favicon.ico is not a problem.
  const real = problems.filter((p) => !/favicon\.ico|status of 404/.test(p));
  assert.deepEqual(await collectProblems(page, real), []);
  await context.close();
});
