// Chapter 3, stages 14-16 (order and positions, one learning step, the rest of the block):
// every scene's numbers against the module run in Node and against float64 references
// written out here; then the page: the scenes show those numbers, the Shuffle and "10 more
// steps" buttons and the target editor (by keyboard), Chinese, reduced motion, deep links to
// every step, the offline file, phone and laptop layouts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  pageFixture,
  screenshot,
  waitForReady,
  waitForStep,
} from './helpers.mjs';
import { assertShown, at, close, nodeAttention, nodeNumbers } from './chapter3-numbers.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { layerExample } from '../../web/model/layer.mjs';
import { computeLayerNumbers } from '../../web/model/layer-numbers.mjs';
import { computeLearningNumbers, LEARNING_DEFAULTS } from '../../web/model/learning.mjs';
import { LEARNING_RATE } from '../../web/model/learning-step.mjs';
import { DISTANCES, STARTS } from '../../web/model/rope-numbers.mjs';
import { computeNumbers } from '../../web/model/numbers.mjs';
import { matricesCsv, matricesJson } from '../../web/tools/export/matrices.mjs';

const web = pageFixture();
const CHAPTER_3_LEARN = [
  'order-shuffle',
  'order-positions',
  'order-rope',
  'order-distance',
  'learn-target',
  'learn-outputs',
  'learn-attention',
  'learn-scores',
  'learn-qkv',
  'learn-weights',
  'learn-update',
  'block-residual',
  'block-norm',
  'block-mlp',
];

// --- float64 references, written out independently of the page's code ----------------------
const matmul = (a, b) =>
  a.map((row) => b[0].map((_, c) => row.reduce((s, v, k) => s + v * b[k][c], 0)));
const transpose = (a) => a[0].map((_, c) => a.map((row) => row[c]));
const softmaxRows = (s) =>
  s.map((row) => {
    const max = Math.max(...row);
    const e = row.map((v) => Math.exp(v - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / sum);
  });

/** Attention forward and backward in float64 for L = ½‖o₁ − t‖². */
function reference({ x, wQuery, wKey, wValue }, target) {
  const q = matmul(x, wQuery);
  const k = matmul(x, wKey);
  const v = matmul(x, wValue);
  const a = softmaxRows(matmul(q, transpose(k)));
  const o = matmul(a, v);
  const gO = o.map((row, i) => row.map((value, c) => (i === 0 ? value - target[c] : 0)));
  const gA = matmul(gO, transpose(v));
  const gS = a.map((row, i) => {
    const dot = row.reduce((s, w, j) => s + w * gA[i][j], 0);
    return row.map((w, j) => w * (gA[i][j] - dot));
  });
  const gQ = matmul(gS, k);
  const gK = matmul(transpose(gS), q);
  const gV = matmul(transpose(a), gO);
  const loss = gO[0].reduce((s, d) => s + d * d, 0) / 2;
  return {
    o,
    a,
    loss,
    grad: { outputs: gO, weights: gA, scores: gS, queries: gQ, keys: gK, values: gV },
    gradW: {
      wQuery: matmul(transpose(x), gQ),
      wKey: matmul(transpose(x), gK),
      wValue: matmul(transpose(x), gV),
    },
  };
}

const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) => Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));

test('Order: shuffled tokens give the same output rows permuted; with positions they do not', async () => {
  const { order } = await nodeNumbers();
  assert.deepEqual(order.order, [2, 1, 0], 'the first shuffle reverses the tokens');
  order.order.forEach((source, k) => {
    for (let c = 0; c < 3; c++)
      close(at(order.shuffled.outputs, k, c), at(order.plain.outputs, source, c), 1e-6, `y′${k}`);
  });
  let gap = 0;
  order.order.forEach((source, k) => {
    for (let c = 0; c < 3; c++)
      gap = Math.max(
        gap,
        Math.abs(at(order.placedShuffled.outputs, k, c) - at(order.placed.outputs, source, c)),
      );
  });
  assert.ok(gap > 0.05, `with positions the shuffled outputs differ (by ${gap})`);
  // Another order, through the state as the Shuffle button sets it.
  const next = await nodeNumbers({ ...LEARNING_DEFAULTS, order: [1, 0, 2] });
  assert.deepEqual(next.order.order, [1, 0, 2]);
  close(at(next.order.shuffled.outputs, 0, 1), at(next.order.plain.outputs, 1, 1), 1e-6, 'y₂');
});

