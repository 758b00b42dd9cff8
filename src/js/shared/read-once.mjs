// Reading a caller's arguments exactly once.
//
// A getter, a Proxy or a resizable ArrayBuffer can make an argument answer differently each
// time it is read. If the checks read it once and the copy into wasm memory read it again, the
// value checked would not be the value used: a shrunk buffer then reads stale heap bytes or
// writes past an allocation. So every entry point works in four phases:
//   1. read: every field of every argument is read once, through these helpers; this is the
//      only phase in which the caller's code (getters, Proxy traps) can run;
//   2. measure: typed arrays are measured with the intrinsic %TypedArray%.prototype getters,
//      captured when this module loads, never with properties of the object itself (an own
//      `length` or `Symbol.toStringTag` changes nothing);
//   3. validate the snapshot (plain values only);
//   4. copy exactly the bytes that were validated, asserting their count just before the copy.
//
// Option bags (attention()'s options, trace()'s argument, onnxAttention()'s attributes) are
// read through their OWN properties only: an option inherited from a prototype (say a polluted
// Object.prototype.scale) is refused by name, never silently used. Tensor-like objects
// ({ type, data, dims }, { rows, cols, data }) are read with ordinary property access, once per
// field, because their fields are often getters on a class (onnxruntime-web's Tensor#data).

const { apply, ownKeys } = Reflect;
const { getPrototypeOf, getOwnPropertyDescriptor, freeze } = Object;
const isArray = Array.isArray;
const Uint8ArrayIntrinsic = Uint8Array;

const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
const getterOf = (object, key) => getOwnPropertyDescriptor(object, key).get;
// Each getter checks the internal slots of a real typed array: a Proxy, a plain object or a
// DataView gives undefined (the tag) or a TypeError (the others), whatever it pretends to be.
const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayLength = getterOf(TypedArrayPrototype, 'length');
const typedArrayByteLength = getterOf(TypedArrayPrototype, 'byteLength');
const typedArrayByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
const typedArrayBuffer = getterOf(TypedArrayPrototype, 'buffer');
const typedArraySet = TypedArrayPrototype.set;
const setHas = Set.prototype.has;
const setForEach = Set.prototype.forEach;

/**
 * The name of a real typed array's type ('Float32Array', 'Uint8Array', ...), realm-independent
 * and immune to an own or inherited Symbol.toStringTag; undefined for anything else.
 */
export const typedArrayType = (value) => apply(typedArrayTag, value, []);

const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');

/**
 * True for a real (non-shared) ArrayBuffer, of any realm: the intrinsic byteLength getter
 * throws for anything else, whatever it pretends to be.
 */
export function isArrayBuffer(value) {
  try {
    apply(arrayBufferByteLength, value, []);
    return true;
  } catch {
    return false;
  }
}

/** The length of a real typed array, measured by the intrinsic getter. */
export const typedArrayLengthOf = (view) => apply(typedArrayLength, view, []);

