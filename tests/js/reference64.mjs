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

// attention()'s dims with their defaults filled in, as attention64 reads them.
function shapeOf(q, k, options) {
  const batch = options.batch ?? 1;
  const qNumHeads = options.qNumHeads;
  const kvNumHeads = options.kvNumHeads ?? qNumHeads;
  const headSize = options.headSize;
  const vHeadSize = options.vHeadSize ?? headSize;
  const qSeqLen = options.qSeqLen ?? q.length / (batch * qNumHeads * headSize);
  const kvSeqLen = options.kvSeqLen ?? k.length / (batch * kvNumHeads * headSize);
  const group = qNumHeads / kvNumHeads;
  if (!Number.isInteger(group) || !Number.isInteger(qSeqLen) || !Number.isInteger(kvSeqLen)) {
    throw new Error('attention64: inconsistent shape');
  }
  return { batch, qNumHeads, kvNumHeads, headSize, vHeadSize, qSeqLen, kvSeqLen, group };
}

/**
 * Calls visit({ kBase, qRow, yRow, raw, scores }) for every query row: raw[j] = scale * q.k_j
 * (before the softcap), scores[j] the final score (softcapped, masked); kBase is the row's
 * first key in k and v (in rows), qRow and yRow its offsets in q and y.
 */
function eachScoreRow(q, k, options, visit) {
  const { batch, qNumHeads, kvNumHeads, headSize, vHeadSize, qSeqLen, kvSeqLen, group } = shapeOf(
    q,
    k,
    options,
  );
  // ONNX's scale and softcap are float attributes: float32, like every tensor here.
  const scale = Math.fround(options.scale ?? 1 / Math.sqrt(headSize));
  const softcap = Math.fround(options.softcap ?? 0);
  const isCausal = options.isCausal ?? false;
  const mask = options.attnMask;
  const maskAt = mask ? maskIndexer(mask.shape, [batch, qNumHeads, qSeqLen, kvSeqLen]) : null;
  const isBoolean = mask ? mask.data instanceof Uint8Array : false;
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < qNumHeads; h++) {
      const kvHead = Math.floor(h / group);
      const kBase = (b * kvNumHeads + kvHead) * kvSeqLen;
      for (let i = 0; i < qSeqLen; i++) {
        const qRow = ((b * qNumHeads + h) * qSeqLen + i) * headSize;
        const raw = new Float64Array(kvSeqLen);
        const scores = new Float64Array(kvSeqLen);
        for (let j = 0; j < kvSeqLen; j++) {
          const kRow = (kBase + j) * headSize;
          let dot = 0;
          for (let c = 0; c < headSize; c++) dot += q[qRow + c] * k[kRow + c];
          raw[j] = scale * dot;
          let s = raw[j];
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
        visit({ kBase, qRow, yRow, raw, scores });
      }
    }
  }
}

/**
 * @param {ArrayLike<number>} q [batch, qNumHeads, qSeqLen, headSize]
 * @param {ArrayLike<number>} k [batch, kvNumHeads, kvSeqLen, headSize]
 * @param {ArrayLike<number>} v [batch, kvNumHeads, kvSeqLen, vHeadSize]
 * @param {object} options the same options as `attn.attention`
 * @returns {Float64Array} y [batch, qNumHeads, qSeqLen, vHeadSize]
 */
export function attention64(q, k, v, options) {
  const { batch, qNumHeads, qSeqLen, vHeadSize } = shapeOf(q, k, options);
  const y = new Float64Array(batch * qNumHeads * qSeqLen * vHeadSize);
  eachScoreRow(q, k, options, ({ kBase, yRow, scores }) =>
    softmaxTimesValues(scores, (j, c) => v[(kBase + j) * vHeadSize + c], vHeadSize, y, yRow),
  );
  return y;
}

/**
 * The gradients of attention64's y for a loss whose gradient is gradY (y's shape), in
 * float64, from the textbook formulas a row at a time: w = softmax(scores), dw_j = gradY.v_j,
 * ds_j = w_j (dw_j - sum_l w_l dw_l), times 1 - tanh^2(raw_j / softcap) under a softcap, times
 * scale; then dq += ds_j k_j, dk_j += ds_j q, dv_j += w_j gradY.
 * @returns {{ gradQ: Float64Array, gradK: Float64Array, gradV: Float64Array }}
 */
