// A TypeScript app using the package, type-checked by `tsc --noEmit` against the hand-written
// dist/attention.d.ts (tests/js/tsconfig.json maps the package name onto it; package.test.mjs
// also checks it in a scratch project that installed the packed tarball). Never run: types only.
// The `@ts-expect-error` lines are misuses the types must reject: if a type loosens, tsc
// reports the directive as unused and the check fails.
import createAttention, { createAttentionPool, hasRelaxedSimd } from 'attention-explained';
import type {
  AttentionApi,
  AttentionPool,
  AttentionMask,
  AttentionOptions,
  Matrix,
  Trace,
  TraceArgs,
} from 'attention-explained';

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

// Misuses the types must reject.
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

export { fromBytes, fromUrl, first, dims, y, y2, simd, version, wasmMemoryBytes, allocatedBytes };
export { relaxed, baseline, yPool, workers };
