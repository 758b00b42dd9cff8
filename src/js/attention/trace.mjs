// trace(): every intermediate of the article's computation, for teaching and visualisation.
// Reads its one argument once (read-once.mjs: read, measure, validate, copy), asks the core
// for the packed trace's layout (trace_layout() in src/attention/trace.hpp), runs the core
// (src/bindings/trace_call.hpp) and unpacks the result field by field as that layout says.
// Its options are attention()'s record (attention-options.mjs): those OPTION_FIELDS gives to
// 'trace', checked by the same rules and passed to the same score step.
import { checkPositiveInteger, describe, formatBytes, isOptionBag } from '../shared/checks.mjs';
import { measureTypedArray, readOwnOptions } from '../shared/read-once.mjs';
import { checkAttentionOptions, optionNames } from './attention-options.mjs';

const { isArray } = Array;
const { defineProperty, hasOwn } = Object;

// A result is built of own properties only: `result.grad ??= {}` would take a polluted
// Object.prototype.grad (or heads, or Array.prototype[0]) as already there, and every trace
// would write into that one shared object; a plain assignment would call an inherited setter.
const put = (object, key, value) =>
  defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
/** object[key] when it is its own, else `fresh` put there. */
const ownField = (object, key, fresh) =>
  hasOwn(object, key) ? object[key] : (put(object, key, fresh), fresh);

/**
 * The most numbers one trace may hold across all its intermediates, their gradients included
 * (64 MiB of floats).
 */
export const TRACE_LIMIT = 16 * 1024 * 1024;
/** The most heads one trace may have: it is for teaching, and each head is a whole trace. */
export const TRACE_MAX_HEADS = 256;
const TRACE_OPTIONS = optionNames('trace');
const TRACE_KEYS = new Set([
  'x',
  'wQuery',
  'wKey',
  'wValue',
  'wOut',
  'gradOutputs',
  'heads',
  'kvHeads',
  ...TRACE_OPTIONS,
]);
const TRACE_MATRICES = ['x', 'wQuery', 'wKey', 'wValue'];
// The element types the core's trace layout names, as the arrays that hold them.
const TRACE_ELEMENT_TYPES = { float32: Float32Array, uint8: Uint8Array };

/** Bytes of a packed trace: its fields lie one after another, so the last one ends it. */
function packedBytes(layout) {
  const last = layout[layout.length - 1];
  return last.offset + last.count * TRACE_ELEMENT_TYPES[last.element].BYTES_PER_ELEMENT;
}

/**
 * Phase 1 (read) of one trace() matrix: number[][] is measured before it is read (its row
 * count, then its first row's length, against TRACE_LIMIT numbers), then read cell by cell,
 * once, into a fresh Float32Array; a later row of another length is refused before its cells
 * are read. { rows, cols, data } has its three fields read once, and `data` is measured later,
 * after every argument has been read. Ragged rows and non-numbers throw, naming `name`.
 */
