// The options of a tiny transformer's forward and generate beyond the tokens, read and checked
// once, shared by the model (tiny-transformer.mjs) and the trainer on its caller's thread
// (trainer.mjs), so that one rule gives one message everywhere:
//   headMask   [L, H], layer-major (headMask[l * H + h]): each head's output times its factor
//              before W_O, 0 = switched off, 1 = as it is (any number from 0 to 1)
//   temperature 0 = greedy, else the softmax of logits / temperature is sampled (finite, >= 0)
//   topK       sample among the topK largest logits; 0 (or vocabSize and more) = among all
//   seed       the sampler's seed: the same seed gives the same tokens
//   bannedIds  ids never chosen, greedy or drawn (a text model's unknown id: its U+FFFD is
//              no character to write); the model checks them against its vocabulary
import { checkFloat32, checkIntegerIn, describe, isOptionBag } from '../shared/checks.mjs';
import {
  measuredBytes,
  measureTypedArray,
  readArray,
  readOwnOptions,
  setBytes,
} from '../shared/read-once.mjs';

/** The most heads a model may have (256 layers of 16384 heads: far past any that trains). */
const MAX_HEADS = 256 * (1 << 14);
const UINT32_MAX = 0xffffffff;
export const GENERATE_KEYS = new Set(['temperature', 'topK', 'seed', 'headMask', 'bannedIds']);
/** The most ids bannedIds may list (the largest vocabulary a model may have). */
const MAX_BANNED = 1 << 20;

/** One factor of a head mask: a number from 0 to 1. */
function checkFactor(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number from 0 to 1, got ${describe(value)}`);
  }
  if (!(value >= 0 && value <= 1)) {
    throw new RangeError(
      `${name} must be a number from 0 to 1 (0 switches the head off), got ${value}`,
    );
  }
  return value;
}

/**
 * A head mask as a Float32Array of our own, or null when `value` is undefined. `count` is the
 * model's L * H, or undefined where the model is not at hand (the trainer's thread: its worker
 * checks the length).
 */
export function readHeadMask(value, name, count) {
  if (value === undefined) return null;
  const limit = count ?? MAX_HEADS;
  const items = readArray(value, name, Math.max(limit, 1) + 1);
  let mask;
  if (items !== null) {
    mask = new Float32Array(items.length);
    items.forEach((item, i) => (mask[i] = checkFactor(item, `${name}[${i}]`)));
  } else {
    const measured = measureTypedArray(value, name);
    if (
      measured === null ||
      (measured.type !== 'Float32Array' && measured.type !== 'Float64Array')
    ) {
      throw new TypeError(
        `${name} must be an array of numbers or a Float32Array (one factor per head, layer by layer), got ${describe(value)}`,
      );
    }
    if (measured.length > limit + 1) {
      throw new RangeError(`${name} must hold ${limit} numbers, got ${measured.length}`);
    }
    const copy = new (measured.type === 'Float32Array' ? Float32Array : Float64Array)(
      measured.length,
    );
    setBytes(new Uint8Array(copy.buffer), measuredBytes(measured, measured.byteLength, name), 0);
    mask = new Float32Array(copy.length);
    copy.forEach((item, i) => (mask[i] = checkFactor(item, `${name}[${i}]`)));
  }
  if (count !== undefined && mask.length !== count) {
    throw new RangeError(
      `${name} must hold layers * heads = ${count} numbers (headMask[l * heads + h]), got ${mask.length}`,
    );
  }
  return mask;
}

/**
 * generate()'s options, read once: { temperature, topK, seed, headMask, bannedIds } with
 * defaults (greedy, all, 0, null, null). `headCount` as readHeadMask's `count`.
 */
export function readGenerateOptions(options, where, headCount) {
  if (options === undefined) {
    return { temperature: 0, topK: 0, seed: 0, headMask: null, bannedIds: null };
  }
  if (!isOptionBag(options)) {
    throw new TypeError(
      `${where}: options must be an object { temperature, topK, seed, headMask, bannedIds }, got ${describe(options)}`,
    );
  }
  const given = readOwnOptions(options, GENERATE_KEYS, where, 'options');
  return readSampling(given, headCount);
}

/** The sampling fields of an options record already read once (readOwnOptions), checked. */
export function readSampling(given, headCount) {
  const or = (value, fallback) => (value === undefined ? fallback : value);
  const temperature = checkFloat32(or(given.temperature, 0), 'temperature');
  if (!(temperature >= 0)) throw new RangeError(`temperature must be >= 0, got ${temperature}`);
  return {
    temperature,
    topK: checkIntegerIn(or(given.topK, 0), 'topK', 0, UINT32_MAX),
    seed: checkIntegerIn(or(given.seed, 0), 'seed', 0, UINT32_MAX),
    headMask: readHeadMask(given.headMask, 'headMask', headCount),
    bannedIds:
      given.bannedIds === undefined ? null : readIds(given.bannedIds, 'bannedIds', MAX_BANNED),
  };
}

/**
 * bannedIds checked against a model of `vocabSize` ids: a table [vocabSize] of flags (1 =
 * never chosen), or null when none are banned. Every id must be one of the model's, and at
 * least one id must be left to choose.
 */
export function bannedTable(bannedIds, vocabSize) {
  if (bannedIds === null) return null;
  const table = new Uint8Array(vocabSize);
  bannedIds.forEach((id, i) => {
    if (!(id >= 0 && id < vocabSize)) {
      throw new RangeError(
        `bannedIds[${i}] must be a token id from 0 to ${vocabSize - 1}, got ${id}`,
      );
    }
    table[id] = 1;
  });
  if (!table.includes(0)) {
    throw new RangeError(
      `bannedIds bans every one of the model's ${vocabSize} ids; at least one must be left to choose`,
    );
  }
  return table;
}

