// Token-by-token decoding with a KV cache, the way a language model generates text: each step
// runs attention for ONE new token against the keys and values of every earlier token, and
// the cache it returns (present_key, present_value) is the next step's past_key / past_value.
//
// The "model" is tiny and deterministic: a seeded embedding table and projection matrices
// (one attention layer, 4 query heads sharing 2 key/value heads, greedy choice of the next
// token). What the example shows:
//   1. every step's output equals full causal attention over the whole prefix, recomputed from
//      scratch (to 1e-5), so the cache changes nothing but the cost;
//   2. with the cache a step costs one pass over T keys (plus the call's fixed cost, which at
//      these small heads is most of it: the time per token stays about flat over 4,000 steps),
//      where recomputing the prefix every step grows with T squared.
//   node examples/node/decode.mjs [steps]
import { pathToFileURL } from 'node:url';

import createAttention from 'attention-explained';

const VOCABULARY = 64;
const MODEL_WIDTH = 32;
const Q_HEADS = 4;
const KV_HEADS = 2;
const HEAD_SIZE = 8;

// mulberry32, so the "model" is the same numbers on every machine.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The model's weights: an embedding per token and the projections, row-major. */
export function tinyModel(seed = 7) {
  const random = seeded(seed);
  const matrix = (rows, cols) =>
    Float32Array.from({ length: rows * cols }, () => (random() * 2 - 1) / Math.sqrt(cols));
  return {
    embedding: matrix(VOCABULARY, MODEL_WIDTH), // [token, MODEL_WIDTH]
    wQuery: matrix(MODEL_WIDTH, Q_HEADS * HEAD_SIZE),
    wKey: matrix(MODEL_WIDTH, KV_HEADS * HEAD_SIZE),
    wValue: matrix(MODEL_WIDTH, KV_HEADS * HEAD_SIZE),
    wOut: matrix(Q_HEADS * HEAD_SIZE, VOCABULARY), // attention output -> next-token scores
  };
}

// x [MODEL_WIDTH] . w [MODEL_WIDTH, cols] -> [cols]
function project(x, w, cols) {
  const out = new Float32Array(cols);
  for (let r = 0; r < x.length; r++) {
    for (let c = 0; c < cols; c++) out[c] += x[r] * w[r * cols + c];
  }
  return out;
}

const tensor = (data, dims) => ({ type: 'float32', data, dims });
const embed = (model, token) =>
  model.embedding.subarray(token * MODEL_WIDTH, (token + 1) * MODEL_WIDTH);

/**
 * Generates `steps` tokens after token 0. Returns the tokens, the largest difference between a
 * step's output and full causal attention over its prefix, the time of each step (ms), the
 * final cache's dims and, when checking, every step's q, k, v and output.
 */
export function decode(attn, { steps = 200, model = tinyModel(), check = true } = {}) {
  const attributes = { q_num_heads: Q_HEADS, kv_num_heads: KV_HEADS, is_causal: 1 };
  // The cache starts empty: P = 0 past keys.
  let pastKey = tensor(new Float32Array(0), [1, KV_HEADS, 0, HEAD_SIZE]);
  let pastValue = tensor(new Float32Array(0), [1, KV_HEADS, 0, HEAD_SIZE]);
  const queries = []; // every step's query, kept only to check against the full computation
  const keys = [];
  const values = [];
  const outputs = [];
  const tokens = [0];
  const millis = [];
  let worst = 0;
  for (let step = 0; step < steps; step++) {
    const x = embed(model, tokens[tokens.length - 1]);
    // 3-D layout (batch, seq, heads * head_size): one new token.
    const q = project(x, model.wQuery, Q_HEADS * HEAD_SIZE);
    const k = project(x, model.wKey, KV_HEADS * HEAD_SIZE);
    const v = project(x, model.wValue, KV_HEADS * HEAD_SIZE);

    const started = performance.now();
    const out = attn.onnxAttention(
      {
        Q: tensor(q, [1, 1, Q_HEADS * HEAD_SIZE]),
        K: tensor(k, [1, 1, KV_HEADS * HEAD_SIZE]),
        V: tensor(v, [1, 1, KV_HEADS * HEAD_SIZE]),
        past_key: pastKey,
        past_value: pastValue,
      },
      attributes,
      ['Y', 'present_key', 'present_value'],
    );
    millis.push(performance.now() - started);
    pastKey = out.present_key; // (1, KV_HEADS, step + 1, HEAD_SIZE): the next step's past
    pastValue = out.present_value;

    if (check) {
      queries.push(q);
      keys.push(k);
      values.push(v);
      outputs.push(out.Y.data);
      worst = Math.max(worst, compareWithFullAttention(attn, out.Y.data, queries, keys, values));
    }
    const scores = project(out.Y.data, model.wOut, VOCABULARY);
    tokens.push(scores.indexOf(Math.max(...scores))); // greedy
  }
  return {
    tokens,
    worst,
    millis,
    cache: pastKey.dims,
    history: { queries, keys, values, outputs },
  };
}

