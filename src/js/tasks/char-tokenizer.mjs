// createCharTokenizer(text): the tokens of the text task are characters. The vocabulary is every
// distinct character of the text, a character being one Unicode code point (so '𝄞' or a CJK
// character outside the BMP is one token, not two UTF-16 halves), with ids given in the order
// of the code points' values: the same text, or any reordering of it, gives the same ids.
//
//   encode(string) -> Int32Array of ids, one per character
//   decode(ids)    -> the string (ids: an Int32Array or an array of integers)
import { describe } from '../shared/checks.mjs';
import { measuredBytes, measureTypedArray, readArray, setBytes } from '../shared/read-once.mjs';

/** More ids than any string a JS engine holds (V8's limit is 2^29 - 24 characters). */
const MAX_IDS = 2 ** 30;

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
 * A character tokenizer whose vocabulary is the characters of `text`.
 * @param {string} text at least one character
 * @returns {{ vocabSize: number, characters: readonly string[], encode(s: string): Int32Array, decode(ids: Int32Array | number[]): string }}
 */
export function createCharTokenizer(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`createCharTokenizer: text must be a string, got ${describe(text)}`);
  }
  const characters = Object.freeze(
    [...new Set(text)].sort((a, b) => a.codePointAt(0) - b.codePointAt(0)),
  );
  if (characters.length === 0) {
    throw new RangeError('createCharTokenizer: text must hold at least one character, got ""');
  }
  const idOf = new Map(characters.map((character, id) => [character, id]));
  const vocabSize = characters.length;

  return Object.freeze({
    vocabSize,
    /** The vocabulary: characters[id] is the character of that id. */
    characters,
    /** One id per character of `string` (by code point). */
    encode(string) {
      if (typeof string !== 'string') {
        throw new TypeError(`encode: text must be a string, got ${describe(string)}`);
      }
      const ids = [];
      for (const character of string) {
        const id = idOf.get(character);
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
