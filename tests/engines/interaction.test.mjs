// In Firefox and in WebKit: what a user changes is recomputed. An edited input gives the output
// trace() gives for it (and the link keeps it); the article's rounding, the 1/√d_k scaling and
// the causal mask change the shown numbers as they do in Chromium.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { nodeTrace } from '../web/helpers.mjs';
import { args as ARTICLE, rows, scaledOutputs, scaledWeights } from '../js/article.mjs';
import { ENGINES, engineFixture } from './engines.mjs';
import { EDITOR_CELL, WORDS, findControl, inPageIsOn, inPageSetStep } from './page.mjs';
import { expectedRows, waitForReady, waitForScene } from './scene.mjs';

/** The rows of a trace() matrix. */
const traceRows = ({ rows: n, cols, data }) =>
  Array.from({ length: n }, (_, i) => Array.from(data.slice(i * cols, (i + 1) * cols)));

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);

    /** A page at `hash`, loaded; `body(page)` runs; no problem may be logged; closed. */
    async function withPage(hash, body) {
      const page = await web.open();
      try {
        await page.goto(`${web.url}#${hash}`);
        await waitForReady(page);
        await body(page);
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    }

    async function go(page, step, expected) {
      await page.evaluate(inPageSetStep, step);
      return waitForScene(page, step, expected);
    }

    test('an edited input recomputes the output through wasm; its link shows it elsewhere', async () => {
      const x = ARTICLE.x.map((row) => row.slice());
      x[0][1] = 3;
      const trace = await nodeTrace({ ...ARTICLE, x });
      const outputs = traceRows(trace.outputs);
      assert.ok(Math.abs(outputs[0][1] - 6.683) > 0.01, 'the edit changes output 1');
      let link;
      await withPage('step=sum-1', async (page) => {
        await waitForScene(page, 'sum-1', expectedRows('sum-1'));
        // x[0][1] from 0 to 3, typed over the cell's number.
        await page.click(findControl, { role: 'textbox', name: EDITOR_CELL(WORDS.inputs, 1, 2) });
        await page.press('a', { modifiers: ['Control'] });
        await page.type('3');
        await waitForScene(page, 'sum-1', [outputs[0]]);
        await page.waitFor(() => location.hash.includes('x=1,3,1,0;0,2,0,2;1,1,1,1'), null, {
          what: 'the link to carry the edited input',
        });
        link = await page.evaluate(() => location.href.replace('sum-1', 'result'));
      });
      // The link, opened in a new window (in WebKit a new browser process), shows the edited
      // numbers at every later stage: it carries the example.
      await withPage(new URL(link).hash.slice(1), async (page) => {
        await waitForScene(page, 'result', [
          ...traceRows(trace.scores),
          ...traceRows(trace.weights),
          ...outputs,
        ]);
      });
    });

    test('the article’s rounding: [0.0, 0.5, 0.5] and [2.0, 7.0, 1.5]; exact again', async () => {
      await withPage('step=softmax-1', async (page) => {
        await waitForScene(page, 'softmax-1', [['0.063', '0.468', '0.468']]);
        await page.click(findControl, { role: 'radio', name: WORDS.articleRounding });
        await waitForScene(page, 'softmax-1', [['0.0', '0.5', '0.5']]);
        assert.equal(
          await page.evaluate(inPageIsOn, { role: 'radio', name: WORDS.articleRounding }),
          true,
        );
        assert.match(await page.evaluate(() => location.hash), /rounding=article/);
        await go(page, 'sum-1', [['2.0', '7.0', '1.5']]);
        await go(page, 'result', [
          ['2.0', '7.0', '1.5'],
          ['2.0', '8.0', '0.0'],
          ['2.0', '7.8', '0.3'],
        ]);
        await page.click(findControl, { role: 'radio', name: WORDS.exact });
        await waitForScene(page, 'result', [['1.937', '6.683', '1.595']]);
        assert.doesNotMatch(await page.evaluate(() => location.hash), /rounding/);
      });
    });

    test('scaling by 1/√d_k: scores ÷ √3 and the Transformer’s weights and outputs', async () => {
      await withPage('step=scores-1', async (page) => {
        await waitForScene(page, 'scores-1', [['2', '4', '4']]);
        await page.click(findControl, { role: 'switch', name: WORDS.scaling });
        await waitForScene(page, 'scores-1', [[2, 4, 4].map((s) => s / Math.sqrt(3))]);
        assert.equal(
          await page.evaluate(inPageIsOn, { role: 'switch', name: WORDS.scaling }),
          true,
        );
        assert.match(await page.evaluate(() => location.hash), /scaled=1/);
        await go(page, 'result', [...rows(scaledWeights), ...rows(scaledOutputs)]);
        await page.click(findControl, { role: 'switch', name: WORDS.scaling });
        await waitForScene(page, 'result', expectedRows('result'));
      });
    });

    test('the causal mask: −∞ scores for later keys, outputs as trace() gives', async () => {
      await withPage('step=scores-1', async (page) => {
        await page.click(findControl, { role: 'switch', name: WORDS.causal });
        await waitForScene(page, 'scores-1', [['2', '−∞', '−∞']]);
        assert.match(await page.evaluate(() => location.hash), /causal=1/);
        await go(page, 'softmax-1', [[1, 0, 0]]);
        const trace = await nodeTrace({ ...ARTICLE, isCausal: true });
        await go(page, 'result', [...traceRows(trace.weights), ...traceRows(trace.outputs)]);
      });
    });
  });
}