// Full causal attention over the whole prefix, recomputed from every token's q, k and v, in
// one call without a cache; its last row is what this step must have produced.
function compareWithFullAttention(attn, y, queries, keys, values) {
  const T = queries.length;
  const stack = (rows, width) => {
    const out = new Float32Array(T * width);
    rows.forEach((row, i) => out.set(row, i * width));
    return out;
  };
  const full = attn.onnxAttention(
    {
      Q: tensor(stack(queries, Q_HEADS * HEAD_SIZE), [1, T, Q_HEADS * HEAD_SIZE]),
      K: tensor(stack(keys, KV_HEADS * HEAD_SIZE), [1, T, KV_HEADS * HEAD_SIZE]),
      V: tensor(stack(values, KV_HEADS * HEAD_SIZE), [1, T, KV_HEADS * HEAD_SIZE]),
    },
    { q_num_heads: Q_HEADS, kv_num_heads: KV_HEADS, is_causal: 1 },
  ).Y.data;
  const last = full.subarray((T - 1) * Q_HEADS * HEAD_SIZE);
  let worst = 0;
  for (let i = 0; i < y.length; i++) worst = Math.max(worst, Math.abs(y[i] - last[i]));
  return worst;
}

/** Mean time per token over consecutive windows of `size` steps. */
export function perWindow(millis, size) {
  const means = [];
  for (let start = 0; start + size <= millis.length; start += size) {
    const window = millis.slice(start, start + size);
    means.push(window.reduce((a, b) => a + b, 0) / size);
  }
  return means;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const steps = Number(process.argv[2] ?? 200);
  const attn = await createAttention();
  const checked = decode(attn, { steps });
  console.log(`generated ${steps} tokens: ${checked.tokens.slice(0, 24).join(' ')} ...`);
  console.log(`cache at the end: present_key dims [${checked.cache}]`);
  console.log(
    `every step equals full causal attention over its prefix: worst |difference| ${checked.worst.toExponential(2)}`,
  );
  // Timing without the check (which recomputes the whole prefix every step), on a longer run
  // so that the cache dominates the per-call cost.
  const long = 4000;
  const timed = decode(attn, { steps: long, check: false });
  const size = long / 8;
  console.log(`time per token with the cache, by cache length (${long} tokens):`);
  perWindow(timed.millis, size).forEach((ms, i) => {
    const cache = `${i * size}..${(i + 1) * size}`;
    console.log(`  ${cache.padEnd(11)} keys  ${(ms * 1000).toFixed(1).padStart(7)} us`);
  });
  const { intercept, slope } = fitLine(timed.millis);
  console.log(
    `  least squares: ${(intercept * 1000).toFixed(1)} us + ${(slope * 1e6).toFixed(1)} us per 1000 cached keys`,
  );
  // Without a cache, each token would recompute attention over its whole prefix: T queries
  // against T keys, so the cost per token grows with T squared.
  console.log('time per token recomputing the prefix instead (no cache):');
  for (const T of [500, 1000, 2000, 4000]) {
    const model = tinyModel();
    const rows = (width) =>
      Float32Array.from({ length: T * width }, (_, i) => model.embedding[i % 2048]);
    const inputs = {
      Q: tensor(rows(Q_HEADS * HEAD_SIZE), [1, T, Q_HEADS * HEAD_SIZE]),
      K: tensor(rows(KV_HEADS * HEAD_SIZE), [1, T, KV_HEADS * HEAD_SIZE]),
      V: tensor(rows(KV_HEADS * HEAD_SIZE), [1, T, KV_HEADS * HEAD_SIZE]),
    };
    const attributes = { q_num_heads: Q_HEADS, kv_num_heads: KV_HEADS, is_causal: 1 };
    attn.onnxAttention(inputs, attributes);
    const started = performance.now();
    for (let i = 0; i < 3; i++) attn.onnxAttention(inputs, attributes);
    const ms = (performance.now() - started) / 3;
    console.log(`  prefix of ${String(T).padEnd(5)} ${(ms * 1000).toFixed(1).padStart(9)} us`);
  }
}

/** Least-squares line through (step, millis[step]): millis ~ intercept + slope * step. */
function fitLine(millis) {
  const n = millis.length;
  const meanX = (n - 1) / 2;
  const meanY = millis.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  millis.forEach((y, x) => {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  });
  const slope = sxy / sxx;
  return { intercept: meanY - slope * meanX, slope };
}
