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
import { createCharTokenizer } from './char-tokenizer.mjs';
import { seededRandom } from './seeded-random.mjs';

export { createCharTokenizer };

/**
 * The model for text, chosen by measuring (docs/text.md): two layers of four heads with RoPE
 * positions and the MLP, AdamW at 1e-2, windows of 32 characters (two lines of a seven-character
 * poem). With the Tang poems' 2,500 characters its output layer is most of a step's work, so
 * it stays narrow (dModel 64) to take more steps in a minute. vocabSize comes from the text:
 * createTrainer fills it in (elsewhere spread `{ ...TEXT_MODEL, vocabSize }`).
 */
export const TEXT_MODEL = Object.freeze({
  context: 32,
  dModel: 64,
  layers: 2,
  heads: 4,
  positions: 'rope',
  mlpSize: 256,
  learningRate: 1e-2,
});
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

/**
 * A seeded source of training windows from `text`, and its held-out windows.
 * @param {string} text the whole text
 * @param {{ context: number, seed?: number }} options window length; seed (default 1)
 */
export function createTextTask(text, { context, seed = 1 } = {}) {
  if (typeof text !== 'string') {
    throw new TypeError(`text task: text must be a string, got ${describe(text)}`);
  }
  checkPositiveInteger(context, 'text task: context');
  checkIntegerIn(seed, 'text task: seed', 0, 0xffffffff);
  const tokenizer = createCharTokenizer(text);
  const ids = tokenizer.encode(text);
  const trainEnd = checkTextLength(ids.length, context, 'text task');
  const random = seededRandom(seed);
  // Window starts 0..lastStart keep the last target at ids[trainEnd - 1].
  const lastStart = trainEnd - context - 1;

  return Object.freeze({
    tokenizer,
    vocabSize: tokenizer.vocabSize,
    context,
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
