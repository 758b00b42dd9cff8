// A TypeScript app using the package, type-checked by `tsc --noEmit` against the hand-written
// dist/attention.d.ts (tests/js/tsconfig.json maps the package name onto it; package.test.mjs
// also checks it in a scratch project that installed the packed tarball). Never run: types only.
// The `@ts-expect-error` lines are misuses the types must reject: if a type loosens, tsc
// reports the directive as unused and the check fails.
import createAttention, { createAttentionPool, hasRelaxedSimd } from 'attention-explained';
import type {
  AttentionApi,
  AttentionGradients,
  AttentionPool,
  AttentionMask,
  AttentionOptions,
  KvCache,
  Matrix,
  MultiHeadTrace,
  MultiHeadTraceArgs,
  OnnxAttentionAttributes,
  OnnxAttentionInputs,
  OnnxResultTensor,
  OnnxRotaryEmbeddingAttributes,
  OnnxRotaryEmbeddingInputs,
  OnnxTensor,
  HeadGrad,
  LayerGrad,
  Trace,
  TraceArgs,
  TraceGrad,
} from 'attention-explained';
import type { AttentionExplainer } from 'attention-explained/attention-explainer.mjs';

const attn: AttentionApi = await createAttention();
const fromBytes: AttentionApi = await createAttention({ wasmBinary: new Uint8Array(8) });
const fromUrl: AttentionApi = await createAttention({
  wasmUrl: new URL('https://example.com/a.wasm'),
});

// trace(): nested arrays or { rows, cols, data } matrices.
const args: TraceArgs = {
  x: [
    [1, 0, 1, 0],
    [0, 2, 0, 2],
    [1, 1, 1, 1],
  ],
  wQuery: { rows: 4, cols: 3, data: new Float32Array(12) },
  wKey: [
    [0, 0, 1],
    [1, 1, 0],
    [0, 1, 0],
    [1, 1, 0],
  ],
  wValue: [
    [0, 2, 0],
    [0, 3, 0],
    [1, 0, 3],
    [1, 1, 0],
  ],
  scale: 1 / Math.sqrt(3),
  isCausal: false,
};
const t: Trace = attn.trace(args);
const outputs: Matrix = t.outputs;
const first: number = outputs.data[0];
const dims: [number, number, number] = t.weighted.dims;

// trace() with several heads: grouped-query attention (4 query heads, 2 kv heads) and W_O.
const layer: MultiHeadTraceArgs = {
  x: args.x,
  wQuery: { rows: 4, cols: 8, data: new Float32Array(32) },
  wKey: { rows: 4, cols: 4, data: new Float32Array(16) },
  wValue: { rows: 4, cols: 6, data: new Float32Array(24) },
  heads: 4,
  kvHeads: 2,
};
const withWOut: MultiHeadTrace = attn.trace({
  ...layer,
  wOut: { rows: 12, cols: 4, data: new Float32Array(48) },
});
const headWeights: Matrix = withWOut.heads[3].weights;
const headRowSums: Float32Array = withWOut.heads[0].rowSums;
const concat: Matrix = withWOut.concat;
const either: Trace | MultiHeadTrace = attn.trace(layer);
const headList: Trace[] = 'heads' in either ? either.heads : [either];
const oneHead: Trace = attn.trace({ ...args, heads: 1, kvHeads: 1 });
// @ts-expect-error: without wOut, several heads may be one head: not surely a MultiHeadTrace
const notSure: MultiHeadTrace = attn.trace(layer);
// @ts-expect-error: with heads: number the result may be a MultiHeadTrace, not surely a Trace
const notSingle: Trace = attn.trace(layer);

