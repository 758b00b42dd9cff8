// The training benchmark's peer: the tiny transformer of attn.createTinyTransformer written in
// TensorFlow.js, the same model step for step, so that ms/step compares like with like:
//   token embedding + learned positions, `layers` x [pre-LayerNorm causal multi-head attention
//   (wq, wk, wv, wo; no biases) + residual; with mlpSize > 0, pre-LayerNorm GELU MLP (tanh form)
//   + residual], final LayerNorm, unembedding, mean next-token cross-entropy over the counted
//   targets (-1 = not counted), Adam (beta1 0.9, beta2 0.999, eps 1e-8; weight decay 0 makes
//   AdamW Adam).
// The same initialisation scheme (token embeddings uniform in [-1, 1), positions the core's
// sinusoids, matrices in +-1/sqrt(rows), gains 1, biases 0) from its own seeded numbers: the
// bench compares time per step, not bits.
//
// The embedding is one-hot x E: tfjs's wasm backend has no gradient kernel for gather
// (UnsortedSegmentSum). Only the functional forms (tf.add(x, y)) are used: the chained ones
// are not registered by every bundle. The caller passes `tf` from `@tensorflow/tfjs` (which
// registers the gradients; tfjs-core alone does not) with its backend already set.
import { seededRandom } from '../../tests/js/seeded-random.mjs';

const LAYER_NORM_EPSILON = 1e-5;
const GELU_C = Math.sqrt(2 / Math.PI);

/** Parameters as tf.Variables, created in the model's order with its initialisation. */
function makeParameters(tf, { vocabSize: V, context: C, dModel: D, layers, mlpSize: M, seed }) {
  const next = seededRandom(seed);
  const uniform = (dims, bound) => {
    const count = dims.reduce((a, b) => a * b, 1);
    const data = Float32Array.from({ length: count }, () => (2 * next() - 1) * bound);
    return tf.variable(tf.tensor(data, dims));
  };
  const matrix = (rows, cols) => uniform([rows, cols], 1 / Math.sqrt(rows));
  const ones = () => tf.variable(tf.ones([D]));
  const zeros = (n) => tf.variable(tf.zeros([n]));
  // Learned positions start as the core's sinusoids (transformer.cpp, sinusoid_positions): row
  // t is cos(t theta_i) in the first ceil(D / 2) columns and sin(t theta_i) in the rest,
  // theta_i = base^(-2i / R), R = D rounded up to even, base = C^(R / (R - 2)).
  const half = Math.ceil(D / 2);
  const base = 2 * half > 2 ? C ** ((2 * half) / (2 * half - 2)) : 1;
  const sinusoids = Float32Array.from({ length: C * D }, (_, n) => {
    const [t, i] = [Math.floor(n / D), n % D];
    const angle = t * base ** ((-2 * (i % half)) / (2 * half));
    return i < half ? Math.cos(angle) : Math.sin(angle);
  });
  const p = { wte: uniform([V, D], 1), wpe: tf.variable(tf.tensor(sinusoids, [C, D])), layers: [] };
  for (let l = 0; l < layers; l++) {
    const layer = { g1: ones(), b1: zeros(D) };
    Object.assign(layer, {
      wq: matrix(D, D),
      wk: matrix(D, D),
      wv: matrix(D, D),
      wo: matrix(D, D),
    });
    if (M > 0) {
      Object.assign(layer, { g2: ones(), b2: zeros(D), w1: matrix(D, M), c1: zeros(M) });
      Object.assign(layer, { w2: matrix(M, D), c2: zeros(D) });
    }
    p.layers.push(layer);
  }
  Object.assign(p, { gf: ones(), bf: zeros(D), wu: matrix(D, V) });
  return p;
}

function layerNorm(tf, x, gain, bias) {
  const { mean, variance } = tf.moments(x, -1, true);
  const normed = tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, LAYER_NORM_EPSILON)));
  return tf.add(tf.mul(normed, gain), bias);
}