test('RoPE: the pair turned by m radians (float64), scores depend on the distance only', async () => {
  const { rope, order } = await nodeNumbers();
  const q = rowsOf(order.plain.queries)[0];
  const k = rowsOf(order.plain.keys)[1];
  const turn = ([a, b], angle) => [
    a * Math.cos(angle) - b * Math.sin(angle),
    a * Math.sin(angle) + b * Math.cos(angle),
  ];
  rope.qTurned.forEach((pair, m) => {
    const want = turn(q.slice(0, 2), m);
    close(pair[0], want[0], 1e-5, `q at ${m}`);
    close(pair[1], want[1], 1e-5, `q at ${m}`);
  });
  STARTS.forEach((start, s) =>
    DISTANCES.forEach((d, di) => {
      const qm = [...turn(q.slice(0, 2), start), ...q.slice(2)];
      const kn = [...turn(k.slice(0, 2), start + d), ...k.slice(2)];
      const want = qm.reduce((sum, v, c) => sum + v * kn[c], 0);
      close(rope.scores[s][di], want, 1e-4, `score from ${start} at distance ${d}`);
      close(rope.scores[s][di], rope.scores[0][di], 1e-4, 'equal distances, equal scores');
    }),
  );
  close(rope.plainScore, 4, 1e-6, 'q₁·k₂ without positions (the article’s score)');
  assert.ok(new Set(rope.scores[0].map((v) => v.toFixed(3))).size === DISTANCES.length);
});

test('One learning step: trace()’s gradients equal a float64 backward pass; the step lowers the loss', async () => {
  const { step } = await nodeNumbers();
  const example = articleExample();
  assert.deepEqual(
    step.target,
    [1, 2, 3],
    'suggested: value 1, the token query 1 attends to least',
  );
  const ref = reference(example, step.target);
  close(step.loss, ref.loss, 1e-4, 'loss');
  for (const field of ['outputs', 'weights', 'scores', 'queries', 'keys', 'values'])
    ref.grad[field].forEach((row, i) =>
      row.forEach((value, j) =>
        close(
          at(step.before.grad[field], i, j),
          value,
          1e-3 * Math.max(1, Math.abs(value)),
          `∂L/∂${field}[${i}][${j}]`,
        ),
      ),
    );
  for (const name of ['wQuery', 'wKey', 'wValue'])
    ref.gradW[name].forEach((row, r) =>
      row.forEach((value, c) => {
        close(
          at(step.before.grad[name], r, c),
          value,
          1e-3 * Math.max(1, Math.abs(value)),
          `∂L/∂${name}`,
        );
        close(
          at(step.weightsAfter[name], r, c),
          example[name][r][c] - LEARNING_RATE * value,
          1e-4,
          `new ${name}`,
        );
      }),
    );
  // The softmax's row Jacobian: each row of ∂L/∂S sums to 0.
  close(
    rowsOf(step.before.grad.scores)[0].reduce((a, b) => a + b, 0),
    0,
    1e-5,
    'row sum',
  );
  const after = reference(
    Object.fromEntries(
      ['x', 'wQuery', 'wKey', 'wValue'].map((n) => [
        n,
        n === 'x' ? example.x : rowsOf(step.weightsAfter[n]),
      ]),
    ),
    step.target,
  );
  close(step.losses[1], after.loss, 1e-3, 'loss after one step');
  assert.ok(step.losses[1] < step.losses[0] / 2, `${step.losses[0]} -> ${step.losses[1]}`);
  const distance = (o) => Math.hypot(...o.map((v, c) => v - step.target[c]));
  assert.ok(distance(rowsOf(step.after.outputs)[0]) < distance(rowsOf(step.before.outputs)[0]));
  // Ten more steps keep lowering it.
  const more = (await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 })).step;
  assert.equal(more.losses.length, 12);
  assert.ok(more.losses[11] < more.losses[1]);
  // The reader's target.
  const own = (await nodeNumbers({ ...LEARNING_DEFAULTS, target: [2, 8, 0] })).step;
  close(own.loss, reference(example, [2, 8, 0]).loss, 1e-4, 'loss for the reader’s target');
});

