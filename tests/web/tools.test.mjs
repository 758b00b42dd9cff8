// Learning tools: Predict (an answer right, wrong with its hint, right after the hint; on
// edited numbers; progress per example, a broken localStorage, practice examples; Chinese)
// and Export (PNG, SVG, GIF, JSON, CSV and the share link), served and from the offline file.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  nodeTrace,
  pageFixture,
  screenshot,
  waitForReady,
} from './helpers.mjs';
import { args as ARTICLE } from '../js/article.mjs';
import { gifFrames, pngSize } from './files.mjs';
import { layerDimsOf, layerExample } from '../../web/model/layer.mjs';

const web = pageFixture();

const exercise = '.exercise';
const answer = async (page, text) => {
  await page.fill('.exercise-input', text);
  await page.press('.exercise-input', 'Enter');
};
const outcome = (page) => page.getAttribute(exercise, 'data-outcome');

/** A fresh load of `url` (not a same-document hash change), ready. */
async function load(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
  await waitForReady(page);
}

/** Clicks an export button and returns the file it saved: { name, bytes }. */
async function download(page, format, timeout = 60_000) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout }),
    page.click(`[data-export="${format}"]`),
  ]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

/** Decodes an image in the page (the browser's decoder): its size and, for a GIF, frames. */
function decodeInPage(page, bytes, type) {
  return page.evaluate(
    async ({ base64, type }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([data], { type }));
      let frames = 1;
      if (type === 'image/gif' && globalThis.ImageDecoder) {
        const decoder = new ImageDecoder({ data, type });
        await decoder.tracks.ready;
        frames = decoder.tracks.selectedTrack.frameCount;
      }
      return { width: bitmap.width, height: bitmap.height, frames };
    },
    { base64: bytes.toString('base64'), type },
  );
}

