// The page's links and typed text as untrusted input (Node, no browser): chapter 3's switches
// in the hash take only the canonical integers the page writes; a model link's step count is
// bounded; a model link too long for the page is reported as too long, without dropping the
// rest of the link; an <attention-explainer> chapter that does not exist is refused by name;
// and stage 18's letter box names exactly the character it refuses, made visible.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import { stateFromUrl } from '../../../web/app/url.mjs';
import { hashOf } from '../../../web/app/markup.mjs';
import { translator } from '../../../web/i18n/index.mjs';
import { decodeParametersLink, encodeParametersLink } from '../../../web/model/parameters-link.mjs';
import { parametersJson, readParametersJson } from '../../../web/model/training-export.mjs';
import { TRAINING_DEFAULTS, modelConfig, parseLetters } from '../../../web/model/training.mjs';
import { parseHash } from '../../../web/url-state.mjs';

describe("chapter 3's switches in the link", () => {
  for (const part of [
    'tseed=0x10',
    'tseed=0b11',
    'tseed=0o7',
    'tseed=1e3',
    'tseed=01',
    'tseed=007',
    'tseed=1.5',
    'tseed=4294967296',
    'tlayers=01',
    'tlayers=2e0',
    'tlayers=0x2',
    'theads=02',
    'theads=4e0',
  ]) {
    test(`${part} is refused by name`, () => {
      const read = parseHash(`step=train&${part}`);
      assert.equal(
        read.ok,
        false,
        `${part} was accepted as ${JSON.stringify(read.state?.training)}`,
      );
      const [key, value] = part.split('=');
      assert.equal(read.problem.key, 'url.badValue');
      assert.equal(read.problem.params.key, key);
      assert.equal(read.problem.params.value, value);
    });
  }
  test('the canonical integers the page writes are read back', () => {
    for (const [part, name, value] of [
      ['tseed=0', 'seed', 0],
      ['tseed=16', 'seed', 16],
      ['tseed=4294967295', 'seed', 4294967295],
      ['tlayers=1', 'layers', 1],
      ['theads=2', 'heads', 2],
    ]) {
      const read = parseHash(`step=train&${part}`);
      assert.equal(read.ok, true, part);
      assert.equal(read.state.training[name], value, part);
    }
  });
});

describe("a model link's step count", () => {
  const settings = { ...TRAINING_DEFAULTS, layers: 1, heads: 2 };
  let parameters;
  test('a file or a link claiming 1e300 steps is refused by name', async () => {
    const attn = await createAttention();
    const model = attn.createTinyTransformer(modelConfig(settings));
    parameters = model.parameters();
    model.free();
    for (const step of [1e300, 2 ** 53, 1e10]) {
      assert.throws(() => readParametersJson(parametersJson({ settings, step, parameters })), {
        name: 'RangeError',
        message: /^parameters file: step must be a whole number from 0 to 1000000000, got/,
      });
      const text = await encodeParametersLink({ settings, step, parameters });
      await assert.rejects(decodeParametersLink(text), {
        name: 'RangeError',
        message: /step must be a whole number from 0 to 1000000000/,
      });
    }
    const fine = await decodeParametersLink(
      await encodeParametersLink({ settings, step: 123456, parameters }),
    );
    assert.equal(fine.step, 123456);
  });
});

describe('a model link too long for the page', () => {
  const tr = translator('en');
  test('68,000 characters: reported as too long; the rest of the link is kept', () => {
    const { state, problem, trainedProblem } = stateFromUrl(
      `#step=train&tseed=7&trained=${'A'.repeat(68_000)}`,
    );
    assert.equal(problem, null);
    assert.equal(state.step, 'train');
    assert.equal(state.training.seed, 7);
    assert.equal(state.trained, null);
    assert.equal(trainedProblem.key, 'url.trainedTooLong');
    const text = tr(trainedProblem.key, trainedProblem.params);
    assert.match(text, /68,?000 characters/);
    assert.match(text, /60,?000/);
    assert.doesNotMatch(text, /not a valid value/);
  });
  test('characters that are not base64url: reported as such; the rest of the link is kept', () => {
    const { state, problem, trainedProblem } = stateFromUrl('#step=train&trained=abc%24def');
    assert.equal(problem, null);
    assert.equal(state.step, 'train');
    assert.equal(trainedProblem.key, 'url.trainedNotText');
    assert.match(tr(trainedProblem.key, trainedProblem.params), /base64url/);
  });
});

describe('<attention-explainer chapter>', () => {
  const tr = translator('en');
  for (const chapter of ['99', '-1', '3abc', '0', '1.0', ' 2', '2e0', '\u202e3']) {
    test(`chapter="${chapter}" is refused by name, not started at stage 1`, () => {
      const { problem } = stateFromUrl(hashOf({ chapter }));
      assert.ok(problem, `chapter="${chapter}" opened without a word`);
      assert.equal(problem.key, 'url.unknownChapter');
      const text = tr('url.fallback', { reason: tr(problem.key, problem.params) });
      assert.match(text, /there is no chapter/);
      assert.match(text, /1 to 3/);
      assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/);
    });
  }
  test('an existing chapter opens at its first step; step wins over chapter', () => {
    assert.equal(stateFromUrl(hashOf({ chapter: '3' })).state.step, 'order-shuffle');
    assert.equal(stateFromUrl('#chapter=2').state.step, 'heads-split');
    assert.equal(stateFromUrl(hashOf({ chapter: '2', step: 'sum-1' })).state.step, 'sum-1');
  });
});

describe("stage 18's letter box names the character it refuses", () => {
  for (const [text, shown] of [
    ['A ß B', 'ß'],
    ['ﬁ', 'ﬁ'],
    ['A B \u202e C', 'U+202E'],
    ['A\u200bB', 'U+200B'],
    ['A\u0007', 'U+0007'],
    ['AİB', 'İ'],
    ['ǆ', 'ǆ'],
    ['A 😀', '😀'],
  ]) {
    test(`${JSON.stringify(text)}: refused, naming ${shown}`, () => {
      const read = parseLetters(text);
      assert.ok(read.error, `accepted as ${JSON.stringify(read.tokens)}`);
      assert.equal(read.error.key, 'ch3.heads.badLetter');
      assert.equal(read.error.params.letter, shown);
    });
  }
  test('letters A to O in either case, spaces and commas between them, still read', () => {
    assert.deepEqual(parseLetters('a B, c·D').tokens, [0, 1, 2, 3, 4]);
    assert.deepEqual(parseLetters('o').tokens, [0, 15]);
  });
});