test('The rest of the block: residual, LayerNorm and MLP from chapter 2’s layer', async () => {
  const { block } = await nodeNumbers();
  const x = rowsOf(block.x);
  const y = rowsOf(block.y);
  const r = x.map((row, i) => row.map((v, c) => v + y[i][c]));
  rowsOf(block.residual).forEach((row, i) => row.forEach((v, c) => close(v, r[i][c], 1e-9, 'R')));
  rowsOf(block.normed).forEach((row) => {
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length;
    close(mean, 0, 1e-9, 'mean');
    close(variance, 1, 1e-4, 'variance');
  });
  rowsOf(block.hidden).forEach((row) => row.forEach((v) => assert.ok(v >= 0, 'ReLU')));
  const z = rowsOf(block.output);
  const m = rowsOf(block.mlp);
  z.forEach((row, i) => row.forEach((v, c) => close(v, r[i][c] + m[i][c], 1e-9, 'Z = R + M')));
  assert.deepEqual([block.output.rows, block.output.cols], [block.x.rows, block.x.cols]);
});

test('Export: chapter 3’s matrices in the JSON and the CSV', async () => {
  const attn = await nodeAttention();
  const numbers = computeNumbers(
    attn,
    articleExample(),
    { scaled: false, causal: false, rounding: 'exact' },
    true,
  );
  numbers.learning = await nodeNumbers();
  const json = matricesJson(numbers, { step: 'learn-update', link: '#step=learn-update' });
  assert.deepEqual(json.learning['ch3-order'].data, [[3, 2, 1]]);
  assert.deepEqual(json.learning['ch3-target'].data, [[1, 2, 3]]);
  close(json.learning['ch3-grad-scores'].data[0][1], 3.9654, 1e-3, 'JSON ∂L/∂s₁₂');
  assert.equal(json.learning['ch3-losses'].data[0].length, 2);
  assert.equal(json.learning['ch3-block-output'].rows, 4);
  const csv = matricesCsv(numbers);
  assert.match(csv, /\r\nch3-grad-scores,,1,2,3\.965/);
  assert.match(csv, /\r\nch3-rope-scores,,1,3,-5\.30/);
});