function gelu(tf, x) {
  const inner = tf.mul(tf.add(x, tf.mul(tf.pow(x, 3), 0.044715)), GELU_C);
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
}

/** x [B*T, D] -> [B, H, T, d]. */
function splitHeads(tf, x, B, T, H) {
  return tf.transpose(tf.reshape(x, [B, T, H, -1]), [0, 2, 1, 3]);
}

/**
 * The model in tfjs: { trainStep({ tokens, targets, batch }) -> loss (a number, the loss before
 * the update, as ours returns), dispose() }. config as createTinyTransformer's (positions
 * 'learned' only, kvHeads = heads).
 */
export function createTfjsTransformer(tf, config) {
  const { vocabSize: V, dModel: D, heads: H, mlpSize: M = 0, learningRate } = config;
  const p = makeParameters(tf, { seed: 1, ...config, mlpSize: M });
  const variables = [p.wte, p.wpe, p.gf, p.bf, p.wu, ...p.layers.flatMap(Object.values)];
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const scale = 1 / Math.sqrt(D / H);
  const masks = new Map(); // T -> [T, T]: 0 where a query may look, -1e9 above the diagonal

  function causalMask(T) {
    if (!masks.has(T)) {
      const data = new Float32Array(T * T);
      for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) data[i * T + j] = -1e9;
      masks.set(T, tf.keep(tf.tensor(data, [T, T]))); // made inside a step's tidy: kept
    }
    return masks.get(T);
  }

  // targets: int32 [N] with -1 read as class 0; counted: float32 [N], 1 where the target counts.
  function loss(tokens, targets, counted, B, T) {
    const N = B * T;
    let x = tf.matMul(tf.oneHot(tokens, V), p.wte); // [N, D]
    x = tf.reshape(tf.add(tf.reshape(x, [B, T, D]), tf.slice(p.wpe, [0, 0], [T, D])), [N, D]);
    for (const layer of p.layers) {
      const h = layerNorm(tf, x, layer.g1, layer.b1);
      const q = splitHeads(tf, tf.matMul(h, layer.wq), B, T, H);
      const k = splitHeads(tf, tf.matMul(h, layer.wk), B, T, H);
      const v = splitHeads(tf, tf.matMul(h, layer.wv), B, T, H);
      const scores = tf.add(tf.mul(tf.matMul(q, k, false, true), scale), causalMask(T));
      const heads = tf.matMul(tf.softmax(scores), v); // [B, H, T, d]
      const joined = tf.reshape(tf.transpose(heads, [0, 2, 1, 3]), [N, D]);
      x = tf.add(x, tf.matMul(joined, layer.wo));
      if (M > 0) {
        const h2 = layerNorm(tf, x, layer.g2, layer.b2);
        const hidden = gelu(tf, tf.add(tf.matMul(h2, layer.w1), layer.c1));
        x = tf.add(x, tf.add(tf.matMul(hidden, layer.w2), layer.c2));
      }
    }
    const logits = tf.matMul(layerNorm(tf, x, p.gf, p.bf), p.wu); // [N, V]
    const picked = tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(targets, V)), 1);
    return tf.div(tf.neg(tf.sum(tf.mul(picked, counted))), tf.sum(counted));
  }

  return {
    trainStep({ tokens, targets, batch }) {
      const T = tokens.length / batch;
      const value = tf.tidy(() => {
        const tokenTensor = tf.tensor1d(tokens, 'int32');
        const classes = tf.tensor1d(
          targets.map((t) => Math.max(t, 0)),
          'int32',
        );
        const counted = tf.tensor1d(Float32Array.from(targets, (t) => (t >= 0 ? 1 : 0)));
        return optimizer.minimize(
          () => loss(tokenTensor, classes, counted, batch, T),
          true,
          variables,
        );
      });
      const [result] = value.dataSync();
      value.dispose();
      return result;
    },
    dispose() {
      optimizer.dispose();
      for (const variable of variables) variable.dispose();
      for (const mask of masks.values()) mask.dispose();
    },
  };
}
