// The friendly JS API over the Embind bindings: validates every argument (TypeError /
// RangeError naming it), copies inputs into wasm memory once, calls the core, copies results
// out into fresh typed arrays the caller owns, and always frees what it allocated.
// Used by attention.mjs (the package entry) and by the offline page (single-file build).

/** The package version; tests check it against package.json. */
export const VERSION = '0.1.0';

const WASM_MEMORY_LIMIT = 2 * 1024 * 1024 * 1024; // -sMAXIMUM_MEMORY=2GB
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

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${tagOf(value).slice(8, -1)} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

// Realm-independent type checks: a Float32Array made in an iframe or a vm context is as good
// as ours, and a Proxy pretending to be one is not one.
const tagOf = (value) => Object.prototype.toString.call(value);
const isTypedArray = (value, tag) =>
  ArrayBuffer.isView(value) && tagOf(value) === `[object ${tag}]`;
const isFloat32Array = (value) => isTypedArray(value, 'Float32Array');
const isUint8Array = (value) => isTypedArray(value, 'Uint8Array');

function formatBytes(bytes) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function checkKeys(object, allowed, where) {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key)) {
      throw new TypeError(
        `${where}: unknown option '${key}' (expected one of ${[...allowed].join(', ')})`,
      );
    }
  }
}

function checkPositiveInteger(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a positive integer, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  if (value > 0x7fffffff) throw new RangeError(`${name} must be below 2^31, got ${value}`);
  return value;
}

function checkFiniteNumber(value, name) {
  if (typeof value !== 'number')
    throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  // The core computes in float32: 1e39 is finite in JS but Infinity there.
  if (!Number.isFinite(Math.fround(value))) {
    throw new RangeError(`${name} must be a finite float32 (|${name}| < 3.4e38), got ${value}`);
  }
  return value;
}