test('the page: each scene shows the module’s numbers; Shuffle, the target and 10 more steps', async () => {
  const numbers = await nodeNumbers();
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=learn-scores`,
    viewport: { width: 1366, height: 768 },
  });
  await waitForReady(page);
  await waitForStep(page, 'learn-scores');
  await assertShown(page, 'grad-scores', (i, j) => at(numbers.step.before.grad.scores, i, j));
  // The cell's arithmetic, as chapter 1's cells: on hover, and on focus (one Tab stop).
  await page.hover('.scene-host td.cell[data-matrix="grad-scores"][data-row="0"][data-col="1"]');
  assert.match(
    await page.textContent('#cell-popover'),
    /∂L\/∂s₁₂ = .*0\.468·\(39\.338 − 30\.871\) = 3\.965/,
  );
  await page.focus('.scene-host td.cell[data-matrix="grad-scores"][data-row="0"][data-col="0"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#cell-popover'), /∂L\/∂s₁₃ = .* = −2\.395/);
  await screenshot(page, 'ch3-15-learn-scores-laptop');
  for (const [step, matrix, value] of [
    ['learn-weights', 'grad-wQuery', (i, j) => at(numbers.step.before.grad.wQuery, i, j)],
    ['learn-update', 'learn-new-wValue', (i, j) => at(numbers.step.weightsAfter.wValue, i, j)],
    ['learn-update', 'learn-o1-after', (i, j) => at(numbers.step.after.outputs, i, j)],
    ['order-distance', 'rope-scores', (i, j) => numbers.rope.scores[i][j]],
    ['block-norm', 'block-normed', (i, j) => at(numbers.block.normed, i, j)],
  ]) {
    await page.goto(`${web.url}#step=${step}`);
    await waitForStep(page, step);
    await assertShown(page, matrix, value);
  }
  // 10 more steps: the status and the plot follow the module.
  await page.goto(`${web.url}#step=learn-update`);
  await waitForStep(page, 'learn-update');
  await page.click('.ch3-more-steps');
  await page.waitForFunction(() => document.querySelector('.learn-status')?.dataset.steps === '11');
  const more = (await nodeNumbers({ ...LEARNING_DEFAULTS, steps: 11 })).step;
  close(
    Number(await page.getAttribute('.learn-status', 'data-loss')),
    more.losses[11],
    1e-6,
    'loss after 11 steps',
  );
  assert.equal(await page.$$eval('.loss-plot circle', (all) => all.length), 12);
  await screenshot(page, 'ch3-15-learn-update-laptop');
  // Shuffle by keyboard: the focused button reorders the tokens with Space, as any button
  // does (Space is play/pause elsewhere); Y′ is Y permuted.
  await page.goto(`${web.url}#step=order-shuffle`);
  await waitForStep(page, 'order-shuffle');
  await page.focus('.ch3-shuffle');
  await page.keyboard.press('Space');
  await page.waitForFunction(
    () =>
      document.querySelector('.scene-host td.cell[data-matrix="order-x-shuffled"][data-row="0"]')
        ?.dataset.token === '1',
  );
  assert.equal(
    await page.evaluate(() => document.activeElement?.dataset.focusKey),
    'shuffle',
    'focus stays on Shuffle',
  );
  assert.equal(
    await page.getAttribute('.transport-button.is-play', 'aria-pressed'),
    'false',
    'Space pressed Shuffle, and did not start playing',
  );
  const shuffled = await nodeNumbers({ ...LEARNING_DEFAULTS, order: [1, 0, 2] });
  await waitForStep(page, 'order-shuffle');
  await assertShown(page, 'order-y-shuffled', (i, j) => at(shuffled.order.shuffled.outputs, i, j));
  assert.match(await page.textContent('.scene-order .ch3-verdict'), /largest difference is 0\b/);
  await screenshot(page, 'ch3-14-order-shuffle-laptop');
  // Predict: the sign of a score's gradient, asked before the gradients are shown.
  await page.goto(`${web.url}#step=learn-scores`);
  await waitForStep(page, 'learn-scores');
  await page.click('[data-tool="predict"]');
  assert.match(
    await page.textContent('.exercise-prompt'),
    /∂L\/∂s₁₂, the gradient of query 1’s score for key 2/,
  );
  await page.fill('.exercise-input', '-1');
  await page.press('.exercise-input', 'Enter');
  assert.match(await page.textContent('.exercise-feedback'), /Not quite/);
  await page.fill('.exercise-input', '1');
  await page.press('.exercise-input', 'Enter');
  assert.match(await page.textContent('.exercise-feedback'), /Right: the page computes 1/);
  await page.click('[data-tool="predict"]');
  // The target, typed: the loss follows; a bad entry is named and changes nothing.
  await page.goto(`${web.url}#step=learn-target`);
  await waitForStep(page, 'learn-target');
  await page.fill('.target-input[data-col="0"]', 'abc');
  await page.press('.target-input[data-col="0"]', 'Enter');
  assert.match(
    await page.textContent('.target-message'),
    /Target entry 1: expected a number .* given “abc”/,
  );
  close(
    Number(await page.getAttribute('.learn-loss', 'data-loss')),
    numbers.step.loss,
    1e-6,
    'unchanged',
  );
  await page.fill('.target-input[data-col="0"]', '2');
  await page.press('.target-input[data-col="0"]', 'Enter');
  const own = (await nodeNumbers({ ...LEARNING_DEFAULTS, target: [2, 2, 3] })).step;
  await page.waitForFunction(
    (want) => Math.abs(Number(document.querySelector('.learn-loss')?.dataset.loss) - want) < 1e-6,
    own.loss,
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('deep links to every step, Chinese, reduced motion, the offline file, phone', async () => {
  const { page, context, problems } = await web.open({
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  for (const step of CHAPTER_3_LEARN) {
    await page.goto(`${web.url}#step=${step}`);
    await waitForReady(page);
    await waitForStep(page, step);
    assert.equal(
      await page.$$eval('.notice', (all) => all.length),
      0,
      `${step}: no fallback notice`,
    );
  }
  assert.match(await page.textContent('.stage-list'), /第三章 · 权重从哪里来/);
  assert.match(await page.textContent('.explanation'), /Z 与 X 的形状完全相同/);
  // The scene fits the phone's width (it may scroll inside its own box, not the page).
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `no page-wide horizontal scroll (${overflow}px)`);
  await screenshot(page, 'ch3-16-block-mlp-zh-phone');
  await page.goto(`${web.url}#step=learn-update`);
  await waitForStep(page, 'learn-update');
  await screenshot(page, 'ch3-15-learn-update-zh-phone');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();

  // Reduced motion: the step is drawn finished at once, the same numbers.
  const numbers = await nodeNumbers();
  const offline = await web.open({
    url: `${explainerFileUrl}#step=learn-update`,
    reducedMotion: 'reduce',
  });
  await waitForReady(offline.page);
  await waitForStep(offline.page, 'learn-update');
  await assertShown(offline.page, 'learn-o1-after', (i, j) => at(numbers.step.after.outputs, i, j));
  await offline.page.keyboard.press('ArrowLeft');
  await waitForStep(offline.page, 'learn-weights');
  assert.deepEqual(await collectProblems(offline.page, offline.problems), []);
  await offline.context.close();
});

test('the editor’s extreme shapes: 1 token of 1 number, and 8 tokens of 8', async () => {
  const attn = await nodeAttention();
  const layer = computeLayerNumbers(
    attn,
    layerExample(),
    { scaled: false, causal: false, rounding: 'exact' },
    true,
  );
  const fill = (rows, cols, seed) =>
    Array.from({ length: rows }, (_, i) =>
      Array.from({ length: cols }, (_, j) => ((i * 3 + j * 5 + seed) % 5) - 2),
    );
  const tiny = { x: [[1]], wQuery: [[1]], wKey: [[2]], wValue: [[3]] };
  const small = computeLearningNumbers(attn, tiny, LEARNING_DEFAULTS, layer);
  assert.equal(small.rope, null, 'no pair to turn: the scene says so');
  assert.deepEqual(small.order.order, [0]);
  assert.ok(small.step.losses.every(Number.isFinite));
  assert.deepEqual(small.step.target, [4], 'one token: its value + 1, so there is a loss');
  assert.ok(small.step.losses[1] < small.step.losses[0]);
  const big = {
    x: fill(8, 8, 1),
    wQuery: fill(8, 8, 2),
    wKey: fill(8, 8, 3),
    wValue: fill(8, 8, 4),
  };
  const large = computeLearningNumbers(attn, big, { ...LEARNING_DEFAULTS, steps: 11 }, layer);
  assert.equal(large.order.order.length, 8);
  assert.equal(large.rope.scores[0].length, DISTANCES.length);
  assert.ok(large.step.losses.every(Number.isFinite));
  // A target of the wrong length (left from other dims) falls back to the suggestion.
  const stale = computeLearningNumbers(
    attn,
    tiny,
    { ...LEARNING_DEFAULTS, target: [1, 2, 3] },
    layer,
  );
  assert.deepEqual(stale.step.target, stale.step.suggested);
});
