// The rounding, scaling and causal switches change the shown values as specified, and the
// values always equal trace() (or, for the article's rounding, the article's printout).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  nodeTrace,
  pageFixture,
  parseShown,
  sceneRow,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import { args as ARTICLE, rows, scaledOutputs, scaledWeights } from '../js/article.mjs';

const web = pageFixture();

/** Changes only the step in the hash (settings stay), as an edited link would. */
async function go(page, step) {
  await page.evaluate((id) => {
    location.hash = `step=${id}${location.hash.replace(/^#step=[^&]*/, '')}`;
  }, step);
  await waitForStep(page, step);
}

function assertNumbers(shown, expected, what, tolerance = 0.0005) {
  assert.equal(shown.length, expected.length, what);
  shown.forEach((text, k) => {
    const value = parseShown(text);
    const ok = value === expected[k] || Math.abs(value - expected[k]) <= tolerance;
    assert.ok(ok, `${what}[${k}]: shown ${text}, expected ${expected[k]}`);
  });
}

test('article rounding shows [0.0, 0.5, 0.5] and [2.0, 7.0, 1.5]; exact shows 0.063… and 1.937…', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=softmax-1`,
  });
  await waitForReady(page);
  assert.deepEqual(await sceneRow(page, 'weights', 0), ['0.063', '0.468', '0.468']);
  // Printed to three decimals they add up to 0.999, beside "always add up to 1": said to be rounding.
  assert.match(
    await page.textContent('.scene-host .stacked-caption'),
    /add up to 1\. The weights printed beside them add up to 0\.999 only because each is rounded/,
  );
  await page.click('.segment-option:has(input[value="article"])');
  assert.deepEqual(await sceneRow(page, 'weights', 0), ['0.0', '0.5', '0.5']);
  // The exact weights stay visible beside the article's, with the sentence on why they differ.
  const exact = await page.$$eval('.scene-host .role-exact td.cell', (cells) =>
    cells.map((c) => c.textContent),
  );
  assert.deepEqual(exact, ['0.063', '0.468', '0.468']);
  const note = await page.textContent('.note-rounding');
  assert.match(note, /\[0\.063, 0\.468, 0\.468\] becomes \[0\.0, 0\.5, 0\.5\]/);
  // How: plain rounding would give 0.1 for 0.063 (a sum of 1.1); the article cuts to tenths
  // and gives the missing tenths to the weights the cut took the most from.
  assert.match(
    note,
    /Plain rounding would not: it turns \[0\.063, 0\.468, 0\.468\] into \[0\.1, 0\.5, 0\.5\], which add up to 1\.1/,
  );
  assert.match(note, /cuts each weight down to a tenth \(\[0\.0, 0\.4, 0\.4\]\)/);
  assert.match(
    await page.textContent('.scene-host .stacked-caption'),
    /^The shares always add up to 1\.$/,
  );
  assert.match(note, /from \[1\.937, 6\.683, 1\.595\] into \[2\.0, 7\.0, 1\.5\]/);
  assert.match(await page.textContent('.badges'), /Article’s rounding/);
  assert.match(await page.evaluate(() => location.hash), /rounding=article/);
  await screenshot(page, '30-softmax-article-rounding');
  await go(page, 'weighted-1');
  assert.deepEqual(await sceneRow(page, 'weighted', 0, '[data-query="0"]'), ['0.0', '0.0', '0.0']);
  assert.deepEqual(await sceneRow(page, 'weighted', 1, '[data-query="0"]'), ['1.0', '4.0', '0.0']);
  assert.deepEqual(await sceneRow(page, 'weighted', 2, '[data-query="0"]'), ['1.0', '3.0', '1.5']);
  await go(page, 'sum-1');
  assert.deepEqual(await sceneRow(page, 'outputs', 0), ['2.0', '7.0', '1.5']);
  await screenshot(page, '31-sum-article-rounding');
  await go(page, 'result');
  assert.deepEqual(await sceneRow(page, 'outputs', 1), ['2.0', '8.0', '0.0']);
  assert.deepEqual(await sceneRow(page, 'outputs', 2), ['2.0', '7.8', '0.3']);
  await page.click('.segment-option:has(input[value="exact"])');
  assert.deepEqual(await sceneRow(page, 'outputs', 0), ['1.937', '6.683', '1.595']);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('scaling by 1/√d_k changes scores, weights and outputs as in the Transformer', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=scores-1`,
  });
  await waitForReady(page);
  assert.deepEqual(await sceneRow(page, 'scores', 0), ['2', '4', '4']);
  await page.click('text=Scale scores by 1/√d_k');
  assertNumbers(
    await sceneRow(page, 'scores', 0),
    [2 / Math.sqrt(3), 4 / Math.sqrt(3), 4 / Math.sqrt(3)],
    'scaled scores',
  );
  assert.match(await page.textContent('.term-lines'), /÷ √3 = 1\.155/);
  await screenshot(page, '32-scores-scaled');
  await go(page, 'result');
  // The README's scaled values.
  const weights = rows(scaledWeights);
  const outputs = rows(scaledOutputs);
  for (let i = 0; i < 3; i++) {
    assertNumbers(await sceneRow(page, 'weights', i), weights[i], `scaled weights ${i}`);
    assertNumbers(await sceneRow(page, 'outputs', i), outputs[i], `scaled outputs ${i}`);
  }
  assert.match(await page.evaluate(() => location.hash), /scaled=1/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the causal mask hides later keys: −∞ scores, zero weights, outputs as trace() gives', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=scores-1`,
  });
  await waitForReady(page);
  await page.click('text=Causal mask');
  assert.deepEqual(await sceneRow(page, 'scores', 0), ['2', '−∞', '−∞']);
  assert.match(await page.textContent('.term-lines'), /masked: key 2 comes after query 1/);
  await screenshot(page, '33-scores-causal');
  await go(page, 'softmax-1');
  assert.deepEqual(await sceneRow(page, 'weights', 0), ['1', '0', '0']);
  await go(page, 'result');
  const trace = await nodeTrace({ ...ARTICLE, isCausal: true });
  for (let i = 0; i < 3; i++) {
    assertNumbers(
      await sceneRow(page, 'outputs', i),
      Array.from(trace.outputs.data.slice(i * 3, i * 3 + 3)),
      `causal output ${i}`,
    );
    assertNumbers(
      await sceneRow(page, 'weights', i),
      Array.from(trace.weights.data.slice(i * 3, i * 3 + 3)),
      `causal weights ${i}`,
    );
  }
  const masked = await page.$$eval(
    '.scene-host td.cell.is-masked[data-matrix="scores"]',
    (cells) => cells.length,
  );
  assert.equal(masked, 3, 'three hidden scores are hatched');
  await screenshot(page, '34-result-causal');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
