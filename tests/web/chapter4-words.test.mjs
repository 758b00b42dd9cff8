// Chapter 4's sentences about the model shown, in Node, in both languages: on held-out text it
// is said to beat a line without attention only when its numbers do, and to memorise the
// training text only when its held-out loss has risen while the training loss kept falling;
// the stage "Training live" does not point to itself; the learner's own text has no snapshot
// and is named mid-sentence in lower case; one head switched off is "it"; the article's X is
// given its own sizes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { translator } from '../../web/i18n/index.mjs';
import {
  heldOutSentence,
  runStatus,
  sentenceCount,
  textSentence,
} from '../../web/draw/language-views.mjs';
import { createCharTokenizer } from '../../src/js/tasks/text-task.mjs';
import { heldOutVerdict } from '../../web/model/language.mjs';
import { articleExample, dimsOf } from '../../web/model/example.mjs';

const en = translator('en', { touch: false });
const zh = translator('zh', { touch: false });

/** Training losses falling from 4 to 2 over `steps` steps. */
const falling = (steps) => Array.from({ length: steps }, (_, k) => 4 - (2 * k) / steps);

/** A run of the page's shape, trained here, its held-out losses [step, loss] given. */
function run(heldOut, { losses = falling(1000), snapshot = 'ready', source = 'scratch' } = {}) {
  return {
    status: 'paused',
    choice: 'tang',
    source,
    step: losses.length,
    loadedStep: source === 'snapshot' ? 3000 : null,
    losses,
    heldOut: heldOut.map(([step, loss]) => ({ step, loss, accuracy: 0.3 })),
    snapshot: { status: snapshot },
    text: {
      status: 'ready',
      info: {
        length: 1000,
        distinct: 9,
        baselines: { unigram: 6.22, bigram: 5.84 },
        tokenizer: { vocabSize: 9, minCount: 1 },
      },
    },
  };
}

