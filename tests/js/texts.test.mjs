// The training texts (scripts/lib/texts.mjs): the Tang poems' fortune entries lose their
// colour codes, titles and authors and keep each poem's lines and punctuation; the Bible's
// verses lose their numbers and chapter headings; a format the cleaners do not know is an
// error. Then the two texts scripts/build wrote into dist/texts/, as docs/text.md states them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { cleanBibleVerses, cleanTangPoems, textSize } from '../../scripts/lib/texts.mjs';

const ESC = '\x1b';

test('Tang poems: colour codes, titles and authors go; lines and punctuation stay; one empty line between poems', () => {
  const fortunes = [
    `${ESC}[32m《静夜思》${ESC}[m`,
    `${ESC}[33m作者：李白${ESC}[m`,
    '床前明月光，疑是地上霜。',
    '举头望明月，低头思故乡。',
    '%',
    `${ESC}[32m《登鹳雀楼》${ESC}[m`,
    `${ESC}[33m作者：王之涣${ESC}[m`,
    '白日依山尽，黄河入海流。',
    '欲穷千里目，更上一层楼。',
    '%',
    '',
  ].join('\n');
  assert.equal(
    cleanTangPoems(fortunes),
    '床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。\n',
  );
  assert.throws(() => cleanTangPoems('床前明月光，疑是地上霜。\n%\n'), /entry 1 is not a title/);
  assert.throws(() => cleanTangPoems('《静夜思》\n李白\n床前明月光。\n'), /entry 1/);
});

test('Bible verses: one verse a line, without numbers or headings', () => {
  const printed = [
    '',
    'Genesis 1',
    '',
    '  1 In the beginning God created the heaven and the earth.',
    '  2 And the earth was without form, and void.',
    '',
    'Exodus 40',
    '',
    '  38 For the cloud of the LORD was upon the tabernacle by day.',
    '',
  ].join('\n');
  assert.equal(
    cleanBibleVerses(printed),
    'In the beginning God created the heaven and the earth.\nAnd the earth was without form, and void.\nFor the cloud of the LORD was upon the tabernacle by day.\n',
  );
  assert.throws(
    () => cleanBibleVerses('Genesis 1\n\nIn the beginning\n'),
    /unexpected line "In the beginning"/,
  );
});

test('dist/texts: the two built texts, their sizes as docs/text.md gives them, under 1 MB each', () => {
  const read = (name) => readFileSync(new URL(`../../dist/texts/${name}`, import.meta.url), 'utf8');
  const tang = read('tang300.txt');
  const bible = read('kjv-genesis-deuteronomy.txt');
  assert.deepEqual(textSize(tang), { characters: 24992, distinct: 2500 });
  assert.deepEqual(textSize(bible), { characters: 815101, distinct: 62 });
  assert.equal(Buffer.byteLength(tang), 71152, 'tang300.txt, UTF-8 bytes');
  assert.equal(Buffer.byteLength(bible), 815101, 'kjv-genesis-deuteronomy.txt, UTF-8 bytes');
  for (const text of [tang, bible]) {
    assert.ok(Buffer.byteLength(text) < 1 << 20);
    assert.doesNotMatch(text, new RegExp(`${ESC}|作者：|\\d`));
  }
  assert.ok(tang.startsWith('兰叶春葳蕤，桂华秋皎洁。\n'));
  assert.ok(bible.startsWith('In the beginning God created the heaven and the earth.\n'));
  assert.ok(bible.endsWith('in the sight of all Israel.\n'));
});
