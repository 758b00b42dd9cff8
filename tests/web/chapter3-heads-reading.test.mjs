// Chapter 3 says what the model did, every time (web/model/head-reading.mjs): one reader of
// "which head does what" serves the train stage's heatmaps, its heatmaps' file and the
// heads-learned stage, so they name the same heads; every heatmap has its letters along both
// edges and a one-line reading; and the heads-learned stage says only what the weights show:
// a model with one layer, or without positions, is told to have no induction head instead of
// being "explained" by one. The models are trained here, in Node, and opened from their links.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { INDUCTION_BATCH, createInductionTask } from '../../src/js/tasks/induction-task.mjs';
import { encodeParametersLink } from '../../web/model/parameters-link.mjs';
import { TRAINING_DEFAULTS, modelConfig } from '../../web/model/training.mjs';
import { collectProblems, distDir, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();

/** A model of these switches trained for `steps` steps in Node, as a page link's text. */
async function trainedLink(attn, settings, steps) {
  const model = attn.createTinyTransformer(modelConfig(settings));
  const task = createInductionTask(settings.seed);
  for (let s = 0; s < steps; s++) {
    const { tokens, targets } = task.batch(INDUCTION_BATCH);
    model.trainStep({ tokens, targets, batch: INDUCTION_BATCH });
  }
  const parameters = model.parameters();
  model.free();
  return encodeParametersLink({ settings, step: steps, parameters });
}

const links = {};
before(async () => {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  // The default model has its induction head by step 600 (its loss drops near step 364).
  links.twoLayers = await trainedLink(attn, TRAINING_DEFAULTS, 600);
  links.oneLayer = await trainedLink(attn, { ...TRAINING_DEFAULTS, layers: 1 }, 300);
  links.noPositions = await trainedLink(attn, { ...TRAINING_DEFAULTS, positions: 'none' }, 300);
});

async function open(hash, locale = 'en-US') {
  const opened = await web.open({ url: `${web.url}#${hash}`, locale });
  await waitForReady(opened.page);
  return opened;
}

/** Every heatmap of the train stage: its name, what it reads as, and its edges' letters. */
const trainHeads = (page) =>
  page.$$eval('.scene-train .train-heads .train-head', (all) =>
    all.map((figure) => ({
      name: figure.querySelector('.head-name').textContent,
      kind: figure.dataset.kind,
      reading: figure.querySelector('.head-reading').textContent,
      keys: figure.querySelectorAll('.heatmap-keys span').length,
      queries: figure.querySelectorAll('.heatmap-queries span').length,
    })),
  );

describe('one reader of which head does what', () => {
  test('the train stage, its file and the heads-learned stage name the same heads', async () => {
    const { page, context, problems } = await open(`step=train&trained=${links.twoLayers}`);
    await page.waitForSelector('.scene-train .train-head[data-filled="true"]', {
      timeout: 60_000,
    });
    const heads = await trainHeads(page);
    assert.equal(heads.length, 8);
    for (const head of heads) {
      // The held-out row's 25 tokens along the top (keys) and the left side (queries).
      assert.equal(head.keys, 25, head.name);
      assert.equal(head.queries, 25, head.name);
      assert.ok(head.reading.length > 10, `${head.name} has a reading: "${head.reading}"`);
    }
    const kindOf = Object.fromEntries(heads.map((x) => [x.name, x.kind]));
    assert.ok(heads.some((x) => x.kind === 'previous' && x.name.startsWith('Layer 1')));
    assert.ok(heads.some((x) => x.kind === 'induction' && x.name.startsWith('Layer 2')));
    // The heatmaps' CSV: what each head reads as, the same as on the page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.scene-train [data-heatmap-export="csv"]'),
    ]);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    assert.equal(lines[0], 'layer,head,query,key,query_token,key_token,weight,head_reads');
    for (const line of lines.slice(1)) {
      const [layer, head, , , , , , reads] = line.split(',');
      assert.equal(reads, kindOf[`Layer ${layer} · head ${head}`], line);
    }
    await screenshot(page, 'ch3-heads-reading-train');

    // The next stage: the heads it features are the ones the train stage named.
    await page.click('[data-action="next"]');
    await page.waitForSelector('.scene-heads-learned[data-ready="true"]', { timeout: 60_000 });
    const featured = await page.$$eval('.learned-head', (all) =>
      all.map((x) => ({ title: x.querySelector('h3').textContent, kind: x.dataset.kind })),
    );
    assert.deepEqual(
      featured.map((x) => x.kind),
      ['previous', 'induction'],
    );
    for (const { title, kind } of featured) {
      const name = title.split(' · ').slice(0, 2).join(' · ');
      assert.equal(kindOf[name], kind, `${title}: the train stage reads ${name} as ${kind}`);
    }
    // Under each featured heatmap, the share its sentence gives (on this sequence): one number.
    const said = await page.$$eval('.learned-head', (all) =>
      all.map((x) => [
        x.querySelector('p').textContent,
        x.querySelector('.head-reading').textContent,
      ]),
    );
    for (const [sentence, caption] of said) {
      const share = sentence.match(/\d\.\d+/)[0];
      assert.match(caption, new RegExp(`: ${share.replace('.', '\\.')} of its weight`), caption);
    }
    // Every head on the typed sequence, under the same reading.
    const every = await page.$$eval('.learned-every .train-head', (all) =>
      all.map((x) => [x.querySelector('.head-name').textContent, x.dataset.kind]),
    );
    assert.deepEqual(Object.fromEntries(every), kindOf);
    // The prediction names the featured induction head, and what it really looks at.
    const prediction = await page.textContent('.heads-prediction');
    const induction = featured[1].title.match(/Layer (\d) · head (\d)/);
    assert.match(
      prediction,
      new RegExp(`Its induction head, layer ${induction[1]}’s head ${induction[2]}, looks`),
    );
    assert.match(prediction, /the token after the earlier C/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  for (const [name, settings] of [
    ['oneLayer', 'one layer'],
    ['noPositions', 'no positions'],
  ]) {
    test(`a model with ${settings} is told to have no induction head, in en and zh`, async () => {
      const { page, context, problems } = await open(`step=heads-learned&trained=${links[name]}`);
      await page.waitForSelector('.scene-heads-learned[data-ready="true"]', { timeout: 60_000 });
      const prediction = await page.textContent('.heads-prediction');
      assert.match(prediction, /This model has no induction head/);
      // Nothing "explains" the prediction by a head the weights do not show.
      assert.doesNotMatch(prediction, /explains|Its induction head/);
      assert.equal((await page.$$eval('.learned-head', (all) => all.length)) <= 1, true);
      const kinds = await page.$$eval('.learned-every .train-head', (all) =>
        all.map((x) => x.dataset.kind),
      );
      assert.ok(!kinds.includes('induction'), `kinds: ${kinds}`);
      await screenshot(page, `ch3-heads-reading-${name}`);
      // Predict does not ask where its induction head looks: it says there is none and asks
      // what is true of this model (its previous-token head, or a head it could have had).
      await page.click('[data-tool="predict"]');
      await page.waitForFunction(() =>
        /no induction head/.test(document.querySelector('.exercise-prompt')?.textContent),
      );
      const asked = await page.textContent('.exercise-prompt');
      assert.doesNotMatch(asked, /which position does an induction head attend/);
      const previous = /previous-token head attend to/.test(asked);
      assert.ok(previous || /Had training made one/.test(asked), asked);
      // ⟨s⟩ A B C D A B C: the last C is position 7, the token before it 6, after A B C's C 4.
      await page.fill('.exercise-input', previous ? '6' : '4');
      await page.click('.exercise-form button[type="submit"]');
      await page.waitForSelector('.exercise[data-outcome="right"]');
      await page.click('.language-button[data-language="zh"]');
      await page.waitForFunction(() =>
        /这个模型没有归纳头/.test(document.querySelector('.heads-prediction')?.textContent),
      );
      assert.match(await page.textContent('.exercise-prompt'), /这个模型没有归纳头/);
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    });
  }

  test('at 1366×768, en and zh, the train stage’s heads table is whole in “Your numbers”', async () => {
    for (const locale of ['en-US', 'zh-CN'])
      for (const name of ['twoLayers', 'noPositions']) {
        const opened = await web.open({
          url: `${web.url}#step=train&trained=${links[name]}`,
          locale,
          viewport: { width: 1366, height: 768 },
        });
        const { page, context, problems } = opened;
        await waitForReady(page);
        await page.waitForSelector('.workbench td.cell[data-matrix="run-heads"]');
        const cut = await page.$eval('.workbench', (panel) => {
          const edge = panel.getBoundingClientRect();
          const inside = edge.left + panel.clientLeft + panel.clientWidth;
          const table = panel.querySelector('.matrix:has(td.cell[data-matrix="run-heads"])');
          const cells = [...table.querySelectorAll('td.cell')].filter((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const text = range.getBoundingClientRect();
            const box = cell.getBoundingClientRect();
            return text.left < box.left - 0.5 || text.right > box.right + 0.5;
          });
          return {
            panel: panel.scrollWidth - panel.clientWidth,
            table: Math.round(table.getBoundingClientRect().right - inside),
            cells: cells.map((cell) => cell.textContent),
          };
        });
        const where = `${name}, ${locale}`;
        assert.ok(cut.panel <= 0, `${where}: the panel cuts off ${cut.panel} px`);
        assert.ok(cut.table <= 0, `${where}: the table runs ${cut.table} px past the panel`);
        assert.deepEqual(cut.cells, [], `${where}: cells whose words run past them`);
        await screenshot(page, `ch3-heads-table-${name}-${locale}`);
        assert.deepEqual(await collectProblems(page, problems), []);
        await context.close();
      }
  });

  test('the heads table’s headers read whole (no word broken, two lines at most) and “fixed token” is said under it', async () => {
    for (const viewport of [
      { width: 1366, height: 768 },
      { width: 390, height: 844 },
    ])
      for (const locale of ['en-US', 'zh-CN']) {
        const opened = await web.open({
          url: `${web.url}#step=train&trained=${links.twoLayers}`,
          locale,
          viewport,
        });
        const { page, context, problems } = opened;
        await waitForReady(page);
        await page.waitForSelector('.workbench td.cell[data-matrix="run-heads"]');
        const shown = await page.$eval('.workbench', (panel) => {
          const table = panel.querySelector('.matrix:has(td.cell[data-matrix="run-heads"])');
          const lines = (node) => {
            const range = document.createRange();
            range.selectNodeContents(node);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          };
          return {
            headers: [...table.querySelectorAll('th.col-label')].map((th) => ({
              text: th.textContent,
              lines: lines(th),
            })),
            reads: [...table.querySelectorAll('td.cell[data-col="2"]')].map((td) => td.textContent),
            notes: [...panel.querySelectorAll('.run-table-note')]
              .filter((p) => p.checkVisibility())
              .map((p) => p.textContent),
          };
        });
        const where = `${viewport.width}, ${locale}`;
        // Chinese headers are one word each: one line; English ones break between words only.
        const most = locale === 'zh-CN' ? 1 : 2;
        for (const { text, lines } of shown.headers)
          assert.ok(lines <= most, `${where}: “${text}” takes ${lines} lines`);
        const fixed = shown.reads.map((r) => /(?:fixed token|固定词元) (\S+)/.exec(r)?.[1]);
        assert.ok(
          fixed.some(Boolean),
          `${where}: this model has a fixed-token head: ${shown.reads}`,
        );
        for (const token of fixed.filter(Boolean).slice(0, 1)) {
          const named = locale === 'zh-CN' ? `“固定词元 ${token}”` : `“fixed token ${token}”`;
          assert.ok(
            shown.notes.some((n) => n.startsWith(named)),
            `${where}: no note says what ${named} is: ${shown.notes}`,
          );
        }
        assert.ok(shown.notes[0].includes(shown.headers[1].text), `${where}: ${shown.notes[0]}`);
        await screenshot(page, `ch3-heads-headers-${viewport.width}-${locale}`);
        assert.deepEqual(await collectProblems(page, problems), []);
        await context.close();
      }
  });

  test('in Chinese the prediction’s sentences follow each other without a space', async () => {
    const { page, context, problems } = await open(
      `step=heads-learned&trained=${links.twoLayers}`,
      'zh-CN',
    );
    await page.waitForSelector('.scene-heads-learned[data-ready="true"]', { timeout: 60_000 });
    const prediction = await page.textContent('.heads-prediction');
    assert.match(prediction, /归纳头/);
    assert.doesNotMatch(prediction, /[。：；！？] /, prediction);
    // The spoken step too: its position, then the scene's sentence.
    const spoken = await page.textContent('p[aria-live][id$="narration"]');
    assert.doesNotMatch(spoken, /[。：；！？] /, spoken);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});
