// Editing: a changed entry recomputes scores, weights and outputs to exactly what trace()
// gives for the new input; invalid entries are refused inline with a message; tokens and
// dims change the shapes; seeded random numbers are reproducible; reset restores the article.
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
} from './helpers.mjs';
import { args as ARTICLE } from '../js/article.mjs';
import { articleExample, dimsOf } from '../../web/model/example.mjs';
import { layerDimsOf, layerExample } from '../../web/model/layer.mjs';
import { buildSteps } from '../../web/stages/index.mjs';

const web = pageFixture();

const editor = (name, row, col) =>
  `.workbench [data-editor="${name}"] input[data-row="${row}"][data-col="${col}"]`;

/** A matrix from the "all numbers as tables" panel. */
async function tableMatrix(page, matrix, extra = '') {
  return page.$$eval(`.tables-grid td.cell[data-matrix="${matrix}"]${extra}`, (cells) => {
    const rows = [];
    for (const cell of cells) {
      const i = Number(cell.dataset.row);
      (rows[i] ??= [])[Number(cell.dataset.col)] = cell.textContent;
    }
    return rows;
  });
}

async function editorMatrix(page, name) {
  return page.$$eval(`.workbench [data-editor="${name}"] input`, (inputs) => {
    const rows = [];
    for (const input of inputs)
      (rows[Number(input.dataset.row)] ??= [])[Number(input.dataset.col)] = Number(
        input.value.replace(/\u2212/g, '-'),
      );
    return rows;
  });
}

/** The page's tables equal trace() run in Node on the same module, to the printed digits. */
async function assertMatchesTrace(page, args) {
  const trace = await nodeTrace(args);
  for (const name of ['queries', 'keys', 'values', 'scores', 'weights', 'outputs']) {
    const shown = await tableMatrix(page, name);
    const { rows, cols, data } = trace[name];
    assert.equal(shown.length, rows, `${name}: ${rows} rows`);
    for (let i = 0; i < rows; i++) {
      assert.equal(shown[i].length, cols, `${name}[${i}]: ${cols} columns`);
      for (let j = 0; j < cols; j++) {
        const value = parseShown(shown[i][j]);
        assert.ok(
          Math.abs(value - data[i * cols + j]) <= 0.0005 + 1e-6 * Math.abs(value),
          `${name}[${i}][${j}]: page ${shown[i][j]}, trace ${data[i * cols + j]}`,
        );
      }
    }
  }
}

