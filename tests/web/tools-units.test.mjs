// The learning tools' pure parts, without a browser: reading and checking answers, the
// questions each step declares, practice examples, progress with storage that fails, the
// element's markup and attributes, the CSV and JSON of the matrices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elementMarkup, hashOf } from '../../web/app/markup.mjs';
import { layerDimsOf, layerExample } from '../../web/model/layer.mjs';
import { articleExample, dimsOf } from '../../web/model/example.mjs';
import { buildSteps } from '../../web/stages/index.mjs';
import { computeLayerNumbers } from '../../web/model/layer-numbers.mjs';
import { computeNumbers } from '../../web/model/numbers.mjs';
import { matricesCsv } from '../../web/tools/export/matrices.mjs';
import { parseHash } from '../../web/url-state.mjs';
import {
  cellSymbol,
  isRight,
  mistakeOf,
  parseAnswer,
  questionsOf,
  TOLERANCE,
} from '../../web/tools/exercises.mjs';
import { practiceExample } from '../../web/tools/practice.mjs';
import { createProgress, solvedAmong } from '../../web/tools/progress.mjs';
import { stageNumber } from './walkthrough-shape.mjs';

test('answers are read as a learner types them', () => {
  assert.equal(parseAnswer(' 2 '), 2);
  assert.equal(parseAnswer('−1.5'), -1.5);
  assert.equal(parseAnswer('.25'), 0.25);
  assert.equal(parseAnswer('1/4'), 0.25);
  assert.equal(parseAnswer('-3/2'), -1.5);
  assert.equal(parseAnswer('0,5'), 0.5);
  assert.equal(parseAnswer('0,063'), 0.063);
  assert.equal(parseAnswer('−1,25'), -1.25);
  // A comma that can be a thousands separator is one (English and Chinese group with it).
  assert.equal(parseAnswer('1,999'), 1999);
  assert.equal(parseAnswer('12,345.5'), 12345.5);
  assert.ok(!isRight(parseAnswer('1,999'), 2));
  assert.equal(parseAnswer('1,99,9'), null);
  assert.equal(parseAnswer('1,5.2'), null);
  assert.equal(parseAnswer('-inf'), -Infinity);
  assert.equal(parseAnswer('−∞'), -Infinity);
  assert.equal(parseAnswer('1/0'), null);
  assert.equal(parseAnswer('two'), null);
  assert.equal(parseAnswer(''), null);
  assert.equal(parseAnswer('1e400'), Infinity);
});

test('the tolerance is the stated one: 1%, or ±0.001 near 0', () => {
  assert.deepEqual(TOLERANCE, { absolute: 0.001, relative: 0.01 });
  assert.ok(isRight(0.47, 0.468311));
  assert.ok(isRight(0.468, 0.468311));
  assert.ok(!isRight(0.46, 0.468311));
  // Relative: 0.07 is not 0.063 (it was, within ±0.01), nor is 0.06; 0.063 is.
  assert.ok(isRight(0.063, 0.0633789));
  assert.ok(!isRight(0.07, 0.0633789));
  assert.ok(!isRight(0.06, 0.0633789));
  assert.ok(isRight(0, 0.0003));
  assert.ok(isRight(101, 100)); // 1% of 100
  assert.ok(!isRight(101.2, 100));
  assert.ok(isRight(-Infinity, -Infinity));
  assert.ok(!isRight(-1000, -Infinity));
  assert.ok(!isRight(-Infinity, 0));
});

