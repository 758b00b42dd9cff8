// Chapter 4 opens with a model that already writes: the chosen text's snapshot (web/snapshots/,
// trained offline), loaded into the worker's model. The page says which model it shows (the
// snapshot, its offline steps and the held-out loss the worker scores now; or a model from
// scratch, its step) in every stage; "Keep training" trains the snapshot on, "Start from
// scratch" trains a new one and "Back to the snapshot" brings the snapshot back. No sample
// writes U+FFFD, the unknown id's character. The next-character stage shows h, the last row's
// output, whose product with W_U is the model's logit. The offline file shows the Tang poems'
// snapshot and says why it has none for the English classic (it holds Genesis only).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  goToStep,
  pageFixture,
  waitForReady,
} from './helpers.mjs';
import { keepTrainingFor, snapshotStatus } from './chapter4-run.mjs';
import { LANGUAGE_MODEL } from '../../web/model/language.mjs';

const web = pageFixture();
const manifestOf = (name) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../web/snapshots', `${name}.json`)));
const POEMS = manifestOf('poems');

const steps = (n) => n.toLocaleString('en-US');
const scoredLoss = (text) => Number(/held-out loss (\d+\.\d{3})/.exec(text)?.[1]);

/**
 * The next-character stage's status line, once its sentence's loss is no longer the
 * snapshot's `snapshotLoss` (the stage has read the model trained here).
 */
async function nextStatusOnceRetrained(page, snapshotLoss) {
  await goToStep(page, 'lm-next');
  await page.waitForFunction(
    (before) => document.querySelector('.ch4-sentence-loss')?.dataset.loss !== before,
    snapshotLoss,
    { timeout: 30_000 },
  );
  return page.textContent('.scene-ch4-next .ch4-status');
}

