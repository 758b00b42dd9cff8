// What the tiny transformer trains on: the induction task and the text task (characters of a text).
import type { GenerateOptions, TinyTransformerTensor, createTrainer } from './training.js';

/** A batch of induction rows: Int32Array [batch, length] each. */
export interface InductionBatch {
  tokens: Int32Array;
  /** The token to predict at each position, or -1 where it is not predictable (not counted). */
  targets: Int32Array;
  batch: number;
  length: 25;
  /** Each row's layout: x1 at 1 + p and again at 1 + p + n. */
  rows: { p: number; n: number }[];
}

/**
 * The induction task: rows of 25 tokens, BOS (0) | p noise | x1..xn | x1..xn | noise, with
 * n distinct symbols from 1..15 (n in 4..10, p in 0..24-2n, new for each row) and noise from
 * the other symbols. Only the second copy's predictable next tokens are counted targets.
 * The same seed (an integer in 0..2^32-1, default 1) gives the same batches everywhere.
 */
export function createInductionTask(seed?: number): {
  readonly seed: number;
  readonly length: 25;
  readonly vocabSize: 16;
  /** The next `rows` rows (1 to 65536). */
  batch(rows: number): InductionBatch;
};

/**
 * The model the induction task was made for, as the page's chapter 3, the learning tests and
 * the training benchmark train it: vocab 16, context 25, dModel 32, 2 attention-only layers of
 * 4 heads (two layers are the fewest that can hold a previous-token head and an induction
 * head), learned positions, AdamW at learning rate 6e-3. Frozen: spread it to try another,
 * e.g. `createTinyTransformer({ ...INDUCTION_MODEL, layers: 1, seed: 3 })`.
 */
export const INDUCTION_MODEL: Readonly<{
  vocabSize: 16;
  context: 25;
  dModel: 32;
  layers: 2;
  heads: 4;
  positions: 'learned';
  mlpSize: 0;
  learningRate: 0.006;
}>;

/** Tokens in an induction row: 25 (the task's `length`, {@link INDUCTION_MODEL}'s context). */
export const INDUCTION_LENGTH: 25;

/** Rows per training step for {@link INDUCTION_MODEL}: 32. */
export const INDUCTION_BATCH: 32;

/** Accuracy over counted targets (not -1), by the largest logit; accuracy is NaN if none. */
export function inductionAccuracy(
  logits: { data: Float32Array; dims: number[] },
  targets: Int32Array,
): { correct: number; counted: number; accuracy: number };

/** Characters to ids and back: {@link createCharTokenizer}. */
export interface CharTokenizer {
  /**
   * How many ids there are: the model's vocabSize. With minCount 1, the text's distinct
   * characters (code points); above 1, those the text holds at least minCount times, plus one.
   */
  readonly vocabSize: number;
  /**
   * The vocabulary: characters[id] is the character of that id, in code-point order, then
   * (minCount above 1) {@link UNKNOWN_CHARACTER} for the unknown id.
   */
  readonly characters: readonly string[];
  /** The least number of times a character must occur in the text to have an id of its own. */
  readonly minCount: number;
  /**
   * The id shared by every character without one of its own (vocabSize - 1), which decodes
   * to {@link UNKNOWN_CHARACTER}; -1 when minCount is 1 (no unknown id).
   */
  readonly unknownId: number;
  /**
   * One id per character (code point) of `text`. A character outside the vocabulary is the
   * unknown id when there is one, else a RangeError naming it and its index (in characters);
   * a non-string a TypeError.
   */
  encode(text: string): Int32Array;
  /** The characters of `ids` joined; an id outside 0..vocabSize-1 is a RangeError naming its index. */
  decode(ids: Int32Array | number[]): string;
}

/**
 * A character tokenizer whose vocabulary is every distinct character (Unicode code point) of
 * `text`, ids in code-point order. `text` must be a non-empty string.
 *
 * With `minCount` above 1 (an integer; default 1), only the characters `text` holds at least
 * minCount times get ids of their own; every other character (rare in the text, or not in
 * it at all) is the one unknown id, the last, which decodes to {@link UNKNOWN_CHARACTER}.
 * U+FFFD in the text is then one of the unknown too. A smaller vocabulary makes a cheaper
 * output layer and leaves a model no id it could only memorise ({@link TEXT_TASK}).
 */
export function createCharTokenizer(text: string, options?: { minCount?: number }): CharTokenizer;

/** U+FFFD (the replacement character): what the unknown id of a {@link CharTokenizer} decodes to. */
export const UNKNOWN_CHARACTER: '\uFFFD';

/** A batch of text windows: Int32Array [batch, length] each. */
export interface TextBatch {
  tokens: Int32Array;
  /** The next character of each position. */
  targets: Int32Array;
  batch: number;
  length: number;
  /** Where each row starts in the text, in characters. */
  starts: Int32Array;
}

/**
 * The text task: windows of `context` characters from the first nine tenths of `text`
 * (floor(0.9 n) characters), with next-character targets; the last tenth is held out. The
 * same seed (default 1) gives the same batches; `minCount` is the tokenizer's
 * ({@link createCharTokenizer}; default 1, every character).
 *
 * `inputDropout` (in [0, 1), default 0) regularises a small text: each input character of a
 * training window (not the targets, not punctuation or white space) becomes the unknown id
 * with that probability, from the same seed, so the model cannot recall a line from its
 * exact characters and learns what does not depend on them (a line's length, where the marks
 * go). Above 0 it needs the unknown id (minCount above 1). Held-out windows are never changed. A text too short for one window of context
 * characters and one more, and two held-out characters, is a RangeError.
 */