test('every step that computes numbers declares questions about cells it shows', () => {
  const steps = buildSteps(dimsOf(articleExample()), layerDimsOf(layerExample()));
  const asking = steps.filter((step) => step.questions);
  assert.deepEqual(
    [...new Set(asking.map((step) => step.stage))],
    [
      'stage.projections',
      'stage.scores',
      'stage.softmax',
      'stage.weighted',
      'stage.sum',
      'stage.everyQuery',
      'stage.headAttention',
      'stage.decoding',
      'stage.order',
      'stage.learn',
      'stage.heads-learned',
    ].map(stageNumber),
    'keys/values/queries to every query, each head, decoding, a shuffle, a gradient and the induction head ask',
  );
  const numbers = { dims: dimsOf(articleExample()), layer: { dims: layerDimsOf(layerExample()) } };
  const scores = steps.find((step) => step.id === 'scores-1').questions(numbers);
  assert.deepEqual(
    scores.map((q) => q.cell),
    [0, 1, 2].map((j) => ({ matrix: 'scores', row: 0, col: j })),
  );
  const weighted = steps.find((step) => step.id === 'weighted-2').questions(numbers);
  assert.equal(weighted.length, 3 * 3);
  assert.equal(cellSymbol(weighted[1].cell), 'a₂,₁·v₁,₂');
  assert.equal(cellSymbol({ matrix: 'keys', row: 0, col: 2 }), 'k₁,₃');
  // Chapter 2: each head's weights for the last query, and the cache at each decoding step.
  const headWeights = steps.find((step) => step.id === 'heads-attention').questions(numbers);
  assert.equal(headWeights.length, 4 * 4);
  assert.deepEqual(headWeights[5].cell, { matrix: 'head-weights', head: 1, row: 3, col: 1 });
  assert.equal(cellSymbol(headWeights[5].cell), 'a₄,₂');
  const [cache] = steps.find((step) => step.id === 'decode-3').questions(numbers);
  assert.equal(cache.answer(numbers), 2 * 3 * 4 * 2);
  // Sizes come from the numbers, not from the dims the steps were built with.
  const narrower = { ...numbers, dims: { ...numbers.dims, dV: 2 } };
  assert.equal(steps.find((step) => step.id === 'sum-1').questions(narrower).length, 2);
  const twoHeads = { layer: { dims: { ...numbers.layer.dims, heads: 2 } } };
  assert.equal(steps.find((step) => step.id === 'heads-attention').questions(twoHeads).length, 8);
});

test('practice examples: small whole numbers, the same for a seed, different across seeds', () => {
  const seen = new Set();
  for (let seed = 1; seed <= 200; seed++) {
    const example = practiceExample(seed);
    const { n, dIn, dK, dV } = dimsOf(example);
    assert.equal(n, 3);
    assert.ok(dIn >= 3 && dIn <= 4 && dK >= 2 && dK <= 3 && dV >= 2 && dV <= 3);
    assert.ok(example.x.flat().every((v) => Number.isInteger(v) && v >= 0 && v <= 2));
    for (const name of ['wKey', 'wQuery', 'wValue'])
      assert.ok(example[name].flat().every((v) => Number.isInteger(v) && v >= -1 && v <= 2));
    assert.deepEqual(practiceExample(seed), example);
    seen.add(JSON.stringify(example));
  }
  assert.equal(seen.size, 200);
});

test('progress: kept per example, reset, and never lost to a failing storage', () => {
  const storage = new Map();
  const working = {
    getItem: (key) => storage.get(key) ?? null,
    setItem: (key, value) => storage.set(key, String(value)),
  };
  const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  const use = (value) =>
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get: value });
  try {
    use(() => working);
    const progress = createProgress();
    progress.mark('#a', 'scores:0:1', 'solved');
    progress.mark('#b', 'keys:0:0', 'revealed');
    assert.deepEqual(createProgress().get('#a'), { 'scores:0:1': 'solved' });
    progress.reset('#a');
    assert.deepEqual(createProgress().get('#a'), {});
    assert.deepEqual(createProgress().get('#b'), { 'keys:0:0': 'revealed' });
    // Junk in storage reads as nothing.
    storage.set('self-attention-explainer.progress', '[1, 2');
    assert.deepEqual(createProgress().get('#b'), {});
    storage.set('self-attention-explainer.progress', '{"#b": "not an object"}');
    assert.deepEqual(createProgress().get('#b'), {});
    // Hand-edited progress: only known outcomes of plausible ids are read, and the tally
    // counts only the questions the page asks.
    const edited = { 'scores::0:1': 'solved', 'scores::0:2': 'yes', '<img>': 'solved' };
    for (let k = 0; k < 999; k++) edited[`made-up:${k}`] = 'solved';
    storage.set('self-attention-explainer.progress', JSON.stringify({ '#e': edited }));
    const read = createProgress().get('#e');
    assert.equal(read['scores::0:1'], 'solved');
    assert.equal(read['scores::0:2'], undefined);
    assert.equal(read['<img>'], undefined);
    assert.equal(solvedAmong(read, ['scores::0:0', 'scores::0:1', 'scores::0:2']), 1);
    // Storage that throws: progress is kept in memory for the page's life.
    use(() => {
      throw new Error('SecurityError');
    });
    const memoryOnly = createProgress();
    memoryOnly.mark('#c', 'outputs:0:0', 'solved');
    assert.deepEqual(memoryOnly.get('#c'), { 'outputs:0:0': 'solved' });
    // Storage that is full.
    use(() => ({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    }));
    const full = createProgress();
    full.mark('#d', 'weights:0:0', 'solved');
    assert.deepEqual(full.get('#d'), { 'weights:0:0': 'solved' });
  } finally {
    if (original) Object.defineProperty(globalThis, 'localStorage', original);
    else delete globalThis.localStorage;
  }
});

