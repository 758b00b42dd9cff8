// What every entry point needs of one instantiated module, built once by wrapModule (api.mjs)
// and handed to each entry point's factory as one object:
//   { Module, memoryLimit, withAllocations, copyOut, coreCall, checkFits, runAttentionCall,
//     attentionWorkingBytes }
// so that installing a new entry point is one line in wrapModule: `name: createName(context)`.
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

  // A fresh array the caller owns, made from a view of wasm memory by the typed array
  // constructor: it allocates without zero-filling (every element is copied in) and copies in
  // one step, where new Type(length) then set() wrote the memory twice (7 against 10 us for
  // 32768 floats in Node 20; Chromium measured alike). No method of the view is called, so a
  // replaced prototype method cannot corrupt results. `Type` is Float32Array (the default),
  // Uint8Array or Int32Array; `pointer` is aligned for it.
  const copyOut = (pointer, length, Type = Float32Array) =>
    new Type(new Type(bufferOf(Module.HEAPU8), pointer, length));

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
    // One object literal with every field: built as `{ ...dims, more fields }` it took V8
    // (Node 20) tens of us per call, as long as the whole 64-token kernel's overhead.
    return {
      q: 0,
      k: 0,
      v: 0,
      y: 0,
      batch: shape.batch,
      qNumHeads: shape.qNumHeads,
      kvNumHeads: shape.kvNumHeads,
      qSeqLen: shape.qSeqLen,
      kvSeqLen: shape.kvSeqLen,
      headSize: shape.headSize,
      vHeadSize: shape.vHeadSize,
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

  /**
   * Runs a core call record (coreCall's, addresses filled in): '' on success, else the core's
   * message. Through the plain wasm export, not Embind's runAttention: the same entry point
   * without converting the record (attention_call.hpp says why).
   */
  function runAttentionCall(call) {
    const { options, maskDims } = call;
    const message = Module._attention_call_run(
      call.q,
      call.k,
      call.v,
      call.y,
      call.batch,
      call.qNumHeads,
      call.kvNumHeads,
      call.qSeqLen,
      call.kvSeqLen,
      call.headSize,
      call.vHeadSize,
      call.qLayout.value,
      call.kvLayout.value,
      options.scale,
      options.isCausal,
      options.softcap,
      options.leftWindow,
      options.rightWindow,
      call.pastLength,
      call.nonpadKvSeqlen,
      call.maskKind.value,
      call.mask,
      maskDims[0],
      maskDims[1],
      maskDims[2],
      maskDims[3],
      call.maskRank,
      call.maskKeys.value,
      call.scores,
      call.scoresMode.value,
    );
    return message === 0 ? '' : Module.UTF8ToString(message);
  }

  /** The core's working bytes for a call record's shape (Embind's attentionWorkingBytes). */
  const attentionWorkingBytes = (call) =>
    Module._attention_call_working_bytes(
      call.batch,
      call.qNumHeads,
      call.kvNumHeads,
      call.qSeqLen,
      call.kvSeqLen,
      call.headSize,
      call.vHeadSize,
    );

  return Object.freeze({
    Module,
    memoryLimit,
    withAllocations,
    copyOut,
    coreCall,
    checkFits,
    runAttentionCall,
    attentionWorkingBytes,
  });
}
