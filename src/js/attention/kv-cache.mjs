// attn.createKvCache(options): a key/value cache that lives in wasm memory across the steps of
// decoding (the core's KvCache, src/attention/kv_cache.hpp). Each step copies in only its new
// rows (append) and its queries (attend), and copies out only its output: the cache itself is
// never copied per step, where onnxAttention's past_* / present_* copy all of it in and out.
//
// Names: B batch, Hkv key/value heads, Hq query heads (a multiple of Hkv), D key head size,
// Dv value head size, S new rows of one step, T rows cached (length), C capacity.
//   append(k, v):   k (B, Hkv, S, D), v (B, Hkv, S, Dv), Float32Array, contiguous
//   attend(q, o):   q (B, Hq, S, D) -> y (B, Hq, S, Dv), Float32Array (fresh, or o.out filled);
//                   the queries are the last S positions of the cache (causal: query i sees
//                   keys 0 .. T - S + i)
//   presentKey():   { type: 'float32', data, dims: [B, Hkv, T, D] } (ONNX present_key)
// The cache grows by reallocation when an append does not fit (its rule is the core's,
// KvCache::append: twice its capacity, or what the append needs), copying its rows once. An
// append is one call into wasm (src/bindings/kv_cache_call.hpp); one that cannot be done,
// whether its rows or the grown cache do not fit in wasm memory, is a RangeError and leaves
// the cache exactly as it was.
// Every argument is read exactly once (read-once.mjs): read, measure, validate, copy.
import { checkAttentionOptions, optionNames } from './attention-options.mjs';
import { checkPositiveInteger, describe, formatBytes, isOptionBag } from '../shared/checks.mjs';
import { checkOut, checkOutsideMemory } from '../shared/out-array.mjs';
import {
  measureTypedArray,
  measuredBytes,
  readArray,
  readOwnOptions,
  setBytes,
} from '../shared/read-once.mjs';

const CREATE_KEYS = new Set([
  'batch',
  'kvNumHeads',
  'headSize',
  'vHeadSize',
  'capacity',
  'pastKey',
  'pastValue',
]);
const ATTEND_KEYS = new Set(['qNumHeads', ...optionNames('attend'), 'out']);
/** Rows per head reserved when createKvCache is not told a capacity. */
const DEFAULT_CAPACITY = 256;
const INT32_MAX = 0x7fffffff;

/** A Float32Array argument, measured once, or a TypeError naming it. */
function measureFloats(value, name) {
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  return measured;
}

/** Phase 1 for pastKey / pastValue: an ONNX-shaped tensor's three fields, each read once. */
function readPast(value, name) {
  if (!isOptionBag(value)) {
    throw new TypeError(
      `${name} must be a tensor { type: 'float32', data: Float32Array, dims: [batch, kvNumHeads, pastLength, size] }, got ${describe(value)}`,
    );
  }
  const type = value.type;
  const data = value.data;
  const rawDims = value.dims;
  const dims = readArray(rawDims, `${name}.dims`, 8);
  if (dims === null) throw new TypeError(`${name}.dims must be an array, got ${describe(rawDims)}`);
  return { name, type, data, dims };
}

/** Phases 2 and 3 for a past tensor: float32, 4-D, measured. */
function checkPast(read) {
  const { name } = read;
  if (read.type !== undefined && read.type !== 'float32') {
    throw new TypeError(
      `${name}.type must be 'float32' (widen float16 caches first), got ${describe(read.type)}`,
    );
  }
  const data = measureFloats(read.data, `${name}.data`);
  if (read.dims.length !== 4) {
    throw new RangeError(
      `${name}.dims must be 4-D [batch, kvNumHeads, pastLength, size], got ${read.dims.length}-D`,
    );
  }
  const dims = read.dims.map((d, i) => {
    if (typeof d !== 'number') {
      throw new TypeError(`${name}.dims[${i}] must be a number, got ${describe(d)}`);
    }
    if (!Number.isInteger(d) || d < (i === 2 ? 0 : 1) || d > INT32_MAX) {
      throw new RangeError(
        `${name}.dims[${i}] must be an integer from ${i === 2 ? 0 : 1} to 2^31 - 1, got ${d}`,
      );
    }
    return d;
  });
  const count = dims.reduce((a, b) => a * b, 1);
  if (data.length !== count) {
    throw new RangeError(
      `${name}.data must hold ${dims.join(' * ')} = ${count} values for dims [${dims.join(', ')}], got ${data.length}`,
    );
  }
  return { name, data, dims, count };
}

