// Chapter 3's stages "train" and "heads-learned" in headless Chromium: pressing Train trains
// the tiny model in a Worker and the loss drops within 10 s (2 layers, RoPE, seed 1: the
// page's defaults) while the page's scripts never hold a frame over 32 ms
// (requestAnimationFrame deltas and long-animation-frame entries); the live text reads
// "step N · loss X.XXX"; every head's heatmap fills; the run survives a language switch and
// Back; the trained heads read "A B C D A B C" (layer 1 a previous-token head, layer 2 an
// induction head that predicts D); the switches reshape the model; Chinese; the offline file
// trains too (a classic worker from a blob: URL).
// (The chapter's pure model code: chapter3-train-units.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  pageFixture,
  screenshot,
  waitForReady,
} from './helpers.mjs';

const web = pageFixture();
const STATUS = /^step (\d+) · loss (\d+\.\d{3})$/;
/** The same live text in Chinese (every word of it from web/i18n). */
const STATUS_ZH = /^第 (\d+) 步 · 损失 (\d+\.\d{3})$/;
// Paused, it says so.
const PAUSED_ZH = /^已暂停，第 (\d+) 步 · 损失 (\d+\.\d{3})$/;
/** The brief's bound, from pressing Train to the drop. */
const DROP_WITHIN_S = 10;

/** Opens #step=train, once its worker is ready. */
async function openTrain(options) {
  const opened = await web.open(options);
  await waitForReady(opened.page);
  await opened.page.waitForSelector('.scene-train .train-button');
  // The stage starts its worker while the reader looks at it (before Train).
  await opened.page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 30_000 });
  return opened;
}

async function pressTrainAndTime(page) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // Frames over 50 ms, with the time the page's own scripts took in each (long animation
    // frames): a frame can also be long because the machine's other processes took the CPU.
    window.__scriptMs = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // The page's scripts only: this test's own frame counter has no source URL.
        const own = entry.scripts.filter((script) => script.sourceURL !== '');
        window.__scriptMs.push(own.reduce((sum, script) => sum + script.duration, 0));
      }
    }).observe({ type: 'long-animation-frame' });
    window.__trainPressed = performance.now();
  });
  await page.click('.scene-train .train-button');
}

const statusOf = (page) => page.textContent('.scene-train .train-status');