test('the element’s markup carries the step, the settings and edited numbers', () => {
  const settings = { scaled: true, causal: false, rounding: 'exact' };
  assert.equal(
    elementMarkup(
      { example: articleExample(), layer: layerExample(), settings, step: 'scores-1' },
      'zh',
    ),
    '<attention-explainer lang="zh" step="scores-1" example="scaled=1"></attention-explainer>',
  );
  const example = articleExample();
  example.x[0][0] = -2.5;
  const markup = elementMarkup(
    { example, layer: layerExample(), settings: { ...settings, scaled: false }, step: 'sum-1' },
    'en',
  );
  const attribute = /example="([^"]+)"/.exec(markup)[1].replace(/&amp;/g, '&');
  const parsed = parseHash(`step=sum-1&${attribute}`);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.state.example, example);
});

test('the element’s attributes become the page’s hash', () => {
  assert.equal(hashOf({ step: 'scores-1' }), '#step=scores-1');
  assert.equal(hashOf({ chapter: '1' }), '#step=inputs');
  assert.equal(hashOf({ chapter: '2' }), '#step=heads-split');
  // No such chapter: the app refuses it by name (app/url.mjs), not a silent first step.
  assert.equal(hashOf({ chapter: '9' }), '#chapter=9');
  assert.equal(hashOf({ step: 'sum-1', chapter: '1' }), '#step=sum-1');
  assert.equal(hashOf({ example: 'scaled=1&causal=1' }), '#scaled=1&causal=1');
  assert.equal(hashOf({ step: '3', example: '#scaled=1' }), '#step=3&scaled=1');
  assert.equal(hashOf({}), '#');
});

test('the CSV has no formula-looking values: a masked score (−∞) is left empty', async () => {
  const { default: createAttention } = await import(
    new URL('../../dist/attention.mjs', import.meta.url).href
  );
  const attn = await createAttention();
  const settings = { scaled: false, causal: true, rounding: 'exact' };
  const numbers = computeNumbers(attn, articleExample(), settings, true);
  numbers.layer = computeLayerNumbers(attn, layerExample(), settings, true);
  const lines = matricesCsv(numbers).trim().split('\r\n');
  assert.equal(lines[0], 'matrix,query,row,col,value');
  const values = lines.slice(1).map((line) => line.split(',').at(-1));
  for (const value of values)
    assert.ok(value === '' || Number.isFinite(Number(value)), `"${value}" is a number`);
  assert.ok(!values.some((value) => /^[-+=@]\D/.test(value)), 'no value reads as a formula');
  // Query 1 sees only key 1: its scores for keys 2 and 3 are masked.
  assert.ok(lines.includes('scores,,1,2,'));
  assert.ok(lines.includes('scores,,1,3,'));
  assert.ok(lines.includes(`scores,,1,1,${numbers.scores.data[0]}`));
});

test('Predict names a common slip before the whole calculation', () => {
  const steps = buildSteps(dimsOf(articleExample()), layerDimsOf(layerExample()));
  // Hand-made numbers are enough: the mistakes are read from the trace's matrices.
  const matrix = (rows) => ({
    rows: rows.length,
    cols: rows[0].length,
    data: Float64Array.from(rows.flat()),
  });
  const scores = [
    [2, 4, 4],
    [4, 16, 12],
    [6, 12, 10],
  ];
  const max = scores.map((row) => Math.max(...row));
  const exps = scores.map((row, i) => row.map((s) => Math.exp(s - max[i])));
  const sums = exps.map((row) => row.reduce((a, b) => a + b, 0));
  const numbers = {
    dims: { n: 3, dIn: 4, dK: 3, dV: 3 },
    scale: 1,
    masked: () => false,
    scores: matrix(scores),
    exponentials: matrix(exps),
    weights: matrix(exps.map((row, i) => row.map((e) => e / sums[i]))),
    layer: { dims: layerDimsOf(layerExample()) },
  };
  const [question] = questionsOf(
    steps.find((step) => step.id === 'softmax-1'),
    numbers,
  ).filter((q) => q.cell.col === 1);
  // a₁,₂ = e^(4 − 4) ÷ (e^(2 − 4) + 1 + 1) = 0.468
  assert.ok(isRight(0.468, question.answer));
  assert.equal(mistakeOf(question, 0.468), null, 'right is no slip');
  assert.equal(mistakeOf(question, 4 / 10), 'noExp');
  assert.equal(mistakeOf(question, 1), 'noDivide');
  assert.equal(mistakeOf(question, Math.exp(4)), 'noShift');
  assert.equal(mistakeOf(question, numbers.weights.data[3]), 'wrongRow');
  assert.equal(mistakeOf(question, 0.3), null, 'an answer no slip explains');
});