test('editing an input recomputes scores, weights and outputs through wasm', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-1` });
  await waitForReady(page);
  await page.click('.tables-summary');
  await page.fill(editor('x', 0, 1), '3');
  const x = ARTICLE.x.map((row) => row.slice());
  x[0][1] = 3;
  await assertMatchesTrace(page, { ...ARTICLE, x });
  // The scene updated too, and the URL now carries the edited example.
  const trace = await nodeTrace({ ...ARTICLE, x });
  const sceneOutputs = await page.$$eval('.scene-host td.cell[data-matrix="outputs"]', (cells) =>
    cells.map((c) => c.textContent),
  );
  sceneOutputs.forEach((text, c) =>
    assert.ok(Math.abs(parseShown(text) - trace.outputs.data[c]) < 0.0006),
  );
  assert.match(await page.evaluate(() => location.hash), /x=1,3,1,0;0,2,0,2;1,1,1,1/);
  // A weight too.
  await page.fill(editor('wValue', 2, 0), '-1.5');
  const wValue = ARTICLE.wValue.map((row) => row.slice());
  wValue[2][0] = -1.5;
  await assertMatchesTrace(page, { ...ARTICLE, x, wValue });
  await screenshot(page, '20-edited');
  // Reloading the link gives back the edited numbers.
  await page.reload();
  await waitForReady(page);
  assert.deepEqual(await editorMatrix(page, 'x'), x);
  assert.deepEqual(await editorMatrix(page, 'wValue'), wValue);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('invalid entries are refused inline with a message and change nothing', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-1` });
  await waitForReady(page);
  await page.click('.tables-summary');
  const before = await tableMatrix(page, 'outputs');
  const message = '.workbench [data-editor="x"] .editor-message';
  for (const [text, pattern] of [
    ['abc', /“abc” is not a number/],
    ['1e400', /out of range/],
    ['', /empty cell is not allowed/],
    ['<b>2</b>', /“<b>2<\/b>” is not a number/],
    ['2.5.1', /not a number/],
  ]) {
    await page.fill(editor('x', 1, 1), text);
    assert.match(await page.textContent(message), pattern, `message for "${text}"`);
    assert.equal(await page.getAttribute(editor('x', 1, 1), 'aria-invalid'), 'true');
    assert.equal(await page.isVisible(message), true);
    assert.deepEqual(await tableMatrix(page, 'outputs'), before, `"${text}" changed nothing`);
  }
  assert.equal(
    await page.$$eval(`${message} b`, (bold) => bold.length),
    0,
    'the refused text stays text',
  );
  await screenshot(page, '21-refused-entry');
  // Leaving the field restores the number in use and says so.
  await page.press(editor('x', 1, 1), 'Tab');
  assert.equal(await page.inputValue(editor('x', 1, 1)), '2');
  assert.match(await page.textContent(message), /Refused “2.5.1”: the cell keeps 2/);
  assert.equal(await page.getAttribute(editor('x', 1, 1), 'aria-invalid'), null);
  // A valid number afterwards is accepted and clears the message.
  await page.fill(editor('x', 1, 1), '−1');
  assert.equal(await page.textContent(message), '');
  const x = ARTICLE.x.map((row) => row.slice());
  x[1][1] = -1;
  await assertMatchesTrace(page, { ...ARTICLE, x });
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a scene built ahead in an idle moment after tokens were removed uses the steps of then', async () => {
  // The next step's scene is built when the page is idle. Tokens removed before that moment
  // replace the steps and the numbers: the step to build must come from the new list (the old
  // one names a token the numbers no longer have: "reading 'toFixed'" of undefined). Idle
  // callbacks are held here and run after the edits, as a busy machine would.
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-3` });
  await waitForReady(page);
  await page.click('[aria-label="Add a token"]');
  await page.evaluate(() => {
    window.__held = [];
    window.requestIdleCallback = (task) => window.__held.push(task);
  });
  await page.keyboard.press('ArrowRight'); // a new scene: the next one is prepared
  for (let k = 0; k < 3; k++) await page.click('[aria-label="Remove the last token"]');
  const ran = await page.evaluate(() => {
    const held = window.__held.splice(0);
    for (const task of held) task({ timeRemaining: () => 50, didTimeout: false });
    return held.length;
  });
  assert.ok(ran > 0, 'no idle work was held');
  assert.equal(await page.textContent('.tokens-value'), '1');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('tokens 1–8 and d_in, d_k, d_v change the shapes and recompute', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=sum-3` });
  await waitForReady(page);
  await page.click('.tables-summary');
  await page.click('[aria-label="Add a token"]');
  assert.equal(await page.textContent('.tokens-value'), '4');
  // The walkthrough's length with a fourth token, from the stage list (chapters follow).
  const steps = buildSteps({ ...dimsOf(articleExample()), n: 4 }, layerDimsOf(layerExample()));
  assert.equal(await page.textContent('.step-counter'), `Step 29 of ${steps.length}`);
  const x4 = [...ARTICLE.x, [0, 0, 0, 0]];
  await assertMatchesTrace(page, { ...ARTICLE, x: x4 });
  // d_v 3 -> 2: value weights lose a column, outputs have 2 columns.
  await page.selectOption('.dims label:nth-child(3) select', '2');
  const wValue = ARTICLE.wValue.map((row) => row.slice(0, 2));
  await assertMatchesTrace(page, { ...ARTICLE, x: x4, wValue });
  // d_k 3 -> 4 (queries and keys together), d_in 4 -> 5.
  await page.selectOption('.dims label:nth-child(2) select', '4');
  await page.selectOption('.dims label:nth-child(1) select', '5');
  await page.fill(editor('x', 3, 4), '2');
  await page.fill(editor('wQuery', 4, 3), '1');
  await page.fill(editor('wKey', 4, 3), '0.5');
  const pad = (matrix, rows, cols) =>
    Array.from({ length: rows }, (_, i) =>
      Array.from({ length: cols }, (_, j) => matrix[i]?.[j] ?? 0),
    );
  const args = {
    x: pad(x4, 4, 5),
    wQuery: pad(ARTICLE.wQuery, 5, 4),
    wKey: pad(ARTICLE.wKey, 5, 4),
    wValue: pad(wValue, 5, 2),
  };
  args.x[3][4] = 2;
  args.wQuery[4][3] = 1;
  args.wKey[4][3] = 0.5;
  await assertMatchesTrace(page, args);
  // Down to one token: the step showing token 3 becomes the same step for token 1.
  for (let k = 0; k < 3; k++) await page.click('[aria-label="Remove the last token"]');
  assert.equal(await page.textContent('.tokens-value'), '1');
  assert.equal(await page.isDisabled('[aria-label="Remove the last token"]'), true);
  assert.equal(await page.getAttribute('body', 'data-step'), 'sum-1');
  // Up to the limit of 8.
  for (let k = 0; k < 7; k++) await page.click('[aria-label="Add a token"]');
  assert.equal(await page.textContent('.tokens-value'), '8');
  assert.equal(await page.isDisabled('[aria-label="Add a token"]'), true);
  await screenshot(page, '22-eight-tokens');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('seeded random numbers (Gaussian, Xavier) are reproducible; reset restores the article', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=result` });
  await waitForReady(page);
  await page.click('.tables-summary');
  const seedField = '.workbench .seed';
  const randomise = async (scheme, seed) => {
    await page.selectOption('.workbench .scheme', scheme);
    await page.fill(seedField, String(seed));
    await page.click('text=Randomise');
    return {
      x: await editorMatrix(page, 'x'),
      wKey: await editorMatrix(page, 'wKey'),
      wQuery: await editorMatrix(page, 'wQuery'),
      wValue: await editorMatrix(page, 'wValue'),
    };
  };
  const xavier = await randomise('xavier', 7);
  assert.match(await page.textContent('.workbench-status'), /Xavier uniform, seed 7/);
  const limit = Math.sqrt(6 / (4 + 3));
  for (const name of ['wKey', 'wQuery', 'wValue']) {
    assert.ok(
      xavier[name].flat().every((v) => Math.abs(v) <= limit + 0.005),
      `${name} within ±√(6/7)`,
    );
  }
  await assertMatchesTrace(page, xavier);
  assert.equal(await page.inputValue(seedField), '8', 'the next click gives new numbers');
  const gaussian = await randomise('gaussian', 7);
  assert.notDeepEqual(gaussian.wKey, xavier.wKey);
  await assertMatchesTrace(page, gaussian);
  assert.deepEqual(await randomise('xavier', 7), xavier, 'same scheme and seed, same numbers');
  await page.click('text=Reset to the article’s example');
  assert.deepEqual(await editorMatrix(page, 'x'), ARTICLE.x);
  assert.deepEqual(await editorMatrix(page, 'wValue'), ARTICLE.wValue);
  await assertMatchesTrace(page, ARTICLE);
  assert.equal(await page.evaluate(() => location.hash), '#step=result');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('an edited number such as -2.5 has room inside its field, at 1366 and 390 px', async () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    const { page, context, problems } = await web.open({ url: `${web.url}#step=inputs`, viewport });
    await waitForReady(page);
    const field = page.locator('.workbench .editor-input').first();
    await field.fill('-2.5');
    await field.press('Tab');
    await page.waitForFunction(
      () => document.querySelector('.workbench .editor-input').value === '\u22122.5',
    );
    const room = await page.$eval('.workbench .editor-input', (input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.font;
      const text = context.measureText(input.value).width;
      const inner = input.clientWidth; // padding box: the text's room, border aside
      return { side: (inner - text) / 2, cut: input.scrollWidth > input.clientWidth };
    });
    assert.equal(room.cut, false, `${viewport.width}: the number is cut`);
    assert.ok(room.side >= 4, `${viewport.width}: ${room.side.toFixed(1)} px each side of “−2.5”`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('an edited input: the scene prints every input alike, with the minus sign of the field', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=inputs` });
  await waitForReady(page);
  const field = page.locator(editor('x', 0, 0));
  await field.fill('-2.5');
  await field.press('Tab');
  // The field reads back in the page's style: U+2212, as the scene and the tables print it.
  await page.waitForFunction(
    (selector) => document.querySelector(selector).value === '\u22122.5',
    editor('x', 0, 0),
  );
  const lines = await page.$$eval('.scene-host .term-line .result', (all) =>
    all.map((line) => line.textContent),
  );
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^\[\u22122\.500, /);
  // One style for every input: the same decimals in every line (no "[0, 2, 0, 2]" beside
  // "[−2.500, 0.000, …]"), and no ASCII hyphen-minus in the scene or in the fields.
  const decimals = new Set(
    lines.flatMap((line) => line.match(/\d+(\.\d+)?/g).map((n) => n.split('.')[1]?.length ?? 0)),
  );
  assert.deepEqual([...decimals], [3], lines.join(' '));
  for (const line of lines) assert.doesNotMatch(line, /-/, line);
  const fields = await page.$$eval('.workbench .editor-input', (all) => all.map((f) => f.value));
  assert.ok(
    fields.every((text) => !text.includes('-')),
    fields.join(' '),
  );
  // The table of X prints the same numbers as the lines.
  const row = await sceneRow(page, 'x', 0);
  assert.equal(`[${row.join(', ')}]`, lines[0]);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
