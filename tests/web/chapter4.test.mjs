// Chapter 4, a tiny language model, in headless Chromium, as a learner meets it: the text's
// vocabulary counted; Train makes the loss fall and the samples are written in the text's
// characters; the next-character stage's loss is −ln of the probability it prints; every head's
// heatmap is labelled with the sentence and read; a head switched off changes the loss the page
// shows; the model writes characters of the vocabulary; and the offline file does the same
// with its embedded text. (The chapter's pure model code: chapter4-units.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  collectProblems,
  distDir,
  explainerFileUrl,
  goToStep,
  pageFixture,
  waitForReady,
} from './helpers.mjs';

import { LANGUAGE_MODEL } from '../../web/model/language.mjs';
import { textTaskFor } from '../../dist/attention.mjs';

const web = pageFixture();
const TANG = readFileSync(join(distDir, 'texts', 'tang300.txt'), 'utf8');
// The page's vocabulary: the characters seen at least minCount times, then U+FFFD for the rest.
const TANG_COUNTS = new Map();
for (const c of TANG) TANG_COUNTS.set(c, (TANG_COUNTS.get(c) ?? 0) + 1);
const TANG_KNOWN = [...TANG_COUNTS.keys()]
  .filter((c) => TANG_COUNTS.get(c) >= textTaskFor(TANG).minCount)
  .sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
const TANG_VOCAB = new Set([...TANG_KNOWN, '\uFFFD']);

/** Trains from the train stage until `steps` are done and a sample after step 0 is written. */
async function trainFor(page, steps) {
  await goToStep(page, 'lm-train');
  await page.waitForSelector('.scene-ch4-train[data-text="ready"]', { timeout: 30_000 });
  await page.click('.scene-ch4-train [data-control="ch4-train"]');
  await page.waitForFunction(
    (n) => {
      const scene = document.querySelector('.scene-ch4-train');
      return Number(scene?.dataset.step) >= n && scene.querySelectorAll('.ch4-sample').length >= 2;
    },
    steps,
    { timeout: 120_000 },
  );
  await page.click('.scene-ch4-train [data-control="ch4-train"]'); // Pause
  await page.waitForSelector('.scene-ch4-train[data-status="paused"]');
}

/** The losses the run recorded, read from the curve's step count and the status line. */
const statusLoss = (text) => Number(/loss (\d+\.\d+)/.exec(text)[1]);