describe('chapter 4 opens with the snapshot', () => {
  test('served: the snapshot writes at once, every stage names it, from scratch and back', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
    // The chapter's first stage: the model shown, and what it writes, at once.
    await page.goto(`${web.url}#step=lm-chars`);
    await waitForReady(page);
    await page.waitForSelector('.scene-ch4-chars .ch4-writes:not([hidden])', { timeout: 60_000 });
    assert.match(await page.textContent('.scene-ch4-chars .ch4-status'), /the snapshot: trained/);
    assert.match(
      await page.textContent('.ch4-writes'),
      /^What it writes \(temperature [\d.]+, top \d+\):\n\s*\S/,
    );
    await goToStep(page, 'lm-train');
    const status = await snapshotStatus(page);
    assert.match(status, new RegExp(`the snapshot: trained ${steps(POEMS.steps)} steps offline`));
    // The worker scores the loaded float16 weights as the script did after rounding them.
    assert.ok(Math.abs(scoredLoss(status) - POEMS.heldOutLoss) < 0.01, status);
    assert.equal(await page.$eval('.scene-ch4-train', (s) => s.dataset.source), 'snapshot');
    // It writes already: a sample of the snapshot, before any step here.
    await page.waitForSelector('.ch4-sample-text');
    assert.match(await page.textContent('.ch4-sample-when'), /the snapshot · trained/);
    assert.ok((await page.textContent('.ch4-sample-text')).length > 10);
    assert.equal(await page.isHidden('[data-control="ch4-reset"]'), true);

    // The next stage's numbers are the snapshot's, and it says so.
    await goToStep(page, 'lm-next');
    await page.waitForSelector('.scene-ch4-next[data-ready="true"]', { timeout: 30_000 });
    assert.match(await page.textContent('.scene-ch4-next .ch4-status'), /the snapshot: trained/);
    // h itself: the last row's D numbers, and h · W_U is the model's logit of the true character.
    await page.waitForSelector('.scene-ch4-next[data-h-size]', { timeout: 30_000 });
    const shown = await page.$eval('.scene-ch4-next', (s) => ({
      size: Number(s.dataset.hSize),
      cells: s.querySelectorAll('.h-grid li').length,
      title: s.querySelector('.ch4-h h3').textContent,
      zTrue: Number(s.dataset.zTrue),
      logitTrue: Number(s.dataset.logitTrue),
      dot: s.querySelector('.ch4-dot').textContent,
    }));
    assert.equal(shown.size, LANGUAGE_MODEL.dModel);
    assert.equal(shown.cells, LANGUAGE_MODEL.dModel);
    assert.match(shown.title, new RegExp(`\\(${LANGUAGE_MODEL.dModel} numbers`));
    assert.ok(Math.abs(shown.zTrue - shown.logitTrue) < 1e-3, JSON.stringify(shown));
    assert.ok(shown.dot.endsWith(`= ${shown.zTrue.toFixed(2)}`), shown.dot);
    const snapshotLoss = await page.$eval('.ch4-sentence-loss', (p) => p.dataset.loss);

    // Keep training: the snapshot's weights learn on here; its steps count after the offline ones.
    await goToStep(page, 'lm-train');
    assert.equal(await page.textContent('[data-control="ch4-keep"]'), 'Keep training');
    await page.click('[data-control="ch4-keep"]');
    await page.waitForFunction(
      () => Number(document.querySelector('.scene-ch4-train')?.dataset.step) >= 50,
      null,
      { timeout: 60_000 },
    );
    assert.equal(await page.textContent('[data-control="ch4-keep"]'), 'Pause');
    await page.click('[data-control="ch4-keep"]');
    await page.waitForSelector('.scene-ch4-train[data-status="paused"]');
    assert.equal(await page.$eval('.scene-ch4-train', (s) => s.dataset.source), 'snapshot');
    assert.equal(await page.textContent('[data-control="ch4-keep"]'), 'Keep training');
    const kept = Number(await page.$eval('.scene-ch4-train', (s) => s.dataset.step));
    assert.match(
      await page.textContent('.scene-ch4-train .ch4-status'),
      new RegExp(`^paused at step ${POEMS.steps + kept} · training loss \\d`),
    );
    assert.equal(await page.isHidden('[data-control="ch4-snapshot"]'), false);
    assert.equal(
      await nextStatusOnceRetrained(page, snapshotLoss),
      `The model shown is the snapshot, trained ${steps(POEMS.steps)} steps before you opened the page and ${kept} more here.`,
    );
    // No sample ever writes the unknown id's U+FFFD (the trainer bans it).
    await goToStep(page, 'lm-train');
    const written = await page.$$eval('.ch4-sample-text', (all) => all.map((p) => p.textContent));
    assert.ok(written.length >= 1);
    for (const sample of written) assert.ok(!sample.includes('\uFFFD'), sample);
    await page.click('[data-control="ch4-snapshot"]');
    assert.equal(scoredLoss(await snapshotStatus(page)), scoredLoss(status));

    // From scratch: a new model trains here, and every stage says so.
    await goToStep(page, 'lm-train');
    await page.click('[data-control="ch4-train"]'); // "Start from scratch"
    await page.waitForFunction(
      () => Number(document.querySelector('.scene-ch4-train')?.dataset.step) >= 50,
      null,
      { timeout: 60_000 },
    );
    await page.click('[data-control="ch4-train"]'); // Pause
    await page.waitForSelector('.scene-ch4-train[data-status="paused"]');
    assert.equal(await page.$eval('.scene-ch4-train', (s) => s.dataset.source), 'scratch');
    const step = await page.$eval('.scene-ch4-train', (s) => s.dataset.step);
    assert.equal(
      await nextStatusOnceRetrained(page, snapshotLoss),
      `The model shown was trained here from scratch: step ${step}.`,
    );

    // Back to the snapshot: the same model again, its loss as before.
    await goToStep(page, 'lm-train');
    await page.click('[data-control="ch4-snapshot"]');
    const again = await snapshotStatus(page);
    assert.equal(scoredLoss(again), scoredLoss(status));
    await goToStep(page, 'lm-next');
    await page.waitForFunction(
      (wanted) => document.querySelector('.ch4-sentence-loss')?.dataset.loss === wanted,
      snapshotLoss,
      { timeout: 30_000 },
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the next character: the id the rarer characters share reads “⟨rare⟩” (“⟨罕见字⟩”), not “�”, clear of its bar, and a note says what it is', async () => {
    for (const [locale, rare] of [
      ['en-US', '⟨rare⟩'],
      ['zh-CN', '⟨罕见字⟩'],
    ]) {
      const { page, context, problems } = await web.open({
        locale,
        viewport: { width: 1366, height: 768 },
      });
      await page.goto(`${web.url}#step=lm-next`);
      await waitForReady(page);
      await page.waitForSelector('.scene-ch4-next[data-ready="true"] .prob-bar', {
        timeout: 60_000,
      });
      const shown = await page.$eval('.scene-ch4-next', (scene) => ({
        text: scene.textContent,
        table: [...scene.querySelectorAll('.logit-table td:first-child')].map(
          (td) => td.textContent,
        ),
        bars: [...scene.querySelectorAll('.prob-bar')].map((bar) => ({
          label: bar.querySelector('.prob-char').textContent,
          labelRight: bar.querySelector('.prob-char').getBoundingClientRect().right,
          trackLeft: bar.querySelector('.prob-track').getBoundingClientRect().left,
        })),
      }));
      assert.ok(!shown.text.includes('\uFFFD'), `${locale}: a “�” on the stage`);
      // The poems' snapshot ranks the rarer characters' id among the five likeliest after the
      // default sentence's last character but one.
      assert.ok(shown.table.includes(rare), `${locale}: the logits' table: ${shown.table}`);
      const bar = shown.bars.find((b) => b.label === rare);
      assert.ok(bar, `${locale}: the bars: ${shown.bars.map((b) => b.label)}`);
      for (const b of shown.bars)
        assert.ok(b.labelRight <= b.trackLeft, `${locale}: “${b.label}” runs into its bar`);
      // Said where it is shown: the note under the table says what the mark stands for.
      const note = await page.textContent('.scene-ch4-next .ch4-logits .ch4-rare-note');
      assert.ok(note.startsWith(rare), `${locale}: ${note}`);
      assert.match(note, locale === 'en-US' ? /fewer than 3 times/ : /少于 3 次/);
      // The text's sentence names the mark.
      await goToStep(page, 'lm-chars');
      await page.waitForFunction(
        (mark) => document.querySelector('.scene-ch4-chars')?.textContent.includes(`${mark}`),
        rare,
        { timeout: 30_000 },
      );
      assert.deepEqual(await collectProblems(page, problems), []);
      await context.close();
    }
  });

  test("while the English classic's held-out tenth is scored (seconds), the status says so", async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${web.url}#step=lm-train`);
    await waitForReady(page);
    await snapshotStatus(page);
    // Every line the status shows from here on, kept as it is written.
    await page.evaluate(() => {
      const status = document.querySelector('.scene-ch4-train .ch4-status');
      window.statusLines = [];
      new MutationObserver(() => window.statusLines.push(status.textContent)).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await page.selectOption('[data-control="ch4-text"]', 'kjv');
    // The poems' scored line is still there for a moment after the switch: wait for a line
    // written after it that gives a loss.
    await page.waitForFunction(
      () => window.statusLines.some((line) => /held-out loss \d/.test(line)),
      null,
      {
        timeout: 60_000,
      },
    );
    const lines = await page.evaluate(() => window.statusLines);
    const scored = lines.find((line) => /held-out loss \d/.test(line));
    const scoring = lines.findIndex((line) =>
      /^step [\d,]+ · scoring the held-out tenth \(81,51\d characters, never trained on\)…$/.test(
        line,
      ),
    );
    assert.ok(scoring >= 0, `no status line said it was scoring: ${JSON.stringify(lines)}`);
    assert.ok(lines.indexOf(scored) > scoring, 'the scored loss came after the scoring line');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('while the snapshot trains on, the next-character stage rewrites only the text that changed', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${web.url}#step=lm-train`);
    await waitForReady(page);
    await keepTrainingFor(page, 20);
    await goToStep(page, 'lm-next');
    await page.waitForSelector('.scene-ch4-next .ch4-count');
    // Each rewrite of the count and the status line, with the text it had before.
    await page.evaluate(() => {
      window.rewrites = [];
      for (const selector of ['.scene-ch4-next .ch4-count', '.scene-ch4-next .ch4-status']) {
        const element = document.querySelector(selector);
        let before = element.textContent;
        new MutationObserver(() => {
          window.rewrites.push({ selector, before, after: element.textContent });
          before = element.textContent;
        }).observe(element, { childList: true, characterData: true, subtree: true });
      }
    });
    // The stage follows the model as it trains: its figures are drawn again meanwhile.
    const loss = await page.$eval('.ch4-sentence-loss', (p) => p.dataset.loss);
    await page.waitForFunction(
      (before) => document.querySelector('.ch4-sentence-loss')?.dataset.loss !== before,
      loss,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(1500);
    const rewrites = await page.evaluate(() => window.rewrites);
    const same = rewrites.filter(({ before, after }) => before === after);
    assert.deepEqual(same, [], 'text rewritten unchanged');
    for (const { selector, after } of rewrites)
      if (selector.endsWith('status'))
        assert.match(
          after,
          new RegExp(
            `^The model shown is the snapshot, trained ${steps(POEMS.steps)} steps before you opened the page and [\\d,]+ more here\\.$`,
          ),
        );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the offline file: the poems’ snapshot is embedded; the English classic says why it has none', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 390, height: 844 } });
    await page.goto(`${explainerFileUrl}#step=lm-train`);
    await waitForReady(page);
    assert.match(await snapshotStatus(page), /the snapshot: trained/);
    await page.selectOption('[data-control="ch4-text"]', 'kjv');
    await page.waitForSelector('.scene-ch4-train[data-text="ready"][data-source="scratch"]', {
      timeout: 30_000,
    });
    assert.match(
      await page.textContent('.scene-ch4-train .ch4-about'),
      /No snapshot for this text \(this offline file holds part of .* only/,
    );
    assert.match(await page.textContent('[data-control="ch4-train"]'), /^Train$/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});
