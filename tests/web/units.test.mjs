// The page's pure modules, without a browser: URL parsing, number formatting, the article's
// rounding, seeded random numbers, the steps, and the two translations.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { roundTenthsKeepingSum } from '../../web/model/numbers.mjs';
import { formatExact, formatOneDecimal } from '../../web/format.mjs';
import { articleExample, parseEntry, withDims } from '../../web/model/example.mjs';
import { randomExample } from '../../web/model/random.mjs';
import { layerDimsOf, layerExample, withLayerDims } from '../../web/model/layer.mjs';
import { LANGUAGES, mergeTexts, translator } from '../../web/i18n/index.mjs';
import { CHAPTERS, STAGES, buildSteps, chapterOf } from '../../web/stages/index.mjs';
import { stageNumber } from './walkthrough-shape.mjs';
import { excerpt, parseHash, serializeHash } from '../../web/url-state.mjs';

// The tables tr() reads: the page's strings merged with every stage's own text.
const { en, zh } = LANGUAGES;

test('numbers are shown as the article and the spec print them', () => {
  assert.equal(formatExact(4), '4');
  assert.equal(formatExact(0.0633789), '0.063');
  assert.equal(formatExact(1.9999938), '2.000');
  assert.equal(formatExact(Math.fround(0.37)), '0.37');
  assert.equal(formatExact(-1.5), '−1.5');
  assert.equal(formatExact(-Infinity), '−∞');
  assert.equal(formatExact(-0.0001), '0.000');
  assert.equal(formatOneDecimal(0.0634), '0.1');
  assert.equal(formatOneDecimal(-0.01), '0.0');
});

test('the article’s rounding keeps the weights adding up to 1', () => {
  assert.deepEqual(roundTenthsKeepingSum([0.063379, 0.468311, 0.468311]), [0, 0.5, 0.5]);
  assert.deepEqual(roundTenthsKeepingSum([0.000006, 0.982008, 0.017986]), [0, 1, 0]);
  assert.deepEqual(roundTenthsKeepingSum([0.000295, 0.880537, 0.119168]), [0, 0.9, 0.1]);
  const thirds = roundTenthsKeepingSum([1 / 3, 1 / 3, 1 / 3]);
  assert.ok(Math.abs(thirds.reduce((a, b) => a + b, 0) - 1) < 1e-12);
});

test('cell entries: numbers accepted, anything else refused with a reason', () => {
  assert.deepEqual(parseEntry(' −0.5 '), { value: -0.5 });
  assert.deepEqual(parseEntry('+2'), { value: 2 });
  assert.deepEqual(parseEntry('.5'), { value: 0.5 });
  assert.deepEqual(parseEntry('1e-3'), { value: 0.001 });
  assert.deepEqual(parseEntry('-0'), { value: 0 });
  assert.equal(parseEntry('').error, 'entry.empty');
  for (const bad of ['abc', '1,5', '0x10', 'Infinity', 'NaN', '1e', '--1', '1 2'])
    assert.equal(parseEntry(bad).error, 'entry.notNumber', bad);
  for (const big of ['1e400', '1001', '-5000'])
    assert.equal(parseEntry(big).error, 'entry.tooLarge', big);
});

test('chapter 2’s layer round-trips through the URL; a wrong count or shape is refused', () => {
  for (const dims of [
    { heads: 1, n: 1, dHead: 1 },
    { heads: 4, kvHeads: 2, n: 8, dHead: 4 },
    { heads: 3, kvHeads: 1, n: 5, dHead: 3 },
  ]) {
    const layer = withLayerDims(layerExample(), dims);
    layer.wOut[0][1] = -0.125;
    const hash = serializeHash({ step: 'decode-1', layer, isLayerExample: false });
    const parsed = parseHash(hash);
    assert.equal(parsed.ok, true, hash);
    assert.deepEqual(parsed.state.layer, layer);
  }
  // The chapter's own example stays out of the link.
  assert.equal(serializeHash({ step: 'kv-sharing', layer: layerExample() }), '#step=kv-sharing');
  const good = serializeHash({
    step: 'kv-sharing',
    layer: withLayerDims(layerExample(), { kvHeads: 2 }),
    isLayerExample: false,
  }).slice(1);
  const rejected = {
    [good.replace('kv=2', 'kv=3')]: 'url.badValue', // 3 does not divide 4 heads
    [good.replace('heads=4', 'heads=5')]: 'url.badValue', // at most 4 heads
    [good.replace('heads=4', 'heads=2')]: 'url.badShape', // W_Q has 4 heads' columns
    [good.replace(/&lo=[^&]*/, '')]: 'url.incompleteExample',
    [good.replace(/lk=[^&;]*;/, 'lk=')]: 'url.badShape',
  };
  for (const [input, key] of Object.entries(rejected)) {
    const result = parseHash(input);
    assert.equal(result.ok, false, input);
    assert.equal(result.problem.key, key, input);
  }
});