function readMatrix(value, name) {
  if (isArray(value)) {
    const rows = value.length;
    if (rows === 0) throw new RangeError(`${name} must have at least one row, got none`);
    if (!(rows <= TRACE_LIMIT)) {
      throw new RangeError(`${name} must have at most ${TRACE_LIMIT} rows, got ${rows}`);
    }
    let cols = 0;
    let data = null;
    for (let i = 0; i < rows; i++) {
      const rowValue = value[i];
      if (!isArray(rowValue)) {
        throw new TypeError(
          `${name}[${i}] must be an array of numbers (a row), got ${describe(rowValue)}`,
        );
      }
      const length = rowValue.length;
      if (i === 0) {
        cols = length;
        if (cols === 0) throw new RangeError(`${name} must have at least one column, got none`);
        if (!(rows * cols <= TRACE_LIMIT)) {
          throw new RangeError(
            `${name} has ${rows} x ${cols} = ${rows * cols} numbers, more than the limit of ${TRACE_LIMIT} for one matrix of trace(); use attention() for large inputs`,
          );
        }
        data = new Float32Array(rows * cols);
      } else if (length !== cols) {
        throw new RangeError(
          `${name} is ragged: row 0 has ${cols} numbers but row ${i} has ${length}`,
        );
      }
      for (let j = 0; j < cols; j++) {
        const cell = rowValue[j];
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

/**
 * Phase 1 (read) of trace()'s argument: its own fields, then each matrix (wOut and
 * gradOutputs only when given), each exactly once. The other fields are kept as given, for
 * phase 3.
 */
function readTraceArgs(args) {
  if (!isOptionBag(args)) {
    throw new TypeError(
      `trace: the argument must be an object { x, wQuery, wKey, wValue }, got ${describe(args)}`,
    );
  }
  const given = readOwnOptions(args, TRACE_KEYS, 'trace', 'the argument');
  for (const name of TRACE_MATRICES) {
    if (given[name] === undefined) throw new TypeError(`trace: ${name} is missing`);
  }
  const read = { heads: given.heads, kvHeads: given.kvHeads, options: {} };
  for (const name of TRACE_OPTIONS) read.options[name] = given[name];
  for (const name of TRACE_MATRICES) read[name] = readMatrix(given[name], name);
  read.wOut = given.wOut === undefined ? undefined : readMatrix(given.wOut, 'wOut');
  read.gradOutputs =
    given.gradOutputs === undefined ? undefined : readMatrix(given.gradOutputs, 'gradOutputs');
  return read;
}

/** A head count of trace(): a positive integer up to TRACE_MAX_HEADS, or a TypeError/RangeError. */
function checkHeadCount(value, name) {
  const count = checkPositiveInteger(value, name);
  if (count > TRACE_MAX_HEADS) {
    throw new RangeError(`${name} must be at most ${TRACE_MAX_HEADS}, got ${count}`);
  }
  return count;
}

/**
 * Phases 2 and 3 of trace(): measures and validates what readTraceArgs() read. Returns the
 * matrices, the options and the core's TraceDims { n, dIn, dK, dV, heads, kvHeads, dOut }.
 * No caller code runs here.
 */
function checkTraceArgs(read) {
  const x = measureMatrix(read.x, 'x');
  const wQuery = measureMatrix(read.wQuery, 'wQuery');
  const wKey = measureMatrix(read.wKey, 'wKey');
  const wValue = measureMatrix(read.wValue, 'wValue');
  const wOut = read.wOut === undefined ? null : measureMatrix(read.wOut, 'wOut');
  const heads = read.heads === undefined ? 1 : checkHeadCount(read.heads, 'heads');
  const kvHeads = read.kvHeads === undefined ? heads : checkHeadCount(read.kvHeads, 'kvHeads');
  if (heads % kvHeads !== 0) {
    throw new RangeError(
      `kvHeads must divide heads (each kv head serves heads / kvHeads query heads): heads is ${heads}, kvHeads ${kvHeads}`,
    );
  }
  // attention()'s record, by its rules; the scale defaults to 1, as in the article.
  const options = checkAttentionOptions(read.options, { qNumHeads: heads });
  if (options.scale === undefined) options.scale = 1;
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
  const dK = wQuery.cols;
  const dV = wValue.cols;
  if (dK % heads !== 0) {
    throw new RangeError(
      `wQuery must have a multiple of heads = ${heads} columns (heads blocks of d_k_head), got ${dK}`,
    );
  }
  const dKHead = dK / heads;
  if (heads === kvHeads && wKey.cols !== dK) {
    throw new RangeError(
      `wKey must have as many columns as wQuery (d_k = ${dK}: queries and keys are dotted together), got ${wKey.cols}`,
    );
  }
  if (wKey.cols !== kvHeads * dKHead) {
    throw new RangeError(
      `wKey must have kvHeads * d_k_head = ${kvHeads} * ${dKHead} = ${kvHeads * dKHead} columns (d_k_head = wQuery's ${dK} columns / heads = ${heads}), got ${wKey.cols}`,
    );
  }
  if (dV % kvHeads !== 0) {
    throw new RangeError(
      `wValue must have a multiple of kvHeads = ${kvHeads} columns (kvHeads blocks of d_v_head), got ${dV}`,
    );
  }
  const concatCols = heads * (dV / kvHeads);
  if (wOut !== null && wOut.rows !== concatCols) {
    throw new RangeError(
      `wOut must have heads * d_v_head = ${heads} * ${dV / kvHeads} = ${concatCols} rows (one per column of the heads' outputs side by side), got ${wOut.rows}`,
    );
  }
  const dims = { n: x.rows, dIn, dK, dV, heads, kvHeads, dOut: wOut === null ? 0 : wOut.cols };
  const gradOutputs = checkGradOutputs(read.gradOutputs, dims);
  dims.withGrad = gradOutputs !== null;
  return { x, wQuery, wKey, wValue, wOut, gradOutputs, options, dims };
}

/**
 * Phases 2 and 3 of trace()'s gradOutputs (null when absent): the gradient of a loss with
 * respect to the outputs, so exactly the outputs' shape: n x d_v for one head, n x d_out with
 * wOut, else n x (heads * d_v_head), the heads' outputs side by side.
 */
function checkGradOutputs(read, { n, dV, heads, kvHeads, dOut }) {
  if (read === undefined) return null;
  const gradOutputs = measureMatrix(read, 'gradOutputs');
  const [cols, why] =
    dOut !== 0
      ? [dOut, "wOut's columns"]
      : heads === 1
        ? [dV, "d_v, wValue's columns"]
        : [heads * (dV / kvHeads), "heads * d_v_head, the heads' outputs side by side"];
  if (gradOutputs.rows !== n || gradOutputs.cols !== cols) {
    throw new RangeError(
      `gradOutputs must have the outputs' shape, ${n} x ${cols} (n, one row per row of x, by ${why}), got ${gradOutputs.rows} x ${gradOutputs.cols}`,
    );
  }
  return gradOutputs;
}

/**
 * The largest kind of field of a trace of these dims (weighted values, scores, queries, ...,
 * and the weights' gradients), summed over the heads, in doubles: past TRACE_LIMIT the trace is refused before the core's
 * size_t arithmetic (32 bits in wasm) sees it. Below, the dozen kinds together stay far from
 * wrapping around, and the core's layout gives the exact total.
 */
function largestTraceField({ n, dIn, dK, dV, heads, kvHeads, dOut }) {
  const dVHead = dV / kvHeads;
  // With gradients, also the weights' and x's own (wOut's: at most n * dOut's (heads * dVHead)).
  const weights = Math.max(dIn * dK, dIn * dV, n * dIn, heads * dVHead * dOut);
  return Math.max(
    heads * n * n * dVHead,
    heads * n * n,
    n * dK,
    heads * n * dVHead,
    n * dOut,
    weights,
  );
}

/**
 * Makes the API's trace() over an Emscripten module. `withAllocations` and `copyOut` are
 * wrapModule's (api.mjs): every allocation of a call freed in `finally`, results copied out
 * into fresh arrays the caller owns.
 */
export function createTrace({ withAllocations, copyOut, runTrace, traceLayout }) {
  /**
   * The packed trace at `pointer` as the Trace (or MultiHeadTrace) of attention.d.ts, field
   * by field as the core's layout lists them: rank 1 a typed array, rank 2
   * { rows, cols, data }, rank 3 { dims, data }; a field of head h goes into heads[h], and a
   * gradient into the `grad` object of the trace or head it belongs to.
   */
  function unpackTrace(pointer, layout) {
    const result = {};
    for (const { name, head, grad, element, shape, offset, count } of layout) {
      const start = pointer + offset;
      const data = copyOut(start, count, TRACE_ELEMENT_TYPES[element]);
      let into = result;
      if (head !== undefined) into = ownField(ownField(result, 'heads', []), head, {});
      if (grad) into = ownField(into, 'grad', {});
      if (shape.length === 1) put(into, name, data);
      else if (shape.length === 2) put(into, name, { rows: shape[0], cols: shape[1], data });
      else put(into, name, { dims: shape, data });
    }
    return result;
  }

  return function trace(args) {
    const read = readTraceArgs(args);
    const { x, wQuery, wKey, wValue, wOut, gradOutputs, options, dims } = checkTraceArgs(read);
    const tooBig = (total) =>
      new RangeError(
        `trace: x with n = ${dims.n} tokens, ${dims.heads} head(s) and d_v = ${dims.dV} needs ${total} numbers (${formatBytes(total * 4)}) for its intermediates${dims.withGrad ? ' and their gradients' : ''}, more than the limit of ${TRACE_LIMIT}; use attention() for large inputs`,
      );
    const largest = largestTraceField(dims);
    if (largest > TRACE_LIMIT) throw tooBig(largest);
    // The core's own description of the packed trace: field names, heads, shapes, offsets.
    const layout = traceLayout(dims);
    if (typeof layout === 'string') throw new RangeError(`trace: ${layout}`);
    const total = layout.reduce((sum, field) => sum + field.count, 0);
    if (total > TRACE_LIMIT) throw tooBig(total);
    const { n, dIn, dK, dV } = dims;
    return withAllocations('trace', (allocate, copyIn) => {
      const call = {
        x: copyIn(x.data, n * dIn * 4, 'x'),
        wQuery: copyIn(wQuery.data, dIn * dK * 4, 'wQuery'),
        wKey: copyIn(wKey.data, dIn * wKey.cols * 4, 'wKey'),
        wValue: copyIn(wValue.data, dIn * dV * 4, 'wValue'),
        wOut: wOut === null ? 0 : copyIn(wOut.data, wOut.rows * wOut.cols * 4, 'wOut'),
        gradOutputs:
          gradOutputs === null
            ? 0
            : copyIn(gradOutputs.data, gradOutputs.rows * gradOutputs.cols * 4, 'gradOutputs'),
        out: allocate(packedBytes(layout), 'the trace'),
        dims,
        options,
      };
      const error = runTrace(call);
      if (error) throw new RangeError(`trace: ${error}`);
      return unpackTrace(call.out, layout);
    });
  };
}
