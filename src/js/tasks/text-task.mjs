// The text task: a character model learns to predict the next character of a text (the Tang
// poems or the English classic that scripts/build puts in dist/texts/, or any string a learner
// or an app gives). It feeds createTrainer({ task: { text } })'s worker (train-session.mjs) and
// the tests and scripts that train on text.
//
// The text's characters (code points) become ids by createCharTokenizer (char-tokenizer.mjs),
// its vocabulary built from the whole text. The ids are split once:
//   training: ids[0 .. trainEnd)     the first nine tenths (trainEnd = floor(0.9 n))
//   held-out: ids[trainEnd .. n)     the last tenth, never in a training batch
// A training row is a window of `context` characters starting anywhere in the training part,
// with next-character targets (targets[t] = the character after tokens[t]), so the last target
// of a row is at most ids[trainEnd - 1]. The held-out part is cut into consecutive windows of
// `context` characters, every held-out character after its first being the target of exactly
// one position; the last window is padded (tokens 0, targets -1: not counted, and a causal
// model's earlier positions never see the padding).
import { checkIntegerIn, checkPositiveInteger, describe } from '../shared/checks.mjs';
import { UNKNOWN_CHARACTER, createCharTokenizer } from './char-tokenizer.mjs';
import { seededRandom } from './seeded-random.mjs';

export { UNKNOWN_CHARACTER, createCharTokenizer };

/**
 * The model for text, chosen by measuring a minute of one core's training on both texts
 * (docs/text.md): four layers of four heads with RoPE positions and the MLP, AdamW at 2e-3
 * with weight decay 0.1, windows of 32 characters (two lines of a seven-character poem). With
 * the Tang poems' 2,500 characters its output layer is most of a step's work, so it stays
 * narrow (dModel 64) and grows in depth, which teaches the length of a line of verse better.
 * The poems' 25,000 characters are memorised long before that is learnt: the weight decay and
 * TEXT_TASK's input dropout slow the memorising, and so let a rate of 2e-3 learn the lines
 * within the minute's first 1,500 steps. vocabSize comes from the text: createTrainer fills
 * it in (elsewhere spread `{ ...TEXT_MODEL, vocabSize }`).
 */
export const TEXT_MODEL = Object.freeze({
  context: 32,
  dModel: 64,
  layers: 4,
  heads: 4,
  positions: 'rope',
  mlpSize: 256,
  learningRate: 2e-3,
  weightDecay: 0.1,
});
/**
 * How the text task reads a text for TEXT_MODEL (createTrainer's `task: { text, ...TEXT_TASK }`,
 * createTextTask's options), chosen on the Tang poems (docs/text.md): characters seen fewer
 * than 3 times share the unknown id (2,500 characters become 1,286 ids: a step costs about
 * 40% less, and no id can only be memorised), and 30% of the input characters that are not
 * punctuation become the unknown id in every training window, so that the model learns the
 * length of a line instead of recalling its 22,500 training characters.
 */
export const TEXT_TASK = Object.freeze({ minCount: 3, inputDropout: 0.3 });
/**
 * Characters of text per unit of minCount in textTaskFor: a text needs this many characters
 * for each count a character must reach to keep its own id.
 */
const CHARACTERS_PER_COUNT = 6000;

/**
 * How the text task reads `text` (createTrainer's `task: { text, ...textTaskFor(text) }`):
 * TEXT_TASK for a text long enough, and a lower minCount for a shorter one, so that a short
 * text (a learner's paragraph) keeps its characters instead of sharing one unknown id: minCount
 * is floor(characters / CHARACTERS_PER_COUNT), at least 1 and at most TEXT_TASK.minCount
 * (under 12,000 characters every character keeps its id; from 18,000 on, TEXT_TASK's 3: the
 * Tang poems' 24,992 and the English text's). With minCount 1 there is no unknown id, so no
 * input dropout either.
 * @param {string} text
 * @returns {Readonly<{ minCount: number, inputDropout: number }>}
 */
export function textTaskFor(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`textTaskFor: text must be a string, got ${describe(text)}`);
  }
  let characters = 0;
  for (const _ of text) characters++; // eslint-disable-line no-unused-vars
  const minCount = Math.max(
    1,
    Math.min(TEXT_TASK.minCount, Math.floor(characters / CHARACTERS_PER_COUNT)),
  );
  if (minCount === TEXT_TASK.minCount) return TEXT_TASK;
  return Object.freeze({ minCount, inputDropout: minCount > 1 ? TEXT_TASK.inputDropout : 0 });
}
/** Rows (windows) per training step for TEXT_MODEL. */
export const TEXT_BATCH = 8;
/**
 * How to sample text from a TEXT_MODEL (generate's options; docs/text.md says how they were
 * chosen): a temperature below 1 and the few likeliest characters only, so that a character
 * the model thinks unlikely (a mark in the middle of a line, a rare character) is not drawn.
 */
export const TEXT_SAMPLING = Object.freeze({ temperature: 0.8, topK: 10 });
/** The most rows one batch() call makes (as the induction task). */
const MAX_BATCH = 65536;

/** Where the training part ends: the first index of the held-out tenth (integer arithmetic). */
export const trainEndOf = (length) => Math.floor((length * 9) / 10);

/**
 * Checks that a text of `length` characters can be trained on with windows of `context`
 * (at least context + 1 training characters, at least 2 held-out ones); `where` prefixes the
 * message. Returns trainEnd.
 */
