// createTrainer({ task: { text } }) end to end, in its real worker (dist/train-worker.mjs):
// a small model learns a text the repository does not ship (made here from a seed), scored on
// its held-out tenth; progress events, stop and reset work as for the induction task; the
// refusals name the field. Small models and few steps: a few seconds in all.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TEXT_MODEL, createCharTokenizer, createTrainer } from '../../dist/attention.mjs';
import { seededRandom } from './seeded-random.mjs';

/**
 * Words of a made-up language, in a seeded random order: inside a word each next letter is
 * certain, after a space it is one of WORDS' first letters. A model that learned the words
 * scores far below the text's unigram entropy (about 2.6 nats), which is all a model that
 * learned only letter frequencies can reach.
 */
const WORDS = ['kato', 'mirel', 'sun', 'vaqu', 'bex', 'lodri'];
function madeUpText(seed, length) {
  const random = seededRandom(seed);
  let text = '';
  while (text.length < length) {
    text += WORDS[Math.floor(random() * WORDS.length)];
    text += random() < 0.15 ? '.\n' : ' ';
  }
  return text;
}
const SMALL = {
  context: 16,
  dModel: 32,
  layers: 1,
  heads: 2,
  mlpSize: 64,
  learningRate: 1e-2,
};
const text = madeUpText(7, 6000);
/** Where the held-out tenth begins. */
const trainEnd = Math.floor((text.length * 9) / 10); // ASCII: one code unit a character

test('a text the repository does not ship: learned, scored on its held-out tenth', async () => {
  const events = [];
  const trainer = await createTrainer({
    config: SMALL,
    task: { text },
    batch: 16,
    seed: 3,
    onProgress: (event) => events.push(event),
  });
  try {
    assert.equal(trainer.tokenizer.decode(trainer.tokenizer.encode('kato sun')), 'kato sun');
    const before = await trainer.evaluate();
    // Every held-out character after the first is scored: the last tenth, about 600.
    assert.equal(before.counted, text.length - trainEnd - 1);
    assert.ok(
      Math.abs(before.loss - Math.log(trainer.tokenizer.vocabSize)) < 0.5,
      `${before.loss}`,
    );
    const result = await trainer.train({ steps: 300, progressEvery: 50, attentionEvery: 100 });
    assert.equal(result.step, 300);
    assert.deepEqual(
      events.map((e) => [e.step, e.losses.length, 'attention' in e]),
      [50, 100, 150, 200, 250, 300].map((step) => [step, 50, step % 100 === 0]),
    );
    assert.deepEqual(events[1].attention.dims, [1, 1, 2, 16, 16]);
    const after = await trainer.evaluate();
    assert.ok(after.loss < 1.0, `held-out loss ${after.loss} nats per character after 300 steps`);
    assert.ok(after.accuracy > 0.7, `accuracy ${after.accuracy}`);
    // The first held-out window, as the tokenizer reads it, and its heads' attention.
    assert.equal(trainer.tokenizer.decode(after.tokens), text.slice(trainEnd, trainEnd + 16));
    assert.deepEqual(after.attention.dims, [1, 1, 2, 16, 16]);
  } finally {
    trainer.close();
  }
});

test('TEXT_MODEL takes its vocabulary from the text; stop and reset keep the text', async () => {
  const trainer = await createTrainer({ config: TEXT_MODEL, task: { text }, batch: 2 });
  try {
    assert.equal(trainer.tokenizer.vocabSize, createCharTokenizer(text).vocabSize);
    const run = trainer.train({ steps: 100_000, progressEvery: 1 });
    while (trainer.step < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await trainer.stop();
    assert.equal((await run).stopped, true);
    assert.deepEqual(await trainer.reset({ config: SMALL }), { step: 0 });
    assert.equal((await trainer.train({ steps: 2 })).step, 2);
    const { attention } = await trainer.evaluate();
    assert.deepEqual(attention.dims, [1, 1, 2, 16, 16], 'the reset config, on the same text');
  } finally {
    trainer.close();
  }
});

test('task.minCount and inputDropout: rare characters share the unknown id, in the worker as on the host', async () => {
  // The made-up text with one rare letter (z, once every ~50 characters; 'q' is in one word).
  const rare = [...text].map((c, i) => (i % 97 === 5 ? 'z' : c)).join('');
  const trainer = await createTrainer({
    config: SMALL,
    task: { text: rare, minCount: 200, inputDropout: 0.2 },
    batch: 8,
  });
  try {
    const host = createCharTokenizer(rare, { minCount: 200 });
    assert.deepEqual(trainer.tokenizer.characters, host.characters);
    assert.equal(trainer.tokenizer.unknownId, host.vocabSize - 1);
    assert.ok(host.vocabSize < createCharTokenizer(rare).vocabSize, 'some letters fold');
    assert.ok((await trainer.train({ steps: 5 })).loss > 0);
    // The worker's held-out window is the host tokenizer's ids: the same vocabulary.
    const { tokens, counted } = await trainer.evaluate();
    assert.equal(counted, rare.length - trainEnd - 1);
    assert.deepEqual([...tokens], [...host.encode(rare.slice(trainEnd, trainEnd + 16))]);
    assert.match(trainer.tokenizer.decode(tokens), /\uFFFD/);
  } finally {
    trainer.close();
  }
  await assert.rejects(createTrainer({ config: SMALL, task: { text, minCount: 0 } }), {
    name: 'RangeError',
    message: /options.minCount must be an integer from 1/,
  });
  await assert.rejects(createTrainer({ config: SMALL, task: { text, inputDropout: 0.1 } }), {
    name: 'RangeError',
    message: /createTrainer: task.inputDropout replaces characters with the unknown id/,
  });
});

test('refusals: the task, a text too short for the context, a vocabulary too small, evaluate batch', async () => {
  const start = (options) => createTrainer({ config: SMALL, ...options });
  await assert.rejects(start({ task: { text: 5 } }), {
    name: 'TypeError',
    message: /createTrainer: task.text must be a string, got .*5/,
  });
  await assert.rejects(start({ task: { text: '' } }), { name: 'RangeError', message: /task.text/ });
  await assert.rejects(start({ task: { words: 'abc' } }), {
    name: 'TypeError',
    message: /unknown option 'words'/,
  });
  await assert.rejects(start({ task: 'poems' }), {
    name: 'RangeError',
    message: /task must be 'induction' or \{ text, minCount\?, inputDropout\? \}/,
  });
  await assert.rejects(start({ task: { text: 'abcdefghijklmnop' } }), {
    name: 'RangeError',
    message:
      /task.text: the text must be long enough for one window of context 16 .* got 16 characters/,
  });
  await assert.rejects(start({ config: { ...SMALL, vocabSize: 5 }, task: { text } }), {
    name: 'RangeError',
    message: /config.vocabSize must be at least the text's 20 characters \(its vocabulary/,
  });
  const trainer = await start({ task: { text } });
  try {
    assert.throws(() => trainer.evaluate({ batch: 8 }), {
      name: 'TypeError',
      message: /whole held-out tenth/,
    });
    assert.throws(() => trainer.reset({ config: { ...SMALL, context: 6000 } }), {
      name: 'RangeError',
    });
    assert.equal(trainer.step, 0, 'a refused reset changes nothing');
  } finally {
    trainer.close();
  }
});
