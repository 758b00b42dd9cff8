// The text task (src/js/tasks/text-task.mjs): training windows come only from the first nine tenths
// (every target too), the held-out tenth is cut into windows that score each of its characters
// once, batches are next-character pairs of the text, the same for a seed, and texts too short
// for the context are refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createTextTask, trainEndOf } from '../../src/js/tasks/text-task.mjs';
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
