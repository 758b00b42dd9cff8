// A float64 reference of the ONNX `Attention` operator (opset 23, 4-D layout, no past key/value)
// and of the article's self-attention trace, written from the specification, not from the C++
// core: plain loops, one score row at a time, nothing fused, nothing clever. The tests compare
// the wasm module and onnxruntime-web against it.
//
// Semantics (ONNX opset 23, as the contract states them):
//   s = scale * q.k            (scale defaults to 1/sqrt(headSize))
//   s = softcap * tanh(s / softcap)   when softcap > 0, BEFORE any mask (so -inf stays -inf)
//   s = -inf where isCausal hides key j > query i (top-left aligned: no past key/value)
//   s = -inf where a boolean mask is 0;  s += m for an additive mask
//   y = softmax(s) . v
// Query head h reads kv head floor(h / (qNumHeads / kvNumHeads)) (ONNX repeat-interleave).
// The mask broadcasts right-aligned (numpy rules) to [batch, qNumHeads, qSeqLen, kvSeqLen].
// A row whose every score is -inf gives zeros: ONNX leaves it undefined (its own reference
// yields NaN from 0/0); the contract fixes it to zeros, which a padded batch wants.

/**
 * @param {ArrayLike<number>} q [batch, qNumHeads, qSeqLen, headSize]
 * @param {ArrayLike<number>} k [batch, kvNumHeads, kvSeqLen, headSize]
 * @param {ArrayLike<number>} v [batch, kvNumHeads, kvSeqLen, vHeadSize]
 * @param {object} options the same options as `attn.attention`
 * @returns {Float64Array} y [batch, qNumHeads, qSeqLen, vHeadSize]
 */
export function attention64(q, k, v, options) {
  const batch = options.batch ?? 1;
  const qNumHeads = options.qNumHeads;
  const kvNumHeads = options.kvNumHeads ?? qNumHeads;
  const headSize = options.headSize;
  const vHeadSize = options.vHeadSize ?? headSize;
  const qSeqLen = options.qSeqLen ?? q.length / (batch * qNumHeads * headSize);
  const kvSeqLen = options.kvSeqLen ?? k.length / (batch * kvNumHeads * headSize);
  // ONNX's scale and softcap are float attributes: float32, like every tensor here.
  const scale = Math.fround(options.scale ?? 1 / Math.sqrt(headSize));
  const softcap = Math.fround(options.softcap ?? 0);
  const isCausal = options.isCausal ?? false;
  const mask = options.attnMask;
  const group = qNumHeads / kvNumHeads;
  if (!Number.isInteger(group) || !Number.isInteger(qSeqLen) || !Number.isInteger(kvSeqLen)) {
    throw new Error('attention64: inconsistent shape');
  }

  const maskAt = mask ? maskIndexer(mask.shape, [batch, qNumHeads, qSeqLen, kvSeqLen]) : null;
  const isBoolean = mask ? mask.data instanceof Uint8Array : false;

  const y = new Float64Array(batch * qNumHeads * qSeqLen * vHeadSize);
  const scores = new Float64Array(kvSeqLen);
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < qNumHeads; h++) {
      const kvHead = Math.floor(h / group);
      const kBase = (b * kvNumHeads + kvHead) * kvSeqLen;
      for (let i = 0; i < qSeqLen; i++) {
        const qRow = ((b * qNumHeads + h) * qSeqLen + i) * headSize;
        for (let j = 0; j < kvSeqLen; j++) {
          const kRow = (kBase + j) * headSize;
          let dot = 0;
          for (let c = 0; c < headSize; c++) dot += q[qRow + c] * k[kRow + c];
          let s = scale * dot;
          if (softcap > 0) s = softcap * Math.tanh(s / softcap);
          if (isCausal && j > i) s = -Infinity;
          if (mask) {
            const m = mask.data[maskAt(b, h, i, j)];
            if (isBoolean) {
              if (!m) s = -Infinity;
            } else {
              s += m;
            }
          }
          scores[j] = s;
        }
        const yRow = ((b * qNumHeads + h) * qSeqLen + i) * vHeadSize;
        softmaxTimesValues(scores, (j, c) => v[(kBase + j) * vHeadSize + c], vHeadSize, y, yRow);
      }
    }
  }
  return y;
}

