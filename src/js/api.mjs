// The friendly JS API over the Embind bindings: validates every argument (TypeError /
// RangeError naming it), copies inputs into wasm memory once, calls the core, copies results
// out into fresh typed arrays the caller owns, and always frees what it allocated.
// Every entry point reads its arguments exactly once, in the four phases of read-once.mjs:
// read, measure, validate, copy. Used by attention.mjs (the package entry) and by the offline
// page (single-file build).
import {
  checkBoolean,
  checkFloat32,
  checkPositiveInteger,
  describe,
  formatBytes,
  isOptionBag,
} from './checks.mjs';
import { createKvCacheFactory } from './kv-cache.mjs';
import { createOnnxAttention } from './onnx-attention.mjs';
import {
  bufferOf,
  measureTypedArray,
  measuredBytes,
  readArray,
  readOwnOptions,
  setBytes,
} from './read-once.mjs';

/** The package version; tests check it against package.json. */
export const VERSION = '0.1.0';

/** The most numbers one trace may hold across all its intermediates (64 MiB of floats). */
export const TRACE_LIMIT = 16 * 1024 * 1024;
const TRACE_KEYS = new Set(['x', 'wQuery', 'wKey', 'wValue', 'scale', 'isCausal']);
const ATTENTION_KEYS = new Set([
  'batch',
  'qNumHeads',
  'kvNumHeads',
  'qSeqLen',
  'kvSeqLen',
  'headSize',
  'vHeadSize',
  'scale',
  'isCausal',
  'softcap',
  'attnMask',
]);
const MASK_KEYS = new Set(['data', 'shape']);
// The core's mask kinds (bindings.cpp): boolean (uint8, 1 = may attend) or additive (float).
const MASK_BOOLEAN = 1;
const MASK_ADDITIVE = 2;

/**
 * Phase 1 (read) of one trace() matrix: number[][] is read cell by cell, once, into a fresh
 * Float32Array; { rows, cols, data } has its three fields read once, and `data` is measured
 * later, after every argument has been read. Ragged rows and non-numbers throw, naming `name`.
 */
function readMatrix(value, name) {
  const rowList = readArray(value, name, TRACE_LIMIT);
  if (rowList) {
    if (rowList.length === 0) throw new RangeError(`${name} must have at least one row, got none`);
    const rows = rowList.length;
    let cols = 0;
    let data = null;
    for (let i = 0; i < rows; i++) {
      const row = readArray(rowList[i], `${name}[${i}]`, TRACE_LIMIT);
      if (!row) {
        throw new TypeError(
          `${name}[${i}] must be an array of numbers (a row), got ${describe(rowList[i])}`,
        );
      }
      if (i === 0) {
        cols = row.length;
        if (cols === 0) throw new RangeError(`${name} must have at least one column, got none`);
        data = new Float32Array(rows * cols);
      } else if (row.length !== cols) {
        throw new RangeError(
          `${name} is ragged: row 0 has ${cols} numbers but row ${i} has ${row.length}`,
        );
      }
      for (let j = 0; j < cols; j++) {
        const cell = row[j];
        if (typeof cell !== 'number') {
          throw new TypeError(`${name}[${i}][${j}] must be a number, got ${describe(cell)}`);
        }
        data[i * cols + j] = cell;
      }
    }
    return { rows, cols, data };
  }
  if (value === null || typeof value !== 'object') {
    throw new TypeError(
      `${name} must be number[][] or { rows, cols, data: Float32Array }, got ${describe(value)}`,
    );
  }
  return { rows: value.rows, cols: value.cols, data: value.data };
}

/** Phases 2 and 3 of one trace() matrix: { rows, cols, data: a measured Float32Array }. */
function measureMatrix(read, name) {
  const rows = checkPositiveInteger(read.rows, `${name}.rows`);
  const cols = checkPositiveInteger(read.cols, `${name}.cols`);
  const data = measureTypedArray(read.data, `${name}.data`);
  if (data === null || data.type !== 'Float32Array') {
    throw new TypeError(`${name}.data must be a Float32Array, got ${describe(read.data)}`);
  }
  if (data.length !== rows * cols) {
    throw new RangeError(
      `${name}.data must hold rows * cols = ${rows * cols} numbers, got ${data.length}`,
    );
  }
  return { rows, cols, data };
}