/** One resident cache; `context` is wasm-context.mjs's, plus the module's FinalizationRegistry. */
class KvCache {
  #handle;
  #context;
  #batch;
  #kvNumHeads;
  #headSize;
  #vHeadSize;

  constructor(context, handle, { batch, kvNumHeads, headSize, vHeadSize }) {
    this.#context = context;
    this.#handle = handle;
    this.#batch = batch;
    this.#kvNumHeads = kvNumHeads;
    this.#headSize = headSize;
    this.#vHeadSize = vHeadSize;
    context.registry.register(this, handle, this);
  }

  #live(where) {
    if (this.#handle === 0) {
      throw new TypeError(
        `KvCache.${where}: this cache has been freed (free() or [Symbol.dispose]); create a new one with createKvCache`,
      );
    }
    return this.#handle;
  }

  get batch() {
    return this.#batch;
  }
  get kvNumHeads() {
    return this.#kvNumHeads;
  }
  get headSize() {
    return this.#headSize;
  }
  get vHeadSize() {
    return this.#vHeadSize;
  }
  /** Rows cached per head (T). */
  get length() {
    return this.#context.Module.kvCacheLength(this.#live('length'));
  }
  /** Rows per head the cache holds before it grows (C). */
  get capacity() {
    return this.#context.Module.kvCacheCapacity(this.#live('capacity'));
  }
  /** True once free() has run. */
  get freed() {
    return this.#handle === 0;
  }

  append(k, v) {
    // Phase 2, measure (the arguments are typed arrays: nothing of the caller's runs here).
    const km = measureFloats(k, 'k');
    const vm = measureFloats(v, 'v');
    // Phase 3, validate.
    const perRow = this.#batch * this.#kvNumHeads;
    const kRow = perRow * this.#headSize;
    if (km.length === 0 || km.length % kRow !== 0) {
      throw new RangeError(
        `k must hold (batch, kvNumHeads, newRows, headSize) = ${this.#batch} * ${this.#kvNumHeads} * newRows * ${this.#headSize} numbers, a positive multiple of ${kRow}; got ${km.length}`,
      );
    }
    const rows = km.length / kRow;
    const vLength = perRow * rows * this.#vHeadSize;
    if (vm.length !== vLength) {
      throw new RangeError(
        `v must hold (batch, kvNumHeads, newRows, vHeadSize) = ${this.#batch} * ${this.#kvNumHeads} * ${rows} * ${this.#vHeadSize} = ${vLength} numbers (k has ${rows} new rows), got ${vm.length}`,
      );
    }
    // Phase 4: the new rows into wasm memory, then one call that grows the cache when they do
    // not fit and appends them; either step refused leaves the cache as it was. The handle is
    // taken last, once every argument has been read.
    const handle = this.#live('append');
    const { Module, withAllocations } = this.#context;
    return withAllocations('KvCache.append', (allocate, copyIn) => {
      const kAt = copyIn(km, km.length * 4, 'k');
      const vAt = copyIn(vm, vLength * 4, 'v');
      const error = Module.kvCacheAppend(handle, kAt, vAt, rows);
      const length = Module.kvCacheLength(handle); // refused: as it was
      if (error) throw new RangeError(`KvCache.append: ${this.#growthError(error, length + rows)}`);
      return length;
    });
  }

  /** The core's refusal to grow, with the sizes a caller can act on. */
  #growthError(error, needed) {
    const { Module, memoryLimit } = this.#context;
    const bytes = Module.kvCacheBytes(this.#spec(needed));
    const size = bytes ? formatBytes(bytes) : 'more than the address space';
    return `${error}: ${needed} rows per head need ${size} (wasm memory is limited to ${formatBytes(memoryLimit)}, ${formatBytes(Module.HEAPU8.length)} in use)`;
  }

  /** The core's KvCacheSpec of this cache's shape with `capacity` rows per head. */
  #spec(capacity) {
    const { batch, kvNumHeads, headSize, vHeadSize } = this;
    return { batch, kvNumHeads, headSize, vHeadSize, capacity };
  }

  attend(q, options = {}) {
    if (!isOptionBag(options)) {
      throw new TypeError(`KvCache.attend: options must be an object, got ${describe(options)}`);
    }
    // Phase 1, read: each own option once. Phase 2, measure q (and out).
    const o = readOwnOptions(options, ATTEND_KEYS, 'KvCache.attend', 'options');
    const qm = measureFloats(q, 'q');
    const outm = o.out === undefined ? null : measureTypedArray(o.out, 'out');
    // Phase 3, validate.
    const qNumHeads =
      o.qNumHeads === undefined ? this.#kvNumHeads : checkPositiveInteger(o.qNumHeads, 'qNumHeads');
    if (qNumHeads % this.#kvNumHeads !== 0) {
      throw new RangeError(
        `qNumHeads must be a multiple of the cache's kvNumHeads ${this.#kvNumHeads} (each kv head serves a whole group of query heads), got ${qNumHeads}`,
      );
    }
    const qRow = this.#batch * qNumHeads * this.#headSize;
    if (qm.length === 0 || qm.length % qRow !== 0) {
      throw new RangeError(
        `q must hold (batch, qNumHeads, newRows, headSize) = ${this.#batch} * ${qNumHeads} * newRows * ${this.#headSize} numbers, a positive multiple of ${qRow}; got ${qm.length}`,
      );
    }
    const rows = qm.length / qRow;
    // The options record (attention-options.mjs); decoding is causal unless told otherwise.
    const record = checkAttentionOptions(o, {
      headSize: this.#headSize,
      isCausal: true,
      qNumHeads,
    });
    // Every argument read and checked: only now the handle. An option's getter may have
    // called free(), and a handle taken before it would then point at freed memory (or at
    // another cache that took it since).
    const handle = this.#live('attend');
    const { Module, memoryLimit, copyOutTo, runKvAttend } = this.#context;
    const length = Module.kvCacheLength(handle);
    if (length === 0) {
      throw new RangeError('KvCache.attend: the cache is empty; append(k, v) the keys first');
    }
    if (rows > length) {
      throw new RangeError(
        `q has ${rows} query rows but the cache holds ${length}: the queries are the last rows of the cache, so append their keys first`,
      );
    }
    const yLength = this.#batch * qNumHeads * rows * this.#vHeadSize;
    const out = o.out === undefined ? null : checkOut(outm, o.out, yLength, [['q', qm]]);
    checkOutsideMemory(out, Module.HEAPU8);
    const qBytes = qm.length * 4;
    const bytes = qBytes + yLength * 4;
    if (bytes > memoryLimit) {
      throw new RangeError(
        `KvCache.attend: q and the output need ${formatBytes(bytes)}, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    // Phase 4: q in, y out (into the caller's `out`, or a fresh array), both in the allocation
    // of the call's record (core-call.mjs): one malloc and one free per step.
    const call = { cache: handle, q: 0, y: 0, qNumHeads, qSeqLen: rows, options: record };
    const place = (at) => {
      setBytes(Module.HEAPU8, measuredBytes(qm, qBytes, 'q'), at);
      call.q = at;
      call.y = at + qBytes;
    };
    const result = runKvAttend(call, { bytes, place }, () => copyOutTo(out, call.y, yLength));
    if (typeof result === 'string') throw new RangeError(`KvCache.attend: ${result}`);
    return result;
  }

  #present(where, size, copy) {
    const handle = this.#live(where);
    const { Module, withAllocations, copyOut } = this.#context;
    const length = Module.kvCacheLength(handle);
    const dims = [this.#batch, this.#kvNumHeads, length, size];
    const count = dims[0] * dims[1] * length * size;
    return withAllocations(`KvCache.${where}`, (allocate) => {
      const pointer = allocate(count * 4, where);
      copy(handle, pointer);
      return { type: 'float32', data: copyOut(pointer, count), dims };
    });
  }

  /** ONNX present_key: { type: 'float32', data, dims: [B, Hkv, T, D] }, a fresh copy. */
  presentKey() {
    return this.#present('presentKey', this.#headSize, this.#context.Module.kvCacheCopyKeys);
  }

  /** ONNX present_value: { type: 'float32', data, dims: [B, Hkv, T, Dv] }, a fresh copy. */
  presentValue() {
    return this.#present('presentValue', this.#vHeadSize, this.#context.Module.kvCacheCopyValues);
  }

  reset() {
    this.#context.Module.kvCacheReset(this.#live('reset'));
  }

  /** Keeps the first `length` rows per head (rolls back rejected draft tokens, say). */
  truncate(length) {
    const handle = this.#live('truncate');
    if (typeof length !== 'number') {
      throw new TypeError(`length must be a non-negative integer, got ${describe(length)}`);
    }
    const current = this.#context.Module.kvCacheLength(handle);
    if (!Number.isInteger(length) || length < 0 || length > current) {
      throw new RangeError(
        `length must be an integer from 0 to the ${current} rows cached, got ${length}`,
      );
    }
    this.#context.Module.kvCacheTruncate(handle, length);
  }

  /** Releases the cache's wasm memory; later use is a TypeError. Calling it again is a no-op. */
  free() {
    if (this.#handle === 0) return;
    this.#context.registry.unregister(this);
    this.#context.Module.kvCacheFree(this.#handle);
    this.#handle = 0;
  }
}
Object.defineProperty(KvCache.prototype, Symbol.toStringTag, { value: 'KvCache' });
// `using cache = attn.createKvCache(...)` frees it at the end of the block, where the engine
// has explicit resource management (Symbol.dispose).
if (typeof Symbol.dispose === 'symbol') {
  Object.defineProperty(KvCache.prototype, Symbol.dispose, {
    value() {
      this.free();
    },
  });
}

/**
 * Phases 1 to 3 of createKvCache(options): the cache's spec { batch, kvNumHeads, headSize,
 * vHeadSize, capacity } and its past tensors (measured, or null). The past's dims give the
 * shape; options that are also given must agree with them.
 */
function readCreateArgs(options) {
  if (!isOptionBag(options)) {
    throw new TypeError(
      `createKvCache: options must be an object { batch, kvNumHeads, headSize, vHeadSize, capacity } or { pastKey, pastValue }, got ${describe(options)}`,
    );
  }
  // Phase 1, read: own options once, the past tensors' fields once.
  const o = readOwnOptions(options, CREATE_KEYS, 'createKvCache', 'options');
  if ((o.pastKey === undefined) !== (o.pastValue === undefined)) {
    throw new TypeError(
      `createKvCache: ${o.pastKey === undefined ? 'pastKey' : 'pastValue'} is missing: pastKey and pastValue come together`,
    );
  }
  const pastRead =
    o.pastKey === undefined
      ? null
      : [readPast(o.pastKey, 'pastKey'), readPast(o.pastValue, 'pastValue')];
  // Phases 2 and 3: measure and validate.
  const pastKey = pastRead && checkPast(pastRead[0]);
  const pastValue = pastRead && checkPast(pastRead[1]);
  const fromPast = pastKey
    ? { batch: pastKey.dims[0], kvNumHeads: pastKey.dims[1], headSize: pastKey.dims[3] }
    : {};
  if (pastValue) fromPast.vHeadSize = pastValue.dims[3];
  const dim = (name, fallback) => {
    const given = o[name] === undefined ? undefined : checkPositiveInteger(o[name], name);
    if (given !== undefined && fromPast[name] !== undefined && given !== fromPast[name]) {
      throw new RangeError(`${name} is ${given} but the past tensors say ${fromPast[name]}`);
    }
    const value = given ?? fromPast[name] ?? fallback;
    if (value === undefined) {
      throw new TypeError(`createKvCache: ${name} is missing (or pass pastKey and pastValue)`);
    }
    return value;
  };
  const batch = dim('batch', 1);
  const kvNumHeads = dim('kvNumHeads');
  const headSize = dim('headSize');
  const vHeadSize = dim('vHeadSize', headSize);
  const pastLength = pastKey ? pastKey.dims[2] : 0;
  if (pastValue) {
    const want = [batch, kvNumHeads, pastLength, vHeadSize];
    if (!pastValue.dims.every((d, i) => d === want[i])) {
      throw new RangeError(
        `pastValue.dims must be (batch, kvNumHeads, pastLength, vHeadSize) = [${want.join(', ')}] to match pastKey, got [${pastValue.dims.join(', ')}]`,
      );
    }
  }
  const capacity =
    o.capacity === undefined
      ? Math.max(DEFAULT_CAPACITY, pastLength)
      : checkPositiveInteger(o.capacity, 'capacity');
  if (capacity < pastLength) {
    throw new RangeError(
      `capacity must hold the ${pastLength} rows of pastKey, got ${capacity} (leave it out to size it from the past)`,
    );
  }
  const spec = { batch, kvNumHeads, headSize, vHeadSize, capacity };
  return { spec, past: pastKey && { pastKey, pastValue, pastLength } };
}

/**
 * The `createKvCache` method for one instantiated module; `context` is wasm-context.mjs's:
 * the per-call staging buffers of append and attend are freed even on error, and results
 * leave wasm memory in fresh arrays the caller owns.
 */
export function createKvCacheFactory(context) {
  const { Module, memoryLimit } = context;
  // A cache dropped without free() is freed when it is garbage-collected (a safety net:
  // collection may come late or never, so free() is still the way to release memory).
  const registry = new FinalizationRegistry((handle) => Module.kvCacheFree(handle));
  const cacheContext = { ...context, registry };

  return function createKvCache(options) {
    const { spec, past } = readCreateArgs(options);
    const { batch, kvNumHeads, headSize, vHeadSize, capacity } = spec;
    const bytes = Module.kvCacheBytes(spec);
    if (bytes === 0 || bytes > memoryLimit) {
      throw new RangeError(
        `capacity: ${capacity} rows of batch ${batch} x ${kvNumHeads} kv heads x (${headSize} + ${vHeadSize}) floats need ${bytes ? formatBytes(bytes) : 'more than the address space'}, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    const handle = Module.kvCacheCreate(spec);
    if (!handle) {
      throw new RangeError(
        `createKvCache: could not allocate ${formatBytes(bytes)} for the cache (wasm memory is limited to ${formatBytes(memoryLimit)}, ${formatBytes(Module.HEAPU8.length)} in use)`,
      );
    }
    const cache = new KvCache(cacheContext, handle, spec);
    if (past && past.pastLength > 0) {
      try {
        // The past rows, copied once, appended as any rows are (phase 4 asserts byte counts).
        measuredBytes(past.pastKey.data, past.pastKey.count * 4, 'pastKey.data');
        measuredBytes(past.pastValue.data, past.pastValue.count * 4, 'pastValue.data');
        context.withAllocations('createKvCache', (allocate, copyIn) => {
          const kAt = copyIn(past.pastKey.data, past.pastKey.count * 4, 'pastKey.data');
          const vAt = copyIn(past.pastValue.data, past.pastValue.count * 4, 'pastValue.data');
          const error = Module.kvCacheAppend(handle, kAt, vAt, past.pastLength);
          if (error) throw new RangeError(`createKvCache: ${error}`);
        });
      } catch (error) {
        cache.free();
        throw error;
      }
    }
    return cache;
  };
}
