// Chapter 3's training model code in Node (web/model/training.mjs): reading a typed sequence,
// finding the step where the loss dropped, and scoring what a head does; and its files
// (web/model/training-export.mjs): the loss as CSV, the parameters as JSON and back; and
// chapter 3 in the link (web/url-state.mjs, web/model/parameters-link.mjs).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  TRAINING_DEFAULTS,
  findDrop,
  parseLetters,
  readAttention,
} from '../../web/model/training.mjs';
import { inductionScore, previousTokenScore, readHead } from '../../web/model/head-reading.mjs';
import {
  PARAMETERS_FORMAT,
  lossCsv,
  parametersJson,
  readParametersJson,
} from '../../web/model/training-export.mjs';
import { decodeParametersLink, encodeParametersLink } from '../../web/model/parameters-link.mjs';
import { parseHash, serializeHash } from '../../web/url-state.mjs';
import { kindName, readingText } from '../../web/draw/training-views.mjs';
import { translator } from '../../web/i18n/index.mjs';

describe('the chapter model (Node)', () => {
  test('parseLetters takes A..O with or without spaces, and names what it refuses', () => {
    assert.deepEqual(parseLetters('A B C d').tokens, [0, 1, 2, 3, 4]);
    assert.deepEqual(parseLetters('abca').tokens, [0, 1, 2, 3, 1]);
    assert.equal(parseLetters('A Z').error.params.letter, 'Z');
    assert.equal(parseLetters('  ').error.key, 'ch3.heads.emptyInput');
    assert.equal(parseLetters('A'.repeat(25)).error.params.most, 24);
  });
  test('findDrop: nothing on a plateau; the step where the smoothed loss halves', () => {
    const plateau = Array.from({ length: 600 }, (_, s) => (s < 100 ? 2.7 - s / 100 : 1.7));
    assert.equal(findDrop(plateau), null);
    const dropped = [...plateau, ...Array(100).fill(0.05)];
    // The 20-step mean falls below 0.85 once 11 low steps are in it.
    assert.equal(findDrop(dropped), 611);
  });
  test('head scores: a previous-token head and an induction head on A B C A B', () => {
    const tokens = [0, 1, 2, 3, 1, 2];
    const T = tokens.length;
    const previous = Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (i === 0 ? Number(j === 0) : Number(j === i - 1))),
    );
    // The induction head: from each repeat, the token after the earlier copy (else BOS).
    const target = [0, 0, 0, 0, 2, 3];
    const induction = target.map((k) => Array.from({ length: T }, (_, j) => Number(j === k)));
    assert.equal(previousTokenScore(previous), 1);
    assert.equal(inductionScore(induction, tokens), 1);
    assert.equal(inductionScore(previous, tokens), 0);
    const data = new Float32Array([...previous.flat(), ...induction.flat()]);
    const reading = readAttention({ data, dims: [2, 1, 1, T, T] }, tokens);
    assert.equal(reading.previousHead.layer, 0);
    assert.equal(reading.inductionHead.layer, 1);
    assert.equal(reading.inductionHead.share, 1);
  });
  test('what a head reads as: one reader, from its weights', () => {
    // ⟨s⟩ A B C D A B C (the heads-learned stage's sequence), T = 8.
    const tokens = [0, 1, 2, 3, 4, 1, 2, 3];
    const T = tokens.length;
    const rows = (pick) =>
      Array.from({ length: T }, (_, i) => {
        const row = Array(T).fill(0);
        const keys = i === 0 ? [0] : [pick(i)].flat();
        for (const k of keys) row[k] += 1 / keys.length;
        return row;
      });
    const earlier = (i) => tokens.lastIndexOf(tokens[i], i - 1);
    const kindOf = (pick) => readHead(rows(pick), tokens).kind;
    assert.equal(
      kindOf((i) => i - 1),
      'previous',
    );
    assert.equal(
      kindOf((i) => (earlier(i) > 0 ? earlier(i) + 1 : 0)),
      'induction',
    );
    assert.equal(
      kindOf((i) => (earlier(i) > 0 ? earlier(i) : i)),
      'copy',
    );
    assert.equal(
      kindOf(() => 0),
      'fixed',
    );
    assert.equal(
      readHead(
        rows(() => 0),
        tokens,
      ).token,
      0,
      'the fixed token is ⟨s⟩',
    );
    assert.equal(
      kindOf((i) => i),
      'self',
    );
    assert.equal(
      kindOf((i) => Array.from({ length: i + 1 }, (_, k) => k)),
      'diffuse',
    );
    // Sharp, but on no one of the patterns: two tokens back.
    assert.equal(
      kindOf((i) => Math.max(0, i - 2)),
      'mixed',
    );
    // Short of half on one pattern, a clear share still says so: the head leans to it (a
    // head with 0.497 on the previous token is not "diffuse" next to one with 0.532 that is a
    // previous-token head). Even weights stay diffuse (above).
    const leaning = (share) =>
      Array.from({ length: T }, (_, i) =>
        Array.from({ length: T }, (_, j) => {
          if (i === 0) return j === 0 ? 1 : 0;
          if (j > i) return 0;
          return j === i - 1 ? share : (1 - share) / i;
        }),
      );
    assert.deepEqual(
      [0.532, 0.497, 0.42, 0.3].map((share) => readHead(leaning(share), tokens).kind),
      ['previous', 'leans', 'leans', 'diffuse'],
    );
    const leans = readHead(leaning(0.497), tokens);
    assert.equal(leans.toward, 'previous');
    assert.ok(Math.abs(leans.share - 0.497) < 1e-9, `${leans.share}`);
    const tr = translator('en');
    assert.equal(kindName(leans, tr), 'leans to previous token');
    assert.match(readingText(leans, tr), /^leans to previous token: 0\.50 of its weight/);
    assert.equal(kindName(leans, translator('zh')), '偏向前一个词元');
    // No head reads as an induction head: the reader says so (null), it does not pick one.
    const data = new Float32Array([...rows((i) => i - 1).flat(), ...rows((i) => i).flat()]);
    const reading = readAttention({ data, dims: [1, 1, 2, T, T] }, tokens);
    assert.equal(reading.inductionHead, null);
    assert.equal(reading.previousHead.head, 0);
  });
});

