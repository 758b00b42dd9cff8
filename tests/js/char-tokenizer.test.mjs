// createCharTokenizer (src/js/tasks/char-tokenizer.mjs): the vocabulary is the text's characters by
// code point in code-point order; encode / decode round trips on any text the vocabulary
// covers (characters outside the BMP are one token each); and every bad input is refused by
// name: a character outside the vocabulary with where it is, an id out of range with its index.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { UNKNOWN_CHARACTER, createCharTokenizer } from '../../src/js/tasks/char-tokenizer.mjs';
import { seededRandom } from './seeded-random.mjs';

test('the vocabulary: distinct code points in code-point order, the same for any order of the text', () => {
  const tokenizer = createCharTokenizer('床前明月光，\n疑是地上霜。🌙');
  assert.equal(tokenizer.vocabSize, 14);
  assert.deepEqual(tokenizer.characters, [...'\n。上光前地床明是月疑霜，🌙']); // U+000A, U+3002, U+4E0A ..., U+FF0C, U+1F319
  assert.deepEqual(
    createCharTokenizer('🌙。霜上地是疑\n，光月明前床').characters,
    tokenizer.characters,
  );
  // The moon (U+1F319, two UTF-16 units) is one token.
  assert.deepEqual([...tokenizer.encode('月🌙')], [9, 13]);
});

test('encode then decode gives the text back, for random texts of random characters', () => {
  const random = seededRandom(31);
  // Letters, CJK, punctuation, emoji and a combining mark: one to four UTF-8 bytes each.
  const alphabet = [...'aZ \n,.;éß漢字，。？🙂𝄞\u0301'];
  for (let round = 0; round < 50; round++) {
    const length = 1 + Math.floor(random() * 200);
    const text = Array.from(
      { length },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join('');
    const tokenizer = createCharTokenizer(text);
    const ids = tokenizer.encode(text);
    assert.ok(ids instanceof Int32Array);
    assert.equal(ids.length, length);
    assert.equal(tokenizer.decode(ids), text);
    assert.equal(tokenizer.decode([...ids]), text, 'an array of ids too');
    assert.ok(ids.every((id) => id >= 0 && id < tokenizer.vocabSize));
  }
});

test('refusals name the argument, the character or id, and where it is', () => {
  assert.throws(() => createCharTokenizer(42), {
    name: 'TypeError',
    message: /createCharTokenizer: text must be a string, got .*42/,
  });
  assert.throws(() => createCharTokenizer(''), {
    name: 'RangeError',
    message: /at least one character/,
  });
  const tokenizer = createCharTokenizer('abc');
  assert.throws(() => tokenizer.encode(['a']), {
    name: 'TypeError',
    message: /encode: text must be a string/,
  });
  assert.throws(() => tokenizer.encode('ab🙂c'), {
    name: 'RangeError',
    message: /the character "🙂" \(U\+1F642\) at character 2 of the text is not in the vocabulary/,
  });
  assert.throws(() => tokenizer.decode('abc'), {
    name: 'TypeError',
    message: /decode: ids must be an Int32Array or an array/,
  });
  assert.throws(() => tokenizer.decode(new Float32Array(2)), { name: 'TypeError' });
  assert.throws(() => tokenizer.decode([0, 1.5]), {
    name: 'TypeError',
    message: /ids\[1\] must be an integer id, got number 1.5/,
  });
  assert.throws(() => tokenizer.decode([0, '1']), { name: 'TypeError', message: /ids\[1\]/ });
  assert.throws(() => tokenizer.decode(Int32Array.of(0, 1, 3)), {
    name: 'RangeError',
    message: /ids\[2\] must be an id in 0\.\.2 .* got 3/,
  });
  assert.throws(() => tokenizer.decode([-1]), { name: 'RangeError', message: /ids\[0\].* got -1/ });
});

test('minCount: characters rarer than it share the last id, which decodes to U+FFFD', () => {
  // a ×3, b ×2, c ×1, 月 ×2, U+FFFD ×2 (counted, but always the unknown).
  const text = 'abacab月月\uFFFD\uFFFD';
  const exact = createCharTokenizer(text);
  assert.equal(exact.minCount, 1);
  assert.equal(exact.unknownId, -1, 'minCount 1: no unknown id, every character its own');
  assert.deepEqual(exact.characters, [...'abc月\uFFFD']);
  assert.throws(() => exact.encode('d'), { name: 'RangeError', message: /not in the vocabulary/ });

  const folded = createCharTokenizer(text, { minCount: 2 });
  assert.equal(folded.minCount, 2);
  assert.deepEqual(folded.characters, ['a', 'b', '月', UNKNOWN_CHARACTER]);
  assert.equal(folded.vocabSize, 4);
  assert.equal(folded.unknownId, 3);
  // c (once), a character the text never holds, and U+FFFD itself are the unknown id.
  assert.deepEqual([...folded.encode('abc月🙂\uFFFD')], [0, 1, 3, 2, 3, 3]);
  assert.equal(folded.decode(folded.encode('cab')), '\uFFFDab');
  // A minCount above every count leaves the unknown id alone.
  const all = createCharTokenizer(text, { minCount: 4 });
  assert.deepEqual(all.characters, [UNKNOWN_CHARACTER]);
  assert.deepEqual([...all.encode('ab')], [0, 0]);
  // An explicit minCount 1 is the default.
  assert.deepEqual(createCharTokenizer(text, { minCount: 1 }).characters, exact.characters);
  assert.deepEqual(createCharTokenizer(text, {}).characters, exact.characters);
});

test('minCount refusals name the option', () => {
  assert.throws(() => createCharTokenizer('abc', 3), {
    name: 'TypeError',
    message: /createCharTokenizer: options must be an object \{ minCount \}, got .*3/,
  });
  assert.throws(() => createCharTokenizer('abc', { minCount: 0 }), {
    name: 'RangeError',
    message: /options.minCount must be an integer from 1 to .* got 0/,
  });
  assert.throws(() => createCharTokenizer('abc', { minCount: 2.5 }), {
    name: 'RangeError',
    message: /options.minCount .* got 2.5/,
  });
  assert.throws(() => createCharTokenizer('abc', { minCount: '2' }), {
    name: 'TypeError',
    message: /options.minCount must be an integer/,
  });
  assert.throws(() => createCharTokenizer('abc', { mincount: 2 }), {
    name: 'TypeError',
    message: /unknown option 'mincount'/,
  });
  assert.throws(() => createCharTokenizer('', { minCount: 2 }), {
    name: 'RangeError',
    message: /at least one character/,
  });
});