/** A measured Float32Array argument (q, k, v), or a TypeError naming it. */
function measureFloat32Array(value, name) {
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  return measured;
}

/** Phase 1 of attention()'s attnMask: its own `data` and `shape`, and shape's items, once. */
function readMask(mask) {
  if (!isOptionBag(mask)) {
    throw new TypeError(`attnMask must be an object { data, shape }, got ${describe(mask)}`);
  }
  const { data, shape } = readOwnOptions(mask, MASK_KEYS, 'attnMask', 'attnMask');
  const dims = readArray(shape, 'attnMask.shape', 64);
  if (dims === null) {
    throw new TypeError(`attnMask.shape must be an array of 1 to 4 dims, got ${describe(shape)}`);
  }
  return { data, dims };
}

/** Phases 2 and 3 of attnMask: its kind, measured data and dims, checked against `target`. */
function checkMask(read, target) {
  const data = measureTypedArray(read.data, 'attnMask.data');
  let kind;
  if (data !== null && data.type === 'Uint8Array') kind = MASK_BOOLEAN;
  else if (data !== null && data.type === 'Float32Array') kind = MASK_ADDITIVE;
  else {
    throw new TypeError(
      `attnMask.data must be a Uint8Array (1 = may attend) or a Float32Array (added to the scores), got ${describe(read.data)}`,
    );
  }
  if (read.dims.length < 1 || read.dims.length > 4) {
    throw new RangeError(`attnMask.shape must have 1 to 4 dims, got ${read.dims.length}`);
  }
  const dims = read.dims.map((d, i) => checkPositiveInteger(d, `attnMask.shape[${i}]`));
  const count = dims.reduce((a, b) => a * b, 1);
  if (data.length !== count) {
    throw new RangeError(
      `attnMask.data must hold ${count} values for shape [${dims.join(', ')}], got ${data.length}`,
    );
  }
  for (let i = 0; i < dims.length; i++) {
    const want = target[4 - dims.length + i];
    if (dims[i] !== 1 && dims[i] !== want) {
      throw new RangeError(
        `attnMask.shape [${dims.join(', ')}] does not broadcast to [batch, qNumHeads, qSeqLen, kvSeqLen] = [${target.join(', ')}]: dim ${i} is ${dims[i]}, expected 1 or ${want}`,
      );
    }
  }
  return { kind, data, dims, bytes: count * (kind === MASK_BOOLEAN ? 1 : 4) };
}