test('the URL hash round-trips and rejects anything unexpected', () => {
  const example = withDims(articleExample(), { dV: 2 });
  example.x[0][0] = -1.25;
  const hash = serializeHash({
    step: 'softmax-2',
    scaled: true,
    causal: false,
    rounding: 'article',
    example,
    isArticleExample: false,
  });
  const parsed = parseHash(hash);
  assert.equal(parsed.ok, true);
  assert.deepEqual(parsed.state, { step: 'softmax-2', scaled: true, rounding: 'article', example });
  assert.deepEqual(parseHash('#step=inputs'), { ok: true, state: { step: 'inputs' } });
  assert.deepEqual(parseHash(''), { ok: true, state: {} });
  const rejected = {
    'step=<b>': 'url.badStep',
    'step=%E0%A4%A': 'url.badEncoding',
    'step=a&step=b': 'url.duplicateKey',
    'zoom=2': 'url.unknownKey',
    'scaled=2': 'url.badValue',
    'x=1': 'url.incompleteExample',
    'x=1,2&wq=1&wk=1&wv=1': 'url.badShape',
    'x=1e999&wq=1&wk=1&wv=1': 'url.badMatrix',
    [`step=${'a'.repeat(100000)}`]: 'url.tooLong',
    [`${'&'.repeat(30)}`]: 'url.tooManyParts',
  };
  for (const [input, key] of Object.entries(rejected)) {
    const result = parseHash(input);
    assert.equal(result.ok, false, input.slice(0, 30));
    assert.equal(result.problem.key, key, input.slice(0, 30));
  }
  // Bounded time on long adversarial input.
  const started = Date.now();
  parseHash(`x=${'9'.repeat(4000)}`);
  parseHash(`step=${'a-'.repeat(2000)}`);
  assert.ok(Date.now() - started < 50);
});

/** Texts a reader may type into a cell, drawn from a seeded generator of many shapes. */
function* typedNumbers(count, seed = 7) {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const digits = (k) => Array.from({ length: k }, () => Math.floor(random() * 10)).join('');
  const sign = () => ['', '-', '+', '−'][Math.floor(random() * 4)];
  for (let k = 0; k < count; k++) {
    switch (k % 6) {
      case 0: // plain decimals, up to 17 digits after the point
        yield `${sign()}${Math.floor(random() * 1000)}.${digits(1 + Math.floor(random() * 17))}`;
        break;
      case 1: // tiny numbers, written out
        yield `${sign()}0.${'0'.repeat(Math.floor(random() * 8))}${digits(1 + Math.floor(random() * 9))}`;
        break;
      case 2: // exponents, down to the smallest double and past it
        yield `${sign()}${1 + Math.floor(random() * 9)}.${digits(Math.floor(random() * 6))}e-${1 + Math.floor(random() * 330)}`;
        break;
      case 3: // any double within the editor's range, as its shortest text
        yield String((random() * 2 - 1) * 1000);
        break;
      case 4: // integers and near-integers
        yield `${sign()}${Math.floor(random() * 1001)}${random() < 0.5 ? '.0' : ''}`;
        break;
      default: // positive exponents that stay in range, and leading dots
        yield random() < 0.5 ? `${digits(1)}e${Math.floor(random() * 3)}` : `.${digits(6)}`;
    }
  }
}

