// The induction task: the one workload shared by the learning tests, the training benchmark,
// examples/node/train.mjs and the page's chapter 3 (shipped in dist/ as induction-task.mjs and
// inside attention.mjs's createTrainer worker).
//
// Each row holds LENGTH = 25 tokens:
//   BOS (token 0) | p noise tokens | x1 .. xn | x1 .. xn again | noise to the end
// with the segment x1..xn of n distinct symbols from 1..15, n uniform in 4..10 and p uniform in
// 0..(24 - 2n), both new for each row. Noise is drawn (with repeats) from the symbols NOT in
// the segment, so the only way to predict inside the second copy is to find the earlier
// occurrence of the current token and copy the token after it: an induction head. The noise
// and the varying place keep the shortcuts closed (a fixed place is solved by position alone;
// noise drawn from the segment's symbols would let "least recently seen" guess).
//
// Targets are next-token targets aligned with the tokens: targets[t] is the token the model
// should predict at position t. Only the predictable positions of the second copy count
// (x_k at position t predicts x_{k+1}, for k = 1..n-1); every other position holds -1.
// So a row has n - 1 counted targets.
import { checkPositiveInteger, describe } from '../shared/checks.mjs';
import { readArray } from '../shared/read-once.mjs';
import { seededRandom } from './seeded-random.mjs';

/** Tokens per row (the model's context must be at least this). */
export const INDUCTION_LENGTH = 25;
/** Token ids used: 0 (BOS) and the symbols 1..15 (the model's vocabulary must hold them). */
export const INDUCTION_VOCAB = 16;
/** Token 0 opens every row. */
export const BOS = 0;
/** The segment's length n is uniform in MIN_SEGMENT..MAX_SEGMENT. */
export const MIN_SEGMENT = 4;
export const MAX_SEGMENT = 10;
/**
 * The model the task was made for, the one the page's chapter 3, the learning tests, the
 * training benchmark and examples/node/train.mjs train: two attention-only layers of four
 * heads (two layers are the fewest that can hold a previous-token head and an induction head),
 * learned positions, AdamW at 6e-3. Try another with `{ ...INDUCTION_MODEL, layers: 1 }`.
 */
export const INDUCTION_MODEL = Object.freeze({
  vocabSize: INDUCTION_VOCAB,
  context: INDUCTION_LENGTH,
  dModel: 32,
  layers: 2,
  heads: 4,
  positions: 'learned',
  mlpSize: 0,
  learningRate: 6e-3,
});
/** Rows per training step for INDUCTION_MODEL. */
export const INDUCTION_BATCH = 32;
/** The most rows one batch() call makes (a guard against a typo'd batch of a billion rows). */
export const MAX_BATCH = 65536;

const SYMBOLS = INDUCTION_VOCAB - 1; // 1..15

