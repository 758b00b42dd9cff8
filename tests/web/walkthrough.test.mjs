// Walking every step with the keyboard shows the article's numbers (seed README): keys,
// values, queries row by row and as matrices, then scores, softmax, weighted values and the
// output for each of the three queries, and the whole result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  pageFixture,
  parseShown,
  sceneRow,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import * as article from '../js/article.mjs';
import { STEP_COUNT } from './walkthrough-shape.mjs';

// The article's results, one row per token (or query).
const ARTICLE = Object.fromEntries(
  ['keys', 'values', 'queries', 'scores', 'weights', 'outputs'].map((name) => [
    name,
    article.rows(article[name]),
  ]),
);

const EXPECTED_STEPS = [
  'inputs',
  'weights',
  ...['keys', 'values', 'queries'].flatMap((role) =>
    [1, 2, 3].map((i) => `${role}-row-${i}`).concat(`${role}-matrix`),
  ),
  ...[1, 2, 3].flatMap((i) => [`scores-${i}`, `softmax-${i}`, `weighted-${i}`, `sum-${i}`]),
  'result',
];

const web = pageFixture();

/** Shown numbers equal the expected ones to the 3 decimals the page prints. */
function assertClose(shown, expected, what) {
  assert.equal(shown.length, expected.length, `${what}: ${shown.length} numbers shown`);
  shown.forEach((text, k) => {
    const value = parseShown(text);
    assert.ok(
      Math.abs(value - expected[k]) <= 0.0005 + 1e-9,
      `${what}[${k}]: shown ${text}, expected ${expected[k]}`,
    );
  });
}

test('every step, in the article order, with the article numbers', async () => {
  const { page, context, problems } = await web.open({ url: web.url });
  await waitForReady(page);
  const screenshotsAt = {
    'keys-row-1': '10-keys-row-1',
    'queries-matrix': '11-queries-matrix',
    'scores-1': '12-scores-1',
    'softmax-1': '13-softmax-1',
    'weighted-1': '14-weighted-1',
    'sum-1': '15-sum-1',
    'sum-3': '16-sum-3',
    result: '17-result',
  };
  for (let k = 0; k < EXPECTED_STEPS.length; k++) {
    const id = EXPECTED_STEPS[k];
    if (k > 0) await page.keyboard.press('ArrowRight');
    await waitForStep(page, id);
    // Chapters 2 and 3 (their own numbers) follow the article's steps.
    assert.equal(await page.textContent('.step-counter'), `Step ${k + 1} of ${STEP_COUNT}`);
    assert.equal(await page.evaluate(() => location.hash), `#step=${id}`);
    const [scene, param] = id.split(/-(?=\d|row|matrix)/);
    if (id.includes('-row-')) {
      const role = id.split('-')[0];
      const i = Number(id.split('-').pop()) - 1;
      assertClose(await sceneRow(page, role, i), ARTICLE[role][i], `${id} ${role}[${i}]`);
    } else if (id.endsWith('-matrix')) {
      const role = id.split('-')[0];
      for (let i = 0; i < 3; i++)
        assertClose(await sceneRow(page, role, i), ARTICLE[role][i], `${id} row ${i}`);
    } else if (['scores', 'softmax', 'weighted', 'sum'].includes(scene)) {
      const i = Number(param) - 1;
      if (scene === 'scores')
        assertClose(await sceneRow(page, 'scores', i), ARTICLE.scores[i], `${id} scores`);
      if (scene === 'softmax')
        assertClose(await sceneRow(page, 'weights', i), ARTICLE.weights[i], `${id} weights`);
      if (scene === 'weighted') {
        for (let j = 0; j < 3; j++) {
          const expected = ARTICLE.values[j].map((v) => v * ARTICLE.weights[i][j]);
          assertClose(
            await sceneRow(page, 'weighted', j, `[data-query="${i}"]`),
            expected,
            `${id} weighted ${j}`,
          );
        }
      }
      if (scene === 'sum')
        assertClose(await sceneRow(page, 'outputs', i), ARTICLE.outputs[i], `${id} output`);
    } else if (id === 'result') {
      for (let i = 0; i < 3; i++) {
        assertClose(await sceneRow(page, 'scores', i), ARTICLE.scores[i], `result scores ${i}`);
        assertClose(await sceneRow(page, 'weights', i), ARTICLE.weights[i], `result weights ${i}`);
        assertClose(await sceneRow(page, 'outputs', i), ARTICLE.outputs[i], `result outputs ${i}`);
      }
    }
    if (screenshotsAt[id]) await screenshot(page, screenshotsAt[id]);
  }
  // The end of the article: Next leads on into chapter 2.
  assert.equal(await page.isDisabled('[data-action="next"]'), false);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the exact output of query 1 is the article’s [1.937, 6.683, 1.595], its weights [0.063, 0.468, 0.468]', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-1` });
  await waitForReady(page);
  assert.deepEqual(await sceneRow(page, 'outputs', 0), ['1.937', '6.683', '1.595']);
  await page.goto(`${web.url}#step=softmax-1`);
  await waitForStep(page, 'softmax-1');
  assert.deepEqual(await sceneRow(page, 'weights', 0), ['0.063', '0.468', '0.468']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the same numbers in the one-file page from disk, in Chinese', async () => {
  const { explainerFileUrl } = await import('./helpers.mjs');
  const { page, context, problems } = await web.open({ locale: 'zh-CN' });
  await page.goto(`${explainerFileUrl}#step=sum-2`);
  await waitForReady(page);
  assertClose(await sceneRow(page, 'outputs', 1), ARTICLE.outputs[1], 'file:// output 2');
  assert.equal(await page.textContent('.scene-title'), '输出2：加权值之和');
  await screenshot(page, '18-file-zh-sum-2');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
