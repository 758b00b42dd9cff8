// The backward benchmark, one loop for Node (bench/backward-node.mjs) and Chromium
// (bench/browser/main.mjs): attn.attentionBackward against TensorFlow.js's gradient (tf.grads
// of softmax(q kᵀ / sqrt(D) + causal bias) v on tfjs-backend-wasm, one thread), at N = 256 and
// 1024, 8 heads, D = 64, full and causal, with the SIMD128 peak probe in the same interleaved
// rounds. GFLOP/s count the backward as 2.5 times the forward's 4 N² D per head (half of it
// when causal). The caller passes `tf` with gradients registered (@tensorflow/tfjs in Node;
// tfjs-core's register_all_gradients in the page) and its wasm backend set, and `clock`: a
// function timing work() in ms (CPU time in Node, which another process taking the core does
// not inflate; wall time in a page, which has no CPU clock).
import { seededRandom } from '../../tests/js/seeded-random.mjs';
import { median } from './harness.mjs';

export const BACKWARD_HEADS = 8;
export const BACKWARD_D = 64;
const SIZES = [256, 1024];

/** FLOPs of one backward call, as the header counts them. */
export const backwardFlops = (n, isCausal) =>
  (2.5 * 4 * n * n * BACKWARD_D * BACKWARD_HEADS) / (isCausal ? 2 : 1);

function randomArray(random, length) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = random() - 0.5;
  return out;
}

/** tfjs's backward of the same attention: run() gives [dq, dk, dv]; free() releases it. */
function tfjsBackward(tf, q, k, v, gradY, n, isCausal) {
  const shape = [BACKWARD_HEADS, n, BACKWARD_D];
  const biasData = new Float32Array(n * n);
  if (isCausal) for (let i = 0; i < n; i++) biasData.fill(-1e9, i * n + i + 1, (i + 1) * n);
  const [bias, tq, tk, tv, tg] = [
    tf.tensor2d(biasData, [n, n]),
    ...[q, k, v, gradY].map((x) => tf.tensor3d(x, shape)),
  ];
  const scale = tf.scalar(1 / Math.sqrt(BACKWARD_D));
  const forward = (a, b, c) =>
    tf.matMul(tf.softmax(tf.add(tf.mul(tf.matMul(a, b, false, true), scale), bias)), c);
  const grads = tf.grads(forward);
  const run = () => {
    const result = grads([tq, tk, tv], tg);
    const data = result.map((t) => t.dataSync());
    tf.dispose(result);
    return data;
  };
  const free = () => tf.dispose([bias, tq, tk, tv, tg, scale]);
  return { run, free };
}

const maxAbsDiff = (pairs) => {
  let error = 0;
  for (const [a, b] of pairs) {
    for (let i = 0; i < a.length; i++) error = Math.max(error, Math.abs(a[i] - b[i]));
  }
  return error;
};

// Lets a page's event loop run between rounds.
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Every case in interleaved rounds; resolves to { heads, D, rounds, peak (GFLOP/s, the best
 * probe sample), rows: [{ n, isCausal, flops, ours, tfjs (ms), error }] }.
 */
export async function runBackwardBench({ attn, tf, probes, clock, quick, log = () => {} }) {
  const rounds = quick ? 3 : 7;
  const rows = [];
  let peak = 0;
  for (const n of SIZES) {
    for (const isCausal of [false, true]) {
      const random = seededRandom(n + (isCausal ? 1 : 0));
      const [q, k, v, gradY] = [0, 1, 2, 3].map(() =>
        randomArray(random, BACKWARD_HEADS * n * BACKWARD_D),
      );
      const options = { qNumHeads: BACKWARD_HEADS, headSize: BACKWARD_D, isCausal };
      const theirs = tfjsBackward(tf, q, k, v, gradY, n, isCausal);
      // The two must agree before either is timed.
      const ours = attn.attentionBackward(q, k, v, gradY, options);
      const [dq, dk, dv] = theirs.run();
      const error = maxAbsDiff([
        [ours.gradQ, dq],
        [ours.gradK, dk],
        [ours.gradV, dv],
      ]);
      const times = { ours: [], tfjs: [] };
      for (let r = 0; r < rounds; r++) {
        times.ours.push(clock(() => attn.attentionBackward(q, k, v, gradY, options)));
        times.tfjs.push(clock(theirs.run));
        for (const probe of probes) {
          const iters = 2e6;
          peak = Math.max(peak, (probe.flopsPerIter * iters) / clock(() => probe.run(iters)) / 1e6);
        }
        await breathe();
      }
      theirs.free();
      const flops = backwardFlops(n, isCausal);
      const row = { n, isCausal, flops, ours: median(times.ours), tfjs: median(times.tfjs), error };
      rows.push(row);
      const rate = (ms) => (flops / ms / 1e6).toFixed(1);
      log(
        `N = ${n} ${isCausal ? 'causal' : 'full'}: ours ${rate(row.ours)}, tfjs ${rate(row.tfjs)} GFLOP/s`,
      );
    }
  }
  return { heads: BACKWARD_HEADS, D: BACKWARD_D, rounds, peak, rows };
}
