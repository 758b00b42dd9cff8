// The decode table of scripts/bench, shared by Node and Chromium: one generated token per call
// (S = 1 new query, key and value per sequence) against a cache of L - 1 earlier tokens, so
// the step attends over L keys. Contenders, timed in interleaved rounds like the main suite:
//   resident   ours, attn.createKvCache: the cache stays in wasm memory; a step appends one
//              row per head and attends (then truncates back, so every call sees L keys)
//   onnx       ours, attn.onnxAttention with past_key / past_value: the whole cache is copied
//              in (and present_* out) on every call, as that API requires
//   ort        onnxruntime-web's Attention (opset 23) with past_key / past_value as a one-node
//              model, at the thread count the caller set (ortThreads)
//   bandwidth  the probe of bench/peak/bandwidth.c streaming as many bytes as the cache holds
//              (keys and values of L tokens): the memory floor under one step's time
import { ORT_SPIN_SETTLE_MS } from './contenders.mjs';
import { median, pause, shortReason } from './harness.mjs';
import { seededRandom } from '../../tests/js/seeded-random.mjs';

/** The decode workloads of the issue: S = 1; L from 256 to 32768; batch 1 and 4. */
export function decodeCases({ quick = false } = {}) {
  const mha = { qHeads: 8, kvHeads: 8, d: 64 };
  const gqa = { qHeads: 32, kvHeads: 8, d: 128 };
  const cases = [];
  for (const batch of [1, 4]) {
    for (const L of [256, 1024, 4096, 32768]) {
      if (batch === 4 && L === 32768) continue; // 1 GiB of cache for the onnx copy alone
      if (quick && L === 32768) continue;
      cases.push({ ...mha, batch, L });
    }
    cases.push({ ...gqa, batch, L: 2048 });
  }
  return cases;
}

export const caseName = ({ batch, qHeads, kvHeads, d, L }) =>
  `B=${batch} ${qHeads === kvHeads ? `${qHeads} heads` : `${qHeads}q/${kvHeads}kv heads`} D=${d} L=${L}`;

/** Bytes of keys and values one step reads: the whole cache, L tokens. */
export const cacheBytes = ({ batch, kvHeads, d, L }) => 2 * batch * kvHeads * L * d * 4;

/** Seeded inputs: past (B, Hkv, L-1, D) twice, and the step's q (B, Hq, 1, D), k, v. */
export function decodeInputs({ batch, qHeads, kvHeads, d, L }) {
  const next = seededRandom(L * 7 + qHeads * 3 + batch);
  const make = (n) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = next() * 2 - 1;
    return a;
  };
  const P = L - 1;
  return {
    pastKey: make(batch * kvHeads * P * d),
    pastValue: make(batch * kvHeads * P * d),
    q: make(batch * qHeads * d),
    k: make(batch * kvHeads * d),
    v: make(batch * kvHeads * d),
  };
}

/** y (B, Hq, 1, D) of the step in float64: the last query sees every key (causal). */
export function decodeReference(inputs, { batch, qHeads, kvHeads, d, L }) {
  const { pastKey, pastValue, q, k, v } = inputs;
  const P = L - 1;
  const group = qHeads / kvHeads;
  const y = new Float64Array(batch * qHeads * d);
  const scores = new Float64Array(L);
  const row = (past, last, b, g, j) =>
    j < P ? [past, ((b * kvHeads + g) * P + j) * d] : [last, (b * kvHeads + g) * d];
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < qHeads; h++) {
      const g = Math.floor(h / group);
      const qi = (b * qHeads + h) * d;
      let max = -Infinity;
      for (let j = 0; j < L; j++) {
        const [keys, at] = row(pastKey, k, b, g, j);
        let dot = 0;
        for (let c = 0; c < d; c++) dot += q[qi + c] * keys[at + c];
        scores[j] = dot / Math.sqrt(d);
        max = Math.max(max, scores[j]);
      }
      let sum = 0;
      for (let j = 0; j < L; j++) sum += scores[j] = Math.exp(scores[j] - max);
      for (let j = 0; j < L; j++) {
        const [values, at] = row(pastValue, v, b, g, j);
        for (let c = 0; c < d; c++) y[qi + c] += (scores[j] / sum) * values[at + c];
      }
    }
  }
  return y;
}