export function createTextTask(
  text: string,
  options: { context: number; seed?: number; minCount?: number; inputDropout?: number },
): {
  readonly tokenizer: CharTokenizer;
  readonly vocabSize: number;
  readonly context: number;
  /** The probability that a training input character becomes the unknown id (0: never). */
  readonly inputDropout: number;
  /** Characters in the text, in its training part, in its held-out part. */
  readonly length: number;
  readonly trainLength: number;
  readonly heldOutLength: number;
  /** The next `rows` training windows (1 to 65536). */
  batch(rows: number): TextBatch;
  /**
   * The held-out tenth in consecutive windows; each held-out character after the first is one
   * target, `counted` in all; the last window is padded (tokens 0, targets -1).
   */
  heldOut(): Omit<TextBatch, 'starts'> & { counted: number };
};

/**
 * The model for text (docs/text.md says how it was chosen): dModel 64, 4 layers of 4 heads,
 * RoPE positions, an MLP of 256, AdamW at 2e-3 with weight decay 0.1, windows of 32
 * characters. No vocabSize: it comes from the text (createTrainer fills it in; elsewhere spread
 * `{ ...TEXT_MODEL, vocabSize }`).
 */
export const TEXT_MODEL: Readonly<{
  context: 32;
  dModel: 64;
  layers: 4;
  heads: 4;
  positions: 'rope';
  mlpSize: 256;
  learningRate: 0.002;
  weightDecay: 0.1;
}>;

/**
 * How the text task reads a text for {@link TEXT_MODEL}: `createTrainer({ config: TEXT_MODEL,
 * task: { text, ...TEXT_TASK } })` or `createTextTask(text, { context, ...TEXT_TASK })`
 * (docs/text.md says how it was chosen). Characters seen fewer than 3 times share the unknown
 * id (the Tang poems' 2,500 characters become 1,286 ids: a cheaper step, no id that can only
 * be memorised), and 30% of the training input characters that are not punctuation or white
 * space become the unknown id, so that a model of a small text learns the length of a line
 * instead of recalling the text.
 */
export const TEXT_TASK: Readonly<{ minCount: 3; inputDropout: 0.3 }>;

/**
 * How the text task reads `text`, by its length: {@link TEXT_TASK} for a text of 18,000
 * characters or more (the Tang poems, the English text), and a lower `minCount` for a shorter
 * one, so that a short text (a learner's paragraph) keeps its characters instead of sharing
 * one unknown id: minCount is floor(characters / 6,000), at least 1 and at most 3. Under
 * 12,000 characters every character keeps its id (minCount 1), and with no unknown id there is
 * no input dropout either (inputDropout 0).
 * @example
 * ```ts
 * const trainer = await createTrainer({ config: { ...TEXT_MODEL }, task: { text, ...textTaskFor(text) } });
 * ```
 * @throws TypeError when text is not a string.
 */
export function textTaskFor(text: string): Readonly<{ minCount: number; inputDropout: number }>;

/** Windows per training step for {@link TEXT_MODEL}: 8. */
export const TEXT_BATCH: 8;

/**
 * How to sample text from a {@link TEXT_MODEL} (generate's options, {@link GenerateOptions};
 * docs/text.md says how they were chosen): temperature 0.8 among the 10 likeliest characters,
 * so that a character the model thinks unlikely (a mark in the middle of a line of verse, a
 * rare character) is not drawn. Add a seed: `{ ...TEXT_SAMPLING, seed }`.
 */
export const TEXT_SAMPLING: Readonly<{ temperature: 0.8; topK: 10 }>;

/**
 * Where the text task's training part ends, in characters, for a text of `length`
 * characters: floor(0.9 · length). The characters from there on are held out
 * ({@link createTextTask}).
 */
export function trainEndOf(length: number): number;

/** The `format` of a text snapshot's manifest ({@link TextSnapshotManifest}). */
export const SNAPSHOT_FORMAT: 'attention-explained/text-snapshot@1';

/**
 * A trained model stored small: the JSON manifest beside its bytes (every parameter as IEEE
 * half precision, little-endian, one tensor after another in `tensors` order). The page's
 * chapter 4 opens with two; `scripts/train-snapshots.mjs` writes them and adds what it
 * measured (held-out loss, a sample).
 */
export interface TextSnapshotManifest {
  readonly format: 'attention-explained/text-snapshot@1';
  /** Each tensor's name and dims, in the order of the bytes. */
  readonly tensors: readonly (readonly [name: string, dims: readonly number[]])[];
  /** The size of the bytes: 2 per number. */
  readonly bytes?: number;
  readonly [more: string]: unknown;
}

/**
 * A model's parameters (as `parameters()` gives them) as a snapshot's tensors list and bytes,
 * each number rounded to float16 (nearest, ties to even).
 */
export function encodeSnapshot(parameters: Record<string, TinyTransformerTensor>): {
  tensors: [name: string, dims: number[]][];
  bytes: Uint8Array;
};

/**
 * The parameters a snapshot holds, as float32, ready for `loadParameters`. A manifest of
 * another format, or bytes that are not an ArrayBuffer or a typed array, is a TypeError; bytes
 * of another size than the tensors need, a RangeError saying both sizes.
 */
export function decodeSnapshot(
  manifest: TextSnapshotManifest,
  bytes: ArrayBuffer | ArrayBufferView,
): Record<string, { data: Float32Array; dims: number[] }>;