// trace() backwards: gradOutputs (the outputs' shape) gives grad, every intermediate's gradient.
const learned = attn.trace({
  ...args,
  gradOutputs: [
    [1, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ],
});
const wQueryGrad: Matrix | undefined = learned.grad?.wQuery;
const layerGrad: LayerGrad | undefined = attn.trace({
  ...layer,
  wOut: { rows: 12, cols: 4, data: new Float32Array(48) },
  gradOutputs: { rows: 3, cols: 4, data: new Float32Array(12) },
}).grad;
const headGrad: HeadGrad | undefined = withWOut.heads[0].grad;
const singleGrad: TraceGrad | undefined = attn.trace(args).grad;
// @ts-expect-error: heads is a number
attn.trace({ ...args, heads: '2' });
// @ts-expect-error: wOut is a matrix
attn.trace({ ...layer, wOut: new Float32Array(48) });

// attention(): every option, a boolean and an additive mask.
const q = new Float32Array(2 * 4 * 5 * 8);
const k = new Float32Array(2 * 2 * 7 * 8);
const v = new Float32Array(2 * 2 * 7 * 6);
const padding: AttentionMask = { data: new Uint8Array(2 * 7), shape: [2, 1, 1, 7] };
const bias: AttentionMask = { data: new Float32Array(5 * 7), shape: [5, 7] };
const options: AttentionOptions = {
  batch: 2,
  qNumHeads: 4,
  kvNumHeads: 2,
  qSeqLen: 5,
  kvSeqLen: 7,
  headSize: 8,
  vHeadSize: 6,
  scale: 0.5,
  isCausal: true,
  softcap: 30,
  attnMask: padding,
};
const y: Float32Array = attn.attention(q, k, v, options);
const y2: Float32Array = attn.attention(q, k, v, {
  qNumHeads: 4,
  kvNumHeads: 2,
  headSize: 8,
  attnMask: bias,
});
// attentionBackward(): the gradients for dL/dy = y, shaped as q, k and v.
const grads: AttentionGradients = attn.attentionBackward(q, k, v, y, options);
const gradQ: Float32Array = grads.gradQ;
// The result written into an array the caller keeps, and returned.
const reused: Float32Array = attn.attention(q, k, v, {
  ...options,
  out: new Float32Array(y.length),
});
const simd: boolean = attn.simd;
const version: string = attn.version;
const { wasmMemoryBytes, allocatedBytes } = attn.memoryStats();
const relaxed: boolean = attn.relaxedSimd || hasRelaxedSimd();
const baseline: AttentionApi = await createAttention({ relaxedSimd: false });

// The pool: the same calls, as Promises, across workers.
const pool: AttentionPool = await createAttentionPool({ workers: 2 });
const controller = new AbortController();
const yPool: Float32Array = await pool.attention(q, k, v, options, { signal: controller.signal });
const workers: number = pool.workers;
pool.close();

// onnxAttention(): ONNX names, a KV cache, 3-D layout, float16, the outputs wanted.
const cache: OnnxTensor = { type: 'float32', data: new Float32Array(0), dims: [1, 2, 0, 8] };
const inputs: OnnxAttentionInputs = {
  Q: { type: 'float32', data: new Float32Array(32), dims: [1, 1, 32] },
  K: { data: new Float32Array(16), dims: [1, 1, 16] }, // type inferred from data
  V: { type: 'float32', data: new Float32Array(16), dims: [1, 1, 16] },
  past_key: cache,
  past_value: cache,
  attn_mask: null,
};
const attributes: OnnxAttentionAttributes = {
  q_num_heads: 4,
  kv_num_heads: 2,
  is_causal: 1,
  left_window_size: 128,
  qk_matmul_output_mode: 3,
  softmax_precision: 1,
};
const step = attn.onnxAttention(inputs, attributes, ['Y', 'present_key', 'present_value']);
const pooledY: OnnxResultTensor = (await pool.onnxAttention(inputs, attributes)).Y;
// @ts-expect-error: the pool's result has only the outputs asked for, like attn.onnxAttention
(await pool.onnxAttention(inputs, {}, ['Y'])).present_key;
const next: OnnxAttentionInputs = { ...inputs, past_key: step.present_key };
const onlyY: OnnxResultTensor = attn.onnxAttention(next).Y;
const half: OnnxTensor = { type: 'float16', data: new Uint16Array(4), dims: [1, 1, 1, 4] };
const withScores = attn.onnxAttention({ Q: half, K: half, V: half }, {}, ['qk_matmul_output']);
const scoresDims: number[] = withScores.qk_matmul_output.dims;

// onnxRotaryEmbedding(): caches from rotaryCaches(), 4-D input, position ids.
const ropeCaches = attn.rotaryCaches({ length: 16, rotaryDim: 8, base: 10000 });
const rotaryInputs: OnnxRotaryEmbeddingInputs = {
  input: { type: 'float32', data: new Float32Array(2 * 8), dims: [1, 1, 2, 8] },
  ...ropeCaches,
  position_ids: { type: 'int64', data: new BigInt64Array([3n, 4n]), dims: [1, 2] },
};
const rotaryAttributes: OnnxRotaryEmbeddingAttributes = { interleaved: 1, rotary_embedding_dim: 8 };
const rotated: OnnxResultTensor = attn.onnxRotaryEmbedding(rotaryInputs, rotaryAttributes).output;

// Misuses the types must reject.
// @ts-expect-error: an output that was not asked for is not in the result
attn.onnxAttention(inputs, {}, ['Y']).present_key;
// @ts-expect-error: ONNX names: is_causal, not isCausal
attn.onnxAttention(inputs, { isCausal: 1 });
// @ts-expect-error: float16 data is a Uint16Array (or a Float16Array), not a Float32Array
attn.onnxAttention({ ...inputs, Q: { type: 'float16', data: new Float32Array(4), dims: [4] } });
// @ts-expect-error: an unknown output
attn.onnxAttention(inputs, {}, ['Y', 'present']);
// @ts-expect-error: Q is required
attn.onnxAttention({ K: half, V: half });
// @ts-expect-error: an unknown option (ONNX calls it is_causal; here it is isCausal)
attn.attention(q, k, v, { qNumHeads: 4, headSize: 8, causal: true });
// @ts-expect-error: headSize is required
attn.attention(q, k, v, { qNumHeads: 4 });
// @ts-expect-error: q must be a Float32Array, not number[]
attn.attention([1, 2, 3], k, v, { qNumHeads: 1, headSize: 3 });
const int8Mask = { data: new Int8Array(7), shape: [7] };
// @ts-expect-error: a mask's data is a Uint8Array or a Float32Array
attn.attention(q, k, v, { qNumHeads: 4, headSize: 8, attnMask: int8Mask });
// @ts-expect-error: isCausal is a boolean
attn.trace({ ...args, isCausal: 1 });
// @ts-expect-error: trace needs wValue
attn.trace({ x: args.x, wQuery: args.wQuery, wKey: args.wKey });
// @ts-expect-error: simd is read-only
attn.simd = false;
// @ts-expect-error: workers is a number
await createAttentionPool({ workers: '2' });
// @ts-expect-error: initTimeout is a number of milliseconds
await createAttentionPool({ initTimeout: '1s' });

export {
  fromBytes,
  fromUrl,
  first,
  dims,
  headWeights,
  headRowSums,
  concat,
  headList,
  oneHead,
  notSure,
  notSingle,
  wQueryGrad,
  layerGrad,
  headGrad,
  singleGrad,
  y,
  y2,
  reused,
  simd,
  version,
  wasmMemoryBytes,
  allocatedBytes,
  onlyY,
  scoresDims,
  relaxed,
  baseline,
  yPool,
  workers,
  pooledY,
};

// createKvCache(): the resident cache, grouped-query attention over it.
const kvCache: KvCache = attn.createKvCache({ kvNumHeads: 2, headSize: 4, capacity: 16 });
const newLength: number = kvCache.append(new Float32Array(8), new Float32Array(8));
const decoded: Float32Array = kvCache.attend(new Float32Array(16), { qNumHeads: 4, softcap: 30 });
const present: Float32Array = kvCache.presentKey().data;
const resumed: KvCache = attn.createKvCache({
  pastKey: kvCache.presentKey(),
  pastValue: kvCache.presentValue(),
});
// @ts-expect-error the cache holds float32 only
kvCache.append(new Float64Array(8), new Float32Array(8));
// @ts-expect-error isCausal is a boolean
kvCache.attend(new Float32Array(16), { isCausal: 1 });
kvCache.truncate(0);
kvCache.free();
resumed.free();
void [newLength, decoded, present];
// @ts-expect-error: the reference model is read-only
INDUCTION_MODEL.layers = 1;

// createTinyTransformer(): train, look, decode, save and load.
const model = attn.createTinyTransformer({
  vocabSize: 16,
  context: 25,
  dModel: 32,
  layers: 2,
  heads: 4,
  positions: 'rope',
  learningRate: 6e-3,
});
const stepLoss: number = model.trainStep({
  tokens: new Int32Array(50),
  targets: new Int32Array(50),
  batch: 2,
});
const seen: number[] = model.forward({ tokens: new Int32Array(25) }).attention.dims;
const continued: Int32Array = model.generate([1, 2, 3], 4);
const sampled: Int32Array = model.generate([1, 2, 3], 4, {
  temperature: 0.8,
  topK: 5,
  seed: 1,
  headMask: [1, 0, 1, 1],
});
const withoutHeads: number[] = model.forward({
  tokens: new Int32Array(25),
  headMask: new Float32Array(4).fill(0),
}).logits.dims;
// @ts-expect-error topK is a number
model.generate([1], 1, { topK: '5' });
const saved = JSON.stringify(model.parameters(), (key, value: unknown) =>
  ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value,
);
model.loadParameters(JSON.parse(saved));
const tinyConfig = { vocabSize: 4, context: 4, dModel: 4, layers: 1, heads: 1 };
attn.createTinyTransformer({ ...tinyConfig, positions: 'alibi' }).free();
// @ts-expect-error positions is one of four names
attn.createTinyTransformer({ ...tinyConfig, positions: 'sinusoidal' });
// @ts-expect-error tokens are an Int32Array
model.forward({ tokens: new Float32Array(25) });
model.free();
void [stepLoss, seen, continued, sampled, withoutHeads];

// createTrainer: the tiny transformer trained in a worker on the induction task.
import {
  INDUCTION_BATCH,
  INDUCTION_MODEL,
  createInductionTask,
  createTrainer,
  inductionAccuracy,
  TrainerError,
} from 'attention-explained';
import type { Trainer, TrainerProgress } from 'attention-explained';
const plotted: number[] = [];
const trainer: Trainer = await createTrainer({
  config: { ...INDUCTION_MODEL, positions: 'rope' },
  seed: 3,
  batch: INDUCTION_BATCH,
  onProgress: (event: TrainerProgress) => plotted.push(...event.losses),
});
const ran: { step: number; stopped: boolean } = await trainer.train({
  steps: 10,
  attentionEvery: 5,
});
const evaluation = await trainer.evaluate({ batch: 8 });
const drawn: Int32Array = await trainer.generate({ prompt: [1, 2], count: 3, temperature: 1 });
const probed: number[] = (await trainer.forward({ tokens: [1, 2, 3], headMask: [0] })).attention
  .dims;
const accuracy: number = evaluation.accuracy;
await trainer.loadParameters(await trainer.parameters());
const small = { vocabSize: 16, context: 25, dModel: 8, layers: 1, heads: 1 };
// @ts-expect-error positions is one of four words
await trainer.reset({ config: { ...small, positions: 'sinusoidal' } });
trainer.close();
const rows = createInductionTask(1).batch(4);
const rowTargets: Int32Array = rows.targets;
const scored: number = inductionAccuracy(
  { data: new Float32Array(4 * 25 * 16), dims: [4, 25, 16] },
  rowTargets,
).accuracy;
const isTrainerError: boolean = new Error('x') instanceof TrainerError;
void [ran, accuracy, scored, isTrainerError, drawn, probed];

// Apps: threads where they can run, a base URL, a timeout, close().
const auto: AttentionApi = await createAttention({
  threads: 'auto',
  baseUrl: new URL('/static/attention-explained/', 'https://example.org'),
  initTimeout: 10_000,
});
const autoThreads: number = auto.threads;
auto.close();
auto[Symbol.dispose]();
const wasClosed: boolean = auto.closed;
// @ts-expect-error: threads is a count or 'auto'
await createAttention({ threads: 'all' });
// present_key and present_value come together (the operator refuses one alone).
const pair = attn.onnxAttention(inputs, {}, ['Y', 'present_key', 'present_value']);
const presentValue: OnnxResultTensor = pair.present_value;
// @ts-expect-error: present_key without present_value
attn.onnxAttention(inputs, {}, ['Y', 'present_key']);
// @ts-expect-error: the pool's onnxAttention has the same rule
await pool.onnxAttention(inputs, {}, ['present_value']);
// trainStep takes an induction batch as the task made it.
const taskLoss: number = model.trainStep(createInductionTask(2).batch(2));
// The element, by its tag name.
const explainer: AttentionExplainer = document.createElement('attention-explainer');
explainer.baseUrl = '/static/attention-explained/';
void [autoThreads, wasClosed, presentValue, taskLoss];
