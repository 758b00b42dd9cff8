// attn.onnxRotaryEmbedding(inputs, attributes): ONNX's `RotaryEmbedding` operator (opset 23)
// with ONNX's names, and attn.rotaryCaches(options), the cos/sin caches it reads.
//
// Names: B batch, H heads, S sequence length, D head size, R rotary dim (rotary_embedding_dim,
// or D when 0), M rows of the caches (max_position_id_plus_1).
//   input      (B, H, S, D), or 3-D (B, S, H*D) with the num_heads attribute; float32/float16
//   cos_cache, sin_cache   (M, R/2) with position_ids, else (B, S, R/2); input's type
//   position_ids           (B, S) int64, each from 0 to M - 1 (optional)
//   output     input's dims and type
// Each of the first R numbers of a head's row pairs up, (i, i + R/2) or with interleaved = 1
// (2i, 2i + 1), and each pair turns by the angle whose cos and sin its cache row holds; the
// numbers past R are copied. The core (rope.hpp) reads the input where it lies, in place.
// Arguments are read exactly once (read-once.mjs); float16 is widened on the way into wasm
// memory and narrowed (round to nearest even) on the way out, the core is float32.
import { checkPositiveInteger, describe, formatBytes, isOptionBag } from '../shared/checks.mjs';
import { measureTensor, readInputsAndAttributes } from './onnx-shapes.mjs';
import { readOut, writeFloats } from './onnx-tensors.mjs';
import { bufferOf, measuredBytes, readOwnOptions, setBytes } from '../shared/read-once.mjs';

const INPUT_NAMES = new Set(['input', 'cos_cache', 'sin_cache', 'position_ids']);
const ATTRIBUTE_NAMES = new Set(['interleaved', 'rotary_embedding_dim', 'num_heads']);
const CACHE_OPTIONS = new Set(['length', 'rotaryDim', 'base', 'type']);
const FLOATS = ['float32', 'float16'];
const INT32_MAX = 0x7fffffff;
// Room for the stack and static data next to a call's buffers.
const RESERVE_BYTES = 4 * 1024 * 1024;

const show = (dims) => `[${dims.join(', ')}]`;

// ---------------------------------------------------------------------------------------------
// Phase 1: read. Bags own keys only; tensors field by field (readTensor).

function readCall(inputs, attributes) {
  return readInputsAndAttributes('onnxRotaryEmbedding', inputs, attributes, {
    inputs: INPUT_NAMES,
    attributes: ATTRIBUTE_NAMES,
    shape: '{ input, cos_cache, sin_cache, position_ids? }',
  });
}

// ---------------------------------------------------------------------------------------------
// Phases 2 and 3: measure, then validate against the spec, naming the ONNX input or attribute.

function checkAttributes(attrs) {
  let interleaved = attrs.interleaved === undefined ? 0 : attrs.interleaved;
  if (typeof interleaved === 'boolean') interleaved = interleaved ? 1 : 0;
  if (interleaved !== 0 && interleaved !== 1) {
    throw new (typeof interleaved === 'number' ? RangeError : TypeError)(
      `interleaved must be 0 or 1 (or a boolean), got ${describe(interleaved)}`,
    );
  }
  const rotaryDim = attrs.rotary_embedding_dim ?? 0;
  if (typeof rotaryDim !== 'number') {
    throw new TypeError(
      `rotary_embedding_dim must be an integer (0: the whole head), got ${describe(rotaryDim)}`,
    );
  }
  if (!Number.isInteger(rotaryDim) || rotaryDim < 0 || rotaryDim > INT32_MAX) {
    throw new RangeError(
      `rotary_embedding_dim must be an integer from 0 (the whole head) to 2^31 - 1, got ${rotaryDim}`,
    );
  }
  const numHeads =
    attrs.num_heads === undefined ? undefined : checkPositiveInteger(attrs.num_heads, 'num_heads');
  return { interleaved: interleaved === 1, rotaryDim, numHeads };
}

/** B, H, S, D and the core's layout from input's dims: 4-D, or 3-D split by num_heads. */
function splitInput(input, numHeads) {
  const { dims } = input;
  if (dims.length === 4) {
    if (numHeads !== undefined && numHeads !== dims[1]) {
      throw new RangeError(
        `num_heads is ${numHeads} but input is 4-D with ${dims[1]} heads (dims ${show(dims)}); leave num_heads out for 4-D input`,
      );
    }
    const [B, H, S, D] = dims;
    return { layout: 'bhsd', B, H, S, D };
  }
  if (dims.length === 3) {
    if (numHeads === undefined) {
      throw new TypeError(
        `num_heads is required when input is 3-D (batch, seq, num_heads * head_size), got dims ${show(dims)}`,
      );
    }
    if (dims[2] % numHeads !== 0) {
      throw new RangeError(
        `input's last dim ${dims[2]} must be num_heads * head_size, but num_heads = ${numHeads} does not divide it`,
      );
    }
    return { layout: 'bshd', B: dims[0], H: numHeads, S: dims[1], D: dims[2] / numHeads };
  }
  throw new RangeError(
    `input must be 4-D (batch, num_heads, seq, head_size) or 3-D (batch, seq, num_heads * head_size), got ${dims.length}-D ${show(dims)}`,
  );
}

