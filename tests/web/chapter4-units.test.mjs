// Chapter 4's model code in Node (web/model/language.mjs and the text readings of
// web/model/head-reading.mjs): the baselines against counts done by hand, the sentence's
// loss equal to −ln of its probability, the learner's sentence checked, and what a head of the
// character model reads as on a couplet; and where the loss curve puts its baselines' labels.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEXT_TASK, createCharTokenizer } from '../../src/js/tasks/text-task.mjs';
import { textSentence } from '../../web/draw/language-views.mjs';
import { snapshotMismatch } from '../../web/app/language-run.mjs';
import { spreadLabels } from '../../web/draw/language-views.mjs';
import {
  lineStartScore,
  punctuationScore,
  readTextHead,
  sameColumnScore,
} from '../../web/model/head-reading.mjs';
import {
  CONTEXT,
  LANGUAGE_MODEL,
  TEXTS,
  baselines,
  describeText,
  headsOff,
  parseSentence,
  sentencePlace,
  sentenceScores,
  softmaxRow,
  verseShare,
} from '../../web/model/language.mjs';

const COUPLET = [...'床前明月光，疑是地上霜。'];

/** Weights [T][T] where row i puts all its weight on pick(i) (a key at or before i). */
const rows = (T, pick) =>
  Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => Number(j === pick(i))));

