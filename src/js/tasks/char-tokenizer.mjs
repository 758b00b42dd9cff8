// createCharTokenizer(text): the tokens of the text task are characters. The vocabulary is every
// distinct character of the text, a character being one Unicode code point (so '𝄞' or a CJK
// character outside the BMP is one token, not two UTF-16 halves), with ids given in the order
// of the code points' values: the same text, or any reordering of it, gives the same ids.
//
// With { minCount } above 1, a character the text holds fewer than minCount times gets no id of
// its own: all such characters, and any character the text never holds, share the last id, the
// unknown id, which decodes to UNKNOWN_CHARACTER (U+FFFD, the replacement character). A text
// with many characters seen once or twice (the Tang poems: 2,500 distinct characters in
// 25,000, 1,215 of them fewer than 3 times) then has a smaller vocabulary, whose output layer
// costs less a step, and no id a model can only memorise.
//
//   encode(string) -> Int32Array of ids, one per character
//   decode(ids)    -> the string (ids: an Int32Array or an array of integers)
import { checkIntegerIn, describe, isOptionBag } from '../shared/checks.mjs';
import {
  measuredBytes,
  measureTypedArray,
  readArray,
  readOwnOptions,
  setBytes,
} from '../shared/read-once.mjs';

/** More ids than any string a JS engine holds (V8's limit is 2^29 - 24 characters). */
const MAX_IDS = 2 ** 30;
/** What the unknown id decodes to (and what the characters it stands for are shown as). */
export const UNKNOWN_CHARACTER = '\uFFFD';
const OPTION_KEYS = new Set(['minCount']);

/** createCharTokenizer's options, read once: { minCount } (default 1: every character). */
function readTokenizerOptions(options) {
  if (options === undefined) return { minCount: 1 };
  if (!isOptionBag(options)) {
    throw new TypeError(
      `createCharTokenizer: options must be an object { minCount }, got ${describe(options)}`,
    );
  }
  const { minCount } = readOwnOptions(options, OPTION_KEYS, 'createCharTokenizer', 'options');
  if (minCount === undefined) return { minCount: 1 };
  return {
    minCount: checkIntegerIn(minCount, 'createCharTokenizer: options.minCount', 1, MAX_IDS),
  };
}

/**
 * The vocabulary of `text`: its characters held at least `minCount` times in code-point
 * order, then (minCount above 1) UNKNOWN_CHARACTER for the rest.
 */
function vocabularyOf(text, minCount) {
  const counts = new Map();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  const kept = [...counts.keys()].filter(
    (character) =>
      minCount === 1 || (counts.get(character) >= minCount && character !== UNKNOWN_CHARACTER),
  );
  kept.sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
  return minCount === 1 ? kept : [...kept, UNKNOWN_CHARACTER];
}

/** 'x' (U+0078): a character as a message shows it, its code point beside it. */
function showCharacter(character) {
  const code = character.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `${JSON.stringify(character)} (U+${code})`;
}

/** The ids to decode as a plain array of our own: an Int32Array's bytes or an array's items. */
function snapshotIds(ids) {
  const items = readArray(ids, 'decode: ids', MAX_IDS);
  if (items !== null) return items;
  const measured = measureTypedArray(ids, 'decode: ids');
  if (measured === null || measured.type !== 'Int32Array') {
    throw new TypeError(
      `decode: ids must be an Int32Array or an array of integers, got ${describe(ids)}`,
    );
  }
  const copy = new Int32Array(measured.length);
  setBytes(
    new Uint8Array(copy.buffer),
    measuredBytes(measured, measured.byteLength, 'decode: ids'),
    0,
  );
  return copy;
}

/**
 * A character tokenizer whose vocabulary is the characters of `text` (those it holds at least
 * `minCount` times, and the unknown id for the rest, when minCount is above 1).
 * @param {string} text at least one character
 * @param {{ minCount?: number }} [options] minCount: an integer >= 1 (default 1)
 * @returns {{ vocabSize: number, characters: readonly string[], minCount: number, unknownId: number, encode(s: string): Int32Array, decode(ids: Int32Array | number[]): string }}
 */
export function createCharTokenizer(text, options) {
  if (typeof text !== 'string') {
    throw new TypeError(`createCharTokenizer: text must be a string, got ${describe(text)}`);
  }
  const { minCount } = readTokenizerOptions(options);
  if (text.length === 0) {
    throw new RangeError('createCharTokenizer: text must hold at least one character, got ""');
  }
  const characters = Object.freeze(vocabularyOf(text, minCount));
  const vocabSize = characters.length;
  const unknownId = minCount === 1 ? -1 : vocabSize - 1;
  const idOf = new Map(characters.map((character, id) => [character, id]));
  if (unknownId >= 0) idOf.delete(UNKNOWN_CHARACTER); // U+FFFD itself is one of the unknown

  return Object.freeze({
    vocabSize,
    /** The vocabulary: characters[id] is the character of that id. */
    characters,
    /** The least count a character needs in the text to have an id of its own. */
    minCount,
    /** The id every other character shares (minCount above 1), or -1 (minCount 1: none). */
    unknownId,
    /** One id per character of `string` (by code point). */
    encode(string) {
      if (typeof string !== 'string') {
        throw new TypeError(`encode: text must be a string, got ${describe(string)}`);
      }
      const ids = [];
      for (const character of string) {
        const id = idOf.get(character) ?? (unknownId >= 0 ? unknownId : undefined);
        if (id === undefined) {
          throw new RangeError(
            `encode: the character ${showCharacter(character)} at character ${ids.length} of the text is not in the vocabulary (the ${vocabSize} characters of the tokenizer's text)`,
          );
        }
        ids.push(id);
      }
      return Int32Array.from(ids);
    },
    /** The characters of `ids`, joined. */
    decode(ids) {
      const items = snapshotIds(ids);
      let text = '';
      for (let i = 0; i < items.length; i++) {
        const id = items[i];
        if (typeof id !== 'number' || !Number.isInteger(id)) {
          throw new TypeError(`decode: ids[${i}] must be an integer id, got ${describe(id)}`);
        }
        if (id < 0 || id >= vocabSize) {
          throw new RangeError(
            `decode: ids[${i}] must be an id in 0..${vocabSize - 1} (the vocabulary's size is ${vocabSize}), got ${id}`,
          );
        }
        text += characters[id];
      }
      return text;
    },
  });
}
