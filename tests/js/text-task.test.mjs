// The text task (src/js/tasks/text-task.mjs): training windows come only from the first nine tenths
// (every target too), the held-out tenth is cut into windows that score each of its characters
// once, batches are next-character pairs of the text, the same for a seed, and texts too short
// for the context are refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  TEXT_TASK,
  createCharTokenizer,
  createTextTask,
  textTaskFor,
  trainEndOf,
} from '../../src/js/tasks/text-task.mjs';
import { seededRandom } from './seeded-random.mjs';

/** A text the repository does not ship: random "words" of a few letters, made for a seed. */
function randomText(seed, length) {
  const random = seededRandom(seed);
  let text = '';
  while (text.length < length) {
    text += 'abcdefgh'[Math.floor(random() * 8)];
    if (random() < 0.2) text += random() < 0.1 ? '.\n' : ' ';
  }
  return text.slice(0, length);
}

test('training windows and their targets stay in the first nine tenths; the last tenth is never a batch', () => {
  // Training part 'a'..'z' repeated, held-out part digits only: any held-out character in a
  // batch would show as a digit.
  const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(35).slice(0, 900) + '0123456789'.repeat(10);
  assert.equal(trainEndOf(text.length), 900);
  const task = createTextTask(text, { context: 32, seed: 5 });
  assert.equal(task.trainLength, 900);
  assert.equal(task.heldOutLength, 100);
  const digits = new Set([...'0123456789'].map((c) => task.tokenizer.encode(c)[0]));
  const seenStarts = new Set();
  for (let round = 0; round < 200; round++) {
    const { tokens, targets, batch, length, starts } = task.batch(64);
    assert.equal(length, 32);
    for (let b = 0; b < batch; b++) {
      seenStarts.add(starts[b]);
      const row = tokens.subarray(b * 32, (b + 1) * 32);
      const next = targets.subarray(b * 32, (b + 1) * 32);
      // Next-character targets: the row shifted by one, both read from the text at starts[b].
      assert.equal(task.tokenizer.decode(row), text.slice(starts[b], starts[b] + 32));
      assert.equal(task.tokenizer.decode(next), text.slice(starts[b] + 1, starts[b] + 33));
      assert.ok(![...row, ...next].some((id) => digits.has(id)), 'a held-out character in a batch');
    }
  }
  // Every start 0..900-33 is drawn (the last target is text[899]), and none past it.
  assert.equal(Math.min(...seenStarts), 0);
  assert.equal(Math.max(...seenStarts), 900 - 33);
  assert.equal(seenStarts.size, 900 - 32);
});

test('held-out windows score each held-out character after the first exactly once', () => {
  const text = randomText(3, 2000);
  const task = createTextTask(text, { context: 48 });
  const held = task.heldOut();
  assert.equal(held.counted, 2000 - 1800 - 1);
  assert.equal(held.batch, Math.ceil(199 / 48));
  const scored = [];
  for (let i = 0; i < held.targets.length; i++) {
    if (held.targets[i] < 0) continue;
    scored.push(held.targets[i]);
    // Each target is the character after its token, inside the held-out part.
    const b = Math.floor(i / 48);
    const t = i % 48;
    const at = 1800 + b * 48 + t;
    assert.equal(task.tokenizer.decode([held.tokens[i]]), [...text][at]);
  }
  assert.equal(task.tokenizer.decode(scored), text.slice(1801));
  assert.deepEqual(task.heldOut(), held, 'the same windows at every call');
});

test('the same seed gives the same batches; another seed others', () => {
  const text = randomText(9, 5000);
  const one = createTextTask(text, { context: 16, seed: 1 });
  const again = createTextTask(text, { context: 16, seed: 1 });
  const other = createTextTask(text, { context: 16, seed: 2 });
  const a = one.batch(8);
  assert.deepEqual(again.batch(8), a);
  assert.notDeepEqual(other.batch(8).starts, a.starts);
  assert.notDeepEqual(one.batch(8).starts, a.starts, 'batch() continues the sequence');
});

test('refusals: not a string, a text too short for its context, bad context, seed and batch', () => {
  assert.throws(() => createTextTask(null, { context: 8 }), {
    name: 'TypeError',
    message: /text task: text must be a string/,
  });
  assert.throws(() => createTextTask('', { context: 8 }), { name: 'RangeError' });
  // Context 8 needs 9 training characters and 2 held out: 11 characters.
  assert.throws(() => createTextTask('abcdefghij', { context: 8 }), {
    name: 'RangeError',
    message:
      /long enough for one window of context 8 .* \(at least 11 characters\), got 10 characters/,
  });
  assert.equal(createTextTask('abcdefghijk', { context: 8 }).trainLength, 9);
  assert.throws(() => createTextTask('abcdefghijk', { context: 0 }), {
    name: 'RangeError',
    message: /context/,
  });
  assert.throws(() => createTextTask('abcdefghijk', { context: '8' }), {
    name: 'TypeError',
    message: /context/,
  });
  assert.throws(() => createTextTask('abcdefghijk', { context: 8, seed: -1 }), {
    name: 'RangeError',
    message: /seed/,
  });
  const task = createTextTask('abcdefghijk', { context: 8 });
  assert.throws(() => task.batch(0), { name: 'RangeError', message: /batch/ });
  assert.throws(() => task.batch(65537), { name: 'RangeError', message: /at most 65536/ });
});