describe('the training files (Node)', () => {
  test('the loss CSV has one line per step', () => {
    assert.equal(lossCsv(Float32Array.of(2.5, 0.25)), 'step,loss\n1,2.5\n2,0.25\n');
  });
  test('a parameters file reads back: switches, step and every tensor as numbers', () => {
    const parameters = { unembedding: { data: Float32Array.of(0.5, -1), dims: [1, 2] } };
    const settings = { positions: 'learned', layers: 1, heads: 2, seed: 7, speed: 'slow' };
    const read = readParametersJson(parametersJson({ settings, step: 640, parameters }));
    assert.deepEqual(read.parameters, { unembedding: { data: [0.5, -1], dims: [1, 2] } });
    assert.equal(read.step, 640);
    assert.deepEqual(
      { ...read.settings, speed: undefined },
      { positions: 'learned', layers: 1, heads: 2, seed: 7, speed: undefined },
    );
  });
  test('a file that is not one names what is wrong', () => {
    assert.throws(() => readParametersJson('{'), /expected JSON/);
    assert.throws(() => readParametersJson('{"format":"x"}'), TypeError);
    const file = (settings) =>
      JSON.stringify({ format: PARAMETERS_FORMAT, settings, step: 1, parameters: {} });
    assert.throws(
      () => readParametersJson(file({ positions: 'rope', layers: 3, heads: 4, seed: 1 })),
      /settings\.layers must be one of 1, 2, got 3/,
    );
    assert.throws(
      () => readParametersJson(file({ positions: 'rope', layers: 2, heads: 4, seed: -1 })),
      RangeError,
    );
  });
});

