// The core's calls, as the JS layer makes them: each a record (AttentionCall,
// AttentionBackwardCall, KvAttendCall, TraceCall, with the options record AttentionOptions
// inside) written
// into wasm memory and handed to a plain wasm export by its address. Where each field lies is
// the module's own description (callLayouts, src/bindings/call_layout.hpp), read once here:
// the layouts are written down once, in C++. A record's JS keys are its C++ field names in
// camelCase (q_num_heads: qNumHeads). Part of the context every entry point gets
// (wasm-context.mjs).
import {
  bufferOf,
  ownOr,
  setBytes,
  typedArrayLengthOf,
  typedArrayType,
} from '../shared/read-once.mjs';

const Uint8ArrayIntrinsic = Uint8Array;
const DataViewIntrinsic = DataView;

const camelCase = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/**
 * A writer for record `name` of `layouts`: write(view, at, value, later) puts value's fields at
 * byte `at` of the DataView. An address field takes a number, null (0) or a Float32Array of
 * this layer's own (a fresh copy, whole buffer), which `later(array)` places after the record
 * and returns the address of. Typed arrays are handled by the intrinsics alone (read-once.mjs):
 * a caller may have replaced their prototype's getters.
 */
function recordWriter(layouts, name) {
  const layout = layouts[name];
  if (!layout) throw new Error(`the module describes no record ${name}`);
  const steps = layout.fields.map(([field, offset, type]) => {
    const key = camelCase(field);
    if (type in layouts) {
      const inner = recordWriter(layouts, type);
      return (view, at, value, later) => inner(view, at + offset, value[key], later);
    }
    switch (type) {
      case 'f32':
        return (view, at, value) => view.setFloat32(at + offset, value[key], true);
      case 'bool':
        return (view, at, value) => view.setUint8(at + offset, value[key] ? 1 : 0);
      case 'i32':
        return (view, at, value) => view.setInt32(at + offset, value[key], true);
      case 'u32':
        return (view, at, value) => view.setUint32(at + offset, value[key], true);
      case 'i64':
        return (view, at, value) => view.setBigInt64(at + offset, BigInt(value[key]), true);
      case 'u32[4]':
        return (view, at, value) => {
          for (let i = 0; i < 4; i++) view.setUint32(at + offset + 4 * i, value[key][i], true);
        };
      case 'address':
        return (view, at, value, later) => {
          const x = value[key];
          view.setUint32(at + offset, typedArrayType(x) ? later(x) : (x ?? 0), true);
        };
      default:
        throw new Error(
          `record ${name}: field ${field} has a type this layer cannot write: ${type}`,
        );
    }
  });
  return (view, at, value, later) => {
    for (let i = 0; i < steps.length; i++) steps[i](view, at, value, later);
  };
}

/**
 * The JS key paths of a record's address fields, nested records included, in field order:
 * where a call's typed arrays can be, found once per record instead of walking every field
 * of every call.
 */
function addressPaths(layouts, name, prefix = []) {
  return layouts[name].fields.flatMap(([, , type, key]) => {
    if (type in layouts) return addressPaths(layouts, type, [...prefix, key]);
    return type === 'address' ? [[...prefix, key]] : [];
  });
}

/**
 * Typed arrays among a record's address fields (`paths`, addressPaths'), in field order.
 * Index loops, as everywhere a call runs: a replaced Array iterator must not change a call.
 */
function arraysOf(paths, value) {
  const found = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    let x = value;
    for (let j = 0; j < path.length && x !== null && x !== undefined; j++) x = x[path[j]];
    if (typedArrayType(x)) found[found.length] = x;
  }
  return found;
}

/** withRecord (below) for one module's records (`layouts`, as createCoreCalls reads them). */
function createWithRecord(Module, layouts) {
  const writers = {};
  const paths = {};
  for (const name of Object.keys(layouts)) {
    writers[name] = recordWriter(layouts, name);
    paths[name] = addressPaths(layouts, name);
  }

  /**
   * Writes record `name` (and the typed arrays it holds, after it) into wasm memory, returns
   * `use(address)`, frees it all. `data` ({ bytes, place }), when given, asks for `bytes` more
   * in the same allocation, after the record's own: place(address) is called with their
   * address before the record is written (to copy a call's inputs there and point the record's
   * fields at them), so that a small call makes one allocation, not one per buffer.
   */
  return function withRecord(name, value, use, data = null) {
    const size = (layouts[name].size + 7) & ~7;
    const arrays = arraysOf(paths[name], value);
    let bytes = size;
    for (let i = 0; i < arrays.length; i++) bytes += (typedArrayLengthOf(arrays[i]) * 4 + 7) & ~7;
    const dataAt = bytes;
    if (data) bytes += data.bytes;
    const at = Module._malloc(bytes);
    if (!at) {
      throw new RangeError(
        `could not allocate ${bytes} bytes for the call's record${data ? ' and its data' : ''}`,
      );
    }
    try {
      if (data) data.place(at + dataAt);
      const heap = Module.HEAPU8; // after malloc: it may have grown (and replaced) memory
      const view = new DataViewIntrinsic(bufferOf(heap), at, bytes);
      let next = size;
      const later = (array) => {
        const address = at + next;
        const length = typedArrayLengthOf(array) * 4;
        setBytes(heap, new Uint8ArrayIntrinsic(bufferOf(array), 0, length), address);
        next += (length + 7) & ~7;
        return address;
      };
      writers[name](view, 0, value, later);
      return use(at);
    } finally {
      Module._free(at);
    }
  };
}