/** The most tokens a forward or generate call can take (the largest context a model has). */
const MAX_TOKENS = 1 << 14;
const TRAINER_FORWARD_KEYS = new Set(['tokens', 'headMask']);
const TRAINER_GENERATE_KEYS = new Set(['prompt', 'count', ...GENERATE_KEYS]);

/**
 * Token ids for a trainer's forward / generate, as an Int32Array of our own: a string (a text
 * trainer's, encoded by its tokenizer), an Int32Array or an array of integers. Ids are checked
 * against the model in its worker.
 */
function readTokenIds(value, name, tokenizer) {
  if (typeof value === 'string') {
    if (tokenizer === null) {
      throw new TypeError(
        `${name} can be a string only for a text trainer (the induction task has no characters); give token ids`,
      );
    }
    return tokenizer.encode(value);
  }
  return readIds(value, name, MAX_TOKENS, tokenizer !== null);
}

/**
 * At most `limit` token ids (integers >= 0), read once from an Int32Array or an array, as an
 * Int32Array of our own; `orString` says a string is taken too (for the message).
 */
function readIds(value, name, limit, orString = false) {
  const items = readArray(value, name, limit);
  if (items !== null) {
    const ids = new Int32Array(items.length);
    items.forEach((id, i) => {
      if (typeof id !== 'number') {
        throw new TypeError(`${name}[${i}] must be a token id (a number), got ${describe(id)}`);
      }
      if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
        throw new RangeError(`${name}[${i}] must be a token id (an integer >= 0), got ${id}`);
      }
      ids[i] = id;
    });
    return ids;
  }
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Int32Array') {
    throw new TypeError(
      `${name} must be an Int32Array, an array of token ids${orString ? ' or a string' : ''}, got ${describe(value)}`,
    );
  }
  if (measured.length > limit) {
    throw new RangeError(`${name} must hold at most ${limit} ids, got ${measured.length}`);
  }
  const copy = new Int32Array(measured.length);
  setBytes(new Uint8Array(copy.buffer), measuredBytes(measured, measured.byteLength, name), 0);
  return copy;
}

/** trainer.forward's argument, read once: { tokens, headMask } (headMask may be null). */
export function readTrainerForward(args, tokenizer) {
  const where = 'forward';
  if (!isOptionBag(args)) {
    throw new TypeError(
      `${where}: the argument must be an object { tokens, headMask }, got ${describe(args)}`,
    );
  }
  const given = readOwnOptions(args, TRAINER_FORWARD_KEYS, where, 'the argument');
  if (given.tokens === undefined) throw new TypeError(`${where}: tokens is missing`);
  return {
    tokens: readTokenIds(given.tokens, 'tokens', tokenizer),
    headMask: readHeadMask(given.headMask, 'headMask'),
  };
}

/**
 * trainer.generate's argument, read once: { prompt, count, temperature, topK, seed, headMask,
 * bannedIds } (headMask and bannedIds null when not given).
 */
export function readTrainerGenerate(args, tokenizer) {
  const where = 'generate';
  if (!isOptionBag(args)) {
    throw new TypeError(
      `${where}: the argument must be an object { prompt, count, temperature, topK, seed, headMask, bannedIds }, got ${describe(args)}`,
    );
  }
  const given = readOwnOptions(args, TRAINER_GENERATE_KEYS, where, 'the argument');
  if (given.prompt === undefined) throw new TypeError(`${where}: prompt is missing`);
  if (given.count === undefined) throw new TypeError(`${where}: count is missing`);
  return {
    prompt: readTokenIds(given.prompt, 'prompt', tokenizer),
    count: checkIntegerIn(given.count, 'count', 0, MAX_TOKENS),
    ...readSampling(given),
  };
}
