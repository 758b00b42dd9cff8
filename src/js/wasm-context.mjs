// What every entry point needs of one instantiated module, built once by wrapModule (api.mjs)
// and handed to each entry point's factory as one object:
//   { Module, memoryLimit, withAllocations, copyOut, coreCall, checkFits }
// so that installing a new entry point is one line in wrapModule: `name: createName(context)`.
import { DIM_KEYS } from './attention-args.mjs';
import { formatBytes } from './checks.mjs';
import { bufferOf, measuredBytes, ownOr, setBytes } from './read-once.mjs';

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

  // A fresh array the caller owns, filled by a byte copy: of the ways to copy out of wasm
  // memory, this measured fastest in Chromium and in Node (faster than slice()).
  // `Type` is Float32Array (the default) or Uint8Array.
  const copyOut = (pointer, length, Type = Float32Array) => {
    // Intrinsics only (read-once.mjs), so a replaced prototype method cannot corrupt results.
    const out = new Type(length);
    const bytes = length * Type.BYTES_PER_ELEMENT;
    setBytes(
      new Uint8Array(bufferOf(out)),
      new Uint8Array(bufferOf(Module.HEAPU8), pointer, bytes),
      0,
    );
    return out;
  };

  /**
   * The core's AttentionCall (fields: src/bindings/attention_call.hpp) for a validated shape
   * and options record (attention-options.mjs), every address 0 for the caller to fill.
   * `mask` is { kind: 'boolean' | 'additive', dims } or null; the rest default to plain
   * attention(): 4-D layouts, no past, a broadcast mask, raw scores.
   */
  function coreCall(shape, options, more = {}) {
    // Own properties only: Object.prototype.pastLength must not become this call's.
    const qLayout = ownOr(more, 'qLayout', 'bhsd');
    const kvLayout = ownOr(more, 'kvLayout', 'bhsd');
    const pastLength = ownOr(more, 'pastLength', 0);
    const mask = ownOr(more, 'mask', null);
    const maskKeys = ownOr(more, 'maskKeys', 'broadcast');
    const scoresMode = ownOr(more, 'scoresMode', 'raw');
    const call = { q: 0, k: 0, v: 0, y: 0 };
    // An index loop: a replaced Array iterator must not drop a dim.
    for (let i = 0; i < DIM_KEYS.length; i++) call[DIM_KEYS[i]] = shape[DIM_KEYS[i]];
    return {
      ...call,
      qLayout: Module.Layout[qLayout],
      kvLayout: Module.Layout[kvLayout],
      options,
      pastLength,
      nonpadKvSeqlen: 0,
      maskKind: Module.MaskKind[mask ? mask.kind : 'none'],
      mask: 0,
      maskDims: [0, 1, 2, 3].map((i) => (mask ? (mask.dims[i] ?? 0) : 0)),
      maskRank: mask ? mask.dims.length : 0,
      maskKeys: Module.MaskKeys[maskKeys],
      scores: 0,
      scoresMode: Module.ScoresMode[scoresMode],
    };
  }

  /**
   * Checks that `dataBytes` of tensors, `kernelBytes` of the kernel's working memory (the
   * core's attentionWorkingBytes(call), or its twin's) and room for the stack fit in wasm
   * memory; else a RangeError: `${where}: ${what} need ...`. Returns kernelBytes.
   */
  function checkFits(where, dataBytes, kernelBytes, what) {
    if (dataBytes + kernelBytes + RESERVE_BYTES > memoryLimit) {
      throw new RangeError(
        `${where}: ${what} need ${formatBytes(dataBytes)} (plus ${formatBytes(kernelBytes)} of working memory), more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    return kernelBytes;
  }

  return Object.freeze({ Module, memoryLimit, withAllocations, copyOut, coreCall, checkFits });
}