describe('chapter 4: a tiny language model', () => {
  test('served, en: the vocabulary is counted, training lowers the loss, the numbers shown are the model’s', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${web.url}#step=lm-chars`);
    await waitForReady(page);
    await page.waitForSelector('.scene-ch4-chars[data-text="ready"]', { timeout: 30_000 });
    const about = await page.textContent('.scene-ch4-chars .ch4-about');
    assert.match(
      about,
      new RegExp(
        `24,992 characters, of which 2,500 are different. The ${TANG_KNOWN.length.toLocaleString('en-US')} seen at least 3 times`,
      ),
    );
    // The sentence's characters and their ids, one per character.
    const chars = await page.$$eval('.ch4-chars .char', (cells) => cells.map((c) => c.textContent));
    const ids = await page.$$eval('.ch4-ids .char', (cells) =>
      cells.map((c) => Number(c.textContent)),
    );
    assert.equal(chars.length, ids.length);
    chars.forEach((c, k) => c !== '↵' && assert.equal(TANG_KNOWN[ids[k]], c));

    await trainFor(page, 400);
    const scene = await page.$eval('.scene-ch4-train', (s) => ({
      status: s.querySelector('.ch4-status').textContent,
      samples: [...s.querySelectorAll('.ch4-sample-text')].map((x) => x.textContent),
      heldOut: s.querySelector('.ch4-heldout').textContent,
    }));
    // The first steps cost about ln 1286 = 7.2 nats; after 400 the loss is well below.
    assert.ok(statusLoss(scene.status) < 6.5, scene.status);
    assert.match(scene.heldOut, /nats per character/);
    for (const sample of scene.samples)
      for (const c of sample) assert.ok(TANG_VOCAB.has(c), `“${c}” is not in the text`);

    // From attention to the next character: the loss printed is −ln of the probability printed.
    await goToStep(page, 'lm-next');
    await page.waitForSelector('.scene-ch4-next[data-ready="true"]', { timeout: 30_000 });
    const line = await page.textContent('.ch4-loss-line');
    const [, p, loss] = /= ([\d.e-]+), so the loss is −ln [\d.e-]+ = (\d+\.\d{3})/.exec(line);
    assert.ok(Math.abs(-Math.log(Number(p)) - Number(loss)) < 0.002, line);
    const bars = await page.$$eval('.prob-bar', (list) => list.map((b) => Number(b.dataset.p)));
    assert.ok(
      bars.every((x, k) => k === 0 || x <= bars[k - 1]),
      'bars most likely first',
    );

    // Every head on the sentence (layers × heads of them): labelled heatmaps, each with a reading.
    await goToStep(page, 'lm-heads');
    await page.waitForSelector('.scene-ch4-heads[data-ready="true"]', { timeout: 30_000 });
    const heads = await page.$$eval('.ch4-heads .train-head', (list) =>
      list.map((f) => ({
        filled: f.dataset.filled,
        reading: f.querySelector('.head-reading').textContent,
        keys: [...f.querySelectorAll('.heatmap-keys span')].map((s) => s.textContent).join(''),
      })),
    );
    assert.equal(heads.length, LANGUAGE_MODEL.layers * LANGUAGE_MODEL.heads);
    const sentence = (await page.inputValue('[data-control="ch4-sentence"]')).replace(/\n/g, '↵');
    for (const head of heads) {
      assert.equal(head.filled, 'true');
      assert.notEqual(head.reading, '');
      assert.equal(head.keys, sentence);
    }

    // A head switched off changes the loss shown, and the page says by how much.
    await goToStep(page, 'lm-switch');
    await page.waitForFunction(
      () => document.querySelector('.scene-ch4-switch')?.dataset.off === '0',
      null,
      { timeout: 30_000 },
    );
    const whole = await page.$eval('.scene-ch4-switch', (s) => Number(s.dataset.lossOn));
    await page.uncheck('.ch4-switch input[data-head="0"]');
    await page.uncheck('.ch4-switch input[data-head="4"]');
    await page.waitForFunction(
      () => document.querySelector('.scene-ch4-switch')?.dataset.off === '2',
    );
    const off = await page.$eval('.scene-ch4-switch', (s) => ({
      on: Number(s.dataset.lossOn),
      off: Number(s.dataset.lossOff),
      verdict: s.querySelector('.ch4-verdict').textContent,
    }));
    assert.equal(off.on, whole);
    assert.notEqual(off.off, off.on);
    assert.ok(
      off.verdict.includes(off.on.toFixed(3)) && off.verdict.includes(off.off.toFixed(3)),
      off.verdict,
    );

    // Writing: characters of the vocabulary, each with what it attended to.
    await goToStep(page, 'lm-write');
    await page.click('[data-control="ch4-write"]');
    await page.waitForFunction(
      () => document.querySelector('.scene-ch4-write')?.dataset.written,
      null,
      {
        timeout: 30_000,
      },
    );
    const written = await page.$eval('.scene-ch4-write', (s) => s.dataset.written);
    assert.ok(written.length > 0);
    for (const c of written) assert.ok(TANG_VOCAB.has(c), `“${c}” is not in the text`);
    await page.waitForFunction(() => document.querySelector('.ch4-focus')?.textContent !== '');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('writing: the count of characters written shows once they all are, and a new Write shows no line about the last', async () => {
    const { page, context, problems } = await web.open({
      viewport: { width: 1366, height: 768 },
      reducedMotion: 'no-preference',
    });
    await page.goto(`${web.url}#step=lm-write`);
    await waitForReady(page);
    // The stage writes once as it opens, from the model the page starts with.
    await page.waitForFunction(
      () => document.querySelector('.scene-ch4-write')?.dataset.written,
      null,
      {
        timeout: 30_000,
      },
    );
    const seen = () => {
      const scene = document.querySelector('.scene-ch4-write');
      const note = scene.querySelector('.ch4-written-figure + .ch4-note');
      return {
        shown: Number(scene.dataset.shown),
        total: scene.dataset.written.length,
        noteSeen: getComputedStyle(note).visibility === 'visible',
        note: note.textContent,
        focusSeen: getComputedStyle(scene.querySelector('.ch4-focus')).visibility === 'visible',
        written: scene.dataset.written,
      };
    };
    // Read until a moment when some but not all are written (the note with the count, in
    // the same read).
    let during = null;
    for (let tries = 0; tries < 600 && !during; tries++) {
      const s = await page.evaluate(seen);
      if (s.shown > 0 && s.shown < s.total) during = s;
    }
    assert.ok(during, 'no moment with part of the writing shown');
    assert.equal(during.noteSeen, false, `the count showed at ${during.shown} of ${during.total}`);
    await page.waitForFunction(
      () => {
        const scene = document.querySelector('.scene-ch4-write');
        return Number(scene.dataset.shown) === scene.dataset.written.length;
      },
      null,
      { timeout: 15_000 },
    );
    const after = await page.evaluate(seen);
    assert.equal(after.noteSeen, true);
    assert.match(after.note, new RegExp(`^${after.total} characters written`));
    // Write again: until its first character shows, no line about the last writing's.
    await page.click('[data-control="ch4-write"]');
    let start = null;
    for (let tries = 0; tries < 600 && !start; tries++) {
      const s = await page.evaluate(seen);
      if (s.written !== after.written && s.shown === 0) start = s;
    }
    assert.ok(start, 'the new writing was not seen from its start');
    assert.equal(start.focusSeen, false, 'the last writing’s focus line was still shown');
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });

  test('the offline file: chapter 4 trains on its embedded text and predicts', async () => {
    const { page, context, problems } = await web.open({ viewport: { width: 390, height: 844 } });
    await page.goto(`${explainerFileUrl}#step=lm-train`);
    await waitForReady(page);
    await trainFor(page, 200);
    await goToStep(page, 'lm-next');
    await page.waitForSelector('.scene-ch4-next[data-ready="true"]', { timeout: 30_000 });
    assert.match(await page.textContent('.ch4-loss-line'), /so the loss is/);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
});