test('whatever the editor accepts, the link carries exactly (property-based round trip)', () => {
  const specific = [
    '0.012345679',
    '0.000123456',
    '1e-100',
    '5e-324',
    '-5e-324',
    '999.99999999999989',
  ];
  const accepted = [];
  for (const text of [...specific, ...typedNumbers(6000)]) {
    const { value } = parseEntry(text);
    if (value !== undefined) accepted.push({ text, value });
  }
  assert.ok(accepted.length > 5000, `${accepted.length} accepted values`);
  // One example per batch of 64 values: all four matrices 4x4, every cell a different value.
  for (let start = 0; start < accepted.length; start += 64) {
    const batch = accepted.slice(start, start + 64);
    const example = withDims(articleExample(), { n: 4, dIn: 4, dK: 4, dV: 4 });
    let k = 0;
    for (const name of ['x', 'wKey', 'wQuery', 'wValue'])
      for (const row of example[name])
        for (let j = 0; j < row.length; j++) row[j] = batch[k++ % batch.length].value;
    const hash = serializeHash({ step: 'inputs', example, isArticleExample: false });
    const parsed = parseHash(hash);
    assert.equal(parsed.ok, true, `${hash.slice(0, 120)}: ${JSON.stringify(parsed.problem)}`);
    for (const name of ['x', 'wKey', 'wQuery', 'wValue'])
      parsed.state.example[name].forEach((row, i) =>
        row.forEach((value, j) =>
          assert.ok(
            Object.is(value, example[name][i][j]),
            `${name}[${i}][${j}]: typed ${example[name][i][j]}, read back ${value}`,
          ),
        ),
      );
  }
  // The longest link (8 tokens, every dimension 8, long numbers everywhere) still reads back.
  const widest = withDims(articleExample(), { n: 8, dIn: 8, dK: 8, dV: 8 });
  for (const name of ['x', 'wKey', 'wQuery', 'wValue'])
    for (const row of widest[name]) row.fill(-0.0000012345678901234567);
  const parsed = parseHash(serializeHash({ step: 'result', example: widest }));
  assert.equal(parsed.ok, true, JSON.stringify(parsed.problem));
  assert.deepEqual(parsed.state.example, widest);
});

test('excerpts of untrusted text cannot reorder the sentence they are shown in', () => {
  for (const mark of [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200f',
  ])
    assert.equal(excerpt(`${mark}tluser`), '?tluser', `U+${mark.codePointAt(0).toString(16)}`);
  assert.equal(excerpt('a\u0000b'), 'a?b');
  assert.equal(excerpt('中文 ok'), '中文 ok');
});

test('seeded random numbers are reproducible and Xavier stays within its bound', () => {
  const dims = { n: 3, dIn: 4, dK: 3, dV: 2 };
  assert.deepEqual(randomExample(dims, 'xavier', 42), randomExample(dims, 'xavier', 42));
  assert.notDeepEqual(randomExample(dims, 'xavier', 42), randomExample(dims, 'xavier', 43));
  const xavier = randomExample(dims, 'xavier', 5);
  assert.ok(xavier.wValue.flat().every((v) => Math.abs(v) <= Math.sqrt(6 / 6) + 0.005));
  assert.equal(xavier.wValue[0].length, 2);
});

test('the steps follow the article: inputs, weights, K/V/Q row by row, then per query', () => {
  const layerDims = layerDimsOf(layerExample());
  const all = buildSteps({ n: 3, dIn: 4, dK: 3, dV: 3 }, layerDims);
  const ofStage = (steps, titleKey) => steps.filter((s) => s.stage === stageNumber(titleKey));
  const steps = all.filter((s) => chapterOf(s.stage) === 1);
  assert.deepEqual(
    steps.slice(0, 7).map((s) => s.id),
    ['inputs', 'weights', 'keys-row-1', 'keys-row-2', 'keys-row-3', 'keys-matrix', 'values-row-1'],
  );
  // Keys, values and queries: each row, then the matrix.
  assert.equal(ofStage(steps, 'stage.projections').length, 3 * (3 + 1));
  // Query 1 walks the scores, softmax, weighted and sum stages; the others repeat them.
  const perQuery = ['stage.scores', 'stage.softmax', 'stage.weighted', 'stage.sum'];
  assert.deepEqual(
    perQuery.flatMap((key) => ofStage(steps, key)).map((s) => s.id),
    ['scores-1', 'softmax-1', 'weighted-1', 'sum-1'],
  );
  assert.deepEqual(
    ofStage(steps, 'stage.everyQuery').map((s) => s.id),
    ['scores-2', 'softmax-2', 'weighted-2', 'sum-2'].concat(
      ['scores-3', 'softmax-3', 'weighted-3', 'sum-3'],
      ['result'],
    ),
  );
  const oneToken = buildSteps({ n: 1, dIn: 1, dK: 1, dV: 1 }, layerDims);
  const oneTokenArticle = oneToken.filter((s) => chapterOf(s.stage) === 1);
  assert.equal(ofStage(oneTokenArticle, 'stage.everyQuery').length, 1, 'only the result');
  // Chapter 2 follows "The whole result": one decoding step per token of the layer.
  assert.deepEqual(
    all.filter((s) => chapterOf(s.stage) === 2).map((s) => s.id),
    ['heads-split', 'heads-attention', 'heads-concat', 'output-projection', 'kv-sharing'].concat([
      'decode-1',
      'decode-2',
      'decode-3',
      'decode-4',
    ]),
  );
  assert.equal(new Set(all.map((s) => s.id)).size, all.length, 'ids are unique');
  // A stage's number is its place in the list, stated nowhere else.
  assert.deepEqual(
    STAGES.map((stage) => stage.number),
    STAGES.map((_, k) => k + 1),
  );
  for (const stage of STAGES) assert.ok(en[stage.titleKey], `${stage.titleKey} has a title`);
  for (const chapter of CHAPTERS) assert.ok(en[chapter.titleKey], `${chapter.titleKey}`);
});

