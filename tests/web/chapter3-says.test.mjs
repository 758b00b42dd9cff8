// Chapter 3 says what the page did, in headless Chromium: the learning step's animation
// prints only real weights, "Take 10 more steps" is told as 11 steps, the loss chart has its
// axis numbers, steps that diverge are said to diverge and why (no NaN cells); the MLP's W₁
// and W₂ are in its scene; the train stage says what the tiny model is (its parameters
// counted by the module) and which loss it lowers; and its two speeds are named apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatExact } from '../../web/format.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { TRAINING_DEFAULTS, modelConfig } from '../../web/model/training.mjs';
import { at, nodeAttention, nodeNumbers } from './chapter3-numbers.mjs';
import {
  collectProblems,
  pageFixture,
  parseShown,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';

const web = pageFixture();
const WEIGHTS = ['wQuery', 'wKey', 'wValue'];

async function open(hash, options = {}) {
  const opened = await web.open({ url: `${web.url}#${hash}`, ...options });
  await waitForReady(opened.page);
  return opened;
}

/** The explanation as it reads, without the glossary's (closed) pop-ups. */
const explanation = (page) =>
  page.$eval('.explanation-text', (element) => {
    const copy = element.cloneNode(true);
    copy.querySelectorAll('.glossary-popup').forEach((popup) => popup.remove());
    return copy.textContent;
  });

test('the learning step: only real weights mid-animation; 10 more steps told as such; the loss chart’s axes', async () => {
  const { step } = await nodeNumbers();
  const { page, context, problems } = await open('step=learn-update', {
    reducedMotion: 'no-preference',
  });
  await waitForStep(page, 'learn-update');
  // A fifth into the step: the weights are on their way from the old values to the new.
  // (The knob's coordinate follows the stage marks, timeline.mjs knobPosition: the values
  // that show the step are found by trying them.)
  await page.$eval('.scrubber', (scrubber) => {
    const set = (value) => {
      scrubber.value = String(value);
      scrubber.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const shown = [];
    for (let value = 0; value <= 1000; value++) {
      set(value);
      if (document.body.dataset.step === 'learn-update') shown.push(value);
    }
    set(Math.round(shown[0] + 0.2 * (shown.at(-1) - shown[0])));
  });
  for (const name of WEIGHTS) {
    const shown = await page.$$eval(
      `.scene-host td.cell[data-matrix="learn-new-${name}"]`,
      (cells) =>
        cells.map((cell) => ({
          row: Number(cell.dataset.row),
          col: Number(cell.dataset.col),
          text: cell.querySelector('.cell-value').textContent,
        })),
    );
    assert.ok(shown.length > 0);
    for (const { row, col, text } of shown) {
      const real = [step.weightsBefore[name], step.weightsAfter[name]].map((m) =>
        formatExact(at(m, row, col)),
      );
      assert.ok(real.includes(text), `${name}[${row}][${col}] shows ${text}, not one of ${real}`);
    }
  }
  // A fresh load: the step shown finished.
  await page.goto('about:blank');
  await page.goto(`${web.url}#step=learn-update`);
  await waitForReady(page);
  await waitForStep(page, 'learn-update');
  assert.match(await explanation(page), /after this one step output 1 is nearer its target/);
  await page.click('.ch3-more-steps');
  await page.waitForFunction(() => document.querySelector('.learn-status')?.dataset.steps === '11');
  const text = await explanation(page);
  assert.match(text, /\(11 steps here; the weights shown are those after the last\)/);
  assert.match(text, /after these 11 steps output 1 is nearer its target/);
  assert.doesNotMatch(text, /one step/);
  // The chart: steps 0 to 11 along the bottom, the loss up the side, in round numbers.
  const ticks = await page.$$eval('.loss-plot .loss-tick', (all) => all.map((t) => t.textContent));
  assert.ok(ticks.includes('0'), `ticks ${ticks}`);
  const numbers = ticks.map(Number);
  assert.ok(numbers.every(Number.isFinite), `ticks ${ticks}`);
  assert.ok(Math.max(...numbers) >= step.losses[0], `the axis reaches the first loss: ${ticks}`);
  assert.ok(ticks.length >= 5, `numbers on both axes: ${ticks}`);
  assert.deepEqual(
    await page.$$eval('.loss-plot .loss-axis', (all) => all.map((t) => t.textContent)),
    ['steps taken', 'loss'],
  );
  await screenshot(page, 'ch3-says-learn-11-steps');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('steps that diverge are said to diverge, and why; no NaN is shown', async () => {
  // In-range numbers: every input 30 (the article's weights), a target of ±1000, 200 steps.
  const { wKey, wQuery, wValue } = articleExample();
  const text = (m) => m.map((row) => row.join(',')).join(';');
  const x = '30,30,30,30;30,30,30,30;30,30,30,30';
  const { page, context, problems } = await open(
    `step=learn-update&x=${x}&wk=${text(wKey)}&wq=${text(wQuery)}&wv=${text(wValue)}` +
      '&target=1000,-1000,1000&steps=200',
  );
  await waitForStep(page, 'learn-update');
  const said = await page.textContent('.scene-host .learn-diverged');
  assert.match(
    said,
    /The steps diverged: the loss grew from step 1 on, until the next step’s numbers/,
  );
  assert.match(said, /‖∂L\/∂W‖ = [\d.e]+, so one step of η = 0\.01 times it moves the weights/);
  assert.equal(await page.getAttribute('.scene-host .learn-diverged', 'role'), 'alert');
  const cells = await page.$$eval('.scene-host td.cell .cell-value', (all) =>
    all.map((c) => c.textContent),
  );
  assert.ok(cells.length > 0);
  assert.deepEqual(
    cells.filter((t) => /NaN|∞/.test(t)),
    [],
    'no cell holds a number that is not one',
  );
  assert.equal(await page.isDisabled('.ch3-more-steps'), true, 'more steps would overflow');
  // The link says the steps really taken, not the 200 asked for.
  const taken = Number(await page.getAttribute('.scene-host [data-steps]', 'data-steps'));
  assert.ok(taken >= 1 && taken < 200, `stopped at step ${taken}`);
  await page.waitForFunction((n) => location.hash.includes(`&steps=${n}`), taken);
  assert.doesNotMatch(page.url(), /steps=200/);
  await page.reload();
  await waitForStep(page, 'learn-update');
  assert.equal(await page.getAttribute('.scene-host [data-steps]', 'data-steps'), String(taken));
  assert.equal(await page.isDisabled('.ch3-more-steps'), true, 'the link says it would overflow');
  assert.match(await explanation(page), /the loss has not fallen but risen/);
  await screenshot(page, 'ch3-says-learn-diverged');
  // In Chinese too.
  await page.click('.language-button[data-language="zh"]');
  await page.waitForFunction(() =>
    /步骤发散了/.test(document.querySelector('.scene-host .learn-diverged')?.textContent),
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the MLP’s W₁ and W₂ are in its scene', async () => {
  const { block } = await nodeNumbers();
  const { page, context, problems } = await open('step=block-mlp');
  await waitForStep(page, 'block-mlp');
  for (const name of ['w1', 'w2']) {
    const shown = await page.$$eval(
      `.scene-host td.cell[data-matrix="block-${name}"] .cell-value`,
      (all) => all.map((c) => c.textContent),
    );
    assert.equal(shown.length, block[name].rows * block[name].cols, name);
    assert.deepEqual(
      shown.map(parseShown),
      Array.from(block[name].data, (v) => Number(v.toFixed(3))),
      name,
    );
  }
  await screenshot(page, 'ch3-says-block-mlp');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the train stage: what the tiny model is, the loss it lowers, and two speeds named apart', async () => {
  const attn = await nodeAttention();
  const model = attn.createTinyTransformer(modelConfig(TRAINING_DEFAULTS));
  const count = Object.values(model.parameters()).reduce((n, p) => n + p.data.length, 0);
  model.free();
  const { page, context, problems } = await open('step=train');
  await waitForStep(page, 'train');
  // The sentence comes in the page's first idle moment (its count makes a model: train.mjs).
  await page.waitForFunction(
    () => document.querySelector('.scene-train .train-model').textContent !== '',
  );
  const about = () => page.textContent('.scene-train .train-model');
  assert.match(
    await about(),
    new RegExp(
      `2 layers of self-attention with 4 heads each, d_model = 32 .* It holds ${count.toLocaleString('en-US')} parameters`,
    ),
  );
  assert.match(await explanation(page), /cross-entropy of the next token/);
  assert.match(await page.textContent('.formula'), /log/);
  const labels = await page.$$eval('.speed-label, .scene-train .train-field span', (all) =>
    all.map((e) => e.textContent.trim()).filter((t) => /speed/i.test(t)),
  );
  assert.deepEqual(labels.sort(), ['Animation speed', 'Training speed']);
  // Heads per layer: only the counts that split d_model = 32 into pairs (no 3).
  assert.deepEqual(
    await page.$$eval('.scene-train select[data-control="heads"] option', (all) =>
      all.map((o) => o.value),
    ),
    ['1', '2', '4'],
  );
  // Positions: the model's choices as the package lists them (learned, RoPE, ALiBi, none),
  // RoPE chosen; ALiBi's sentence says what it does to the scores.
  assert.deepEqual(
    await page.$$eval('.scene-train select[data-control="positions"] option', (all) =>
      all.map((o) => `${o.value}:${o.textContent}${o.selected ? ' (chosen)' : ''}`),
    ),
    ['learned:Learned', 'rope:RoPE (chosen)', 'alibi:ALiBi', 'none:None'],
  );
  await page.selectOption('.scene-train select[data-control="positions"]', 'alibi');
  await page.waitForFunction(() =>
    /ALiBi subtracts from each head’s score of a key a fixed slope times how far back/.test(
      document.querySelector('.scene-train .train-model').textContent,
    ),
  );
  // The layers switch to 1: the sentence follows the model.
  await page.selectOption('.scene-train select[data-control="layers"]', '1');
  await page.waitForFunction(() =>
    /^The model: 1 layer of self-attention/.test(
      document.querySelector('.scene-train .train-model').textContent,
    ),
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
