// The vocabulary of the hostile suites: seeded random tools, values of every wrong type, numbers
// that are wrong as dims, and arrays that are wrong (or oddly right) where a Float32Array goes.
import { resizable } from './checks.mjs';

export const CALLS_PER_API = 3000;
export const WASM_MEMORY_LIMIT = 2 ** 31; // the contract's "size beyond what memory allows"
export const TRACE_LIMIT = 16 * 1024 * 1024; // attention.d.ts: at most this many numbers per trace
export const TRACE_MAX_HEADS = 256; // attention.d.ts: at most this many heads per trace

export function tools(random) {
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const floats = (length, amplitude = 2) =>
    Float32Array.from({ length }, () => (random() * 2 - 1) * amplitude);
  return { random, int, pick, floats };
}

// ---------------------------------------------------------------------------------------------
// Junk: values of every wrong type, and numbers that are wrong as dims.

export const JUNK = [
  null,
  undefined,
  '',
  '2',
  'q',
  2n,
  -1n,
  true,
  false,
  {},
  [],
  [2],
  Symbol('junk'),
  () => 2,
  new Number(2),
  new Date(0),
  new Map(),
  NaN,
];

// Bad (and some good) values of each option of the record (attention-options.mjs), for the
// suites that attack an entry point's options; the oracles judge which are valid. Every option
// OPTION_FIELDS lists must have some (attention-calls.mjs and trace-calls.mjs check).
export const BAD_OPTION_VALUES = {
  scale: [...JUNK, Infinity, -Infinity, 3, -3, 0, Number.MIN_VALUE, 1e-300, 1e39, 1e-45],
  softcap: [...JUNK, Infinity, -1, -Number.MIN_VALUE, 2, 1e-20, 1e-46, 1e-45],
  isCausal: [...JUNK, 0, 1, 'true', true, false],
  // No valid slopes but `false` (off): the oracle's reference has no ALiBi (alibi.test.mjs).
  alibi: [
    ...JUNK.filter((value) => value !== true),
    false,
    1,
    'true',
    [0.5],
    new Float64Array(6),
    new Float32Array(0),
    new Float32Array(7),
    Float32Array.of(NaN, 1, 1, 1, 1, 1),
  ],
};
export const BAD_DIMS = [0, -0, -1, -7, 1.5, 0.999, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32 + 1];
export const BAD_DIMS_HUGE = [2 ** 53, 1e300, Number.MAX_VALUE, 2 ** 31 - 1, 1e9];
// A number the module passes on as a float32 (scale, softcap) must mean the same there: finite,
// and not a nonzero that rounds to 0.
export const isFloat32 = (x) =>
  typeof x === 'number' && Number.isFinite(Math.fround(x)) && (Math.fround(x) !== 0 || x === 0);
export const isDim = (x) => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x < 2 ** 31;
export const isObject = (x) => (typeof x === 'object' && x !== null) || typeof x === 'function';
// Sets a key even where an earlier mutation left a getter or a null prototype.
export const setKey = (object, key, value) =>
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
export const SKIPPED = { names: [], what: 'skipped (an earlier mutation removed its target)' };

/** Typed arrays and array-likes that are not a Float32Array of `length`, or are, oddly. */
export function wrongArrays(length, t) {
  return [
    () => Array.from({ length }, () => t.random()), // a plain array of numbers
    () => new Float64Array(length),
    () => new Int32Array(length),
    () => new Uint8Array(length),
    () => new Uint8ClampedArray(length),
    () => new Float32Array(length + 1),
    () => new Float32Array(Math.max(0, length - 1)),
    () => new Float32Array(0),
    () => new Float32Array(length * 2 + 3),
    () => new DataView(new ArrayBuffer(length * 4)),
    () => new ArrayBuffer(length * 4),
    () => ({ length, 0: 1 }),
    () => new Array(length), // sparse
    () => new BigInt64Array(length),
  ];
}

/** Valid Float32Arrays that are not a plain fresh one: views, subclasses, shared memory. */
export function oddButValidArrays(values) {
  class Tensor32 extends Float32Array {}
  return [
    () => {
      // A view in the middle of a larger buffer: byteOffset must be honoured.
      const backing = new Float32Array(values.length + 7);
      backing.set(values, 3);
      return backing.subarray(3, 3 + values.length);
    },
    () => Tensor32.from(values),
    () => {
      const shared = new Float32Array(new SharedArrayBuffer(values.length * 4));
      shared.set(values);
      return shared;
    },
    () => {
      const resizable = new Float32Array(
        new ArrayBuffer(values.length * 4, { maxByteLength: values.length * 8 + 8 }),
      );
      resizable.set(values);
      return resizable;
    },
  ];
}