function isDetached(buffer) {
  // Node 20 has no ArrayBuffer.prototype.detached; constructing an empty view is the portable
  // test (a TypeError only for a detached buffer; a shrunk resizable buffer still allows it).
  try {
    new Uint8ArrayIntrinsic(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Measures a typed array once: { type, length, byteOffset, byteLength, buffer }, frozen, or
 * null when `value` is not a real typed array. A detached buffer is a TypeError naming `name`.
 */
export function measureTypedArray(value, name) {
  const type = typedArrayType(value);
  if (type === undefined) return null;
  const buffer = apply(typedArrayBuffer, value, []);
  const length = apply(typedArrayLength, value, []);
  const byteOffset = apply(typedArrayByteOffset, value, []);
  const byteLength = apply(typedArrayByteLength, value, []);
  if (byteLength === 0 && isDetached(buffer)) {
    throw new TypeError(
      `${name} is a ${type} whose ArrayBuffer is detached (transferred, e.g. to a worker), so it holds no data`,
    );
  }
  return freeze({ type, length, byteOffset, byteLength, buffer });
}

/**
 * The bytes of a measured typed array, as a fresh Uint8Array view, after asserting they are
 * exactly `expectedBytes` (what validation accepted) and that the buffer still holds them.
 * Called right before the bytes go into wasm memory.
 */
export function measuredBytes(measured, expectedBytes, name) {
  if (measured.byteLength !== expectedBytes) {
    throw new RangeError(
      `${name} must be ${expectedBytes} bytes, got ${measured.byteLength} (it changed after it was checked)`,
    );
  }
  let bytes;
  try {
    bytes = new Uint8ArrayIntrinsic(measured.buffer, measured.byteOffset, measured.byteLength);
  } catch {
    throw new RangeError(
      `${name}: its buffer no longer holds the ${expectedBytes} bytes that were checked (resized or detached during the call)`,
    );
  }
  if (apply(typedArrayByteLength, bytes, []) !== expectedBytes) {
    throw new RangeError(`${name}: ${expectedBytes} bytes expected in its buffer`);
  }
  return bytes;
}

/** The ArrayBuffer behind a real typed array, by the intrinsic getter. */
export const bufferOf = (view) => apply(typedArrayBuffer, view, []);

/** target.set(source, offset) with the intrinsic method, whatever the prototypes now say. */
export function setBytes(target, source, offset) {
  apply(typedArraySet, target, [source, offset]);
}

/**
 * Reads an option bag once, own properties only: a null-prototype record holding each own
 * string key's value, read once. Unknown own keys are a TypeError; so is an allowed key that
 * the object only inherits (from a class, `{ __proto__: {...} }` or a polluted
 * Object.prototype), so that a value the caller did not put there is never used.
 * `where` prefixes messages ('attention', 'trace', ...); `bagName` names the object.
 */
export function readOwnOptions(object, allowed, where, bagName) {
  // Index loops and the Set method captured at load: a replaced Array iterator or
  // Set.prototype.has cannot make an unknown key pass or an own key go unread.
  const record = { __proto__: null };
  const keys = ownKeys(object);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue; // symbols cannot name an option
    if (!apply(setHas, allowed, [key])) {
      throw new TypeError(
        `${where}: unknown option '${key}' (expected one of ${[...allowed].join(', ')})`,
      );
    }
    record[key] = object[key];
  }
  apply(setForEach, allowed, [
    (key) => {
      if (!(key in record) && key in object) {
        throw new TypeError(
          `${where}: '${key}' is inherited by ${bagName} from its prototype, not its own property; options must be own properties (copy them with { ...${bagName} })`,
        );
      }
    },
  ]);
  return record;
}

/**
 * A real array's items, each read once (holes read as undefined), or null for a non-array.
 * More than `limit` items is a RangeError naming `name` (a dims list is short; a Proxy could
 * claim 2^32 - 1 items).
 */
export function readArray(value, name, limit) {
  if (!isArray(value)) return null;
  const length = value.length;
  if (!(length <= limit)) {
    throw new RangeError(`${name} must have at most ${limit} items, got ${length}`);
  }
  const items = new Array(length);
  for (let i = 0; i < length; i++) items[i] = value[i];
  return items;
}

/**
 * A real array's items when it holds exactly `length` of them, each read once; null for a
 * non-array. Any other length is a RangeError naming `name` before a single item is read (a
 * sparse array or a Proxy may claim millions). `what` names the items in that message.
 */
export function readArrayOfLength(value, name, length, what = 'items') {
  if (!isArray(value)) return null;
  const given = value.length;
  if (given !== length) throw new RangeError(`${name} must hold ${length} ${what}, got ${given}`);
  const items = new Array(length);
  for (let i = 0; i < length; i++) items[i] = value[i];
  return items;
}

const { hasOwn } = Object;

/**
 * object[key] when it is the object's own property, else `fallback`: for this package's own
 * option objects, which a destructuring default would otherwise fill from a polluted
 * Object.prototype.
 */
export const ownOr = (object, key, fallback) => (hasOwn(object, key) ? object[key] : fallback);