test("web/README.md's example stage is a stage that builds", async () => {
  const readme = readFileSync(new URL('../../web/README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Adding a stage'));
  const code = section
    .split('\n')
    .filter((line) => line.startsWith('    ') || line === '')
    .join('\n')
    .split('\n\n1. ')[0]
    .replace(/^    /gm, '')
    .replaceAll("'../../", `'${new URL('../../web/', import.meta.url).href}`);
  assert.match(code, /export default \{ titleKey: 'stage\.weights', steps \}/);
  const dir = mkdtempSync(join(tmpdir(), 'readme-stage-'));
  const file = join(dir, 'example.mjs');
  writeFileSync(file, code);
  const { default: stage } = await import(pathToFileURL(file).href);
  const [step] = stage.steps({ n: 3, dIn: 4, dK: 3, dV: 3 });
  assert.equal(step.id, 'weights');
  assert.equal(step.title(translator('en')), en['title.weights']);
  assert.equal(typeof step.build, 'function');
  assert.ok(en[stage.titleKey]);
  rmSync(dir, { recursive: true });
});

test('each stage keeps its own text, and a key defined twice is an error naming both places', () => {
  for (const stage of STAGES) {
    assert.ok(Object.keys(stage.text.en).length > 0, `${stage.titleKey} has its own sentences`);
    assert.equal(stage.text.en[stage.titleKey], en[stage.titleKey], `${stage.titleKey} beside it`);
  }
  const [first, second] = STAGES;
  const key = Object.keys(first.text.en)[0];
  const twice = { ...second, text: { en: { ...second.text.en, [key]: 'again' } } };
  assert.throws(
    () => mergeTexts('en', {}, [first, twice]),
    (error) =>
      error instanceof RangeError &&
      error.message.includes(`"${key}"`) &&
      error.message.includes(first.titleKey) &&
      error.message.includes(second.titleKey),
  );
  assert.throws(() => mergeTexts('en', { [key]: 'page' }, [first]), /i18n\/en\.mjs/);
});

test('English counts agree with their nouns: 1 token, 3 tokens', () => {
  const tr = translator('en');
  assert.equal(tr('ch2.decode.cache.title', { length: 1 }), 'KV cache: 1 token');
  assert.equal(tr('ch2.decode.cache.title', { length: 3 }), 'KV cache: 3 tokens');
  assert.match(tr('scores.count', { n: 1, i: 1 }), /^That gives 1 score for input 1/);
  assert.match(tr('scores.dotCausal', { i: 1 }), /keys \(orange\) of input 1, its own/);
  assert.match(tr('scores.dotCausal', { i: 3 }), /keys \(orange\) of inputs 1 to 3, its own/);
  assert.match(
    tr('ch2.kv.saving', { n: 4, kvHeads: 1, dHead: 2, cached: 16, heads: 4, mha: 64, saved: 48 }),
    /× 1 K\/V head × 2/,
  );
  // Chinese writes the number alone, and names the page's own terms in Chinese.
  for (const [key, text] of Object.entries(zh)) {
    assert.doesNotMatch(text, /weighted values?|(?<![\w.])input ?(\{i\}|\d)/, `zh ${key}: ${text}`);
    assert.doesNotMatch(text, /(?<![\w.{])output ?(\{i\}|\d)/, `zh ${key}: ${text}`);
  }
  assert.doesNotMatch(translator('zh')('ch2.decode.cache.title', { length: 1 }), /#|\|/);
});

test('Chinese and English have the same keys and parameters', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  // Each stage's text beside it, too: the same keys in both languages.
  for (const stage of STAGES)
    assert.deepEqual(
      Object.keys(stage.text.zh).sort(),
      Object.keys(stage.text.en).sort(),
      `the text of stage ${stage.titleKey}`,
    );
  // {n} and a count's plural forms, {n|# token|# tokens}, both name the parameter n.
  const params = (text) =>
    [...new Set([...text.matchAll(/\{(\w+)(?:\|[^|{}]*\|[^|{}]*)?\}/g)].map((m) => m[1]))].sort();
  for (const key of Object.keys(en)) assert.deepEqual(params(zh[key]), params(en[key]), key);
});