function maxDiff(y, ref) {
  if (!y || y.length !== ref.length) return NaN;
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    const diff = Math.abs(y[i] - ref[i]);
    if (Number.isNaN(diff)) return NaN;
    worst = Math.max(worst, diff);
  }
  return worst;
}

/** Ours, resident: one cache per case, holding the past; a call appends, attends, truncates. */
export function oursResident(attn) {
  return {
    name: 'resident',
    prepare({ batch, qHeads, kvHeads, d, L }, { pastKey, pastValue, q, k, v }) {
      const cache = attn.createKvCache({
        pastKey: { type: 'float32', data: pastKey, dims: [batch, kvHeads, L - 1, d] },
        pastValue: { type: 'float32', data: pastValue, dims: [batch, kvHeads, L - 1, d] },
        capacity: L,
      });
      const run = () => {
        cache.truncate(L - 1);
        cache.append(k, v);
        return cache.attend(q, { qNumHeads: qHeads });
      };
      return { run, dispose: () => cache.free() };
    },
  };
}

/** Ours through onnxAttention: past in, present out, every call (the copy-bound route). */
export function oursOnnx(attn) {
  return {
    name: 'onnx',
    prepare({ batch, qHeads, kvHeads, d, L }, { pastKey, pastValue, q, k, v }) {
      const inputs = {
        Q: { type: 'float32', data: q, dims: [batch, qHeads, 1, d] },
        K: { type: 'float32', data: k, dims: [batch, kvHeads, 1, d] },
        V: { type: 'float32', data: v, dims: [batch, kvHeads, 1, d] },
        past_key: { type: 'float32', data: pastKey, dims: [batch, kvHeads, L - 1, d] },
        past_value: { type: 'float32', data: pastValue, dims: [batch, kvHeads, L - 1, d] },
      };
      const run = () => attn.onnxAttention(inputs, { is_causal: 1 }).Y.data;
      return { run, dispose() {} };
    },
  };
}