describe('chapter 4: the model code (Node)', () => {
  test('baselines: unigram and bigram on a text whose counts are known', () => {
    // "ab" twenty times: training part "abab…" (the first 36), held-out the last 4 ("abab").
    const ids = Array.from({ length: 40 }, (_, i) => i % 2);
    const { unigram, bigram } = baselines(ids, 2);
    // Unigram: 18 of each in training, p = 19/38 = 1/2 for both.
    assert.ok(Math.abs(unigram - Math.log(2)) < 1e-12);
    // Bigram: after a always b (17 of 17 pairs seen... 18 a's, 17 or 18 pairs), one kind each:
    // p(b | a) = (count(ab) + 1 · 1/2) / (count(a·) + 1), near 1, so far below the unigram.
    assert.ok(bigram < 0.1 && bigram > 0, `bigram ${bigram}`);
  });

  test('the shown loss is −ln of the shown probability, and the sentence loss their mean', () => {
    const tokenizer = createCharTokenizer('abc');
    const ids = [0, 1, 2];
    const V = 3;
    const logits = { data: new Float32Array([2, 1, 0, 0, 0, 3, 1, 1, 1]), dims: [1, 3, V] };
    const scores = sentenceScores(logits, ids);
    const p0 = softmaxRow(logits, 0);
    assert.ok(Math.abs(p0.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.equal(scores.places[0].p, p0[1]);
    assert.ok(Math.abs(scores.places[0].loss + Math.log(p0[1])) < 1e-12);
    assert.equal(scores.last.truth, 2);
    assert.equal(scores.last.top[0].id, 2); // logits 0 0 3 at row 1
    assert.equal(scores.last.rank, 1);
    const mean = (scores.places[0].loss + scores.places[1].loss) / 2;
    assert.ok(Math.abs(scores.loss - mean) < 1e-12);
    assert.equal(tokenizer.vocabSize, 3);
  });

  test('the learner’s sentence: ids, or why not (too short, too long, a character not in the text)', () => {
    const tokenizer = createCharTokenizer('床前明月光，疑是地上霜。');
    assert.deepEqual(
      Array.from(parseSentence('明月', tokenizer).ids),
      Array.from(tokenizer.encode('明月')),
    );
    assert.equal(parseSentence('明', tokenizer).error.key, 'ch4.sentence.short');
    assert.equal(parseSentence('明'.repeat(CONTEXT + 1), tokenizer).error.params.most, CONTEXT);
    assert.equal(parseSentence('明日', tokenizer).error.params.character, '日');
  });

  test('a character model’s heads read on a couplet: same place in the line before, start of the line, punctuation, previous', () => {
    const T = COUPLET.length; // 12: 床前明月光，(0-5) 疑是地上霜。(6-11)
    // Each character of the second half looks at its twin in the first (i - 6: 。 at ，);
    // the first half at 0.
    const parallel = rows(T, (i) => (i >= 6 ? i - 6 : 0));
    assert.equal(sameColumnScore(parallel, COUPLET), 1);
    assert.equal(readTextHead(parallel, COUPLET).kind, 'line');
    // Each character looks at the first of its line (itself at the first).
    const start = rows(T, (i) => (i >= 6 ? 6 : 0));
    assert.equal(lineStartScore(start, COUPLET), 1);
    assert.equal(readTextHead(start, COUPLET).kind, 'lineStart');
    // From the comma on, every character looks at the comma.
    const marks = rows(T, (i) => (i >= 5 ? 5 : 0));
    assert.equal(punctuationScore(marks, COUPLET), 1);
    assert.equal(readTextHead(marks, COUPLET).kind, 'punctuation');
    const previous = rows(T, (i) => Math.max(0, i - 1));
    assert.equal(readTextHead(previous, COUPLET).kind, 'previous');
    const even = Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (j <= i ? 1 / (i + 1) : 0)),
    );
    assert.equal(readTextHead(even, COUPLET).kind, 'diffuse');
    // 0.45 on the previous character, the rest spread evenly: a band under the diagonal that
    // holds no half of the weight, yet is far above even weights' share; it leans there.
    const band = Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => {
        if (i === 0) return Number(j === 0);
        return j === i - 1 ? 0.45 : j <= i ? 0.55 / i : 0;
      }),
    );
    const leaning = readTextHead(band, COUPLET);
    assert.equal(leaning.kind, 'leans');
    assert.equal(leaning.toward, 'previous');
    assert.ok(Math.abs(leaning.share - 0.45) < 1e-12);
  });

  test('where the text holds the learner’s sentence: trained on, held out, or neither', () => {
    // 20 characters: the first 18 are trained on, the last 2 held out (trainEndOf).
    const text = '床前明月光，疑是地上霜。举头望明月，低头';
    assert.equal(sentencePlace(text, '疑是地上霜'), 'training');
    assert.equal(sentencePlace(text, '，低头'), 'training'); // begins in the trained part
    assert.equal(sentencePlace(text, '低头'), 'heldOut');
    assert.equal(sentencePlace(text, '思故乡'), null);
    // Counted in characters, not UTF-16 units: 𠀀 is two units, one character.
    assert.equal(sentencePlace(`${'𠀀'.repeat(18)}低头`, '低头'), 'heldOut');
  });

  test('head masks and verse lines', () => {
    assert.deepEqual(headsOff([1, 0, 1, 1, 1, 1, 1, 0], 4), [
      { layer: 0, head: 1 },
      { layer: 1, head: 3 },
    ]);
    // Whole stretches are those between two marks: 5, 5, 7 characters → all of them.
    assert.equal(verseShare('光，疑是地上霜。举头望明月，低头思故乡明月。后'), 1);
    assert.equal(verseShare('光，疑是地。后'), 0);
    assert.equal(verseShare('no marks'), null);
  });

  test('a short text of the learner’s keeps its characters; the page says its vocabulary', () => {
    // Two quatrains, 72 characters: seen once or twice, most characters would share the
    // unknown id with the Tang poems' minCount of 3.
    const own =
      '床前明月光，疑是地上霜。举头望明月，低头思故乡。\n白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n';
    const info = describeText(own);
    assert.deepEqual(info.task, { minCount: 1, inputDropout: 0 });
    assert.equal(info.tokenizer.vocabSize, info.distinct);
    assert.equal(info.tokenizer.unknownId, -1);
    assert.deepEqual(parseSentence('疑是地上霜', info.tokenizer).ids.length, 5);
    const tr = (key, params) => `${key} ${JSON.stringify(params)}`;
    const run = { choice: 'own', text: { status: 'ready', info } };
    assert.match(
      textSentence(run, tr),
      new RegExp(`^ch4.text.aboutAll .*"vocab":"${info.distinct}"`),
    );
    // The Tang poems are long: TEXT_TASK, and the sentence names its minCount and unknown id.
    const tang = readFileSync(
      join(import.meta.dirname, '../../dist/texts', TEXTS.tang.file),
      'utf8',
    );
    const poems = { choice: 'tang', text: { status: 'ready', info: describeText(tang) } };
    assert.deepEqual(poems.text.info.task, TEXT_TASK);
    assert.match(textSentence(poems, tr), /^ch4.text.about .*"minCount":3/);
  });

  test('a snapshot is shown only for the text and the model it was trained on', () => {
    const poems = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../web/snapshots/poems.json')),
    );
    assert.equal(TEXTS.tang.snapshot, 'poems');
    const text = readFileSync(
      join(import.meta.dirname, '../../dist/texts', TEXTS.tang.file),
      'utf8',
    );
    assert.equal(snapshotMismatch(poems, describeText(text)), '');
    // A part of the text (the offline file's English classic is one book of five).
    assert.match(
      snapshotMismatch(poems, describeText(text.slice(0, 5000))),
      new RegExp(
        `trained on ${poems.textCharacters} characters \\(${poems.vocabSize} different\\), this text has`,
      ),
    );
    // Another model than the page's: every stage's sizes would be wrong.
    const wider = { ...poems, config: { ...poems.config, dModel: 2 * LANGUAGE_MODEL.dModel } };
    assert.match(
      snapshotMismatch(wider, describeText(text)),
      /its dModel is \d+, the page's model has/,
    );
  });

  test("the curve's labels: where their lines are, else parted around them, within the plot", () => {
    // Apart already: each at its line.
    assert.deepEqual(spreadLabels([40, 120], 15, [10, 200]), [40, 120]);
    // Closer than a line of text (the Tang poems' unigram and bigram): parted around their
    // middle, a gap apart, in their order (the list's order is kept).
    assert.deepEqual(spreadLabels([105, 100], 15, [10, 200]), [110, 95]);
    // Three crowded ones move as a group, still centred where they wanted to be.
    assert.deepEqual(spreadLabels([100, 90, 95], 15, [10, 200]), [110, 80, 95]);
    // Pushed inside the plot at its top and bottom.
    assert.deepEqual(spreadLabels([5, 8], 15, [11, 200]), [11, 26]);
    assert.deepEqual(spreadLabels([199, 197], 15, [11, 200]), [200, 185]);
  });
});
