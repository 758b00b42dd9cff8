// How the pool splits one attention() call into slices that workers run independently, and
// puts their outputs back together. Dimensions: B batch, H query heads, KV kv heads (G = H /
// KV query heads per kv head), S query rows, L keys, D head size, Dv value head size.
//
// A slice is one batch entry, a range of query heads with the kv heads they read, and a range
// of query rows: either whole groups of heads (heads [g0 * G, g1 * G) with kv heads [g0, g1))
// or heads inside one group (with that group's one kv head), so each slice is itself a valid
// attention() call. Slices go by kv groups first (each kv head is then read by one worker),
// then by heads, then by blocks of query rows while there are fewer slices than workers.
// Causal calls are not split by query rows: top-left causality counts rows from 0.

const tagOf = (value) => Object.prototype.toString.call(value);
const isTyped = (value, tag) => ArrayBuffer.isView(value) && tagOf(value) === `[object ${tag}]`;
const isDim = (value) => Number.isInteger(value) && value >= 1 && value <= 0x7fffffff;

/** Below this many multiply-adds a call runs whole on one worker: messages would cost more. */
export const SPLIT_MIN_WORK = 4 * 1024 * 1024;
/** Query-row blocks hold at least this many rows (the kernel walks rows 128 at a time). */
export const MIN_BLOCK_ROWS = 128;

/**
 * The call's shape when it is well-formed enough to split, or null: then the whole call goes
 * to one worker, which validates it exactly as attn.attention does and throws the same error.
 */
export function splittableShape(q, k, v, options) {
  if (!isTyped(q, 'Float32Array') || !isTyped(k, 'Float32Array') || !isTyped(v, 'Float32Array'))
    return null;
  if (options === null || typeof options !== 'object') return null;
  const { batch = 1, qNumHeads, headSize } = options;
  const { kvNumHeads = qNumHeads, vHeadSize = headSize } = options;
  if (![batch, qNumHeads, kvNumHeads, headSize, vHeadSize].every(isDim)) return null;
  if (qNumHeads % kvNumHeads !== 0) return null;
  const qSeqLen = options.qSeqLen ?? q.length / (batch * qNumHeads * headSize);
  const kvSeqLen = options.kvSeqLen ?? k.length / (batch * kvNumHeads * headSize);
  if (!isDim(qSeqLen) || !isDim(kvSeqLen)) return null;
  const shape = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize };
  if (q.length !== batch * qNumHeads * qSeqLen * headSize) return null;
  if (k.length !== batch * kvNumHeads * kvSeqLen * headSize) return null;
  if (v.length !== batch * kvNumHeads * kvSeqLen * vHeadSize) return null;
  if (options.attnMask !== undefined && !maskDims(options.attnMask, shape)) return null;
  return shape;
}

// The mask's dims padded to 4 ([B, H, S, L] broadcast), or null if it is not well-formed.
function maskDims(mask, shape) {
  if (mask === null || typeof mask !== 'object') return null;
  if (Object.keys(mask).some((key) => key !== 'data' && key !== 'shape')) return null;
  if (!isTyped(mask.data, 'Uint8Array') && !isTyped(mask.data, 'Float32Array')) return null;
  const dims = mask.shape;
  if (!Array.isArray(dims) || dims.length < 1 || dims.length > 4) return null;
  if (!Array.from(dims).every(isDim)) return null;
  if (mask.data.length !== dims.reduce((a, b) => a * b, 1)) return null;
  const padded = [...new Array(4 - dims.length).fill(1), ...dims];
  const target = [shape.batch, shape.qNumHeads, shape.qSeqLen, shape.kvSeqLen];
  return padded.every((d, i) => d === 1 || d === target[i]) ? padded : null;
}

/**
 * The slices for `workers` workers: [{ b, h0, h1, g0, g1, s0, s1 }], in output order.
 * One slice means "run the call whole".
 */