describe('the page trains the induction head live', () => {
  let session;
  test('Train: the loss drops within 10 s, frames stay under 32 ms, the live text counts steps', async () => {
    session = await openTrain({ url: `${web.url}#step=train`, reducedMotion: 'no-preference' });
    const { page } = session;
    assert.equal((await page.textContent('.scene-train .train-button')).trim(), 'Train');
    await pressTrainAndTime(page);
    await page.waitForFunction(
      () => document.querySelector('.scene-train')?.dataset.dropStep,
      null,
      { timeout: 60_000 },
    );
    const dropStep = await page.$eval('.scene-train', (e) => Number(e.dataset.dropStep));
    // The heads at the drop: told once the first snapshot after it has come (every 50 steps).
    await page.waitForFunction(
      () => /of its weight/.test(document.querySelector('.scene-train .train-drop').textContent),
      null,
      { timeout: 30_000 },
    );
    const measured = await page.evaluate(() => {
      window.__stopFrames = true;
      const frames = window.__frames.slice(1).sort((a, b) => a - b);
      return {
        max: frames.at(-1),
        p95: frames[Math.floor(frames.length * 0.95)],
        count: frames.length,
        scripts: Math.max(0, ...window.__scriptMs),
        story: document.querySelector('.scene-train .train-drop').textContent,
      };
    });
    const seconds = Number(measured.story.match(/, ([\d.]+) s after Train/)[1]);
    console.log(
      `drop at step ${dropStep}, ${seconds} s after Train; frames: ${measured.count}, ` +
        `p95 ${measured.p95.toFixed(1)} ms, max ${measured.max.toFixed(1)} ms; ` +
        `the page's scripts in a long frame: at most ${measured.scripts.toFixed(1)} ms`,
    );
    assert.ok(seconds <= DROP_WITHIN_S, `the loss dropped ${seconds} s after Train`);
    // The training runs in the worker: the page's own scripts never hold a frame over 32 ms.
    // (Frame deltas are logged, not bounded: on a machine shared by many processes a frame
    // can miss the display's pace with no script of the page running.)
    assert.ok(measured.scripts <= 32, `the page's scripts took ${measured.scripts} ms in a frame`);
    // What the heads do at the drop: a previous-token head and an induction head.
    const prev = measured.story.match(/\(([\d.]+) of its weight\)/)?.[1];
    const after = measured.story.match(/, ([\d.]+) just after it/)?.[1];
    assert.ok(Number(prev) > 0.5, `previous-token head ${prev}: ${measured.story}`);
    assert.ok(Number(after) > 0.3, `induction head ${after}: ${measured.story}`);
    const status = await statusOf(page);
    assert.match(status.trim(), STATUS);
    assert.equal(
      await page.$$eval('.scene-train .train-head[data-filled="true"]', (all) => all.length),
      8,
    );
    await screenshot(page, 'ch3-train-dropped');
  });

  test('the run survives a language switch and Back; Pause holds it', async () => {
    const { page } = session;
    await page.click('.scene-train .train-button'); // Pause (or nothing left to run)
    await page.waitForFunction(() =>
      ['paused', 'done'].includes(document.querySelector('.scene-train')?.dataset.status),
    );
    const { step, paused } = await page.$eval('.scene-train', (e) => ({
      step: Number(e.dataset.step),
      paused: e.dataset.status === 'paused',
    }));
    // Paused: the story's "now" is the induction head's number in the heads table, same step.
    await page.waitForFunction(() =>
      /now \(step \d+\)/.test(document.querySelector('.scene-train .train-drop').textContent),
    );
    const told = await page.evaluate(() => {
      const story = document.querySelector('.scene-train .train-drop').textContent;
      const [, layer, head] = story.match(/layer (\d)’s head (\d) at the token after/);
      const [, now, nowStep] = story.match(/, ([\d.]+) now \(step (\d+)\)/);
      const table = document
        .querySelector('.workbench td.cell[data-matrix="run-heads"]')
        ?.closest('figure');
      const row = (Number(layer) - 1) * 4 + (Number(head) - 1);
      const cell = table?.querySelector(`td.cell[data-row="${row}"][data-col="1"]`);
      return { now, nowStep, cell: cell?.textContent, title: table?.textContent };
    });
    assert.equal(told.now, told.cell, `the story's now and the table's: ${JSON.stringify(told)}`);
    assert.match(told.title, new RegExp(`at step ${told.nowStep}(?!\\d)`));
    await page.click('.language-button[data-language="zh"]');
    await page.waitForFunction(
      () => document.querySelector('.scene-train .train-button')?.textContent === '训练',
    );
    assert.equal(await page.$eval('.scene-train', (e) => Number(e.dataset.step)), step);
    const statusZh = (await statusOf(page)).trim();
    assert.equal(statusZh.match(paused ? PAUSED_ZH : STATUS_ZH)?.[1], String(step), statusZh);
    await page.click('.language-button[data-language="en"]');
    await page.evaluate(() => {
      location.hash = 'step=inputs';
    });
    await page.waitForFunction(() => document.body.dataset.step === 'inputs');
    await page.goBack();
    await page.waitForSelector('.scene-train');
    assert.equal(await page.$eval('.scene-train', (e) => Number(e.dataset.step)), step);
    assert.ok(await page.$eval('.scene-train', (e) => e.dataset.dropStep !== ''));
  });

  test('what the heads learned: A B C D A B C -> D, by layer 2 looking at D', async () => {
    const { page, problems } = session;
    await page.evaluate(() => {
      location.hash = 'step=heads-learned';
    });
    await page.waitForFunction(
      () => document.querySelector('.scene-heads-learned')?.dataset.ready === 'true',
    );
    const found = await page.evaluate(() => {
      const scene = document.querySelector('.scene-heads-learned');
      const heads = [...scene.querySelectorAll('.learned-head')].map((e) => ({
        layer: Number(e.dataset.layer),
        head: Number(e.dataset.head),
        about: e.querySelector('p').textContent,
      }));
      return {
        next: Number(scene.querySelector('.heads-prediction').dataset.next),
        prediction: scene.querySelector('.heads-prediction').textContent,
        heads,
        decoded: scene.dataset.decoded,
        lines: scene.querySelectorAll('.token-line').length,
      };
    });
    console.log(found.prediction, '|', found.heads.map((x) => x.about).join(' | '));
    console.log('decoded after A B C D A B C:', found.decoded);
    assert.equal(found.next, 4, found.prediction); // D
    assert.match(found.prediction, /looks from the last token at D \(position 4,/);
    assert.deepEqual(
      found.heads.map((x) => x.layer),
      [0, 1],
    );
    assert.ok(found.lines > 7);
    await screenshot(page, 'ch3-heads-learned');
    // Typing is enough (no Enter): the result follows the sequence a moment after the last key.
    await page.click('.heads-input', { clickCount: 3 });
    await page.keyboard.type('KIJOKIJ');
    await page.waitForFunction(
      () => document.querySelector('.heads-prediction')?.dataset.next === '15', // O
      null,
      { timeout: 5_000 },
    );
    // A last token never seen before: the prediction says it is a guess, and names no copy.
    await page.fill('.heads-input', 'ABCDEFG');
    await page.waitForFunction(() =>
      /has not appeared before/.test(document.querySelector('.heads-prediction')?.textContent),
    );
    assert.doesNotMatch(await page.textContent('.heads-prediction'), /earlier copy/);
    // A letter the model does not know is refused by name, and no result stays under it.
    await page.fill('.heads-input', 'A B Z');
    await page.press('.heads-input', 'Enter');
    assert.match(await page.textContent('.heads-problem'), /not “Z”/);
    assert.equal(await page.$eval('.scene-heads-learned', (e) => e.dataset.ready), 'invalid');
    assert.equal(
      await page.$$eval('.heads-result > *, .heads-decoded > *', (all) => all.length),
      0,
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await session.context.close();
  });
});

test('switches: 1 layer and 2 heads reshape the heads; none explains why it fails', async () => {
  const { page, problems, context } = await openTrain({ url: `${web.url}#step=train` });
  await page.selectOption('.scene-train select[data-control="layers"]', '1');
  await page.waitForFunction(
    () => document.querySelectorAll('.scene-train .train-head').length === 4,
  );
  assert.match(await page.textContent('.train-why'), /One layer cannot learn it/);
  await page.selectOption('.scene-train select[data-control="layers"]', '2');
  await page.selectOption('.scene-train select[data-control="heads"]', '2');
  await page.waitForFunction(
    () => document.querySelectorAll('.scene-train .train-head').length === 4,
  );
  await page.selectOption('.scene-train select[data-control="positions"]', 'none');
  await page.waitForFunction(() =>
    /Without positions/.test(document.querySelector('.train-why').textContent),
  );
  // A short run with the new switches, started from the keyboard: the status counts steps,
  // and Reset goes back to 0.
  await page.focus('.scene-train .train-button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 50,
  );
  await page.click('.scene-train .train-button');
  await page.click('.scene-train [data-control="reset"]');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  assert.equal((await statusOf(page)).trim(), 'Ready: press Train.');
  // A switch changed while the run goes on: the old model's last steps, still on their way
  // from the worker, must not land in the new model's run.
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 50,
  );
  await page.selectOption('.scene-train select[data-control="heads"]', '4');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  await page.waitForTimeout(1000); // what the worker had sent before its stop has arrived
  assert.equal(await page.$eval('.scene-train', (e) => e.dataset.step), '0');
  assert.equal((await statusOf(page)).trim(), 'Ready: press Train.');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Chinese at 390×844: the button reads 训练 and the live text counts steps in Chinese', async () => {
  const { page, problems, context } = await openTrain({
    url: `${web.url}#step=train`,
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
  });
  assert.equal((await page.textContent('.scene-train .train-button')).trim(), '训练');
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 50,
  );
  await page.waitForFunction(
    (re) => new RegExp(re).test(document.querySelector('.train-status').textContent),
    STATUS_ZH.source,
  );
  await screenshot(page, 'ch3-train-zh-phone');
  await page.click('.scene-train .train-button');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the offline file trains too (a classic worker from a blob: URL)', async () => {
  const { page, problems, context } = await openTrain({ url: `${explainerFileUrl}#step=train` });
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 50,
    null,
    { timeout: 30_000 },
  );
  await page.waitForFunction(
    (re) => new RegExp(re).test(document.querySelector('.train-status').textContent),
    STATUS.source,
  );
  await page.click('.scene-train .train-button');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('training files: loss as CSV, SVG and PNG; parameters as JSON that load back', async () => {
  const { page, problems, context } = await openTrain({ url: `${web.url}#step=train` });
  await page.click('.scene-train .train-button');
  await page.waitForFunction(
    () => Number(document.querySelector('.scene-train').dataset.step) >= 100,
  );
  await page.click('.scene-train .train-button');
  await page.waitForFunction(() =>
    ['paused', 'done'].includes(document.querySelector('.scene-train').dataset.status),
  );
  const step = await page.$eval('.scene-train', (e) => Number(e.dataset.step));
  const save = async (format) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-train-export="${format}"]`),
    ]);
    return { name: download.suggestedFilename(), path: await download.path() };
  };
  const csv = readFileSync((await save('csv')).path, 'utf8')
    .trim()
    .split('\n');
  assert.equal(csv[0], 'step,loss');
  assert.equal(csv.length, step + 1);
  assert.match(csv[1], /^1,[\d.]+$/);
  const svgText = readFileSync((await save('svg')).path, 'utf8');
  assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svgText, /<polyline[^>]*points="[\d., ]+"/);
  const png = readFileSync((await save('png')).path);
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  const json = await save('json');
  assert.equal(json.name, `tiny-transformer-rope-seed1-step${step}.json`);
  const file = JSON.parse(readFileSync(json.path, 'utf8'));
  assert.deepEqual(file.settings, { positions: 'rope', layers: 2, heads: 4, seed: 1 });
  assert.deepEqual(file.parameters['layers.1.attention.wq'].dims, [32, 32]);
  // Reset, then load the file: the model is the saved one (its heads drawn again).
  await page.click('.scene-train [data-control="reset"]');
  await page.waitForFunction(() => document.querySelector('.scene-train').dataset.step === '0');
  await page.setInputFiles('.scene-train [data-train-load]', json.path);
  await page.waitForFunction(
    (n) => document.querySelector('.train-status').textContent.includes(`trained for ${n} steps`),
    step,
  );
  assert.equal(
    await page.$$eval('.scene-train .train-head[data-filled="true"]', (all) => all.length),
    8,
  );
  // A file that is not one is refused by name, and the loaded model stays.
  const bad = json.path.replace(/\.json$|$/, '-bad.json');
  writeFileSync(bad, JSON.stringify({ ...file, settings: { ...file.settings, layers: 3 } }));
  await page.setInputFiles('.scene-train [data-train-load]', bad);
  await page.waitForFunction(() =>
    /settings\.layers must be one of 1, 2, got 3/.test(
      document.querySelector('.train-files-status').textContent,
    ),
  );
  assert.match(await statusOf(page), new RegExp(`trained for ${step} steps`));
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