test('Predict: right, wrong with the cell’s arithmetic as a hint, then right after it', async () => {
  // An edited example: the answers come from its numbers, not the article's.
  const x = ARTICLE.x.map((row) => row.slice());
  x[0] = [2, 0, 1, 0];
  const text = (m) => m.map((row) => row.join(',')).join(';');
  const hash =
    `step=scores-1&x=${text(x)}&wk=${text(ARTICLE.wKey)}&wq=${text(ARTICLE.wQuery)}` +
    `&wv=${text(ARTICLE.wValue)}`;
  const trace = await nodeTrace({ ...ARTICLE, x });
  const score = (j) => trace.scores.data[j];
  const { page, context, problems } = await web.open({ url: `${web.url}#${hash}` });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  assert.equal(await page.getAttribute('[data-tool="predict"]', 'aria-expanded'), 'true');
  // The input has the focus, the question is labelled for screen readers.
  assert.ok(await page.$eval('.exercise-input', (input) => input === document.activeElement));
  assert.match(
    await page.$eval('.exercise-input', (input) => input.getAttribute('aria-describedby')),
    /exercise-prompt/,
  );
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₁, the score of query 1 for key 1/);
  assert.match(await page.textContent('.exercise-tolerance'), /Within 1% \(or ±0\.001/);
  const asked = '.scene-host td.cell[data-matrix="scores"][data-row="0"][data-col="0"]';
  assert.ok(await page.$eval(asked, (cell) => cell.classList.contains('is-predicting')));
  assert.equal(await page.getAttribute(asked, 'aria-hidden'), 'true', 'not read out either');
  // Before the page shows it: the step is held at its start, no result line shown yet.
  await page.waitForFunction(() => document.body.dataset.settled === 'false');
  const shownResults = () =>
    page.$$eval('.scene-host .term-line .result', (results) =>
      results.map((result) => Number(getComputedStyle(result).opacity)),
    );
  assert.deepEqual(await shownResults(), [0, 0, 0]);

  // Right at once.
  await answer(page, String(score(0)));
  assert.equal(await outcome(page), 'right');
  assert.match(await page.textContent('.exercise-feedback'), new RegExp(`computes ${score(0)}`));
  assert.ok(await page.$eval(asked, (cell) => !cell.classList.contains('is-predicting')));
  // Then the step plays and shows every result.
  await page.waitForFunction(() => document.body.dataset.settled === 'true');
  assert.deepEqual(await shownResults(), [1, 1, 1]);
  assert.match(await page.textContent('.exercise-tally'), /Solved here: 1 of 3/);

  // The next number: wrong first, then right after reading the hint.
  await page.click('.exercise-form button:has-text("Another number")');
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₂/);
  await answer(page, String(score(1) + 1));
  assert.equal(await outcome(page), 'wrong');
  const hint = await page.$$eval('.exercise-hint li', (items) => items.map((li) => li.textContent));
  assert.equal(hint[0], 'Score of query 1 for key 2');
  // q₁ = x₁·W_Q = [2,0,1,0]·W_Q = [2, 1, 3] and k₂; the result is left out.
  assert.equal(hint[1], 's₁,₂ = 2·4 + 0·4 + 3·0 = ?'); // q₁ = [2, 0, 3], k₂ = [4, 4, 0]
  const highlighted = await page.$$eval('.scene-host td.cell.is-source', (cells) =>
    cells.map((cell) => `${cell.dataset.matrix}${cell.dataset.row}${cell.dataset.col}`),
  );
  assert.deepEqual(
    highlighted.sort(),
    ['keys10', 'keys11', 'keys12', 'queries00', 'queries01', 'queries02'].sort(),
  );
  await screenshot(page, 'tools-predict-hint');
  assert.equal(score(1), 8);
  await answer(page, '8');
  assert.equal(await outcome(page), 'right');
  assert.equal(await page.$$eval('.scene-host .is-source', (cells) => cells.length), 0);
  assert.match(await page.textContent('.exercise-tally'), /Solved here: 2 of 3/);

  // Not a number: said so, nothing marked.
  await page.click('.exercise-form button:has-text("Another number")');
  await answer(page, 'two');
  assert.equal(await page.getAttribute('.exercise-input', 'aria-invalid'), 'true');
  assert.match(await page.textContent('.exercise-feedback'), /Type a number/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict: a softmax weight within the tolerance, a masked score as −∞, an output entry', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=softmax-2&causal=1`,
  });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  const trace = await nodeTrace({ ...ARTICLE, isCausal: true });
  assert.match(await page.textContent('.exercise-prompt'), /a₂,₁/);
  const weight = trace.weights.data[3];
  await answer(page, (weight * 1.008).toFixed(4)); // within 1%
  assert.equal(await outcome(page), 'right');
  await page.click('.exercise-form button:has-text("Another number")');
  await answer(page, String(trace.weights.data[4] * 1.02)); // outside
  assert.equal(await outcome(page), 'wrong');

  await load(page, `${web.url}#step=scores-1&causal=1`);
  await page.click('[data-tool="predict"]');
  await page.click('.exercise-form button:has-text("Another number")');
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₂/);
  await answer(page, '5');
  assert.equal(await outcome(page), 'wrong');
  assert.match(await page.textContent('.exercise-hint'), /causal mask hides this key/);
  await answer(page, '-inf');
  assert.equal(await outcome(page), 'right');

  await load(page, `${web.url}#step=sum-1`);
  await page.click('[data-tool="predict"]');
  await page.click('.exercise-form button:has-text("Reveal")');
  assert.equal(await outcome(page), 'revealed');
  assert.match(await page.textContent('.exercise-feedback'), /The answer is 1\.937/);
  // A step with nothing to compute says so.
  await load(page, `${web.url}#step=inputs`);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /Nothing to predict at this step/);
  assert.equal(await page.isVisible('.exercise-form'), false);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict in chapter 2: a head’s weight, with its hint, and the size of the KV cache', async () => {
  const layer = layerExample();
  const { n, heads, kvHeads, dHead } = layerDimsOf(layer);
  const trace = await nodeTrace({ ...layer, heads, kvHeads });
  const { page, context, problems } = await web.open({ url: `${web.url}#step=heads-attention` });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  // Head 1's weight from the last query to key 1; the heatmaps keep their numbers hidden.
  assert.match(
    await page.textContent('.exercise-prompt'),
    new RegExp(`a${'₀₁₂₃₄₅₆₇₈'[n]},₁ in head 1`),
  );
  const weight = trace.heads[0].weights.data[(n - 1) * n];
  await answer(page, String(weight + 0.05));
  assert.equal(await outcome(page), 'wrong');
  const hint = await page.$$eval('.exercise-hint li', (items) => items.map((li) => li.textContent));
  assert.match(hint.at(-1), /^a.* = e\^\(.* = \?$/);
  // Its sources are head 1's scores of that query, outlined in head 1's card.
  const sources = await page.$$eval('.scene-host td.cell.is-source', (cells) =>
    cells.map((cell) => `${cell.dataset.matrix}/${cell.dataset.head}/${cell.dataset.row}`),
  );
  assert.ok(sources.length >= n, sources.join(' '));
  assert.ok(
    sources.every((source) => source === `head-scores/0/${n - 1}`),
    sources.join(' '),
  );
  await answer(page, weight.toFixed(3));
  assert.equal(await outcome(page), 'right');

  // Decoding: after token 2 the cache holds 2 × 2 tokens × kv heads × d_head numbers.
  await load(page, `${web.url}#step=decode-2`);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /After token 2, how many numbers/);
  await answer(page, '8');
  assert.equal(await outcome(page), 'wrong');
  assert.match(
    await page.textContent('.exercise-hint'),
    new RegExp(
      `2 \\(key and value\\) × 2 tokens × ${kvHeads} KV heads × ${dHead} numbers each = \\?`,
    ),
  );
  await answer(page, String(2 * 2 * kvHeads * dHead));
  assert.equal(await outcome(page), 'right');
  await screenshot(page, 'tools-predict-chapter2');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict follows a change of sizes that keeps the step: d_v, and the layer’s heads', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-1` });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-tally'), /of 3\./);
  await page.selectOption('.dims label:nth-child(3) select', '2'); // d_v 3 -> 2
  await page.waitForFunction(() =>
    /of 2\./.test(document.querySelector('.exercise-tally').textContent),
  );
  await page.click('.exercise-form button:has-text("Reveal")');
  assert.equal(await outcome(page), 'revealed');

  await load(page, `${web.url}#step=heads-attention`);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-tally'), /of 16\./);
  await page.selectOption('.layer-editor .dim-select >> nth=1', '2'); // 4 heads -> 2
  await page.waitForFunction(() => location.hash.includes('heads=2'));
  assert.match(await page.textContent('.exercise-tally'), /of 8\./);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict: progress per example survives a reload, resets, and a broken localStorage', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=scores-1` });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  await answer(page, '2');
  assert.equal(await outcome(page), 'right');
  await page.reload();
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  assert.match(
    await page.textContent('.exercise-tally'),
    /Solved here: 1 of 3\. Solved in this example: 1/,
  );
  // The first unsolved question is asked.
  assert.match(await page.textContent('.exercise-prompt'), /s₁,₂/);
  // Another example has its own progress.
  await load(page, `${web.url}#step=scores-1&scaled=1`);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-tally'), /Solved in this example: 0/);
  await load(page, `${web.url}#step=scores-1`);
  await page.click('[data-tool="predict"]');
  await page.click('.exercise button:has-text("Reset progress")');
  assert.match(await page.textContent('.exercise-tally'), /Solved in this example: 0/);
  assert.match(await page.textContent('.exercise-feedback'), /Progress for this example was reset/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();

  // Storage that throws on every use, then storage holding junk: the exercise still works.
  for (const breakIt of [
    () =>
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('denied', 'SecurityError');
        },
      }),
    () => localStorage.setItem('self-attention-explainer.progress', '{"broken": [1, 2'),
  ]) {
    const broken = await web.open();
    await broken.page.addInitScript(breakIt);
    await broken.page.goto(`${web.url}#step=scores-1`);
    await waitForReady(broken.page);
    await broken.page.click('[data-tool="predict"]');
    await answer(broken.page, '2');
    assert.equal(await outcome(broken.page), 'right');
    assert.match(await broken.page.textContent('.exercise-tally'), /Solved here: 1 of 3/);
    assert.deepEqual(await collectProblems(broken.page, broken.problems), []);
    await broken.context.close();
  }
});