describe('chapter 4: what the numbers of the model shown say', () => {
  test('above both lines, between them, below both: said from the held-out loss', () => {
    const above = run([
      [0, 8.1],
      [200, 7.238],
    ]);
    assert.match(
      heldOutSentence(above, en),
      /7\.238\) is above both lines: it does not yet beat unigram \(6\.22\) or bigram \(5\.84\)/,
    );
    assert.match(heldOutSentence(above, zh), /当前模型（7\.238）高于两条基线/);
    const between = run([
      [0, 8.1],
      [200, 6.0],
    ]);
    assert.match(heldOutSentence(between, en), /beats unigram \(6\.22\) but not bigram \(5\.84\)/);
    const below = run([
      [0, 8.1],
      [200, 6.0],
      [400, 5.5],
    ]);
    assert.match(heldOutSentence(below, en), /5\.500\) is below both lines: it beats unigram/);
    assert.match(heldOutSentence(below, zh), /低于两条基线：它胜过一元/);
    for (const r of [above, between, below]) {
      assert.doesNotMatch(heldOutSentence(r, en), /memorising/);
      assert.doesNotMatch(heldOutSentence(r, zh), /过拟合/);
    }
    assert.equal(heldOutSentence(run([]), en), '');
  });

  test('within a fiftieth of a nat of a line: about the same as it, no win claimed', () => {
    // The poems' snapshot: 5.860 against unigram's 5.87 (its lines here 6.22 and 5.84).
    const level = run([[0, 6.21]]);
    for (const [tr, about, beats] of [
      [en, /6\.210\) is about the same as unigram \(6\.22\) and above bigram \(5\.84\)/, /beats/],
      [zh, /（6\.210）与一元（6\.22）差不多，高于二元（5\.84）/, /胜过/],
    ]) {
      assert.match(heldOutSentence(level, tr), about);
      assert.doesNotMatch(heldOutSentence(level, tr), beats);
    }
    // Just above the line is about the same too, not "above both lines".
    assert.match(heldOutSentence(run([[0, 6.235]]), en), /about the same as unigram/);
    // Near bigram, well below unigram: beats unigram, about the same as bigram.
    assert.match(
      heldOutSentence(run([[0, 5.83]]), en),
      /beats unigram \(6\.22\) and is about the same as bigram \(5\.84\)/,
    );
    assert.match(heldOutSentence(run([[0, 5.83]]), zh), /胜过一元（6\.22），与二元（5\.84）差不多/);
    // A clear margin is still a win.
    assert.match(heldOutSentence(run([[0, 6.15]]), en), /beats unigram \(6\.22\) but not bigram/);
  });

  test('the snapshot trained on here, said plainly in both languages', () => {
    const kept = run([[0, 5.9]], { source: 'snapshot', losses: falling(570) });
    assert.equal(
      runStatus(kept, en),
      'The model shown is the snapshot, trained 3,000 steps before you opened the page and 570 more here.',
    );
    assert.equal(
      runStatus(kept, zh),
      '这里显示的是快照：打开本页之前已训练 3,000 步，又在本页训练了 570 步。',
    );
    assert.doesNotMatch(runStatus(kept, en), /offline, then/);
  });

  test('held-out loss risen from its best while the training loss falls: overfitting', () => {
    // The walk's numbers: 7.726 → 5.786 at 200 → 5.721 at 600 → 6.070 at 1000.
    const risen = run([
      [0, 7.726],
      [200, 5.786],
      [600, 5.721],
      [1000, 6.07],
    ]);
    const said = heldOutSentence(risen, en);
    assert.match(said, /beats unigram \(6\.22\) but not bigram/);
    assert.match(
      said,
      /risen from its best \(5\.721 at step 600\) while the training loss keeps falling: it is memorising the training text \(overfitting\)/,
    );
    assert.match(
      heldOutSentence(risen, zh),
      /第 600 步的 5\.721）回升，而训练损失还在下降：它在背训练文本（过拟合）/,
    );
    // Risen, but the training loss rose too: not memorising (the run diverged, say).
    const rising = Array.from({ length: 1000 }, (_, k) => 2 + (2 * k) / 1000);
    assert.equal(
      heldOutVerdict(risen.heldOut, rising, risen.text.info.baselines).overfitting,
      false,
    );
    // Within noise of its best: not said.
    assert.doesNotMatch(
      heldOutSentence(
        run([
          [200, 5.786],
          [600, 5.721],
          [1000, 5.73],
        ]),
        en,
      ),
      /memorising/,
    );
  });

  test('the snapshot trained on here: its held-out loss risen from the snapshot’s is overfitting, not “not yet”', () => {
    // The walk's numbers on the Tang poems: the snapshot scores 5.86, "Keep training" takes it
    // to 6.3 while the training loss falls.
    const kept = run(
      [
        [0, 5.86],
        [200, 6.05],
        [400, 6.3],
      ],
      { source: 'snapshot', losses: falling(400) },
    );
    const said = heldOutSentence(kept, en);
    assert.match(said, /6\.300\) is above both lines/);
    assert.doesNotMatch(said, /not yet/);
    assert.match(
      said,
      /risen from its best \(5\.860 at step 3,000\) while the training loss keeps falling: it is memorising the training text \(overfitting\)/,
    );
    const saidZh = heldOutSentence(kept, zh);
    assert.doesNotMatch(saidZh, /还没有/);
    assert.match(
      saidZh,
      /第 3,000 步的 5\.860）回升，而训练损失还在下降：它在背训练文本（过拟合）/,
    );
    // Between the lines and risen: no "does not yet predict better" either.
    const between = run(
      [
        [0, 5.7],
        [400, 6.0],
      ],
      { source: 'snapshot', losses: falling(400) },
    );
    assert.match(
      heldOutSentence(between, en),
      /beats unigram \(6\.22\) but not bigram \(5\.84\)\. Its held-out loss has risen/,
    );
    assert.doesNotMatch(heldOutSentence(between, en), /not yet/);
  });

  test('"Training live" does not point to itself; a text without a snapshot is not sent back to one', () => {
    const snapshot = run([[0, 5.5]], { source: 'snapshot', losses: [] });
    snapshot.step = 0;
    assert.match(
      runStatus(snapshot, en),
      /the snapshot: trained 3,000 steps offline; held-out loss 5\.500 nats per character, scored now\. In stage “Training live” you can start from scratch\.$/,
    );
    assert.doesNotMatch(runStatus(snapshot, en, { training: true }), /Training live/);
    assert.doesNotMatch(runStatus(snapshot, zh, { training: true }), /现场训练/);
    const fresh = run([], { losses: [] });
    assert.match(
      runStatus(fresh, en),
      /random\)\. Train it in stage “Training live”, or go back to the snapshot there\.$/,
    );
    const own = run([], { losses: [], snapshot: 'none' });
    assert.match(runStatus(own, en), /random\)\. Train it in stage “Training live”\.$/);
    assert.match(runStatus(own, zh), /随机的）。请在“现场训练”一节训练它。$/);
  });

  test('the learner’s own text mid-sentence, one head switched off, the article’s X', () => {
    const own = { ...run([]), choice: 'own' };
    assert.match(textSentence(own, en), /^The model learns your own text: 1,000 characters/);
    assert.equal(en('ch4.write.masked', { n: 1 }).endsWith('the model writes without it.'), true);
    assert.equal(en('ch4.write.masked', { n: 2 }).endsWith('the model writes without them.'), true);
    assert.match(zh('ch4.write.masked', { n: 1 }), /没有它的情况/);
    const { n, dIn } = dimsOf(articleExample());
    assert.deepEqual([n, dIn], [3, 4]); // chapter 1's X: 3 tokens of 4 numbers
    assert.match(
      en('ch4.chars.article', { n, d: dIn }),
      /^The article’s X had 3 rows of 4 numbers/,
    );
    assert.match(zh('ch4.chars.article', { n, d: dIn }), /^文章里的 X 有 3 行、每行 4 个数/);
  });

  test('a sentence that cannot be read: the count names the last one the figures still show', () => {
    const poem = { ...run([]), sentence: '床前明月光' };
    poem.text.info.tokenizer = createCharTokenizer('床前明月光，疑是地上霜。');
    assert.deepEqual(sentenceCount('床前明月光', poem, en), { text: '5 characters', stale: false });
    // "日" never occurs in the text: the run keeps 床前明月光, and the count says so.
    const typed = sentenceCount('床前明日', poem, en);
    assert.equal(typed.stale, true);
    assert.match(
      typed.text,
      /still shows the last sentence the model could read, “床前明月光” \(5 characters\)/,
    );
    assert.match(
      sentenceCount('床前明日', poem, zh).text,
      /仍显示模型能读的上一个句子“床前明月光”（5 个字符）/,
    );
  });
});
