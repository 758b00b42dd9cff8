// Every step renders for edge shapes (one token of dimension 1, eight tokens of dimension 8,
// d_v different from d_k) with every switch on, and its numbers are still trace()'s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  nodeTrace,
  pageFixture,
  parseShown,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import { layerDimsOf, layerExample } from '../../web/model/layer.mjs';
import { buildSteps } from '../../web/stages/index.mjs';

const web = pageFixture();

/** Deterministic small numbers with negatives and decimals. */
function matrix(rows, cols, salt) {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (((i * 7 + j * 3 + salt) % 11) - 5) / 4),
  );
}

const text = (m) => m.map((row) => row.join(',')).join(';');

const SHAPES = [
  { n: 1, dIn: 1, dK: 1, dV: 1, options: '' },
  { n: 2, dIn: 3, dK: 1, dV: 5, options: '&causal=1&rounding=article' },
  { n: 8, dIn: 8, dK: 8, dV: 8, options: '&scaled=1&causal=1' },
];

for (const { n, dIn, dK, dV, options } of SHAPES) {
  test(`every step renders for n=${n}, d_in=${dIn}, d_k=${dK}, d_v=${dV}${options}`, async () => {
    const example = {
      x: matrix(n, dIn, 1),
      wQuery: matrix(dIn, dK, 2),
      wKey: matrix(dIn, dK, 3),
      wValue: matrix(dIn, dV, 4),
    };
    const hash = `step=inputs${options}&x=${text(example.x)}&wq=${text(example.wQuery)}&wk=${text(example.wKey)}&wv=${text(example.wValue)}`;
    const { page, context, problems } = await web.open({ url: `${web.url}#${hash}` });
    await waitForReady(page);
    assert.equal(
      await page.$$eval('.notice', (notices) => notices.length),
      0,
      'the link is accepted',
    );
    const total = 2 + 3 * (n + 1) + 4 * n + 1;
    // Chapters 2 and 3 follow, with the steps the stage list gives these dims.
    const all = buildSteps({ n, dIn, dK, dV }, layerDimsOf(layerExample())).length;
    assert.ok(all > total);
    assert.equal(await page.textContent('.step-counter'), `Step 1 of ${all}`);
    for (let k = 1; k < total; k++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (count) => document.querySelector('.step-counter').textContent.startsWith(`Step ${count} `),
        k + 1,
      );
      const cells = await page.$$eval('.scene-host td.cell', (all) => all.length);
      assert.ok(cells > 0, `step ${k + 1} draws cells`);
    }
    await waitForStep(page, 'result');
    const trace = await nodeTrace({
      ...example,
      scale: options.includes('scaled') ? 1 / Math.sqrt(dK) : 1,
      isCausal: options.includes('causal'),
    });
    if (!options.includes('article')) {
      const shown = await page.$$eval('.scene-host td.cell[data-matrix="outputs"]', (all) =>
        all.map((c) => c.textContent),
      );
      shown.forEach((value, k) =>
        assert.ok(
          Math.abs(parseShown(value) - trace.outputs.data[k]) <= 0.0006,
          `output ${k}: ${value} vs ${trace.outputs.data[k]}`,
        ),
      );
    }
    if (n === 8) await screenshot(page, '60-result-8x8-scaled-causal');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}
