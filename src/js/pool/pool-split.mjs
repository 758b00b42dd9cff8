// How the pool splits one attention() call into slices that workers run independently, and
// puts their outputs back together. Dimensions: B batch, H query heads, KV kv heads (G = H /
// KV query heads per kv head), S query rows, L keys, D head size, Dv value head size.
//
// A slice is one batch entry, a range of query heads with the kv heads they read, and a range
// of query rows: either whole groups of heads (heads [g0 * G, g1 * G) with kv heads [g0, g1))
// or heads inside one group (with that group's one kv head), so each slice is itself a valid
// attention() call. Slices go by kv groups first (each kv head is then read by one worker),
// then by heads, then by blocks of query rows while there are fewer slices than workers.
// A call whose options act on a row by its position (causal: top-left causality counts rows
// from 0) is not split by query rows, and one whose options act on a row by its head is not
// split by heads: each option says which it does (OPTION_FIELDS, attention-options.mjs).
//
// Everything here works on a snapshot: the call as readAttentionArgs (attention-args.mjs) read
// and validated it, and q, k, v, mask data as views of exactly the bytes it checked. No code
// of the caller's runs while a call is sliced.
import { dependsOn } from '../attention/attention-options.mjs';

/** Below this many multiply-adds a call runs whole on one worker: messages would cost more. */
export const SPLIT_MIN_WORK = 4 * 1024 * 1024;
/** Query-row blocks hold at least this many rows (the kernel walks rows 256 at a time). */
export const MIN_BLOCK_ROWS = 128;

/** A call's multiply-adds (what SPLIT_MIN_WORK compares with). */
export function callWork({ batch, qNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize }) {
  return batch * qNumHeads * qSeqLen * kvSeqLen * (headSize + vHeadSize);
}

/**
 * The slices of a validated call `shape` (readAttentionArgs' result) for `workers` workers:
 * [{ b, h0, h1, g0, g1, s0, s1 }], in output order. A slice with b = -1 means "run it whole".
 */
export function planSlices(shape, workers) {
  const { batch, qNumHeads, kvNumHeads, qSeqLen } = shape;
  const whole = [{ b: -1, h0: 0, h1: qNumHeads, g0: 0, g1: kvNumHeads, s0: 0, s1: qSeqLen }];
  if (workers < 2 || callWork(shape) < SPLIT_MIN_WORK) return whole;
  const group = qNumHeads / kvNumHeads;
  const slices = [];
  if (dependsOn(shape.options, 'head')) {
    // Whole batch entries only (a call of one batch entry cannot run whole on several
    // workers).
    if (batch < 2) return whole;
    for (let b = 0; b < batch; b++) {
      slices.push({ b, h0: 0, h1: qNumHeads, g0: 0, g1: kvNumHeads, s0: 0, s1: qSeqLen });
    }
  } else if (batch * kvNumHeads >= workers) {
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
  if (slices.length >= workers || dependsOn(shape.options, 'position') || blocks < 2) {
    return slices;
  }
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
 * `q`, `k`, `v` are Float32Array views of the snapshot; `options` plain (no getters), with
 * attnMask { data: a view of the snapshot, shape } when there is a mask.
 */
export function sliceCall(q, k, v, options, shape, slice) {
  const args = cutSlice(q, k, v, options, shape, slice, (array, from, to) => array.slice(from, to));
  const [qSlice, kSlice, vSlice, sliceOptions] = args;
  const transfer = [qSlice.buffer, kSlice.buffer, vSlice.buffer];
  if (sliceOptions.attnMask !== undefined) transfer.push(sliceOptions.attnMask.data.buffer);
  return { args, transfer };
}

/**
 * One slice as views where it can be (pool-shared.mjs: the worker reads straight from the
 * shared buffer): q, k, v, options of a valid attention() call, and `out`, the view of y
 * [B, H, S, Dv] the slice's output fills, or null when its rows are not one run of y (several
 * heads, part of the rows: placeSlice then puts them in). A whole call (b = -1) is the views
 * themselves.
 */
export function sliceViews(q, k, v, y, options, shape, slice) {
  if (slice.b === -1) return { args: [q, k, v, options], out: y };
  const args = cutSlice(q, k, v, options, shape, slice, (array, from, to) =>
    array.subarray(from, to),
  );
  const { qNumHeads, qSeqLen, vHeadSize } = shape;
  const { b, h0, h1, s0, s1 } = slice;
  if (h1 - h0 > 1 && s1 - s0 !== qSeqLen) return { args, out: null };
  const from = ((b * qNumHeads + h0) * qSeqLen + s0) * vHeadSize;
  return { args, out: y.subarray(from, from + (h1 - h0) * (s1 - s0) * vHeadSize) };
}

// A slice's q, k, v and options, `take(array, from, to)` cutting each run it can (a copy or
// a view); q rows that are not one run (several heads, part of the rows) are copied.
function cutSlice(q, k, v, options, shape, slice, take) {
  const { qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize } = shape;
  const { b, h0, h1, g0, g1, s0, s1 } = slice;
  const rows = s1 - s0;
  let qSlice;
  if (rows === qSeqLen || h1 - h0 === 1) {
    const from = ((b * qNumHeads + h0) * qSeqLen + s0) * headSize;
    qSlice = take(q, from, from + (h1 - h0) * rows * headSize);
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
  const kSlice = take(k, kvFrom * headSize, kvTo * headSize);
  const vSlice = take(v, kvFrom * vHeadSize, kvTo * vHeadSize);
  if (options.attnMask !== undefined) sliceOptions.attnMask = sliceMask(options.attnMask, slice);
  return [qSlice, kSlice, vSlice, sliceOptions];
}

// The part of a broadcast mask that the slice's [1, h1 - h0, s1 - s0, L] sees.
function sliceMask(mask, { b, h0, h1, s0, s1 }) {
  // Validated: 1 to 4 dims, each 1 or the call's, right-aligned to [B, H, S, L].
  const [mb, mh, ms, ml] = [...new Array(4 - mask.shape.length).fill(1), ...mask.shape];
  const [bFrom] = mb === 1 ? [0] : [b];
  const [hFrom, hTo] = mh === 1 ? [0, 1] : [h0, h1];
  const [sFrom, sTo] = ms === 1 ? [0, 1] : [s0, s1];
  const Kind = mask.data instanceof Uint8Array ? Uint8Array : Float32Array; // our own view
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