describe('chapter 3 in the link (Node)', () => {
  test('the switches round-trip through the hash; defaults are not written', () => {
    const training = { positions: 'learned', layers: 1, heads: 2, seed: 7, speed: 'slow' };
    const hash = serializeHash({ step: 'train', training });
    assert.equal(hash, '#step=train&tpos=learned&tlayers=1&theads=2&tseed=7&tspeed=slow');
    assert.deepEqual(parseHash(hash).state.training, training);
    assert.equal(serializeHash({ step: 'train', training: TRAINING_DEFAULTS }), '#step=train');
    // One switch given: the others are the defaults.
    assert.deepEqual(parseHash('#step=train&theads=1').state.training, {
      ...TRAINING_DEFAULTS,
      heads: 1,
    });
  });
  test('a switch outside its choices is refused by name, as the page says it', () => {
    for (const [part, key, value] of [
      ['tlayers=3', 'tlayers', '3'],
      ['theads=0', 'theads', '0'],
      // 3 heads cannot split d_model = 32: no choice of the page, refused in a link too.
      ['theads=3', 'theads', '3'],
      ['tpos=sinusoidal', 'tpos', 'sinusoidal'],
      ['tseed=4294967296', 'tseed', '4294967296'],
      ['tspeed=Fast', 'tspeed', 'Fast'],
    ]) {
      const parsed = parseHash(`#step=train&${part}`);
      assert.equal(parsed.ok, false, part);
      assert.deepEqual(parsed.problem, { key: 'url.badValue', params: { key, value } }, part);
    }
    // A model link that is not base64url is left out, said so, and the rest applies.
    const notText = parseHash('#step=train&trained=a+b');
    assert.equal(notText.ok, true);
    assert.equal(notText.state.trained, undefined);
    assert.equal(notText.trainedProblem.key, 'url.trainedNotText');
  });
  test('a trained model as link text: float16 numbers, switches and step come back', async () => {
    const data = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 2);
    const parameters = { embedding: { data, dims: [25, 40] }, unembedding: { data, dims: [1000] } };
    const settings = { positions: 'none', layers: 1, heads: 2, seed: 9, speed: 'slow' };
    const text = await encodeParametersLink({ settings, step: 700, parameters });
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.equal(parseHash(`#step=train&trained=${text}`).state.trained, text);
    const read = await decodeParametersLink(text);
    assert.deepEqual(read.settings, { ...settings, speed: 'fast' });
    assert.equal(read.step, 700);
    assert.deepEqual(read.parameters.embedding.dims, [25, 40]);
    read.parameters.unembedding.data.forEach((value, i) => {
      // float16: 11 significant bits, so within 2^-11 of the value (relative).
      assert.ok(Math.abs(value - data[i]) <= Math.abs(data[i]) * 2 ** -11, `${i}`);
    });
  });
  test('a cut-short, damaged or foreign link is refused with what is wrong', async () => {
    const parameters = { a: { data: Float32Array.of(1, 2, 3, 4), dims: [4] } };
    const settings = { positions: 'rope', layers: 2, heads: 4, seed: 1 };
    const text = await encodeParametersLink({ settings, step: 1, parameters });
    await assert.rejects(decodeParametersLink(text.slice(0, -8)), /cut short or damaged/);
    await assert.rejects(decodeParametersLink('AAAA'), /cut short or damaged/);
    await assert.rejects(decodeParametersLink('a*b'), /base64url characters only/);
    const other = await encodeParametersLink({
      settings: { ...settings, layers: 5 },
      step: 1,
      parameters,
    });
    await assert.rejects(decodeParametersLink(other), /settings\.layers must be one of 1, 2/);
    // A deflate bomb stops at the bound instead of filling memory.
    const zeros = new Uint8Array(2 ** 20);
    const bomb = new Uint8Array(
      await new Response(
        new Blob([zeros]).stream().pipeThrough(new CompressionStream('deflate-raw')),
      ).arrayBuffer(),
    );
    const bombText = Buffer.from(bomb).toString('base64url');
    await assert.rejects(decodeParametersLink(bombText), /at most 262144 bytes inflated/);
  });
});