/** R from rotary_embedding_dim and D: even, at least 2, at most D (D itself even, as ONNX says). */
function rotaryDimOf(rotaryDim, D) {
  if (D % 2 !== 0 || D === 0) {
    throw new RangeError(
      `input's head_size must be even and at least 2 (RotaryEmbedding rotates pairs), got ${D}`,
    );
  }
  if (rotaryDim === 0) return D;
  if (rotaryDim % 2 !== 0) {
    throw new RangeError(
      `rotary_embedding_dim must be even (it is rotated in pairs), got ${rotaryDim}`,
    );
  }
  if (rotaryDim > D) {
    throw new RangeError(
      `rotary_embedding_dim must be at most the head_size ${D}, got ${rotaryDim}`,
    );
  }
  return rotaryDim;
}

function sameDims(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * cos_cache and sin_cache in input's type, both (M, R/2) with position_ids or (B, S, R/2)
 * without; returns M, the rows a position id may pick.
 */
function checkCaches(cos, sin, hasPositions, { B, S, R }) {
  const half = R / 2;
  if (hasPositions) {
    if (cos.dims.length !== 2 || cos.dims[1] !== half) {
      throw new RangeError(
        `cos_cache must have dims (max_position_id_plus_1, rotary_dim / 2) = [M, ${half}] with position_ids, got ${show(cos.dims)}`,
      );
    }
  } else if (!sameDims(cos.dims, [B, S, half])) {
    throw new RangeError(
      `cos_cache must have dims (batch, seq, rotary_dim / 2) = ${show([B, S, half])} without position_ids${cos.dims.length === 2 ? ' (a 2-D cache needs position_ids to pick its rows)' : ''}, got ${show(cos.dims)}`,
    );
  }
  if (!sameDims(sin.dims, cos.dims)) {
    throw new RangeError(
      `sin_cache must have cos_cache's dims ${show(cos.dims)}, got ${show(sin.dims)}`,
    );
  }
  return hasPositions ? cos.dims[0] : B * S;
}

/** position_ids (B, S) int64, each from 0 to M - 1: a snapshot of the checked values. */
function checkPositions(t, { B, S }, rows) {
  if (!sameDims(t.dims, [B, S])) {
    throw new RangeError(
      `position_ids must have dims (batch, seq) = ${show([B, S])}, got ${show(t.dims)}`,
    );
  }
  const bytes = measuredBytes(t.view, B * S * 8, 'position_ids.data');
  const ids = new BigInt64Array(B * S);
  setBytes(new Uint8Array(bufferOf(ids)), bytes, 0);
  const end = BigInt(rows);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] < 0n || ids[i] >= end) {
      throw new RangeError(
        `position_ids[${Math.floor(i / S)}][${i % S}] must be a row of cos_cache, from 0 to ${rows - 1}, got ${ids[i]}`,
      );
    }
  }
  return ids;
}

/** Validates the snapshot: every shape rule of the spec. */
function plan(read) {
  const { tensors } = read;
  for (const name of ['input', 'cos_cache', 'sin_cache']) {
    if (!tensors[name]) throw new TypeError(`onnxRotaryEmbedding: input ${name} is missing`);
  }
  const attrs = checkAttributes(read.attrs);
  const input = measureTensor(tensors.input, FLOATS);
  const { layout, B, H, S, D } = splitInput(input, attrs.numHeads);
  const R = rotaryDimOf(attrs.rotaryDim, D);
  const cos = measureTensor(tensors.cos_cache, [input.type]);
  const sin = measureTensor(tensors.sin_cache, [input.type]);
  const positions = tensors.position_ids ? measureTensor(tensors.position_ids, ['int64']) : null;
  const rows = checkCaches(cos, sin, positions !== null, { B, S, R });
  if (rows > INT32_MAX) {
    throw new RangeError(`cos_cache must have at most 2^31 - 1 rows, got ${rows}`);
  }
  const ids = positions ? checkPositions(positions, { B, S }, rows) : null;
  return { input, cos, sin, ids, layout, B, H, S, D, R, rows, interleaved: attrs.interleaved };
}

// ---------------------------------------------------------------------------------------------
// Phase 4: copy into wasm memory (widening), rotate in place, copy the output out.

