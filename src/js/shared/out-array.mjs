// The caller's `out`, an output array to fill instead of a fresh one, as attention() and
// KvCache.attend() take it: the rule it must meet, written once. Phase 3 of read-once.mjs
// (the array already measured); the one part that needs the module, "not a view of its wasm
// memory", is checkOutsideMemory below, which each entry point calls before any work.
import { describe } from './checks.mjs';
import { bufferOf } from './read-once.mjs';

/** Two measured typed arrays share bytes: the same buffer and overlapping byte ranges. */
function overlaps(a, b) {
  return (
    a.buffer === b.buffer &&
    a.byteOffset < b.byteOffset + b.byteLength &&
    b.byteOffset < a.byteOffset + a.byteLength
  );
}

/**
 * { array: the caller's array as read, measured: its measurement }, after checking that `out`
 * (measured, or null when it is no typed array) is a Float32Array of exactly yLength numbers
 * that shares no byte with any of `inputs` ([name, measured or null] pairs). The inputs go
 * into wasm memory before `out` is written, so sharing would not corrupt the call; it is
 * refused all the same, because a result written over an input is almost always a bug in the
 * caller.
 */
export function checkOut(out, given, yLength, inputs) {
  if (out === null || out.type !== 'Float32Array') {
    throw new TypeError(`out must be a Float32Array, got ${describe(given)}`);
  }
  if (out.length !== yLength) {
    throw new RangeError(
      `out must hold batch * qNumHeads * qSeqLen * vHeadSize = ${yLength} numbers, got ${out.length}`,
    );
  }
  // An index loop: a replaced Array iterator must not skip a check.
  for (let i = 0; i < inputs.length; i++) {
    const [name, input] = inputs[i];
    if (input !== null && overlaps(out, input)) {
      throw new RangeError(
        `out must not share memory with ${name} (it is a view of the same ArrayBuffer, over bytes ${name} uses); pass a separate Float32Array`,
      );
    }
  }
  return { array: given, measured: out };
}

/**
 * A RangeError when `out` (checkOut's, or null) is a view of the module's own wasm memory
 * (`heap`, its HEAPU8): that view is replaced when the memory grows, and overlaps the very
 * buffers the call works in.
 */
export function checkOutsideMemory(out, heap) {
  if (out !== null && out.measured.buffer === bufferOf(heap)) {
    throw new RangeError(
      "out must not be a view of the module's own wasm memory (it moves when the memory grows); pass a separate Float32Array",
    );
  }
}
