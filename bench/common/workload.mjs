// What every contender computes, identically in Node and in Chromium: the cases, their
// inputs, their flop count, and the float64 reference the outputs are checked against.
//
// One case is ONNX Attention with batch 1, `heads` query and kv heads, qSeqLen = kvSeqLen = n,
// headSize 64, scale 1/sqrt(64), no mask: y = softmax(q.k^T * scale) . v per head.

import { seededRandom } from '../../tests/js/seeded-random.mjs';

export const HEAD_SIZE = 64;
export const SCALE = 1 / Math.sqrt(HEAD_SIZE);

/** Flops of one call, counting each multiply and each add of q.k^T and of p.v: 4·n²·d·heads. */
export function flopsOf({ n, heads }) {
  return 4 * n * n * HEAD_SIZE * heads;
}

/** The case grid of the issue: n in {64, 256, 1024, 4096} x heads in {1, 8}. */
export function benchCases() {
  const cases = [];
  // Heads outside, n inside: a slow peer's time at the previous n predicts the next one, so
  // it can be capped before a call that would take minutes.
  for (const heads of [1, 8]) for (const n of [64, 256, 1024, 4096]) cases.push({ n, heads });
  return cases;
}

/** q, k, v for a case: Float32Arrays [1, heads, n, 64], uniform in [-1, 1). */
export function makeInputs({ n, heads }) {
  // Seeded, so every environment sees the same inputs.
  const next = seededRandom(n * 131 + heads);
  const make = () => {
    const a = new Float32Array(heads * n * HEAD_SIZE);
    for (let i = 0; i < a.length; i++) a[i] = next() * 2 - 1;
    return a;
  };
  return { q: make(), k: make(), v: make() };
}

/**
 * Attention of the given query rows, written the way a JS developer would: one row of scores
 * at a time in JS numbers (float64), two-pass softmax. With every row and a Float32Array
 * `out` this is the "naive JS" contender; with sampled rows and a Float64Array it is the
 * float64 reference. `rows` lists query indices; out holds heads x rows.length x 64.
 */
export function attentionRows(q, k, v, { n, heads }, rows, out) {
  const d = HEAD_SIZE;
  const scores = new Float64Array(n);
  for (let h = 0; h < heads; h++) {
    const base = h * n * d;
    for (let r = 0; r < rows.length; r++) {
      const qi = base + rows[r] * d;
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        const kj = base + j * d;
        let dot = 0;
        for (let c = 0; c < d; c++) dot += q[qi + c] * k[kj + c];
        scores[j] = dot * SCALE;
        if (scores[j] > max) max = scores[j];
      }
      let sum = 0;
      for (let j = 0; j < n; j++) {
        scores[j] = Math.exp(scores[j] - max);
        sum += scores[j];
      }
      const yi = (h * rows.length + r) * d;
      for (let c = 0; c < d; c++) out[yi + c] = 0;
      for (let j = 0; j < n; j++) {
        const p = scores[j] / sum;
        const vj = base + j * d;
        for (let c = 0; c < d; c++) out[yi + c] += p * v[vj + c];
      }
    }
  }
  return out;
}

export function allRows(n) {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * The query rows the float64 reference covers: all of them up to n = 256; beyond, 64 rows
 * spread evenly from the first to the last (the last row block is where tails live), so
 * checking costs O(n) per head rather than O(n²) and stays affordable at every n.
 */
export function referenceRows(n) {
  if (n <= 256) return allRows(n);
  const count = 64;
  return Array.from({ length: count }, (_, i) => Math.round((i * (n - 1)) / (count - 1)));
}

/** The float64 reference for a case: { rows, values: Float64Array heads x rows x 64 }. */
export function reference(inputs, shape) {
  const rows = referenceRows(shape.n);
  const values = new Float64Array(shape.heads * rows.length * HEAD_SIZE);
  attentionRows(inputs.q, inputs.k, inputs.v, shape, rows, values);
  return { rows, values };
}

/** Largest |y - reference| over the reference's rows; NaN anywhere gives NaN. */
export function maxAbsDiff(y, ref, { n, heads }) {
  const d = HEAD_SIZE;
  if (!y || y.length !== heads * n * d) return NaN;
  let worst = 0;
  for (let h = 0; h < heads; h++) {
    for (let r = 0; r < ref.rows.length; r++) {
      const yi = (h * n + ref.rows[r]) * d;
      const ri = (h * ref.rows.length + r) * d;
      for (let c = 0; c < d; c++) {
        const diff = Math.abs(y[yi + c] - ref.values[ri + c]);
        if (Number.isNaN(diff)) return NaN;
        if (diff > worst) worst = diff;
      }
    }
  }
  return worst;
}