test('minCount: the task encodes with the folded vocabulary, rare characters as the unknown id', () => {
  // 'x' occurs 4 times, all in the training part; '#' once, in the held-out tenth.
  const text = randomText(9, 1000).split('');
  for (const at of [10, 200, 400, 600]) text[at] = 'x';
  text[950] = '#';
  const joined = text.join('');
  const task = createTextTask(joined, { context: 16, seed: 2, minCount: 5 });
  const { tokenizer } = task;
  assert.equal(tokenizer.minCount, 5);
  assert.equal(task.vocabSize, tokenizer.vocabSize);
  assert.ok(!tokenizer.characters.includes('x') && !tokenizer.characters.includes('#'));
  const { tokens, targets } = task.heldOut();
  const unknown = tokenizer.unknownId;
  // '#' is held-out character 950 - 900 = 50: a token of window 3 (position 2) and a target.
  assert.equal(tokens[3 * 16 + 2], unknown);
  assert.equal(targets[3 * 16 + 1], unknown);
  assert.equal(createTextTask(joined, { context: 16 }).tokenizer.unknownId, -1, 'default: none');
  assert.throws(() => createTextTask(joined, { context: 16, minCount: -1 }), {
    name: 'RangeError',
    message: /minCount/,
  });
});

test('inputDropout: some input letters become the unknown id, never a target, a mark or a space', () => {
  const text = randomText(4, 3000);
  const plain = createTextTask(text, { context: 32, seed: 6, minCount: 2 });
  const noisy = createTextTask(text, { context: 32, seed: 6, minCount: 2, inputDropout: 0.25 });
  assert.equal(noisy.inputDropout, 0.25);
  assert.equal(plain.inputDropout, 0);
  const unknown = noisy.tokenizer.unknownId;
  const layout = new Set([...' .\n'].map((c) => noisy.tokenizer.encode(c)[0]));
  let letters = 0;
  let dropped = 0;
  for (let round = 0; round < 50; round++) {
    const { tokens, targets, starts } = noisy.batch(16);
    for (let b = 0; b < 16; b++) {
      const truth = noisy.tokenizer.encode(text.slice(starts[b], starts[b] + 33));
      for (let t = 0; t < 32; t++) {
        const [token, original] = [tokens[b * 32 + t], truth[t]];
        assert.equal(targets[b * 32 + t], truth[t + 1], 'targets are never changed');
        if (layout.has(original)) assert.equal(token, original, 'marks and spaces stay');
        else {
          letters++;
          if (token === unknown) dropped++;
          else assert.equal(token, original);
        }
      }
    }
  }
  // About a quarter of the letters (50 × 16 × 32 positions, most of them letters).
  assert.ok(Math.abs(dropped / letters - 0.25) < 0.02, `${dropped} of ${letters}`);
  // The held-out windows are the text as it is.
  assert.deepEqual(noisy.heldOut().tokens, plain.heldOut().tokens);
  // The same seed, the same noise.
  const again = createTextTask(text, { context: 32, seed: 6, minCount: 2, inputDropout: 0.25 });
  const first = createTextTask(text, { context: 32, seed: 6, minCount: 2, inputDropout: 0.25 });
  assert.deepEqual(again.batch(8).tokens, first.batch(8).tokens);
});

test('inputDropout refusals: not a number in [0, 1), or no unknown id to replace with', () => {
  const text = randomText(4, 500);
  for (const bad of [-0.1, 1, NaN, Infinity]) {
    assert.throws(
      () => createTextTask(text, { context: 8, minCount: 2, inputDropout: bad }),
      { name: 'RangeError', message: /text task: inputDropout must be a number in \[0, 1\)/ },
      String(bad),
    );
  }
  assert.throws(() => createTextTask(text, { context: 8, minCount: 2, inputDropout: '0.1' }), {
    name: 'TypeError',
    message: /inputDropout must be a number/,
  });
  assert.throws(() => createTextTask(text, { context: 8, inputDropout: 0.1 }), {
    name: 'RangeError',
    message:
      /inputDropout replaces characters with the unknown id, .*minCount above 1, got minCount 1/,
  });
  // 0 needs no unknown id.
  assert.equal(createTextTask(text, { context: 8, inputDropout: 0 }).inputDropout, 0);
});

test('textTaskFor: a short text keeps every character, a long one is read as TEXT_TASK', () => {
  // A learner's paragraph of Chinese: with TEXT_TASK's minCount 3 most of its different
  // characters (seen once or twice) would share the unknown id.
  const poem = '床前明月光，疑是地上霜。举头望明月，低头思故乡。\n';
  const short = poem.repeat(2) + '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n';
  assert.deepEqual(textTaskFor(short), { minCount: 1, inputDropout: 0 });
  const kept = createCharTokenizer(short, { minCount: textTaskFor(short).minCount });
  assert.equal(kept.unknownId, -1);
  assert.equal(kept.vocabSize, new Set(short).size);
  const folded = createCharTokenizer(short, { minCount: TEXT_TASK.minCount });
  assert.ok(folded.vocabSize < kept.vocabSize / 2, `${folded.vocabSize} of ${kept.vocabSize}`);
  // By length, in steps of 6,000 characters: 1 below 12,000, 2 below 18,000, then TEXT_TASK.
  const of = (n) => textTaskFor(randomText(3, n));
  assert.deepEqual(of(11_999), { minCount: 1, inputDropout: 0 });
  assert.deepEqual(of(12_000), { minCount: 2, inputDropout: TEXT_TASK.inputDropout });
  assert.equal(of(18_000), TEXT_TASK);
  assert.equal(of(900_000), TEXT_TASK);
  // Characters are code points: 12,000 astral characters are 24,000 UTF-16 units.
  assert.equal(textTaskFor('𝄞'.repeat(12_000)).minCount, 2);
  assert.throws(() => textTaskFor(42), {
    name: 'TypeError',
    message: /textTaskFor: text must be a string, got number 42/,
  });
});