/**
 * The `onnxRotaryEmbedding` and `rotaryCaches` methods for one instantiated module.
 * `withAllocations` and the memory limit are wrapModule's (api.mjs), so every call frees what
 * it allocated, even on error.
 */
export function createRotaryEmbedding({ Module, withAllocations, memoryLimit }) {
  function onnxRotaryEmbedding(inputs, attributes) {
    const p = plan(readCall(inputs, attributes)); // read, measure, validate
    const idBytes = p.ids ? p.ids.length * 8 : 0;
    const dataBytes = (p.input.count + p.cos.count + p.sin.count) * 4 + idBytes;
    if (dataBytes + RESERVE_BYTES > memoryLimit) {
      throw new RangeError(
        `onnxRotaryEmbedding: input and the caches need ${formatBytes(dataBytes)} in float32, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    return withAllocations('onnxRotaryEmbedding', (allocate) => {
      for (const t of [p.input, p.cos, p.sin]) {
        measuredBytes(t.view, t.count * (t.type === 'float16' ? 2 : 4), `${t.name}.data`);
      }
      // Allocate everything first: an allocation may grow (and so replace) the wasm memory.
      const x = allocate(p.input.count * 4, 'input');
      const cosCache = allocate(p.cos.count * 4, 'cos_cache');
      const sinCache = allocate(p.sin.count * 4, 'sin_cache');
      const positionIds = p.ids ? allocate(idBytes, 'position_ids') : 0;
      const heap = bufferOf(Module.HEAPU8);
      writeFloats(p.input, 0, p.input.count, heap, x);
      writeFloats(p.cos, 0, p.cos.count, heap, cosCache);
      writeFloats(p.sin, 0, p.sin.count, heap, sinCache);
      if (p.ids) setBytes(new BigInt64Array(heap, positionIds, p.ids.length), p.ids, 0);
      const error = Module.runRope({
        x,
        y: x, // in place: the output has the input's layout
        cosCache,
        sinCache,
        positionIds,
        batch: p.B,
        heads: p.H,
        seq: p.S,
        headSize: p.D,
        rotaryDim: p.R,
        interleaved: p.interleaved,
        layout: Module.Layout[p.layout],
        cacheRows: p.rows,
      });
      if (error) throw new RangeError(`onnxRotaryEmbedding: ${error}`);
      const { type, dims, float16Array } = p.input;
      const output = readOut(bufferOf(Module.HEAPU8), x, p.input.count, type, dims, float16Array);
      return { output };
    });
  }

  function rotaryCaches(options) {
    if (!isOptionBag(options)) {
      throw new TypeError(
        `rotaryCaches: the argument must be an object { length, rotaryDim, base?, type? }, got ${describe(options)}`,
      );
    }
    const given = readOwnOptions(options, CACHE_OPTIONS, 'rotaryCaches', 'options');
    if (given.length === undefined) throw new TypeError('rotaryCaches: length is missing');
    if (given.rotaryDim === undefined) throw new TypeError('rotaryCaches: rotaryDim is missing');
    const length = checkPositiveInteger(given.length, 'length');
    const rotaryDim = checkPositiveInteger(given.rotaryDim, 'rotaryDim');
    if (rotaryDim % 2 !== 0) {
      throw new RangeError(`rotaryDim must be even (pairs are rotated), got ${rotaryDim}`);
    }
    const base = given.base ?? 10000;
    if (typeof base !== 'number') {
      throw new TypeError(`base must be a number, got ${describe(base)}`);
    }
    if (!(base > 0) || !Number.isFinite(base)) {
      throw new RangeError(`base must be positive and finite, got ${base}`);
    }
    const type = given.type ?? 'float32';
    if (!FLOATS.includes(type)) {
      throw new (typeof type === 'string' ? RangeError : TypeError)(
        `type must be 'float32' or 'float16', got ${describe(type)}`,
      );
    }
    const count = length * (rotaryDim / 2);
    if (count * 8 + RESERVE_BYTES > memoryLimit) {
      throw new RangeError(
        `rotaryCaches: length * rotaryDim / 2 = ${count} numbers per cache need ${formatBytes(count * 8)} for the two, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    return withAllocations('rotaryCaches', (allocate) => {
      const cosCache = allocate(count * 4, 'cos_cache');
      const sinCache = allocate(count * 4, 'sin_cache');
      const error = Module.runRopeCache({ cosCache, sinCache, length, rotaryDim, base });
      if (error) throw new RangeError(`rotaryCaches: ${error}`);
      const dims = [length, rotaryDim / 2];
      const heap = bufferOf(Module.HEAPU8);
      return {
        cos_cache: readOut(heap, cosCache, count, type, dims, false),
        sin_cache: readOut(heap, sinCache, count, type, [...dims], false),
      };
    });
  }

  return { onnxRotaryEmbedding, rotaryCaches };
}
