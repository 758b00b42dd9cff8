// The two texts the character model trains on, made from Debian packages that scripts/setup
// installs (nothing of them is committed; docs/text.md gives their sources and licences):
//
//   dist/texts/tang300.txt      Three Hundred Tang Poems, from fortunes-zh's
//                               /usr/share/games/fortunes/tang300 (a fortune file)
//   dist/texts/kjv-genesis-deuteronomy.txt
//                               The King James Bible's first five books, Genesis to
//                               Deuteronomy, read by bible-kjv's `bible` program from
//                               bible-kjv-text's compressed /usr/lib/bible.data
//
// cleanTangPoems and cleanBibleVerses turn each package's format into plain training text;
// run as a script, this file writes both and prints their sizes:
//   node scripts/lib/texts.mjs <directory>
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TANG_SOURCE = '/usr/share/games/fortunes/tang300';
/** The part of the Bible taken: the five books of Moses, about 0.8 MB of text. */
export const BIBLE_RANGE = 'Genesis1:1-Deuteronomy34:12';

// The terminal colour codes fortunes-zh puts around each title and author line (ESC [ 32 m).
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex

/**
 * The poems of a fortune file of Tang poems, as training text: each poem's lines as they are
 * (one couplet a line, with its Chinese punctuation), poems separated by one empty line. A
 * fortune entry is a title line 《...》, an author line 作者：..., then the poem; the title and
 * the author are left out (they are not verse: their lengths would teach the model lines that
 * are neither five nor seven characters, and a name cannot be predicted from the poem before).
 * An entry without both heading lines is an error, never a guess.
 */
export function cleanTangPoems(fortunes) {
  const entries = fortunes
    .replace(ANSI_COLOUR, '')
    .replace(/\r\n?/g, '\n')
    .split(/^%$/m)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const poems = entries.map((entry, i) => {
    const [title, author, ...lines] = entry.split('\n').map((line) => line.trim());
    if (!/^《.+》$/.test(title) || !/^作者：/.test(author) || lines.length === 0) {
      throw new Error(
        `tang poems: entry ${i + 1} is not a title 《...》, an author 作者：... and the poem: ${JSON.stringify(entry.slice(0, 60))}`,
      );
    }
    return lines.filter((line) => line !== '').join('\n');
  });
  return `${poems.join('\n\n')}\n`;
}

/**
 * Verses printed by `bible -l0` (a heading "Book N" for each chapter, then each verse on one
 * line as "  N text"), as training text: each verse's text on a line of its own, without its
 * number and without the headings (numbers cannot be predicted from the words before them).
 * A line that is neither a heading, a verse nor empty is an error.
 */
export function cleanBibleVerses(printed) {
  const verses = [];
  for (const line of printed.split('\n')) {
    const verse = /^\s+\d+ (.+)$/.exec(line);
    if (verse) verses.push(verse[1].trim());
    else if (line.trim() !== '' && !/^(\d )?[A-Z][A-Za-z ]* \d+$/.test(line)) {
      throw new Error(`bible verses: unexpected line ${JSON.stringify(line.slice(0, 60))}`);
    }
  }
  return `${verses.join('\n')}\n`;
}

/** { characters, distinct }: counted by code point. */
export function textSize(text) {
  const characters = [...text];
  return { characters: characters.length, distinct: new Set(characters).size };
}

/** Writes both texts into `directory`; returns { name: { characters, distinct } }. */
export function writeTexts(directory) {
  const tang = cleanTangPoems(readFileSync(TANG_SOURCE, 'utf8'));
  const printed = execFileSync('bible', ['-l0', BIBLE_RANGE], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  const bible = cleanBibleVerses(printed);
  mkdirSync(directory, { recursive: true });
  const texts = { 'tang300.txt': tang, 'kjv-genesis-deuteronomy.txt': bible };
  const sizes = {};
  for (const [name, text] of Object.entries(texts)) {
    writeFileSync(join(directory, name), text);
    sizes[name] = textSize(text);
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directory = process.argv[2];
  if (!directory) {
    console.error('usage: node scripts/lib/texts.mjs <directory>');
    process.exit(2);
  }
  const sizes = writeTexts(directory);
  console.log(
    Object.entries(sizes)
      .map(([name, s]) => `${name}: ${s.characters} characters, ${s.distinct} distinct`)
      .join('; '),
  );
}