export function checkTextLength(length, context, where) {
  const trainEnd = trainEndOf(length);
  if (trainEnd < context + 1 || length - trainEnd < 2) {
    throw new RangeError(
      `${where}: the text must be long enough for one window of context ${context} in its first nine tenths and two characters in its last tenth (at least ${Math.max(Math.ceil((10 * (context + 1)) / 9), 11)} characters), got ${length} characters`,
    );
  }
  return trainEnd;
}

/** Characters inputDropout never replaces: punctuation and white space (a text's layout). */
const LAYOUT = /^[\p{P}\s]$/u;

/**
 * inputDropout checked against the tokenizer, or a TypeError / RangeError naming it (`name`):
 * a number in [0, 1), 0 when undefined; above 0 only with an unknown id (minCount above 1).
 */
export function checkInputDropout(inputDropout, tokenizer, name) {
  if (inputDropout === undefined) return 0;
  if (typeof inputDropout !== 'number') {
    throw new TypeError(`${name} must be a number in [0, 1), got ${describe(inputDropout)}`);
  }
  if (!(inputDropout >= 0 && inputDropout < 1)) {
    throw new RangeError(`${name} must be a number in [0, 1), got ${inputDropout}`);
  }
  if (inputDropout > 0 && tokenizer.unknownId < 0) {
    throw new RangeError(
      `${name} replaces characters with the unknown id, which the tokenizer has only with minCount above 1, got minCount ${tokenizer.minCount}`,
    );
  }
  return inputDropout;
}

/** A table [vocabSize] of the ids inputDropout may replace (1): not unknown, not LAYOUT. */
const droppableIds = (tokenizer) =>
  Uint8Array.from(tokenizer.characters, (character, id) =>
    id !== tokenizer.unknownId && !LAYOUT.test(character) ? 1 : 0,
  );

/**
 * A seeded source of training windows from `text`, and its held-out windows.
 *
 * inputDropout (default 0) regularises a small text: each input character of a training
 * window (not its targets, not punctuation or white space) is replaced by the unknown id with
 * that probability, so the model cannot recall a line from its exact characters and learns
 * what does not depend on them (the length of a line, where the marks go). It needs the
 * tokenizer's unknown id (minCount above 1). The held-out windows are never changed.
 * @param {string} text the whole text
 * @param {{ context: number, seed?: number, minCount?: number, inputDropout?: number }} options
 *   window length; seed (default 1); minCount: the tokenizer's (createCharTokenizer; default 1,
 *   every character); inputDropout: in [0, 1)
 */
export function createTextTask(text, { context, seed = 1, minCount, inputDropout } = {}) {
  if (typeof text !== 'string') {
    throw new TypeError(`text task: text must be a string, got ${describe(text)}`);
  }
  checkPositiveInteger(context, 'text task: context');
  checkIntegerIn(seed, 'text task: seed', 0, 0xffffffff);
  const tokenizer = createCharTokenizer(text, minCount === undefined ? undefined : { minCount });
  const dropout = checkInputDropout(inputDropout, tokenizer, 'text task: inputDropout');
  const droppable = dropout > 0 ? droppableIds(tokenizer) : null;
  const ids = tokenizer.encode(text);
  const trainEnd = checkTextLength(ids.length, context, 'text task');
  const random = seededRandom(seed);
  // Window starts 0..lastStart keep the last target at ids[trainEnd - 1].
  const lastStart = trainEnd - context - 1;

  return Object.freeze({
    tokenizer,
    vocabSize: tokenizer.vocabSize,
    context,
    /** The probability that a training input character becomes the unknown id (0: never). */
    inputDropout: dropout,
    /** Characters in the text, in its training part, in its held-out part. */
    length: ids.length,
    trainLength: trainEnd,
    heldOutLength: ids.length - trainEnd,
    /**
     * The next `rows` training windows: { tokens, targets: Int32Array [rows, context], batch,
     * length: context, starts } (starts[b]: the index in the text of row b's first character).
     */
    batch(rows) {
      checkPositiveInteger(rows, 'text task: batch');
      if (rows > MAX_BATCH) {
        throw new RangeError(`text task: batch must be at most ${MAX_BATCH}, got ${rows}`);
      }
      const tokens = new Int32Array(rows * context);
      const targets = new Int32Array(rows * context);
      const starts = new Int32Array(rows);
      for (let b = 0; b < rows; b++) {
        const start = Math.floor(random() * (lastStart + 1));
        starts[b] = start;
        tokens.set(ids.subarray(start, start + context), b * context);
        targets.set(ids.subarray(start + 1, start + context + 1), b * context);
      }
      if (droppable !== null) {
        for (let i = 0; i < tokens.length; i++) {
          if (droppable[tokens[i]] === 1 && random() < inputDropout)
            tokens[i] = tokenizer.unknownId;
        }
      }
      return { tokens, targets, batch: rows, length: context, starts };
    },
    /**
     * The held-out tenth as consecutive windows: { tokens, targets: Int32Array [rows, context],
     * batch: rows, length: context, counted } (counted: the targets that are not -1, which is
     * heldOutLength - 1). The same windows at every call.
     */
    heldOut() {
      const counted = ids.length - trainEnd - 1;
      const rows = Math.ceil(counted / context);
      const tokens = new Int32Array(rows * context);
      const targets = new Int32Array(rows * context).fill(-1);
      for (let b = 0; b < rows; b++) {
        const start = trainEnd + b * context;
        const end = Math.min(start + context, ids.length - 1);
        tokens.set(ids.subarray(start, end), b * context);
        targets.set(ids.subarray(start + 1, end + 1), b * context);
      }
      return { tokens, targets, batch: rows, length: context, counted };
    },
  });
}