export function attentionBackward64(q, k, v, gradY, options) {
  const { headSize: d, vHeadSize: dv } = shapeOf(q, k, options);
  const softcap = Math.fround(options.softcap ?? 0);
  const scale = Math.fround(options.scale ?? 1 / Math.sqrt(d));
  const gradQ = new Float64Array(q.length);
  const gradK = new Float64Array(k.length);
  const gradV = new Float64Array(v.length);
  eachScoreRow(q, k, options, ({ kBase, qRow, yRow, raw, scores }) => {
    const w = softmax(scores);
    if (w === null) return; // every key hidden: y = 0, no gradient
    const dw = w.map((_, j) => {
      let dot = 0;
      for (let c = 0; c < dv; c++) dot += gradY[yRow + c] * v[(kBase + j) * dv + c];
      return dot;
    });
    const delta = w.reduce((sum, wj, j) => sum + wj * dw[j], 0);
    for (let j = 0; j < w.length; j++) {
      let ds = w[j] * (dw[j] - delta);
      if (softcap > 0) ds *= 1 - Math.tanh(raw[j] / softcap) ** 2;
      ds *= scale;
      const kRow = (kBase + j) * d;
      for (let c = 0; c < d; c++) {
        gradQ[qRow + c] += ds * k[kRow + c];
        gradK[kRow + c] += ds * q[qRow + c];
      }
      for (let c = 0; c < dv; c++) gradV[(kBase + j) * dv + c] += w[j] * gradY[yRow + c];
    }
  });
  return { gradQ, gradK, gradV };
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

// softmax(scores) as a Float64Array, or null when every score is -inf (no key visible).
function softmax(scores) {
  let max = -Infinity;
  for (const s of scores) max = Math.max(max, s); // NaN poisons max, and so the row: IEEE
  if (max === -Infinity) return null;
  const p = new Float64Array(scores.length);
  let sum = 0;
  for (let j = 0; j < scores.length; j++) {
    p[j] = Math.exp(scores[j] - max);
    sum += p[j];
  }
  for (let j = 0; j < scores.length; j++) p[j] /= sum;
  return p;
}

// y[yRow + c] = sum_j softmax(scores)[j] * value(j, c); zeros when every score is -inf.
function softmaxTimesValues(scores, value, width, y, yRow) {
  const p = softmax(scores);
  if (p === null) return; // every key masked: y stays zero
  for (let j = 0; j < scores.length; j++) {
    // a plain matrix product: 0 * Infinity is NaN here too, as in IEEE
    for (let c = 0; c < width; c++) y[yRow + c] += p[j] * value(j, c);
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
export function trace64({
  x,
  wQuery,
  wKey,
  wValue,
  scale: scale64 = 1,
  isCausal = false,
  softcap: softcap64 = 0,
}) {
  const scale = Math.fround(scale64); // float32, like the module's
  const softcap = Math.fround(softcap64);
  const cap = (s) => (softcap > 0 ? softcap * Math.tanh(s / softcap) : s);
  const xs = toRows(x);
  const queries = matmul(xs, toRows(wQuery));
  const keys = matmul(xs, toRows(wKey));
  const values = matmul(xs, toRows(wValue));
  const n = xs.length;
  const scores = queries.map((qRow, i) =>
    keys.map((kRow, j) =>
      isCausal && j > i ? -Infinity : cap(scale * qRow.reduce((s, x, c) => s + x * kRow[c], 0)),
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

/**
 * A multi-head layer in float64, from its definition: wQuery's columns in `heads` equal
 * blocks, wKey's and wValue's in `kvHeads`; query head h runs trace64 on its block and on kv
 * head floor(h / (heads / kvHeads))'s blocks; concat puts the heads' outputs side by side;
 * outputs = concat . wOut (or concat). Returns { heads: [trace64 per head], concat, outputs }
 * as nested arrays. Arguments as `attn.trace`.
 */
export function multiHeadTrace64({
  x,
  wQuery,
  wKey,
  wValue,
  wOut,
  heads = 1,
  kvHeads = heads,
  scale,
  isCausal,
  softcap,
}) {
  const block = (m, b, blocks) => {
    const rows = toRows(m);
    const width = rows[0].length / blocks;
    return rows.map((row) => row.slice(b * width, (b + 1) * width));
  };
  const group = heads / kvHeads;
  const perHead = Array.from({ length: heads }, (_, h) => {
    const g = Math.floor(h / group);
    return trace64({
      x,
      wQuery: block(wQuery, h, heads),
      wKey: block(wKey, g, kvHeads),
      wValue: block(wValue, g, kvHeads),
      scale,
      isCausal,
      softcap,
    });
  });
  const concat = perHead[0].outputs.map((_, i) => perHead.flatMap((t) => t.outputs[i]));
  const outputs = wOut === undefined ? concat : matmul(concat, toRows(wOut));
  return { heads: perHead, concat, outputs };
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

/**
 * The whole ONNX `Attention` operator (opset 23, 24's nonpad_kv_seqlen, 25's windows) in
 * float64, written from the spec the way ONNX's numpy reference computes it: 3-D inputs
 * reshaped to 4-D, present = concat(past, new), one bias per (b, h, i, j) summing the mask
 * (padded with -inf to T keys), the causal frontier, the windows and the padding, then
 * softmax and the product with V. Differences from ONNX's reference, both the contract's:
 * a row that sees no key gives zeros (not NaN) in Y and in mode 3, and a float mask's -inf
 * stays -inf under softcap (softcap comes first, as in the spec).
 *
 * @param {object} inputs { Q, K, V, attn_mask?, past_key?, past_value?, nonpad_kv_seqlen? },
 *   each { data, dims }; float data as numbers (float16 already widened), a bool mask as 0/1,
 *   nonpad_kv_seqlen as numbers or bigints
 * @param {object} attributes ONNX attribute names; absent ones take ONNX's defaults
 * @returns {{ Y, present_key, present_value, qk_matmul_output }} each { data: Float64Array, dims }
 */
export function onnxAttention64(inputs, attributes = {}) {
  const { Q, K, V, attn_mask: mask, past_key: pastKey, past_value: pastValue } = inputs;
  const nonpad = inputs.nonpad_kv_seqlen ? Array.from(inputs.nonpad_kv_seqlen.data, Number) : null;
  const a = attributes;
  // A 3-D (B, seq, H*size) tensor as an accessor of its 4-D (B, H, seq, size) form.
  const as4d = (t, heads) => {
    if (t.dims.length === 4) {
      const [, H, N, E] = t.dims;
      return { H, N, E, at: (b, h, n, e) => t.data[((b * H + h) * N + n) * E + e] };
    }
    const [, N, hidden] = t.dims;
    const E = hidden / heads;
    return { H: heads, N, E, at: (b, h, n, e) => t.data[(b * N + n) * hidden + h * E + e] };
  };
  const B = Q.dims[0];
  const q = as4d(Q, a.q_num_heads);
  const kNew = as4d(K, a.kv_num_heads);
  const vNew = as4d(V, a.kv_num_heads);
  const [Hq, S, D] = [q.H, q.N, q.E];
  const [Hkv, L, Dv] = [kNew.H, kNew.N, vNew.E];
  const P = pastKey ? pastKey.dims[2] : 0;
  const T = P + L;
  // present_key / present_value: (B, Hkv, T, size), past rows first.
  const concat = (past, next, size) => {
    const out = new Float64Array(B * Hkv * T * size);
    for (let b = 0; b < B; b++)
      for (let h = 0; h < Hkv; h++)
        for (let j = 0; j < T; j++)
          for (let e = 0; e < size; e++) {
            out[((b * Hkv + h) * T + j) * size + e] =
              j < P ? past.data[((b * Hkv + h) * P + j) * size + e] : next.at(b, h, j - P, e);
          }
    return out;
  };
  const presentKey = concat(pastKey, kNew, D);
  const presentValue = concat(pastValue, vNew, Dv);
  const scale = Math.fround(a.scale ?? 1 / Math.sqrt(D));
  const softcap = Math.fround(a.softcap ?? 0);
  const mode = a.qk_matmul_output_mode ?? 0;
  const left = a.left_window_size ?? -1;
  const right = a.right_window_size ?? -1;
  const isCausal = Boolean(a.is_causal);
  const isBool = mask ? mask.type === 'bool' : false;
  const maskRank = mask ? mask.dims.length : 0;
  const maskAt = (b, h, i, j) => {
    // Right-aligned numpy broadcasting; the last axis is padded (hidden) beyond its length.
    const index = [b, h, i, j].slice(4 - maskRank);
    let flat = 0;
    for (let axis = 0; axis < maskRank; axis++) {
      const dim = mask.dims[axis];
      let at = index[axis];
      if (axis === maskRank - 1 && at >= dim) return isBool ? 0 : -Infinity;
      if (dim === 1) at = 0;
      flat = flat * dim + at;
    }
    return mask.data[flat];
  };
  const group = Hq / Hkv;
  const Y = new Float64Array(B * Hq * S * Dv);
  const scores = new Float64Array(B * Hq * S * T);
  const row = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    const offset = pastKey ? P : nonpad ? nonpad[b] - S : 0;
    for (let h = 0; h < Hq; h++) {
      const kv = Math.floor(h / group);
      for (let i = 0; i < S; i++) {
        const p = i + offset;
        const scoreRow = ((b * Hq + h) * S + i) * T;
        for (let j = 0; j < T; j++) {
          let dot = 0;
          for (let e = 0; e < D; e++)
            dot += q.at(b, h, i, e) * presentKey[((b * Hkv + kv) * T + j) * D + e];
          let s = scale * dot;
          if (mode === 0) scores[scoreRow + j] = s;
          if (softcap > 0) s = softcap * Math.tanh(s / softcap);
          if (mode === 1) scores[scoreRow + j] = s;
          let hidden = false;
          let bias = 0;
          if (mask) {
            const m = maskAt(b, h, i, j);
            if (isBool) hidden ||= !m;
            else bias += m;
          }
          if (isCausal && j > p) hidden = true;
          if (left >= 0 && j < p - left) hidden = true;
          if (right >= 0 && j > p + right) hidden = true;
          if (nonpad && j >= nonpad[b]) hidden = true;
          s = hidden ? -Infinity : s + bias;
          if (mode === 2) scores[scoreRow + j] = s;
          row[j] = s;
        }
        let max = -Infinity;
        for (const s of row) max = Math.max(max, s);
        if (max === -Infinity) continue; // sees no key: zeros in Y and in mode 3
        let sum = 0;
        for (let j = 0; j < T; j++) sum += Math.exp(row[j] - max);
        const yRow = ((b * Hq + h) * S + i) * Dv;
        for (let j = 0; j < T; j++) {
          const w = Math.exp(row[j] - max) / sum;
          if (mode === 3) scores[scoreRow + j] = w;
          for (let e = 0; e < Dv; e++)
            Y[yRow + e] += w * presentValue[((b * Hkv + kv) * T + j) * Dv + e];
        }
      }
    }
  }
  // Y in Q's layout.
  let y = Y;
  let yDims = [B, Hq, S, Dv];
  if (Q.dims.length === 3) {
    y = new Float64Array(Y.length);
    for (let b = 0; b < B; b++)
      for (let h = 0; h < Hq; h++)
        for (let i = 0; i < S; i++)
          for (let e = 0; e < Dv; e++)
            y[(b * S + i) * Hq * Dv + h * Dv + e] = Y[((b * Hq + h) * S + i) * Dv + e];
    yDims = [B, S, Hq * Dv];
  }
  return {
    Y: { data: y, dims: yDims },
    present_key: { data: presentKey, dims: [B, Hkv, T, D] },
    present_value: { data: presentValue, dims: [B, Hkv, T, Dv] },
    qk_matmul_output: { data: scores, dims: [B, Hq, S, T] },
  };
}