export function planSlices(shape, options, workers) {
  const { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize } = shape;
  const whole = [{ b: -1, h0: 0, h1: qNumHeads, g0: 0, g1: kvNumHeads, s0: 0, s1: qSeqLen }];
  const work = batch * qNumHeads * qSeqLen * kvSeqLen * (headSize + vHeadSize);
  if (workers < 2 || work < SPLIT_MIN_WORK) return whole;
  const group = qNumHeads / kvNumHeads;
  const slices = [];
  if (batch * kvNumHeads >= workers) {
    const per = Math.ceil((batch * kvNumHeads) / workers);
    for (let b = 0; b < batch; b++) {
      for (let g0 = 0; g0 < kvNumHeads; g0 += per) {
        const g1 = Math.min(g0 + per, kvNumHeads);
        slices.push({ b, h0: g0 * group, h1: g1 * group, g0, g1, s0: 0, s1: qSeqLen });
      }
    }
  } else {
    const per = Math.max(1, Math.ceil((batch * qNumHeads) / workers));
    for (let b = 0; b < batch; b++) {
      for (let g = 0; g < kvNumHeads; g++) {
        for (let h0 = g * group; h0 < (g + 1) * group; h0 += per) {
          const h1 = Math.min(h0 + per, (g + 1) * group);
          slices.push({ b, h0, h1, g0: g, g1: g + 1, s0: 0, s1: qSeqLen });
        }
      }
    }
  }
  const blocks = Math.min(Math.ceil(workers / slices.length), Math.floor(qSeqLen / MIN_BLOCK_ROWS));
  if (slices.length >= workers || options.isCausal === true || blocks < 2) return slices;
  const rows = Math.ceil(qSeqLen / blocks);
  return slices.flatMap((slice) =>
    Array.from({ length: Math.ceil(qSeqLen / rows) }, (_, i) => ({
      ...slice,
      s0: i * rows,
      s1: Math.min((i + 1) * rows, qSeqLen),
    })),
  );
}

/**
 * q, k, v (fresh copies) and options of one slice: a valid attention() call of its own, and
 * the buffers to transfer with it (all fresh, so moving them detaches nothing of the caller's).
 */
export function sliceCall(q, k, v, options, shape, slice) {
  const { qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize } = shape;
  const { b, h0, h1, g0, g1, s0, s1 } = slice;
  const rows = s1 - s0;
  let qSlice;
  if (rows === qSeqLen) {
    qSlice = q.slice(
      (b * qNumHeads + h0) * qSeqLen * headSize,
      (b * qNumHeads + h1) * qSeqLen * headSize,
    );
  } else {
    qSlice = new Float32Array((h1 - h0) * rows * headSize);
    for (let h = h0; h < h1; h++) {
      const from = ((b * qNumHeads + h) * qSeqLen + s0) * headSize;
      qSlice.set(q.subarray(from, from + rows * headSize), (h - h0) * rows * headSize);
    }
  }
  const kvFrom = (b * kvNumHeads + g0) * kvSeqLen;
  const kvTo = (b * kvNumHeads + g1) * kvSeqLen;
  const sliceOptions = {
    ...options,
    batch: 1,
    qNumHeads: h1 - h0,
    kvNumHeads: g1 - g0,
    qSeqLen: rows,
    kvSeqLen,
  };
  const kSlice = k.slice(kvFrom * headSize, kvTo * headSize);
  const vSlice = v.slice(kvFrom * vHeadSize, kvTo * vHeadSize);
  const transfer = [qSlice.buffer, kSlice.buffer, vSlice.buffer];
  if (options.attnMask !== undefined) {
    sliceOptions.attnMask = sliceMask(options.attnMask, shape, slice);
    transfer.push(sliceOptions.attnMask.data.buffer);
  }
  return { args: [qSlice, kSlice, vSlice, sliceOptions], transfer };
}

// The part of a broadcast mask that the slice's [1, h1 - h0, s1 - s0, L] sees.
function sliceMask(mask, shape, { b, h0, h1, s0, s1 }) {
  const [mb, mh, ms, ml] = maskDims(mask, shape);
  const [bFrom] = mb === 1 ? [0] : [b];
  const [hFrom, hTo] = mh === 1 ? [0, 1] : [h0, h1];
  const [sFrom, sTo] = ms === 1 ? [0, 1] : [s0, s1];
  const Kind = isTyped(mask.data, 'Uint8Array') ? Uint8Array : Float32Array;
  const data = new Kind((hTo - hFrom) * (sTo - sFrom) * ml);
  let at = 0;
  for (let h = hFrom; h < hTo; h++) {
    for (let s = sFrom; s < sTo; s++) {
      const from = ((bFrom * mh + h) * ms + s) * ml;
      data.set(mask.data.subarray(from, from + ml), at);
      at += ml;
    }
  }
  return { data, shape: [1, hTo - hFrom, sTo - sFrom, ml] };
}

/** Copies one slice's output [h1 - h0, s1 - s0, Dv] into its place in y [B, H, S, Dv]. */
export function placeSlice(y, part, shape, { b, h0, h1, s0, s1 }) {
  const { qNumHeads, qSeqLen, vHeadSize } = shape;
  const size = (s1 - s0) * vHeadSize;
  for (let h = h0; h < h1; h++) {
    const at = ((b * qNumHeads + h) * qSeqLen + s0) * vHeadSize;
    y.set(part.subarray((h - h0) * size, (h - h0 + 1) * size), at);
  }
}
