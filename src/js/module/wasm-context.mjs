// What every entry point needs of one instantiated module, built once by wrapModule (api.mjs)
// and handed to each entry point's factory as one object:
//   { Module, memoryLimit, withAllocations, copyOut, copyOutTo, checkFits,
//     coreCall, runAttentionCall, attentionWorkingBytes }   (the last three: core-call.mjs)
// so that installing a new entry point is one line in wrapModule: `name: createName(context)`.
import { formatBytes } from '../shared/checks.mjs';
import { createCoreCalls } from './core-call.mjs';
import { bufferOf, measuredBytes, setBytes } from '../shared/read-once.mjs';

const Float32ArrayIntrinsic = Float32Array;
const Uint8ArrayIntrinsic = Uint8Array;

/** Room kept free beside a call's data for the stack and the module's static data. */
const RESERVE_BYTES = 4 * 1024 * 1024;

export function createWasmContext(Module) {
  // The most bytes wasm memory may grow to, as the module was linked.
  const memoryLimit = Module.maximumMemoryBytes();

  // Allocations of one call; all freed in `finally`, so errors cannot leak memory.
  // `work(allocate, copyIn)`: allocate(bytes, what) -> address; copyIn(measured, bytes, what)
  // copies exactly the bytes that were measured and validated (read-once.mjs, phase 4).
  function withAllocations(where, work) {
    const pointers = [];
    const allocate = (bytes, what) => {
      if (bytes > memoryLimit) {
        throw new RangeError(
          `${where}: ${what} needs ${formatBytes(bytes)}, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
        );
      }
      const pointer = Module._malloc(Math.max(bytes, 4));
      if (!pointer) {
        throw new RangeError(
          `${where}: could not allocate ${formatBytes(bytes)} for ${what} (wasm memory is limited to ${formatBytes(memoryLimit)}, ${formatBytes(Module.HEAPU8.length)} in use)`,
        );
      }
      pointers[pointers.length] = pointer; // not push(): a replaced one would lose it
      return pointer;
    };
    const copyIn = (measured, bytes, what) => {
      const source = measuredBytes(measured, bytes, what);
      const pointer = allocate(bytes, what);
      // Read HEAPU8 after allocating: malloc may have grown (and so replaced) the buffer.
      setBytes(Module.HEAPU8, source, pointer);
      return pointer;
    };
    try {
      return work(allocate, copyIn);
    } finally {
      // An index loop: a replaced Array iterator must not stop the frees.
      for (let i = 0; i < pointers.length; i++) Module._free(pointers[i]);
    }
  }

  // A fresh array the caller owns, made from a view of wasm memory by the typed array
  // constructor: V8 then allocates without zero-filling (every element is copied in) and
  // copies in one step, where new Type(length) then set() wrote the memory twice (7 against
  // 10 µs for 32768 floats in Node 20; in Chromium every way costs the same, the first write
  // to the fresh pages dominating). No method of the view is called, so a replaced prototype
  // method cannot corrupt results. `Type` is Float32Array (the default, as it was when this
  // module loaded), Uint8Array or Int32Array; `pointer` is aligned for it.
  const copyOut = (pointer, length, Type = Float32ArrayIntrinsic) =>
    new Type(new Type(bufferOf(Module.HEAPU8), pointer, length));

  /**
   * The caller's `out` (out-array.mjs checkOut's { array, measured }) filled with `length`
   * floats from `pointer`, or a fresh array (copyOut) when there is none; returns it. No
   * caller code runs between the measuring and this copy, so `out`'s bytes are still the ones
   * validated (measuredBytes asserts it all the same).
   */
  const copyOutTo = (out, pointer, length) => {
    if (out === null) return copyOut(pointer, length);
    const from = new Uint8ArrayIntrinsic(bufferOf(Module.HEAPU8), pointer, length * 4);
    setBytes(measuredBytes(out.measured, length * 4, 'out'), from, 0);
    return out.array;
  };

  /**
   * Checks that `dataBytes` of tensors, `kernelBytes` of the kernel's working memory (the
   * core's attentionWorkingBytes(call), or its twin's) and room for the stack fit in wasm
   * memory; else a RangeError: `${where}: ${what} need ...`. Returns kernelBytes.
   */
  function checkFits(where, dataBytes, kernelBytes, what) {
    if (dataBytes + kernelBytes + RESERVE_BYTES > memoryLimit) {
      const working =
        kernelBytes > 0 ? ` (plus ${formatBytes(kernelBytes)} of working memory)` : '';
      throw new RangeError(
        `${where}: ${what} need ${formatBytes(dataBytes)}${working}, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    return kernelBytes;
  }

  return Object.freeze({
    Module,
    memoryLimit,
    withAllocations,
    copyOut,
    copyOutTo,
    checkFits,
    ...createCoreCalls(Module),
  });
}
