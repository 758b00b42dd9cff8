// What the walkthrough should show, and waiting until it does, in any engine: the article's
// 27 steps in order, the rows of numbers each step must show, and a poll of the scene.
import assert from 'node:assert/strict';

import * as article from '../js/article.mjs';
import { inPageLoadState, inPageScene, inPageStep } from './page.mjs';

const R = Object.fromEntries(
  ['keys', 'values', 'queries', 'scores', 'weights', 'outputs'].map((name) => [
    name,
    article.rows(article[name]),
  ]),
);

/** The step ids of the article's example, in order (the `step` of the URL hash). */
export const STEPS = [
  'inputs',
  'weights',
  ...['keys', 'values', 'queries'].flatMap((role) =>
    [1, 2, 3].map((i) => `${role}-row-${i}`).concat(`${role}-matrix`),
  ),
  ...[1, 2, 3].flatMap((i) => [`scores-${i}`, `softmax-${i}`, `weighted-${i}`, `sum-${i}`]),
  'result',
];

/** The rows of numbers step `id` must show for the article's example (exact values). */
export function expectedRows(id) {
  if (id === 'inputs') return article.x;
  if (id === 'weights') return [...article.wKey, ...article.wQuery, ...article.wValue];
  const [, role, row] = id.match(/^(keys|values|queries)-row-(\d)$/) ?? [];
  if (role) return [R[role][row - 1]];
  const [, matrixRole] = id.match(/^(keys|values|queries)-matrix$/) ?? [];
  if (matrixRole) return R[matrixRole];
  const [, stage, query] = id.match(/^(scores|softmax|weighted|sum)-(\d)$/) ?? [];
  const i = query - 1;
  if (stage === 'scores') return [R.scores[i]];
  if (stage === 'softmax') return [R.weights[i]];
  if (stage === 'weighted') return R.values.map((v, j) => v.map((x) => x * R.weights[i][j]));
  if (stage === 'sum') return [R.outputs[i]];
  if (id === 'result') return [...R.scores, ...R.weights, ...R.outputs];
  throw new Error(`no expected numbers for step ${id}`);
}

/** "−1.5" -> -1.5, "−∞" -> -Infinity, as the page prints numbers. */
export function parseShown(text) {
  const cleaned = text.trim().replace(/\u2212/g, '-');
  if (cleaned === '-∞') return -Infinity;
  if (cleaned === '∞') return Infinity;
  return cleaned === '' ? NaN : Number(cleaned);
}

/** A shown row equals an expected one to the 3 decimals the page prints. */
function rowMatches(shown, expected) {
  return (
    shown.length === expected.length &&
    shown.every((text, k) => {
      const value = parseShown(text);
      return value === expected[k] || Math.abs(value - expected[k]) <= 0.0005 + 1e-9;
    })
  );
}

/** Expected rows that the scene does not show. */
export function missingRows(scene, expected) {
  return expected.filter((row) => !scene.rows.some((shown) => rowMatches(shown, row)));
}

/**
 * Waits until the page is at `step` (hash) and its scene shows every row of `expected`:
 * numbers (compared to 3 decimals) or exact strings. Resolves to the scene.
 */
export async function waitForScene(page, step, expected, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let scene;
  let at;
  for (;;) {
    at = await page.evaluate(inPageStep).catch(() => null);
    scene = at === step ? await page.evaluate(inPageScene).catch(() => null) : null;
    const missing = scene
      ? expected.filter((row) =>
          typeof row[0] === 'string'
            ? !scene.rows.some((shown) => shown.join('|') === row.join('|'))
            : missingRows(scene, [row]).length > 0,
        )
      : expected;
    if (missing.length === 0) return scene;
    if (Date.now() > deadline) {
      assert.fail(
        `${page.engine}: at step ${at} (expected ${step}), missing rows ` +
          `${JSON.stringify(missing)}; shown ${JSON.stringify(scene?.rows)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the page has loaded (or failed to: then the test fails with what it says). */
export async function waitForReady(page, timeout = 20000) {
  const deadline = Date.now() + timeout;
  let state;
  for (;;) {
    state = await page.evaluate(inPageLoadState).catch(() => 'loading');
    if (state !== 'loading' || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(state, 'ready', `${page.engine}: the page did not load`);
}