test('Practice draws fresh small whole-number examples whose questions are checked', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=inputs` });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  const examples = [];
  for (let round = 0; round < 2; round++) {
    await page.click('[data-tool="practice"]');
    await page.waitForFunction(() => /x=/.test(location.hash));
    const hash = await page.evaluate(() => location.hash);
    const params = new URLSearchParams(hash.slice(1));
    const matrix = (key) =>
      params
        .get(key)
        .split(';')
        .map((row) => row.split(',').map(Number));
    const example = {
      x: matrix('x'),
      wKey: matrix('wk'),
      wQuery: matrix('wq'),
      wValue: matrix('wv'),
    };
    for (const values of Object.values(example))
      assert.ok(
        values.flat().every((v) => Number.isInteger(v) && Math.abs(v) <= 2),
        hash,
      );
    examples.push(hash);
    assert.equal(params.get('step'), 'keys-row-1');
    assert.match(
      await page.textContent('.workbench'),
      /Practice: a new example of small whole numbers/,
    );
    // A practice example is not called the reader's own numbers.
    assert.doesNotMatch(await page.textContent('.workbench'), /your own numbers now/);
    assert.match(await page.textContent('.workbench-own'), /practice example/);
    // The question is about this example: k₁,₁ = x₁ · (W_K's first column).
    const trace = await nodeTrace(example);
    assert.match(await page.textContent('.exercise-prompt'), /k₁,₁/);
    await answer(page, String(trace.keys.data[0]));
    assert.equal(await outcome(page), 'right');
  }
  assert.notEqual(examples[0], examples[1]);
  // The article's example was kept: the notice gives it back, at the step the reader left.
  const back = '.notice[data-notice="practice"] .notice-action';
  assert.equal((await page.textContent(back)).trim(), 'Back to the article’s example');
  await page.click(back);
  await page.waitForFunction(() => location.hash === '#step=inputs');
  assert.equal(await page.$('.notice[data-notice="practice"]'), null);
  // The reader's own numbers: kept too, and Back in the browser returns them as well.
  await load(
    page,
    `${web.url}#step=scores-1&x=1,0,1,0;0,2,0,2;1,1,1,2` +
      '&wk=0,0,1;1,1,0;0,1,0;1,1,0&wq=1,0,1;1,0,0;0,0,1;0,1,1&wv=0,2,0;0,3,0;1,0,3;1,1,0',
  );
  assert.match(await page.evaluate(() => location.hash), /x=1,0,1,0;0,2,0,2;1,1,1,2/);
  const own = await page.evaluate(() => location.hash);
  await page.click('[data-tool="predict"]'); // Practice is in the Predict panel
  await page.click('[data-tool="practice"]');
  await page.waitForFunction((hash) => location.hash !== hash, own);
  assert.match(await page.textContent(back), /Back to your numbers/);
  await page.goBack();
  await page.waitForFunction((hash) => location.hash === hash, own);
  await page.waitForFunction(() => document.body.dataset.step === 'scores-1');
  assert.equal(await page.$('.notice[data-notice="practice"]'), null, 'practice is over');
  await page.click('[data-tool="practice"]');
  await page.waitForFunction((hash) => location.hash !== hash, own);
  await page.click(back);
  await page.waitForFunction((hash) => location.hash === hash, own);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Predict in Chinese, and on a phone', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=softmax-1`,
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
  });
  await waitForReady(page);
  await page.click('[data-tool="predict"]');
  assert.match(await page.textContent('.exercise-prompt'), /a₁,₁是多少？即查询1给键1的权重/);
  await answer(page, '0.5');
  assert.equal(await outcome(page), 'wrong');
  assert.match(await page.textContent('.exercise-feedback'), /不太对/);
  await page.$eval('.exercise', (element) => element.scrollIntoView());
  await screenshot(page, 'tools-predict-zh-phone');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

