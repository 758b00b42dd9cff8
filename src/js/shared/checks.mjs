// Checks of plain values shared by every entry point: each returns the value or throws a
// TypeError (wrong kind of value) or RangeError (right kind, wrong size), naming the argument
// and saying what was expected versus given. They see values already read from the caller's
// objects (read-once.mjs), never the objects themselves.
import { typedArrayLengthOf, typedArrayType } from './read-once.mjs';

// Captured when the module loads, so that a caller who later replaces them cannot change what
// passes a check.
const { isArray } = Array;
const { isView } = ArrayBuffer;
const { isInteger, isFinite } = Number;
const { fround } = Math;

/** A short description of a value for error messages ("a Uint8Array of length 4"). */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  const type = typedArrayType(value);
  if (type !== undefined) return `a ${type} of length ${typedArrayLengthOf(value)}`;
  if (isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'object') return isView(value) ? 'a DataView' : 'an object';
  return `${typeof value} ${String(value)}`;
}

/** An object that can hold options: not null, not an array, not a typed array or DataView. */
export const isOptionBag = (value) =>
  value !== null && typeof value === 'object' && !isArray(value) && !isView(value);

export function formatBytes(bytes) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export function checkPositiveInteger(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a positive integer, got ${describe(value)}`);
  }
  if (!isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  if (value > 0x7fffffff) throw new RangeError(`${name} must be below 2^31, got ${value}`);
  return value;
}

/** An integer from `min` to `max`, or a TypeError / RangeError naming it. */
export function checkIntegerIn(value, name, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  if (!isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * A number the core receives as a float32 (the scale, a score option's value): it must stay
 * what the caller meant there. 1e39 is finite in JS but Infinity in float32; 1e-46 is positive
 * in JS but 0 in float32 (an option that is off at 0 would silently be off, a scale of 1e-300
 * would silently be 0).
 */
export function checkFloat32(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  }
  const single = fround(value);
  if (!isFinite(single)) {
    throw new RangeError(`${name} must be a finite float32 (|${name}| < 3.4e38), got ${value}`);
  }
  if (single === 0 && value !== 0) {
    throw new RangeError(
      `${name} must be 0 or at least 1.4e-45 in magnitude (it is used as a float32, where ${value} is 0), got ${value}`,
    );
  }
  return value;
}

/**
 * The message refusing a weight that is not finite: NaN or +-Infinity, or a number past
 * float32's range that becomes Infinity there (1e39). A model holding one computes NaN
 * everywhere and can never train again. `shown` is the value as the caller gave it.
 */
export const nonFiniteWeight = (name, shown) =>
  `${name} must be a finite number (weights are float32: NaN, Infinity and magnitudes past 3.4e38 are refused), got ${shown}`;

/**
 * Numbers read from a caller's array as a Float32Array of our own: a non-number is a TypeError
 * and a value that is not finite as a float32 a RangeError, each naming `name[index]`.
 */
export function finiteFloats(items, name) {
  const values = new Float32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'number') {
      throw new TypeError(`${name}[${i}] must be a number, got ${describe(item)}`);
    }
    values[i] = item;
    if (!isFinite(values[i])) throw new RangeError(nonFiniteWeight(`${name}[${i}]`, item));
  }
  return values;
}

export function checkBoolean(value, name) {
  if (typeof value !== 'boolean') {
    throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
  }
  return value;
}

/**
 * The core reports why it refused a call as a message ("" = success). Only running out of
 * memory for its working memory says anything about memory; every other message is about
 * the arguments and is reported as it is.
 */
export const isOutOfMemory = (message) => message.startsWith('out of memory');