/** { withRecord, coreCall, runAttentionCall, runAttentionBackward, runKvAttend, ... } for one module. */
export function createCoreCalls(Module) {
  const layouts = JSON.parse(Module.callLayouts());
  // Each field as [name, offset, type, its JS key].
  for (const name of Object.keys(layouts)) {
    for (const field of layouts[name].fields) field.push(camelCase(field[0]));
  }
  const withRecord = createWithRecord(Module, layouts);

  /**
   * Runs `entry` (a plain export) on record `name`: '' when it returns 0, else the core's
   * message there. `data` as withRecord's; `after()`, when given, runs once the core has
   * returned 0, while the data are still allocated, and its result is returned instead of ''.
   */
  const callWithRecord = (name, value, entry, data = null, after = null) =>
    withRecord(
      name,
      value,
      (at) => {
        const message = entry(at);
        if (message !== 0) return Module.UTF8ToString(message);
        return after ? after() : '';
      },
      data,
    );

  /**
   * The core's AttentionCall (fields: src/bindings/attention_call.hpp) for a validated shape
   * and options record (attention-options.mjs), every address 0 for the caller to fill.
   * `mask` { kind: 'boolean' | 'additive', dims } or null, `scoresMode` ONNX's 0..3; the rest
   * default to plain attention(): 4-D layouts, no past, a broadcast mask, raw scores.
   */
  function coreCall(shape, options, more = {}) {
    // Own properties only: Object.prototype.pastLength must not become this call's.
    const qLayout = ownOr(more, 'qLayout', 'bhsd');
    const kvLayout = ownOr(more, 'kvLayout', 'bhsd');
    const pastLength = ownOr(more, 'pastLength', 0);
    const mask = ownOr(more, 'mask', null);
    const maskKeys = ownOr(more, 'maskKeys', 'broadcast');
    const scoresMode = ownOr(more, 'scoresMode', 0);
    // One object literal with every field: built as `{ ...dims, more fields }`, the record
    // cost V8 (Node 20) most of a small call's fixed cost (a 1-token attention() call took
    // 27 µs, now 3 µs).
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
      qLayout: Module.Layout[qLayout].value,
      kvLayout: Module.Layout[kvLayout].value,
      options,
      pastLength,
      nonpadKvSeqlen: 0,
      maskKind: Module.MaskKind[mask ? mask.kind : 'none'].value,
      mask: 0,
      maskDims: [0, 1, 2, 3].map((i) => (mask ? (mask.dims[i] ?? 0) : 0)),
      maskRank: mask ? mask.dims.length : 0,
      maskKeys: Module.MaskKeys[maskKeys].value,
      scores: 0,
      scoresMode,
    };
  }

  /** Runs a core call record (coreCall's, addresses filled in): '' or the core's message. */
  const runAttentionCall = (call) =>
    callWithRecord('AttentionCall', call, Module._attention_call_run);

  /** Runs { forward: coreCall's record, gradY, gradQ, gradK, gradV }: '' or the message. */
  const runAttentionBackward = (call) =>
    callWithRecord('AttentionBackwardCall', call, Module._attention_call_run_backward);

  /**
   * Runs a cache's attend { cache, q, y, qNumHeads, qSeqLen, options } with its q and y in the
   * record's own allocation (`data`: { bytes, place } as withRecord's, place setting call.q and
   * call.y) and returns `after()`'s result (copying y out), or the core's message: a string.
   */
  const runKvAttend = (call, data, after) =>
    callWithRecord('KvAttendCall', call, Module._kv_cache_call_attend, data, after);

  /** Runs trace()'s record (fields: src/bindings/trace_call.hpp): '' or the core's message. */
  const runTrace = (call) => callWithRecord('TraceCall', call, Module._trace_call_run);

  /** The core's layout of a packed trace of these TraceDims, or why no trace has them. */
  const traceLayout = (dims) => withRecord('TraceDims', dims, (at) => Module.traceLayout(at));

  /** The core's working bytes for a call record's shape (forward, or backward). */
  const bytesFor = (entry) => (c) =>
    entry(c.batch, c.qNumHeads, c.kvNumHeads, c.qSeqLen, c.kvSeqLen, c.headSize, c.vHeadSize);
  const attentionWorkingBytes = bytesFor(Module._attention_call_working_bytes);
  const attentionBackwardWorkingBytes = bytesFor(Module._attention_call_backward_working_bytes);

  return {
    withRecord,
    coreCall,
    runAttentionCall,
    runAttentionBackward,
    runKvAttend,
    runTrace,
    traceLayout,
    attentionWorkingBytes,
    attentionBackwardWorkingBytes,
  };
}
