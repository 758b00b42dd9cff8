// The friendly JS API over the Embind bindings: validates every argument (TypeError /
// RangeError naming it), copies inputs into wasm memory once, calls the core, copies results
// out into fresh typed arrays the caller owns, and always frees what it allocated.
// Every entry point reads its arguments exactly once, in the four phases of read-once.mjs:
// read, measure, validate, copy. Used by attention.mjs (the package entry) and by the offline
// page (single-file build).
import { readAttentionArgs } from './attention-args.mjs';
import { createAttentionBackward } from './attention-backward.mjs';
import { formatBytes, isOutOfMemory } from './checks.mjs';
import { createKvCacheFactory } from './kv-cache.mjs';
import { createOnnxAttention } from './onnx-attention.mjs';
import { createRotaryEmbedding } from './onnx-rotary.mjs';
import { createTinyTransformerFactory } from './tiny-transformer.mjs';
import { bufferOf, measuredBytes, setBytes } from './read-once.mjs';
import { createTrace } from './trace.mjs';

/** The package version; tests check it against package.json. */
export const VERSION = '0.1.0';

/**
 * Wraps an instantiated Emscripten module (from attention-glue.mjs or the single-file build)
 * in the public API described in attention.d.ts.
 */
export function wrapModule(Module) {
  // The most bytes wasm memory may grow to, as the module was linked.
  const WASM_MEMORY_LIMIT = Module.maximumMemoryBytes();
  // Allocations of one call; all freed in `finally`, so errors cannot leak memory.
  function withAllocations(where, work) {
    const pointers = [];
    const allocate = (bytes, what) => {
      if (bytes > WASM_MEMORY_LIMIT) {
        throw new RangeError(
          `${where}: ${what} needs ${formatBytes(bytes)}, more than the ${formatBytes(WASM_MEMORY_LIMIT)} wasm memory can hold`,
        );
      }
      const pointer = Module._malloc(Math.max(bytes, 4));
      if (!pointer) {
        throw new RangeError(
          `${where}: could not allocate ${formatBytes(bytes)} for ${what} (wasm memory is limited to ${formatBytes(WASM_MEMORY_LIMIT)}, ${formatBytes(Module.HEAPU8.length)} in use)`,
        );
      }
      pointers[pointers.length] = pointer; // not push(): a replaced one would lose it
      return pointer;
    };
    // Copies exactly the bytes that were measured and validated (read-once.mjs, phase 4).
    // `measured` comes from measureTypedArray(); `bytes` is what validation accepted.
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

  function attention(q, k, v, options) {
    // Phases 1 to 3: read, measure, validate (attention-args.mjs, shared with the pool).
    const {
      batch,
      qNumHeads,
      kvNumHeads,
      qSeqLen,
      kvSeqLen,
      headSize,
      vHeadSize,
      scale,
      isCausal,
      softcap,
      mask,
      out,
      q: qm,
      k: km,
      v: vm,
      lengths: { q: qLength, k: kLength, v: vLength, y: yLength },
    } = readAttentionArgs(q, k, v, options);
    // A view of wasm memory itself would be replaced when the memory grows, and overlaps the
    // very buffers the call works in.
    if (out !== null && out.measured.buffer === bufferOf(Module.HEAPU8)) {
      throw new RangeError(
        "out must not be a view of the module's own wasm memory (it moves when the memory grows); pass a separate Float32Array",
      );
    }
    const dataBytes = (qLength + kLength + vLength + yLength) * 4 + (mask ? mask.bytes : 0);
    // One call of the core (fields: src/bindings/attention_call.hpp); addresses filled below.
    const call = {
      q: 0,
      k: 0,
      v: 0,
      y: 0,
      batch,
      qNumHeads,
      kvNumHeads,
      qSeqLen,
      kvSeqLen,
      headSize,
      vHeadSize,
      qLayout: Module.Layout.bhsd,
      kvLayout: Module.Layout.bhsd,
      scale,
      isCausal,
      softcap,
      leftWindow: -1,
      rightWindow: -1,
      pastLength: 0,
      nonpadKvSeqlen: 0,
      maskKind: mask
        ? mask.kind === 'boolean'
          ? Module.MaskKind.boolean
          : Module.MaskKind.additive
        : Module.MaskKind.none,
      mask: 0,
      maskDims: mask ? [0, 1, 2, 3].map((i) => mask.dims[i] ?? 0) : [0, 0, 0, 0],
      maskRank: mask ? mask.dims.length : 0,
      maskKeys: Module.MaskKeys.broadcast,
      scores: 0,
      scoresMode: Module.ScoresMode.raw,
    };
    // The fused kernel's working memory, plus room for the stack and static data.
    const kernelBytes = Module.attentionWorkingBytes(call);
    const reserveBytes = 4 * 1024 * 1024;
    if (dataBytes + kernelBytes + reserveBytes > WASM_MEMORY_LIMIT) {
      throw new RangeError(
        `attention: q, k, v and the output need ${formatBytes(dataBytes)} (plus ${formatBytes(kernelBytes)} of working memory), more than the ${formatBytes(WASM_MEMORY_LIMIT)} wasm memory can hold`,
      );
    }
    return withAllocations('attention', (allocate, copyIn) => {
      // Phase 4, copy exactly what was validated.
      call.q = copyIn(qm, qLength * 4, 'q');
      call.k = copyIn(km, kLength * 4, 'k');
      call.v = copyIn(vm, vLength * 4, 'v');
      const py = allocate(yLength * 4, 'the output');
      call.y = py;
      if (mask) call.mask = copyIn(mask.data, mask.bytes, 'attnMask.data');
      const error = Module.runAttention(call);
      if (error && isOutOfMemory(error)) {
        throw new RangeError(
          `attention: ${error} (${formatBytes(kernelBytes)} of working memory did not fit next to the ${formatBytes(dataBytes)} of q, k, v and the output)`,
        );
      }
      if (error) throw new RangeError(`attention: ${error}`);
      if (out === null) return copyOut(py, yLength);
      // Into the caller's array: no caller code ran since it was measured, so its bytes are
      // still the ones validated (measuredBytes asserts it all the same).
      setBytes(
        measuredBytes(out.measured, yLength * 4, 'out'),
        new Uint8Array(bufferOf(Module.HEAPU8), py, yLength * 4),
        0,
      );
      return out.array;
    });
  }

  const simdArch = Module.simdArch();
  return Object.freeze({
    trace: createTrace({ Module, withAllocations, copyOut }),
    attention,
    attentionBackward: createAttentionBackward({
      Module,
      withAllocations,
      copyOut,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    onnxAttention: createOnnxAttention({
      Module,
      withAllocations,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    ...createRotaryEmbedding({ Module, withAllocations, memoryLimit: WASM_MEMORY_LIMIT }),
    createKvCache: createKvCacheFactory({
      Module,
      withAllocations,
      copyOut,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    createTinyTransformer: createTinyTransformerFactory({
      Module,
      withAllocations,
      copyOut,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    simd: simdArch === 'wasm',
    // Asked of the module itself, so it is right for a caller's own wasmBinary / wasmUrl too.
    relaxedSimd: Module.relaxedSimd(),
    version: VERSION,
    memoryStats: () => ({
      wasmMemoryBytes: Module.HEAPU8.length,
      allocatedBytes: Module.heapBytesInUse(),
    }),
  });
}

/** Instantiates an Emscripten factory with `moduleOptions` and wraps the result. */
export async function createAttentionWith(factory, moduleOptions = {}) {
  let Module;
  try {
    Module = await factory(moduleOptions);
  } catch (error) {
    const reason = error && error.message ? error.message : String(error);
    throw new Error(`createAttention: could not load the WebAssembly module: ${reason}`, {
      cause: error,
    });
  }
  return wrapModule(Module);
}