/** An integer uniform in lo..hi (both included). */
const uniformInt = (random, lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

/**
 * Fills one row: tokens[0..LENGTH) and targets[0..LENGTH) (views into the batch's arrays).
 * Returns { p, n } for tests and for the page's labels.
 */
function fillRow(random, tokens, targets) {
  const n = uniformInt(random, MIN_SEGMENT, MAX_SEGMENT);
  const p = uniformInt(random, 0, INDUCTION_LENGTH - 1 - 2 * n);
  // The segment: the first n of a partial Fisher-Yates shuffle of 1..15.
  const symbols = Array.from({ length: SYMBOLS }, (_, i) => i + 1);
  for (let i = 0; i < n; i++) {
    const j = uniformInt(random, i, SYMBOLS - 1);
    [symbols[i], symbols[j]] = [symbols[j], symbols[i]];
  }
  const segment = symbols.slice(0, n);
  const noise = symbols.slice(n); // the symbols not in the segment
  const first = 1 + p; // where x1 sits the first time
  const second = first + n; // and the second time
  targets.fill(-1);
  tokens[0] = BOS;
  for (let t = 1; t < INDUCTION_LENGTH; t++) {
    if (t >= first && t < second + n) tokens[t] = segment[(t - first) % n];
    else tokens[t] = noise[uniformInt(random, 0, noise.length - 1)];
  }
  for (let k = 0; k < n - 1; k++) targets[second + k] = segment[k + 1];
  return { p, n };
}

/**
 * A seeded source of induction batches: each batch(rows) call continues the same sequence, so
 * one seed gives the same batches in the same order everywhere.
 * @param {number} [seed] a non-negative integer below 2^32 (default 1)
 */
export function createInductionTask(seed = 1) {
  if (typeof seed !== 'number') {
    throw new TypeError(`induction task: seed must be an integer, got ${describe(seed)}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`induction task: seed must be an integer in 0..2^32-1, got ${seed}`);
  }
  const random = seededRandom(seed);
  return Object.freeze({
    seed,
    length: INDUCTION_LENGTH,
    vocabSize: INDUCTION_VOCAB,
    /**
     * The next `rows` rows: { tokens, targets: Int32Array [batch, length], batch, length,
     * rows: [{ p, n }] } (where each row's segment starts: x1 at 1 + p and 1 + p + n).
     */
    batch(rows) {
      checkPositiveInteger(rows, 'induction task: batch');
      if (rows > MAX_BATCH) {
        throw new RangeError(`induction task: batch must be at most ${MAX_BATCH}, got ${rows}`);
      }
      const tokens = new Int32Array(rows * INDUCTION_LENGTH);
      const targets = new Int32Array(rows * INDUCTION_LENGTH);
      const layout = [];
      for (let b = 0; b < rows; b++) {
        const at = b * INDUCTION_LENGTH;
        layout.push(
          fillRow(
            random,
            tokens.subarray(at, at + INDUCTION_LENGTH),
            targets.subarray(at, at + INDUCTION_LENGTH),
          ),
        );
      }
      return { tokens, targets, batch: rows, length: INDUCTION_LENGTH, rows: layout };
    },
  });
}

/**
 * Accuracy over the counted targets (those not -1): the share of them whose largest logit is
 * the target. `logits` is a model's forward().logits, { data: Float32Array, dims: [batch, T,
 * vocab] }; `targets` an Int32Array [batch, T]. Returns { correct, counted, accuracy } (accuracy
 * NaN when nothing is counted).
 */
export function inductionAccuracy(logits, targets) {
  if (logits === null || typeof logits !== 'object') {
    throw new TypeError(
      `inductionAccuracy: logits must be { data: Float32Array, dims }, got ${describe(logits)}`,
    );
  }
  // Each field read once: a getter cannot pass the check with one value and be used with another.
  const { data, dims: givenDims } = logits;
  if (!(data instanceof Float32Array)) {
    throw new TypeError(
      `inductionAccuracy: logits.data must be a Float32Array, got ${describe(data)}`,
    );
  }
  const dims = readArray(givenDims, 'inductionAccuracy: logits.dims', 3);
  if (dims === null || dims.length !== 3 || !dims.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new TypeError(
      `inductionAccuracy: logits.dims must be [batch, T, vocab], three counts, got ${describe(givenDims)}`,
    );
  }
  const rows = dims[0];
  const length = dims[1];
  const vocab = dims[2];
  if (data.length !== rows * length * vocab) {
    throw new RangeError(
      `inductionAccuracy: logits.data must hold batch * T * vocab = ${rows * length * vocab} numbers, got ${data.length}`,
    );
  }
  if (!(targets instanceof Int32Array) || targets.length !== rows * length) {
    throw new TypeError(
      `inductionAccuracy: targets must be an Int32Array of batch * T = ${rows * length}, got ${describe(targets)}`,
    );
  }
  let correct = 0;
  let counted = 0;
  for (let i = 0; i < rows * length; i++) {
    if (targets[i] < 0) continue;
    counted++;
    let best = 0;
    for (let v = 1; v < vocab; v++) {
      if (data[i * vocab + v] > data[i * vocab + best]) best = v;
    }
    if (best === targets[i]) correct++;
  }
  return { correct, counted, accuracy: counted === 0 ? NaN : correct / counted };
}