/** Every export from the page at `url`; returns what each produced. */
async function exportAll(page) {
  await page.click('[data-tool="export"]');
  const files = {};
  for (const format of ['png', 'svg', 'json', 'csv', 'gif'])
    files[format] = await download(page, format);
  return files;
}

async function checkExports(page, files, { title, numbers }) {
  // PNG: decodes, at twice the CSS size.
  const png = pngSize(files.png.bytes);
  const decodedPng = await decodeInPage(page, files.png.bytes, 'image/png');
  assert.deepEqual([decodedPng.width, decodedPng.height], [png.width, png.height]);
  assert.ok(png.width > 400 && png.height > 200, `PNG ${png.width}×${png.height}`);
  // SVG: parses, and its text is text: the title and the scene's numbers.
  const svg = files.svg.bytes.toString('utf8');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
    };
  }, svg);
  assert.equal(parsed.error, null);
  assert.equal(parsed.root, 'svg');
  assert.ok(parsed.texts.includes(title), `SVG has the title "${title}"`);
  for (const value of numbers)
    assert.ok(parsed.texts.includes(value), `SVG has the number ${value}`);
  assert.doesNotMatch(svg, /<image|foreignObject/);
  // The title is not cut off: the drawing is at least as wide as the title's text.
  const svgWidth = Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)[1]);
  const titleWidth = await page.evaluate((text) => {
    const context = document.createElement('canvas').getContext('2d');
    context.font = `700 18px ${getComputedStyle(document.querySelector('.scene-host')).fontFamily}`;
    return context.measureText(text).width;
  }, title);
  assert.ok(svgWidth >= titleWidth + 16, `SVG ${svgWidth} px wide, its title ${titleWidth} px`);
  assert.doesNotMatch(svg, /color\(/, 'colours as rgb(), which every SVG viewer reads');
  // GIF: well-formed, one frame per moment of each step of the stage, decodable.
  const gif = gifFrames(files.gif.bytes);
  assert.ok(gif.frames >= 5, `${gif.frames} GIF frames`);
  const decodedGif = await decodeInPage(page, files.gif.bytes, 'image/gif');
  assert.deepEqual([decodedGif.width, decodedGif.height], [gif.width, gif.height]);
  if (decodedGif.frames !== 1) assert.equal(decodedGif.frames, gif.frames);
  // CSV: a header and one line per entry.
  const csv = files.csv.bytes.toString('utf8').trim().split('\r\n');
  assert.equal(csv[0], 'matrix,query,row,col,value');
  return { gif, json: JSON.parse(files.json.bytes.toString('utf8')), csv };
}

