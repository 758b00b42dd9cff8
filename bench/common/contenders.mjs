// The contenders, as adapters over libraries the caller has already loaded (Node and the
// browser load them differently; calling them is the same). Each contender:
//   { name, label, slow?, prepare(shape, inputs) -> run }
// where run() performs one whole call, Float32Arrays in and a Float32Array out (sync or a
// Promise), so every contender pays for copying its inputs in and its output out, as an app
// would. `slow` contenders may be capped when a call is predicted to take too long.
import { HEAD_SIZE, SCALE, allRows, attentionRows } from './workload.mjs';

function oursOptions({ n, heads }) {
  return { batch: 1, qNumHeads: heads, headSize: HEAD_SIZE, qSeqLen: n, kvSeqLen: n, scale: SCALE };
}

/**
 * Our module: dist/attention.mjs, already instantiated (the SIMD128 build as `ours`, the
 * Relaxed SIMD build as `oursRelaxed`).
 */
export function ours(attn, name = 'ours', label = 'ours') {
  return {
    name,
    label,
    prepare(shape, { q, k, v }) {
      const options = oursOptions(shape);
      return () => attn.attention(q, k, v, options);
    },
  };
}

/**
 * Ours with `out`: every call writes into the same Float32Array, allocated once per case, as
 * an app calling one shape in a loop would.
 */
export function oursOut(attn, name = 'oursOut', label = 'ours, with out') {
  return {
    name,
    label,
    prepare(shape, { q, k, v }) {
      const options = { ...oursOptions(shape), out: new Float32Array(q.length) };
      return () => attn.attention(q, k, v, options);
    },
  };
}

/** Our pool (createAttentionPool), already started with its workers. */
export function oursPool(pool, name, label) {
  return {
    name,
    label,
    prepare(shape, { q, k, v }) {
      const options = oursOptions(shape);
      return () => pool.attention(q, k, v, options);
    },
  };
}

/** Plain JS loops (the float64 reference's code over every row, into a Float32Array). */
export function naive() {
  return {
    name: 'naive',
    label: 'naive JS',
    slow: true,
    prepare(shape, { q, k, v }) {
      const rows = allRows(shape.n);
      return () =>
        attentionRows(q, k, v, shape, rows, new Float32Array(shape.heads * shape.n * HEAD_SIZE));
    },
  };
}

/**
 * A one-node ONNX model: Attention (opset 23) on 4-D Q, K, V with symbolic dims, so one
 * session serves every case. `onnx` is onnx-proto's namespace.
 */
export function attentionModel(onnx) {
  const float4d = (name) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: {
            dim: ['batch', 'heads', 'seq', 'size'].map((d) => ({ dimParam: `${name}_${d}` })),
          },
        },
      },
    });
  const node = onnx.NodeProto.create({
    opType: 'Attention',
    domain: '',
    input: ['Q', 'K', 'V'],
    output: ['Y'],
    attribute: [
      onnx.AttributeProto.create({
        name: 'scale',
        type: onnx.AttributeProto.AttributeType.FLOAT,
        f: SCALE,
      }),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 10,
    producerName: 'attention-explained bench',
    opsetImport: [{ domain: '', version: 23 }],
    graph: {
      name: 'attention',
      node: [node],
      input: ['Q', 'K', 'V'].map(float4d),
      output: [float4d('Y')],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * onnxruntime-web's threads keep spinning a while after each run instead of sleeping at once:
 * measured here (Node 20, 2 threads, N = 256, 8 heads), its process burned 1-1.6 cores for
 * about 20 ms after a run, and our pool of 2 workers, timed right after a sample of it, ran
 * 1.33-1.34x slower than 60 ms later (no change after ORT at 1 thread). In interleaved rounds
 * the next contender would share the cores with that spin, so each sample of a multi-threaded
 * ORT is followed by this pause, outside every timed sample.
 */
export const ORT_SPIN_SETTLE_MS = 50;

/**
 * onnxruntime-web's wasm backend, `threads` threads (set here, before the first session: it
 * holds for every session of the process or page, and more than one needs a page that is
 * cross-origin isolated).
 */
export async function onnxruntime(ort, onnx, threads = 1) {
  ort.env.wasm.numThreads = threads;
  const session = await ort.InferenceSession.create(attentionModel(onnx), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  return {
    name: 'ort',
    label: threads === 1 ? 'onnxruntime-web' : `onnxruntime-web, ${threads} threads`,
    settleMs: threads > 1 ? ORT_SPIN_SETTLE_MS : 0,
    prepare({ n, heads }, { q, k, v }) {
      const dims = [1, heads, n, HEAD_SIZE];
      return async () => {
        const feeds = {
          Q: new ort.Tensor('float32', q, dims),
          K: new ort.Tensor('float32', k, dims),
          V: new ort.Tensor('float32', v, dims),
        };
        const { Y } = await session.run(feeds);
        return Y.data;
      };
    },
  };
}

/**
 * tfjs-backend-wasm, one thread: softmax(q.k^T * scale).v with tf ops on [heads, n, 64]
 * (batched matMul). The caller has already called setThreadsCount(1) and set the backend.
 */
export function tfjs(tf) {
  return {
    name: 'tfjs',
    label: 'tfjs-backend-wasm',
    slow: true,
    prepare({ n, heads }, { q, k, v }) {
      const dims = [heads, n, HEAD_SIZE];
      return () => {
        const y = tf.tidy(() => {
          const scores = tf.mul(
            tf.matMul(tf.tensor3d(q, dims), tf.tensor3d(k, dims), false, true),
            SCALE,
          );
          return tf.matMul(tf.softmax(scores), tf.tensor3d(v, dims));
        });
        const out = y.dataSync();
        y.dispose();
        return out;
      };
    },
  };
}

/**
 * The peak probes (bench/peak/simd_peak.c, instantiated): one probe per ruler and chain count.
 * `mulAdd`: simd_peak.wasm's exports (peak8 …), chains of f32x4 mul then add, the SIMD128
 * build's limit; `fma`: fma_peak.wasm's (fma8 …), chains of f32x4.relaxed_madd, the Relaxed SIMD
 * build's limit, where the engine has Relaxed SIMD (else null). Each run() does `iters`
 * iterations of `chains` chains, 8 flops per chain and iteration either way (a multiply and an
 * add on 4 lanes, counted as the kernels' flops are).
 */
export function peakProbes(mulAdd, fma = null) {
  const ofRuler = (ruler, exports, prefix) =>
    Object.keys(exports ?? {})
      .map((name) => ({ name, match: new RegExp(`^${prefix}(\\d+)$`).exec(name) }))
      .filter(({ match }) => match)
      .map(({ name, match }) => {
        const chains = Number(match[1]);
        return { name, ruler, chains, flopsPerIter: 8 * chains, run: exports[name] };
      })
      .sort((a, b) => a.chains - b.chains);
  return [...ofRuler('mulAdd', mulAdd, 'peak'), ...ofRuler('fma', fma, 'fma')];
}