// The core reports why it refused as a message ("" = success). Only running out of memory
// for its scratch says anything about memory; shape errors are reported as they are.
const isOutOfMemory = (message) => message.startsWith('out of memory');

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
      pointers.push(pointer);
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
      for (const pointer of pointers) Module._free(pointer);
    }
  }

  // A fresh array the caller owns, filled by a byte copy: of the ways to copy out of wasm
  // memory this was the fastest in Chromium (91 us for 16 KiB against 170 us for slice(); most
  // of it is the allocation itself there) and in Node (1.4 us against 4.3 us).
  const copyOut = (pointer, length) => {
    // Intrinsics only (read-once.mjs), so a replaced prototype method cannot corrupt results.
    const out = new Float32Array(length);
    const bytes = length * 4;
    setBytes(
      new Uint8Array(bufferOf(out)),
      new Uint8Array(bufferOf(Module.HEAPU8), pointer, bytes),
      0,
    );
    return out;
  };

  function trace(args) {
    if (!isOptionBag(args)) {
      throw new TypeError(
        `trace: the argument must be an object { x, wQuery, wKey, wValue }, got ${describe(args)}`,
      );
    }
    // Phase 1, read: the argument's own fields, then each matrix, each exactly once.
    const given = readOwnOptions(args, TRACE_KEYS, 'trace', 'the argument');
    for (const name of ['x', 'wQuery', 'wKey', 'wValue']) {
      if (given[name] === undefined) throw new TypeError(`trace: ${name} is missing`);
    }
    const read = {};
    for (const name of ['x', 'wQuery', 'wKey', 'wValue'])
      read[name] = readMatrix(given[name], name);
    // Phases 2 and 3, measure and validate: no caller code runs from here on.
    const x = measureMatrix(read.x, 'x');
    const wQuery = measureMatrix(read.wQuery, 'wQuery');
    const wKey = measureMatrix(read.wKey, 'wKey');
    const wValue = measureMatrix(read.wValue, 'wValue');
    const scale = given.scale === undefined ? 1 : checkFloat32(given.scale, 'scale');
    const isCausal =
      given.isCausal === undefined ? false : checkBoolean(given.isCausal, 'isCausal');
    const n = x.rows;
    const dIn = x.cols;
    for (const [name, w] of [
      ['wQuery', wQuery],
      ['wKey', wKey],
      ['wValue', wValue],
    ]) {
      if (w.rows !== dIn) {
        throw new RangeError(
          `${name} must have ${dIn} rows (d_in, one per column of x), got ${w.rows}`,
        );
      }
    }
    if (wKey.cols !== wQuery.cols) {
      throw new RangeError(
        `wKey must have as many columns as wQuery (d_k = ${wQuery.cols}: queries and keys are dotted together), got ${wKey.cols}`,
      );
    }
    const dK = wQuery.cols;
    const dV = wValue.cols;
    const sizes = {
      queries: n * dK,
      keys: n * dK,
      values: n * dV,
      scores: n * n,
      weights: n * n,
      weighted: n * n * dV,
      outputs: n * dV,
    };
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    if (total > TRACE_LIMIT) {
      throw new RangeError(
        `trace: x with n = ${n} tokens and d_v = ${dV} needs ${total} numbers (${formatBytes(total * 4)}) for its intermediates, more than the limit of ${TRACE_LIMIT}; use attention() for large inputs`,
      );
    }
    return withAllocations('trace', (allocate, copyIn) => {
      const px = copyIn(x.data, n * dIn * 4, 'x');
      const pq = copyIn(wQuery.data, dIn * dK * 4, 'wQuery');
      const pk = copyIn(wKey.data, dIn * dK * 4, 'wKey');
      const pv = copyIn(wValue.data, dIn * dV * 4, 'wValue');
      const out = allocate(total * 4, 'the trace');
      const error = Module.traceInto(px, n, dIn, pq, pk, dK, pv, dV, scale, isCausal, out);
      if (error) throw new RangeError(`trace: ${error}`);
      let cursor = out;
      const take = (length) => {
        const array = copyOut(cursor, length);
        cursor += length * 4;
        return array;
      };
      const matrix = (rows, cols) => ({ rows, cols, data: take(rows * cols) });
      const result = {};
      result.queries = matrix(n, dK);
      result.keys = matrix(n, dK);
      result.values = matrix(n, dV);
      result.scores = matrix(n, n);
      result.weights = matrix(n, n);
      result.weighted = { dims: [n, n, dV], data: take(n * n * dV) };
      result.outputs = matrix(n, dV);
      return result;
    });
  }

  function derive(length, name, per, option) {
    if (length === 0 || length % per !== 0) {
      throw new RangeError(
        `${name} has ${length} numbers, not a positive multiple of ${per}: cannot infer ${option}; pass it`,
      );
    }
    return length / per;
  }

  function attention(q, k, v, options) {
    if (!isOptionBag(options)) {
      throw new TypeError(`attention: options must be an object, got ${describe(options)}`);
    }
    // Phase 1, read: each own option once, and the mask's fields once.
    const o = readOwnOptions(options, ATTENTION_KEYS, 'attention', 'options');
    const readMaskArgs = o.attnMask === undefined ? null : readMask(o.attnMask);
    // Phase 2, measure: no caller code runs from here on.
    const qm = measureFloat32Array(q, 'q');
    const km = measureFloat32Array(k, 'k');
    const vm = measureFloat32Array(v, 'v');
    // Phase 3, validate the snapshot.
    const opt = (name, fallback) => (o[name] === undefined ? fallback : o[name]);
    const batch = checkPositiveInteger(opt('batch', 1), 'batch');
    if (o.qNumHeads === undefined) throw new TypeError('qNumHeads is missing');
    if (o.headSize === undefined) throw new TypeError('headSize is missing');
    const qNumHeads = checkPositiveInteger(o.qNumHeads, 'qNumHeads');
    const kvNumHeads = checkPositiveInteger(opt('kvNumHeads', qNumHeads), 'kvNumHeads');
    if (qNumHeads % kvNumHeads !== 0) {
      throw new RangeError(
        `kvNumHeads must divide qNumHeads (each kv head serves a whole group of query heads): ${kvNumHeads} does not divide ${qNumHeads}`,
      );
    }
    const headSize = checkPositiveInteger(o.headSize, 'headSize');
    const vHeadSize = checkPositiveInteger(opt('vHeadSize', headSize), 'vHeadSize');
    // Sequence lengths may be left out: then they follow from the array lengths.
    const qSeqLen =
      o.qSeqLen === undefined
        ? derive(qm.length, 'q', batch * qNumHeads * headSize, 'qSeqLen')
        : checkPositiveInteger(o.qSeqLen, 'qSeqLen');
    const kvSeqLen =
      o.kvSeqLen === undefined
        ? derive(km.length, 'k', batch * kvNumHeads * headSize, 'kvSeqLen')
        : checkPositiveInteger(o.kvSeqLen, 'kvSeqLen');
    const qLength = batch * qNumHeads * qSeqLen * headSize;
    const kLength = batch * kvNumHeads * kvSeqLen * headSize;
    const vLength = batch * kvNumHeads * kvSeqLen * vHeadSize;
    const yLength = batch * qNumHeads * qSeqLen * vHeadSize;
    if (qm.length !== qLength) {
      throw new RangeError(
        `q must hold batch * qNumHeads * qSeqLen * headSize = ${batch}*${qNumHeads}*${qSeqLen}*${headSize} = ${qLength} numbers, got ${qm.length}`,
      );
    }
    if (km.length !== kLength) {
      throw new RangeError(
        `k must hold batch * kvNumHeads * kvSeqLen * headSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${headSize} = ${kLength} numbers, got ${km.length}`,
      );
    }
    if (vm.length !== vLength) {
      throw new RangeError(
        `v must hold batch * kvNumHeads * kvSeqLen * vHeadSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${vHeadSize} = ${vLength} numbers, got ${vm.length}`,
      );
    }
    const scale = checkFloat32(opt('scale', 1 / Math.sqrt(headSize)), 'scale');
    const isCausal = checkBoolean(opt('isCausal', false), 'isCausal');
    const softcap = checkFloat32(opt('softcap', 0), 'softcap');
    if (softcap < 0) throw new RangeError(`softcap must be 0 (off) or positive, got ${softcap}`);
    const target = [batch, qNumHeads, qSeqLen, kvSeqLen];
    const mask = readMaskArgs === null ? null : checkMask(readMaskArgs, target);
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
        ? mask.kind === MASK_BOOLEAN
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
      return copyOut(py, yLength);
    });
  }

  const simdArch = Module.simdArch();
  return Object.freeze({
    trace,
    attention,
    onnxAttention: createOnnxAttention({
      Module,
      withAllocations,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    createKvCache: createKvCacheFactory({
      Module,
      withAllocations,
      memoryLimit: WASM_MEMORY_LIMIT,
    }),
    simd: simdArch === 'wasm',
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