test('Export: PNG, SVG, GIF, JSON and CSV of the step, and the JSON’s link round trip', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=scores-1&scaled=1` });
  await waitForReady(page);
  const files = await exportAll(page);
  assert.equal(files.png.name, 'self-attention-scores-1-en.png');
  assert.equal(files.gif.name, 'self-attention-stage-4-en.gif');
  const trace = await nodeTrace({ ...ARTICLE, scale: 1 / Math.sqrt(3) });
  const { gif, json, csv } = await checkExports(page, files, {
    title: 'Attention scores of query 1',
    numbers: ['1.155', '2.309', '2.309'],
  });
  assert.equal(gif.frames, 5); // stage 4 has one step
  // Chapter 1's matrices (X, three weights, then seven 3×3 results) and the weighted values;
  // chapter 2's layer and chapter 3's matrices follow them.
  const chapter1 = csv.filter((line) => !/^(layer|head|ch3)-/.test(line));
  assert.equal(chapter1.length, 1 + 3 * 4 + 3 * 4 * 3 + 7 * 9 + 9 * 3);
  assert.ok(csv.some((line) => line.startsWith('head-4-weights,,4,4,')));
  assert.ok(csv.includes('scores,,1,2,' + trace.scores.data[1]));
  // JSON: every matrix, the settings, and a link that opens the same numbers again.
  assert.equal(json.step, 'scores-1');
  assert.deepEqual(json.settings, { scaled: true, causal: false, rounding: 'exact' });
  assert.deepEqual(json.matrices.scores.data.flat(), Array.from(trace.scores.data));
  assert.deepEqual(json.matrices.outputs.data.flat(), Array.from(trace.outputs.data));
  await load(page, `${web.url}${json.link}`);
  await page.click('[data-tool="export"]');
  const again = JSON.parse((await download(page, 'json')).bytes.toString('utf8'));
  assert.deepEqual(again, json);

  // An edited example goes through the JSON's link too.
  const edited = structuredClone(json.matrices);
  await load(
    page,
    `${web.url}#step=sum-1&x=1,0,1,0;0,2,0,2;1,1,1,-3&wk=${edited.wKey.data.map((r) => r.join(',')).join(';')}` +
      `&wq=${edited.wQuery.data.map((r) => r.join(',')).join(';')}&wv=${edited.wValue.data.map((r) => r.join(',')).join(';')}`,
  );
  await waitForReady(page);
  await page.click('[data-tool="export"]');
  const editedJson = JSON.parse((await download(page, 'json')).bytes.toString('utf8'));
  assert.deepEqual(editedJson.matrices.x.data[2], [1, 1, 1, -3]);
  await load(page, `${web.url}${editedJson.link}`);
  await page.click('[data-tool="export"]');
  assert.deepEqual(JSON.parse((await download(page, 'json')).bytes.toString('utf8')), editedJson);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Export: the GIF of a stage in Chinese from the learner’s numbers; the share link', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=keys-row-2`,
    locale: 'zh-CN',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
  await waitForReady(page);
  await page.fill('.workbench [data-editor="x"] input[data-row="0"][data-col="0"]', '3');
  await page.click('[data-tool="export"]');
  const gif = await download(page, 'gif');
  assert.equal(gif.name, 'self-attention-stage-3-zh.gif');
  // Stage 3: three roles, each n rows and its matrix: 12 steps of 5 moments.
  assert.equal(gifFrames(gif.bytes).frames, 12 * 5);
  const svg = (await download(page, 'svg')).bytes.toString('utf8');
  assert.match(svg, /xml:lang="zh"/);
  assert.match(svg, /<text[^>]*>计算输入2的键<\/text>/);
  // The share link: the page's URL with the edit in it, and a sentence saying so.
  const link = await page.inputValue('.share-link');
  assert.equal(link, await page.evaluate(() => location.href));
  assert.match(link, /x=3,0,1,0/);
  assert.match(await page.textContent('.export-panel .tools-note'), /链接包含你修改过的数字和设置/);
  await page.click('[data-tool="copy-link"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  assert.match(await page.textContent('.export-panel .tools-status'), /已复制/);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Export on chapter 2’s steps: the decoding stage as a GIF, the layer’s matrices in JSON', async () => {
  const layer = layerExample();
  const { heads, kvHeads } = layerDimsOf(layer);
  const trace = await nodeTrace({ ...layer, heads, kvHeads });
  const { page, context, problems } = await web.open({ url: `${web.url}#step=decode-2` });
  await waitForReady(page);
  const files = await exportAll(page);
  const title = await page.textContent('.scene-title');
  const { gif, json } = await checkExports(page, files, { title, numbers: ['160', '304'] });
  // Stage 13: one step per token of the layer's example, five moments each, and small (a
  // frame writes only what changed since the one before).
  assert.equal(gif.frames, layer.x.length * 5);
  assert.ok(files.gif.bytes.length < 500_000, `the GIF is ${files.gif.bytes.length} bytes`);
  // Masked cells keep their stripes (lines in the hatching's colour).
  assert.match(files.svg.bytes.toString('utf8'), /<line[^>]*stroke="rgb\(226, 230, 236\)"/);
  assert.equal(json.step, 'decode-2');
  for (let h = 0; h < heads; h++) {
    assert.deepEqual(
      json.layer.matrices[`head-${h + 1}-weights`].data.flat(),
      Array.from(trace.heads[h].weights.data),
    );
  }
  assert.deepEqual(
    json.layer.matrices['layer-outputs'].data.flat(),
    Array.from(trace.outputs.data),
  );
  // And the heads' step as an image.
  await load(page, `${web.url}#step=heads-attention`);
  await page.click('[data-tool="export"]');
  const svg = (await download(page, 'svg')).bytes.toString('utf8');
  assert.match(svg, /<text[^>]*>Head 1<\/text>/);
  // The "Numbers" switch is a control, not part of the picture; the colour scales are drawn.
  assert.doesNotMatch(svg, /<text[^>]*>Numbers<\/text>/);
  const swatches = await page.$$eval('.scene-host .heat-step', (all) => all.length);
  assert.ok(swatches > 0);
  // Each card's coloured top border is drawn above its fill: a line of head 1's colour.
  const headColour = await page.$eval(
    '.scene-host .head-card',
    (card) => getComputedStyle(card).borderTopColor,
  );
  assert.ok(svg.includes(`stroke="${headColour}"`), `a line in ${headColour}`);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('Export works in the offline file under its policy (the GIF worker from a blob: URL)', async () => {
  const { page, context, problems } = await web.open({ url: `${explainerFileUrl}#step=softmax-1` });
  await waitForReady(page);
  const files = await exportAll(page);
  const { gif, json } = await checkExports(page, files, {
    title: 'Softmax of the scores of query 1',
    numbers: ['0.063', '0.468'],
  });
  assert.equal(gif.frames, 5);
  assert.equal(json.link, '#step=softmax-1');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