/** A one-node Attention model (opset 23) with a past, 4-D, symbolic dims. */
export function decodeModel(onnx) {
  const info = (name) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: { dim: ['b', 'h', 's', 'd'].map((x) => ({ dimParam: `${name}_${x}` })) },
        },
      },
    });
  const node = onnx.NodeProto.create({
    opType: 'Attention',
    input: ['Q', 'K', 'V', '', 'past_key', 'past_value'],
    output: ['Y', 'present_key', 'present_value'],
    attribute: [
      onnx.AttributeProto.create({
        name: 'is_causal',
        type: onnx.AttributeProto.AttributeType.INT,
        i: 1,
      }),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 10,
    producerName: 'attention-explained bench',
    opsetImport: [{ domain: '', version: 23 }],
    graph: {
      name: 'decode',
      node: [node],
      input: ['Q', 'K', 'V', 'past_key', 'past_value'].map(info),
      output: ['Y', 'present_key', 'present_value'].map(info),
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * onnxruntime-web with a past, at the thread count already set in ort.env.wasm.numThreads.
 * present_key / present_value are outputs because they must be: given a past, ORT 1.30 refuses
 * to run without them ("does not support past_key provided and present_key being null"), and
 * an app needs them for its next step anyway.
 */
export async function ortDecode(ort, onnx, name, threads = 1) {
  const session = await ort.InferenceSession.create(decodeModel(onnx), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  return {
    name,
    settleMs: threads > 1 ? ORT_SPIN_SETTLE_MS : 0, // its threads' spin (contenders.mjs)
    prepare({ batch, qHeads, kvHeads, d, L }, { pastKey, pastValue, q, k, v }) {
      const feeds = {
        Q: new ort.Tensor('float32', q, [batch, qHeads, 1, d]),
        K: new ort.Tensor('float32', k, [batch, kvHeads, 1, d]),
        V: new ort.Tensor('float32', v, [batch, kvHeads, 1, d]),
        past_key: new ort.Tensor('float32', pastKey, [batch, kvHeads, L - 1, d]),
        past_value: new ort.Tensor('float32', pastValue, [batch, kvHeads, L - 1, d]),
      };
      const run = async () => {
        const out = await session.run(feeds);
        const y = out.Y.data;
        for (const t of Object.values(out)) t.dispose?.();
        return y;
      };
      return { run, dispose() {} };
    },
  };
}

/** The bandwidth probe (bench/peak/bandwidth.wasm, instantiated): one buffer, regrown per case. */
export function bandwidthProbe(exports) {
  let address = 0;
  let reserved = 0;
  return {
    prepare(bytes) {
      if (bytes > reserved) {
        address = exports.reserve(bytes);
        if (!address) throw new Error(`the bandwidth probe could not reserve ${bytes} bytes`);
        reserved = bytes;
      }
      return () => exports.stream(address, bytes);
    },
  };
}

const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

async function timeSample(run, inner) {
  const start = performance.now();
  for (let i = 0; i < inner; i++) {
    const r = run();
    if (r && typeof r.then === 'function') await r;
  }
  return (performance.now() - start) / inner;
}

/**
 * Every decode case: each contender checked against the float64 reference, warmed up, then
 * timed with the probe in interleaved rounds (rotating order). Resolves to
 * { settings, cases: [{ ...case, bytes, results: { [name]: { status, ms, maxAbsDiff } | { status, reason } }, probeMs }] }.
 */
export async function runDecodeSuite({ contenders, probe, cases, settings, log = () => {} }) {
  const out = { settings, cases: [] };
  for (const shape of cases) {
    const inputs = decodeInputs(shape);
    const ref = decodeReference(inputs, shape);
    const bytes = cacheBytes(shape);
    const results = {};
    const timed = [];
    for (const contender of contenders) {
      try {
        const { run, dispose } = contender.prepare(shape, inputs);
        let y = run();
        if (y && typeof y.then === 'function') y = await y;
        const diff = maxDiff(y, ref);
        const warmStart = performance.now();
        let last = Infinity;
        let calls = 0;
        do {
          last = await timeSample(run, 1);
          calls += 1;
        } while (performance.now() - warmStart < settings.warmupMs || calls < 3);
        const inner = Math.max(1, Math.ceil(settings.sampleMs / Math.max(last, 1e-3)));
        const settleMs = contender.settleMs ?? 0;
        timed.push({ name: contender.name, run, dispose, inner, samples: [], diff, settleMs });
      } catch (error) {
        results[contender.name] = { status: 'fails', reason: shortReason(error?.message ?? error) };
      }
    }
    const stream = probe.prepare(bytes);
    for (let i = 0; i < 5; i++) stream();
    const probeInner = Math.max(1, Math.ceil(settings.sampleMs / Math.max(timeOnce(stream), 1e-3)));
    const probeSamples = [];
    const items = [...timed, { probe: true }];
    for (let round = 0; round < settings.reps; round++) {
      for (let i = 0; i < items.length; i++) {
        const item = items[(i + round) % items.length];
        if (item.probe) probeSamples.push(await timeSample(stream, probeInner));
        else {
          item.samples.push(await timeSample(item.run, item.inner));
          if (item.settleMs > 0) await pause(item.settleMs);
        }
      }
      await breathe();
    }
    for (const t of timed) {
      results[t.name] = { status: 'ok', ms: median(t.samples), maxAbsDiff: t.diff };
      t.dispose();
    }
    const probeMs = median(probeSamples);
    out.cases.push({ ...shape, bytes, results, probeMs });
    log(progressLine(shape, results, probeMs));
  }
  return out;
}

function timeOnce(run) {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function progressLine(shape, results, probeMs) {
  const parts = Object.entries(results).map(([name, r]) =>
    r.status === 'ok' ? `${name} ${r.ms.toFixed(3)} ms` : `${name} ${r.status}`,
  );
  return `decode ${caseName(shape)}: ${parts.join(', ')}; probe ${probeMs.toFixed(3)} ms`;
}

export const DECODE_FULL = { reps: 9, sampleMs: 25, warmupMs: 300 };
export const DECODE_QUICK = { reps: 5, sampleMs: 10, warmupMs: 100 };

/**
 * The decode suite as Node and Chromium run it: ours resident, ours through onnxAttention,
 * onnxruntime-web at the thread count already set (named `ort${threads}t`), the probe.
 */
export async function runDecodeBench({ attn, ort, onnxProto, bandwidth, ortThreads, quick, log }) {
  return runDecodeSuite({
    contenders: [
      oursResident(attn),
      oursOnnx(attn),
      await ortDecode(ort, onnxProto.onnx, `ort${ortThreads}t`, ortThreads),
    ],
    probe: bandwidthProbe(bandwidth.exports),
    cases: decodeCases({ quick }),
    settings: quick ? DECODE_QUICK : DECODE_FULL,
    log,
  });
}