function checkBoolean(value, name) {
  if (typeof value !== 'boolean')
    throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * number[][] or { rows, cols, data: Float32Array } -> { rows, cols, data: Float32Array }.
 * Ragged rows, non-numbers, empty matrices and wrong lengths throw, naming `name`.
 */
export function toMatrix(value, name) {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new RangeError(`${name} must have at least one row, got none`);
    const first = value[0];
    if (!Array.isArray(first)) {
      throw new TypeError(`${name}[0] must be an array of numbers (a row), got ${describe(first)}`);
    }
    const rows = value.length;
    const cols = first.length;
    if (cols === 0) throw new RangeError(`${name} must have at least one column, got none`);
    const data = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const row = value[i];
      if (!Array.isArray(row)) {
        throw new TypeError(
          `${name}[${i}] must be an array of numbers (a row), got ${describe(row)}`,
        );
      }
      if (row.length !== cols) {
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
  const rows = checkPositiveInteger(value.rows, `${name}.rows`);
  const cols = checkPositiveInteger(value.cols, `${name}.cols`);
  if (!isFloat32Array(value.data)) {
    throw new TypeError(`${name}.data must be a Float32Array, got ${describe(value.data)}`);
  }
  if (value.data.length !== rows * cols) {
    throw new RangeError(
      `${name}.data must hold rows * cols = ${rows * cols} numbers, got ${value.data.length}`,
    );
  }
  return { rows, cols, data: value.data };
}

function checkFloat32Array(value, name, expectedLength) {
  if (!isFloat32Array(value)) {
    throw new TypeError(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  if (expectedLength !== undefined && value.length !== expectedLength) {
    throw new RangeError(`${name} must hold ${expectedLength} numbers, got ${value.length}`);
  }
  return value;
}

/**
 * Wraps an instantiated Emscripten module (from attention-glue.mjs or the single-file build)
 * in the public API described in attention.d.ts.
 */
export function wrapModule(Module) {
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
    const copyIn = (typedArray, what) => {
      const pointer = allocate(typedArray.byteLength, what);
      // Read HEAPU8 after allocating: malloc may have grown (and so replaced) the buffer.
      Module.HEAPU8.set(
        new Uint8Array(typedArray.buffer, typedArray.byteOffset, typedArray.byteLength),
        pointer,
      );
      return pointer;
    };
    try {
      return work(allocate, copyIn);
    } finally {
      for (const pointer of pointers) Module._free(pointer);
    }
  }

  // A fresh array the caller owns, filled by a byte copy: of the ways to copy out of wasm
  // memory, this measured fastest in Chromium and in Node (faster than slice()).
  const copyOut = (pointer, length) => {
    const out = new Float32Array(length);
    new Uint8Array(out.buffer).set(Module.HEAPU8.subarray(pointer, pointer + length * 4));
    return out;
  };

  function trace(args) {
    if (args === null || typeof args !== 'object') {
      throw new TypeError(
        `trace: the argument must be an object { x, wQuery, wKey, wValue }, got ${describe(args)}`,
      );
    }
    checkKeys(args, TRACE_KEYS, 'trace');
    for (const name of ['x', 'wQuery', 'wKey', 'wValue']) {
      if (args[name] === undefined) throw new TypeError(`trace: ${name} is missing`);
    }
    const x = toMatrix(args.x, 'x');
    const wQuery = toMatrix(args.wQuery, 'wQuery');
    const wKey = toMatrix(args.wKey, 'wKey');
    const wValue = toMatrix(args.wValue, 'wValue');
    const scale = args.scale === undefined ? 1 : checkFiniteNumber(args.scale, 'scale');
    const isCausal = args.isCausal === undefined ? false : checkBoolean(args.isCausal, 'isCausal');
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
    const tooBig = (total) =>
      new RangeError(
        `trace: x with n = ${n} tokens and d_v = ${dV} needs ${total} numbers (${formatBytes(total * 4)}) for its intermediates, more than the limit of ${TRACE_LIMIT}; use attention() for large inputs`,
      );
    // The n x n x d_v weighted values alone: checked in doubles first, so the core's size_t
    // arithmetic below never sees a size that would wrap around.
    if (n * n * dV > TRACE_LIMIT) throw tooBig(n * n * dV);
    // The core's own description of the packed trace: field names, shapes, byte offsets.
    const layout = Module.traceLayout(n, dIn, dK, dV);
    const total = layout.reduce((sum, field) => sum + field.count, 0);
    if (total > TRACE_LIMIT) throw tooBig(total);
    return withAllocations('trace', (allocate, copyIn) => {
      const call = {
        x: copyIn(x.data, 'x'),
        wQuery: copyIn(wQuery.data, 'wQuery'),
        wKey: copyIn(wKey.data, 'wKey'),
        wValue: copyIn(wValue.data, 'wValue'),
        out: allocate(Module.traceBytes(n, dIn, dK, dV), 'the trace'),
        n,
        dIn,
        dK,
        dV,
        scale,
        isCausal,
      };
      const error = Module.traceInto(call);
      if (error) throw new RangeError(`trace: ${error}`);
      return unpackTrace(call.out, layout);
    });
  }

  /**
   * The packed trace at `pointer` as the Trace of attention.d.ts, field by field as the
   * core's layout lists them: rank 1 a typed array, rank 2 { rows, cols, data }, rank 3
   * { dims, data }.
   */
  function unpackTrace(pointer, layout) {
    const result = {};
    for (const { name, element, shape, offset, count } of layout) {
      const start = pointer + offset;
      const data =
        element === 'uint8' ? Module.HEAPU8.slice(start, start + count) : copyOut(start, count);
      if (shape.length === 1) result[name] = data;
      else if (shape.length === 2) result[name] = { rows: shape[0], cols: shape[1], data };
      else result[name] = { dims: shape, data };
    }
    return result;
  }

  function checkMask(mask, shape) {
    if (
      mask === null ||
      typeof mask !== 'object' ||
      Array.isArray(mask) ||
      ArrayBuffer.isView(mask)
    ) {
      throw new TypeError(`attnMask must be an object { data, shape }, got ${describe(mask)}`);
    }
    checkKeys(mask, new Set(['data', 'shape']), 'attnMask');
    const { data } = mask;
    let kind;
    if (isUint8Array(data)) kind = 1;
    else if (isFloat32Array(data)) kind = 2;
    else {
      throw new TypeError(
        `attnMask.data must be a Uint8Array (1 = may attend) or a Float32Array (added to the scores), got ${describe(data)}`,
      );
    }
    if (!Array.isArray(mask.shape)) {
      throw new TypeError(
        `attnMask.shape must be an array of 1 to 4 dims, got ${describe(mask.shape)}`,
      );
    }
    if (mask.shape.length < 1 || mask.shape.length > 4) {
      throw new RangeError(`attnMask.shape must have 1 to 4 dims, got ${mask.shape.length}`);
    }
    // Array.from visits holes too: [, 1] reports attnMask.shape[0], not a confusing broadcast.
    const dims = Array.from(mask.shape, (d, i) => checkPositiveInteger(d, `attnMask.shape[${i}]`));
    const count = dims.reduce((a, b) => a * b, 1);
    if (data.length !== count) {
      throw new RangeError(
        `attnMask.data must hold ${count} values for shape [${dims.join(', ')}], got ${data.length}`,
      );
    }
    const target = [shape.batch, shape.qNumHeads, shape.qSeqLen, shape.kvSeqLen];
    for (let i = 0; i < dims.length; i++) {
      const want = target[4 - dims.length + i];
      if (dims[i] !== 1 && dims[i] !== want) {
        throw new RangeError(
          `attnMask.shape [${dims.join(', ')}] does not broadcast to [batch, qNumHeads, qSeqLen, kvSeqLen] = [${target.join(', ')}]: dim ${i} is ${dims[i]}, expected 1 or ${want}`,
        );
      }
    }
    return { kind, data, dims };
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
    if (
      options === null ||
      typeof options !== 'object' ||
      Array.isArray(options) ||
      ArrayBuffer.isView(options)
    ) {
      throw new TypeError(`attention: options must be an object, got ${describe(options)}`);
    }
    checkKeys(options, ATTENTION_KEYS, 'attention');
    checkFloat32Array(q, 'q');
    checkFloat32Array(k, 'k');
    checkFloat32Array(v, 'v');
    const opt = (name, fallback) => (options[name] === undefined ? fallback : options[name]);
    const batch = checkPositiveInteger(opt('batch', 1), 'batch');
    if (options.qNumHeads === undefined) throw new TypeError('qNumHeads is missing');
    if (options.headSize === undefined) throw new TypeError('headSize is missing');
    const qNumHeads = checkPositiveInteger(options.qNumHeads, 'qNumHeads');
    const kvNumHeads = checkPositiveInteger(opt('kvNumHeads', qNumHeads), 'kvNumHeads');
    if (qNumHeads % kvNumHeads !== 0) {
      throw new RangeError(
        `kvNumHeads must divide qNumHeads (each kv head serves a whole group of query heads): ${kvNumHeads} does not divide ${qNumHeads}`,
      );
    }
    const headSize = checkPositiveInteger(options.headSize, 'headSize');
    const vHeadSize = checkPositiveInteger(opt('vHeadSize', headSize), 'vHeadSize');
    // Sequence lengths may be left out: then they follow from the array lengths.
    const qSeqLen =
      options.qSeqLen === undefined
        ? derive(q.length, 'q', batch * qNumHeads * headSize, 'qSeqLen')
        : checkPositiveInteger(options.qSeqLen, 'qSeqLen');
    const kvSeqLen =
      options.kvSeqLen === undefined
        ? derive(k.length, 'k', batch * kvNumHeads * headSize, 'kvSeqLen')
        : checkPositiveInteger(options.kvSeqLen, 'kvSeqLen');
    const qLength = batch * qNumHeads * qSeqLen * headSize;
    const kLength = batch * kvNumHeads * kvSeqLen * headSize;
    const vLength = batch * kvNumHeads * kvSeqLen * vHeadSize;
    const yLength = batch * qNumHeads * qSeqLen * vHeadSize;
    if (q.length !== qLength) {
      throw new RangeError(
        `q must hold batch * qNumHeads * qSeqLen * headSize = ${batch}*${qNumHeads}*${qSeqLen}*${headSize} = ${qLength} numbers, got ${q.length}`,
      );
    }
    if (k.length !== kLength) {
      throw new RangeError(
        `k must hold batch * kvNumHeads * kvSeqLen * headSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${headSize} = ${kLength} numbers, got ${k.length}`,
      );
    }
    if (v.length !== vLength) {
      throw new RangeError(
        `v must hold batch * kvNumHeads * kvSeqLen * vHeadSize = ${batch}*${kvNumHeads}*${kvSeqLen}*${vHeadSize} = ${vLength} numbers, got ${v.length}`,
      );
    }
    const scale = checkFiniteNumber(opt('scale', 1 / Math.sqrt(headSize)), 'scale');
    const isCausal = checkBoolean(opt('isCausal', false), 'isCausal');
    const softcap = checkFiniteNumber(opt('softcap', 0), 'softcap');
    if (softcap < 0) throw new RangeError(`softcap must be 0 (off) or positive, got ${softcap}`);
    const shape = { batch, qNumHeads, qSeqLen, kvSeqLen };
    const mask = options.attnMask === undefined ? null : checkMask(options.attnMask, shape);
    const dataBytes =
      (qLength + kLength + vLength + yLength) * 4 + (mask ? mask.data.byteLength : 0);
    // The fused kernel's working memory: blocks of 128 query rows and 64 keys, each row padded
    // to whole SIMD tiles (flash_attention.cpp), plus room for the stack and static data.
    const kernelBytes = (128 + 64) * (headSize + vHeadSize + 32) * 4 + 4096;
    const reserveBytes = 4 * 1024 * 1024;
    if (dataBytes + kernelBytes + reserveBytes > WASM_MEMORY_LIMIT) {
      throw new RangeError(
        `attention: q, k, v and the output need ${formatBytes(dataBytes)} (plus ${formatBytes(kernelBytes)} of working memory), more than the ${formatBytes(WASM_MEMORY_LIMIT)} wasm memory can hold`,
      );
    }
    return withAllocations('attention', (allocate, copyIn) => {
      const pq = copyIn(q, 'q');
      const pk = copyIn(k, 'k');
      const pv = copyIn(v, 'v');
      const py = allocate(yLength * 4, 'the output');
      let maskData = 0;
      let maskDims = 0;
      if (mask) {
        maskData = copyIn(mask.data, 'attnMask.data');
        maskDims = copyIn(new Uint32Array(mask.dims), 'attnMask.shape');
      }
      const error = Module.attentionInto(
        pq,
        pk,
        pv,
        py,
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
        mask ? mask.kind : 0,
        maskData,
        maskDims,
        mask ? mask.dims.length : 0,
      );
      if (error) {
        throw new RangeError(
          `attention: ${error} (${formatBytes(kernelBytes)} of working memory did not fit next to the ${formatBytes(dataBytes)} of q, k, v and the output)`,
        );
      }
      return copyOut(py, yLength);
    });
  }

  const simdArch = Module.simdArch();
  return Object.freeze({
    trace,
    attention,
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