// Index into a mask of `shape` (1 to 4 dims) broadcast right-aligned to `target` (4 dims).
function maskIndexer(shape, target) {
  const offset = 4 - shape.length;
  // strides[axis] for each of the 4 target axes; 0 where the mask has no axis or a dim of 1.
  const strides = [0, 0, 0, 0];
  let stride = 1;
  for (let axis = 3; axis >= offset; axis--) {
    const dim = shape[axis - offset];
    if (dim !== 1 && dim !== target[axis]) throw new Error('attention64: mask does not broadcast');
    strides[axis] = dim === 1 ? 0 : stride;
    stride *= dim;
  }
  return (b, h, i, j) => b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3];
}

// y[yRow + c] = sum_j softmax(scores)[j] * value(j, c); zeros when every score is -inf.
function softmaxTimesValues(scores, value, width, y, yRow) {
  let max = -Infinity;
  for (const s of scores) max = Math.max(max, s); // NaN poisons max, and so the row: IEEE
  if (max === -Infinity) return; // every key masked: y stays zero
  const p = new Float64Array(scores.length);
  let sum = 0;
  for (let j = 0; j < scores.length; j++) {
    p[j] = Math.exp(scores[j] - max);
    sum += p[j];
  }
  for (let j = 0; j < scores.length; j++) {
    const w = p[j] / sum; // a plain matrix product: 0 * Infinity is NaN here too, as in IEEE
    for (let c = 0; c < width; c++) y[yRow + c] += w * value(j, c);
  }
}

const toRows = (m) =>
  Array.isArray(m)
    ? m
    : Array.from({ length: m.rows }, (_, i) =>
        Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)),
      );

function matmul(a, b) {
  return a.map((row) => b[0].map((_, c) => row.reduce((sum, x, r) => sum + x * b[r][c], 0)));
}

/**
 * Every intermediate of the article's self-attention in float64, as nested arrays:
 * { queries, keys, values, scores, weights, weighted, outputs }. Arguments as `attn.trace`.
 */
export function trace64({ x, wQuery, wKey, wValue, scale: scale64 = 1, isCausal = false }) {
  const scale = Math.fround(scale64); // float32, like the module's
  const xs = toRows(x);
  const queries = matmul(xs, toRows(wQuery));
  const keys = matmul(xs, toRows(wKey));
  const values = matmul(xs, toRows(wValue));
  const n = xs.length;
  const scores = queries.map((qRow, i) =>
    keys.map((kRow, j) =>
      isCausal && j > i ? -Infinity : scale * qRow.reduce((s, x, c) => s + x * kRow[c], 0),
    ),
  );
  const weights = scores.map((row) => {
    const max = Math.max(...row);
    // As in attention(): a row whose every score is -inf (masked, or -inf from the data) is 0.
    if (max === -Infinity) return row.map(() => 0);
    const e = row.map((s) => Math.exp(s - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  const weighted = weights.map((row) => row.map((w, j) => values[j].map((x) => w * x)));
  const outputs = weighted.map((rows) =>
    rows[0].map((_, c) => rows.reduce((sum, r) => sum + r[c], 0)),
  );
  return { n, queries, keys, values, scores, weights, weighted, outputs };
}

/** The largest |a[i] - b[i]|, treating two NaNs (or two equal infinities) as equal. */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) && Number.isNaN(b[i])) continue;
    if (a[i] === b[i]) continue; // also equal infinities
    const d = Math.abs(a[i] - b[i]);
    worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
  }
  return worst;
}
