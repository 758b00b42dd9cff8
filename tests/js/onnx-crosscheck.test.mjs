// Cross-check of attn.attention() against a real peer: onnxruntime-web's wasm backend running a
// one-node ONNX model (opset 23 `Attention`), built here with onnx-proto. Every seeded random
// configuration runs three ways: our wasm module, onnxruntime-web, and the float64 reference
// in reference64.mjs. Ours must match onnxruntime-web within 1e-4 and both must match the
// reference. The worst differences are printed at the end.
//
// Runs offline: onnxruntime-web's Node entry loads its .wasm from node_modules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';
import onnxProto from 'onnx-proto';

import createAttention from '../../dist/attention.mjs';
import * as article from './article.mjs';
import { attention64, maxAbsDiff, trace64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const { onnx } = onnxProto;
const TOLERANCE = 1e-4;
const CONFIG_COUNT = 80;

// ---------------------------------------------------------------------------------------------
// One-node ONNX models.

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const BOOL = onnx.TensorProto.DataType.BOOL;

function valueInfo(name, elemType, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: { elemType, shape: { dim: dims.map((dimValue) => ({ dimValue })) } },
    },
  });
}

/** Serialises a model whose only node is `Attention` with the given options. */
function attentionModel(shape, options, mask) {
  const { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize } = shape;
  const attribute = [];
  const { FLOAT: F, INT: I } = onnx.AttributeProto.AttributeType;
  if (options.scale !== undefined) attribute.push({ name: 'scale', type: F, f: options.scale });
  if (options.isCausal) attribute.push({ name: 'is_causal', type: I, i: 1 });
  if (options.softcap) attribute.push({ name: 'softcap', type: F, f: options.softcap });
  const input = [
    valueInfo('Q', FLOAT, [batch, qNumHeads, qSeqLen, headSize]),
    valueInfo('K', FLOAT, [batch, kvNumHeads, kvSeqLen, headSize]),
    valueInfo('V', FLOAT, [batch, kvNumHeads, kvSeqLen, vHeadSize]),
  ];
  if (mask) input.push(valueInfo('M', mask.data instanceof Uint8Array ? BOOL : FLOAT, mask.shape));
  const node = {
    opType: 'Attention',
    input: input.map((i) => i.name),
    output: ['Y'],
    attribute,
  };
  const graph = {
    name: 'attention',
    node: [node],
    input,
    output: [valueInfo('Y', FLOAT, [batch, qNumHeads, qSeqLen, vHeadSize])],
  };
  const model = onnx.ModelProto.create({
    irVersion: 10,
    opsetImport: [{ domain: '', version: 23 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * onnxruntime-web 1.30 accepts only masks of rank 2 to 4 whose last two dims are exactly
 * [qSeqLen, kvSeqLen] ("attn_mask must be 2D or 3D or 4D tensor", "inconsistent
 * q_sequence_length"), although the ONNX spec asks for any shape broadcastable to
 * [batch, qNumHeads, qSeqLen, kvSeqLen]. So that every mask shape is still compared, it gets
 * the same mask with its last two axes materialised; the leading (batch, head) axes keep their
 * size-1 broadcasting, which onnxruntime-web implements.
 */
function maskForOrt(mask, qSeqLen, kvSeqLen) {
  const { shape, data } = mask;
  const lead = shape.length > 2 ? shape.slice(0, -2) : [];
  const rows = shape.length >= 2 ? shape[shape.length - 2] : 1;
  const cols = shape[shape.length - 1];
  const count = lead.reduce((a, b) => a * b, 1);
  const out = new data.constructor(count * qSeqLen * kvSeqLen);
  for (let l = 0; l < count; l++) {
    for (let i = 0; i < qSeqLen; i++) {
      for (let j = 0; j < kvSeqLen; j++) {
        const from = (l * rows + (rows === 1 ? 0 : i)) * cols + (cols === 1 ? 0 : j);
        out[(l * qSeqLen + i) * kvSeqLen + j] = data[from];
      }
    }
  }
  return { data: out, shape: [...lead, qSeqLen, kvSeqLen] };
}

async function runOrt(config) {
  const { shape, options, q, k, v } = config;
  const ortMask = options.attnMask
    ? maskForOrt(options.attnMask, shape.qSeqLen, shape.kvSeqLen)
    : undefined;
  const session = await ort.InferenceSession.create(attentionModel(shape, options, ortMask), {
    executionProviders: ['wasm'],
  });
  try {
    const { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize } = shape;
    const feeds = {
      Q: new ort.Tensor('float32', q, [batch, qNumHeads, qSeqLen, headSize]),
      K: new ort.Tensor('float32', k, [batch, kvNumHeads, kvSeqLen, headSize]),
      V: new ort.Tensor('float32', v, [batch, kvNumHeads, kvSeqLen, vHeadSize]),
    };
    if (ortMask) {
      const type = ortMask.data instanceof Uint8Array ? 'bool' : 'float32';
      feeds.M = new ort.Tensor(type, ortMask.data, ortMask.shape);
    }
    const { Y } = await session.run(feeds);
    return Y.data;
  } finally {
    await session.release();
  }
}

// ---------------------------------------------------------------------------------------------
// Seeded random configurations. The choices cycle with the config index so that 80 configs
// are sure to cover every option, and the rest of each config is random.

const HEAD_SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 70];
const HEAD_LAYOUTS = [
  [1, 1],
  [2, 2],
  [3, 3], // multi-head
  [4, 2],
  [6, 3],
  [8, 2], // grouped-query
  [3, 1],
  [5, 1], // multi-query
];
const MASK_KINDS = ['none', 'bool', 'float'];

function makeConfig(index) {
  const seed = 0x5eed0000 + index;
  const random = seededRandom(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const [qNumHeads, kvNumHeads] = HEAD_LAYOUTS[index % HEAD_LAYOUTS.length];
  const headSize = index < HEAD_SIZES.length ? HEAD_SIZES[index] : pick(HEAD_SIZES);
  // Half the configs give values a different width, which also varies the SIMD tail of P.V.
  const vHeadSize = index % 2 ? int(1, 70) : headSize;
  const batch = index % 5 === 0 ? 1 : int(1, 3);
  // Mostly 1..70; every 7th config crosses the kernel's 64-key block and 128-row block (a
  // group of query heads is walked as one matrix of group * qSeqLen rows).
  const long = index % 7 === 3;
  const qSeqLen = long ? int(40, 140) : int(1, 70);
  let kvSeqLen = long ? int(65, 200) : int(1, 70);
  if (index % 11 === 4) kvSeqLen = qSeqLen; // self-attention shapes too
  const shape = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize };

  const options = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize };
  if (index % 3 === 1) options.scale = 0.05 + random() * 1.5; // else ONNX's 1/sqrt(headSize)
  if (index % 4 === 2) options.isCausal = true;
  if (index % 5 === 1 || index % 5 === 3) options.softcap = 0.5 + random() * 10;

  const kind = MASK_KINDS[index % 3];
  if (kind !== 'none')
    options.attnMask = makeMask(kind, (Math.floor(index / 3) % 4) + 1, shape, random);

  // Magnitudes large enough that softmax is peaked and softcap actually bites.
  const spread = options.softcap ? 4 : 2;
  const fill = (length, amplitude) =>
    Float32Array.from({ length }, () => (random() * 2 - 1) * amplitude);
  const q = fill(batch * qNumHeads * qSeqLen * headSize, spread);
  const k = fill(batch * kvNumHeads * kvSeqLen * headSize, spread);
  const v = fill(batch * kvNumHeads * kvSeqLen * vHeadSize, 1);
  return { index, seed, shape, options, q, k, v };
}

// A mask of `rank` dims, each either the full target dim or 1 (broadcast), chosen at random.
function makeMask(kind, rank, shape, random) {
  const target = [shape.batch, shape.qNumHeads, shape.qSeqLen, shape.kvSeqLen];
  const dims = target.slice(4 - rank).map((d) => (random() < 0.35 ? 1 : d));
  const count = dims.reduce((a, b) => a * b, 1);
  if (kind === 'bool') {
    // 1 = may attend. Density 0.75: rows with every key hidden happen for short kvSeqLen.
    return {
      data: Uint8Array.from({ length: count }, () => (random() < 0.75 ? 1 : 0)),
      shape: dims,
    };
  }
  // Additive: ordinary biases plus some -Infinity (the ONNX way of hiding a key).
  const data = Float32Array.from({ length: count }, () =>
    random() < 0.15 ? -Infinity : (random() * 2 - 1) * 3,
  );
  return { data, shape: dims };
}

function describeConfig({ index, seed, options }) {
  const { attnMask, ...rest } = options;
  const mask = attnMask
    ? ` mask=${attnMask.data instanceof Uint8Array ? 'bool' : 'float'}[${attnMask.shape}]`
    : '';
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? +value.toFixed(4) : value}`)
    .join(' ');
  return `#${index} seed=0x${seed.toString(16)} ${fields}${mask}`;
}

// ---------------------------------------------------------------------------------------------

let attn;
const worst = { oursVsOrt: 0, oursVsRef: 0, ortVsRef: 0, where: '' };
const coverage = new Set();

before(async () => {
  ort.env.wasm.numThreads = 1; // single-threaded, like ours, and no worker threads in Node
  attn = await createAttention();
});

after(() => {
  const line =
    `worst |ours - onnxruntime-web| = ${worst.oursVsOrt.toExponential(3)} (${worst.where}); ` +
    `|ours - float64| = ${worst.oursVsRef.toExponential(3)}; ` +
    `|onnxruntime-web - float64| = ${worst.ortVsRef.toExponential(3)}`;
  console.log(line);
});

describe('attention() vs onnxruntime-web vs float64, seeded random configs', () => {
  for (let index = 0; index < CONFIG_COUNT; index++) {
    const config = makeConfig(index);
    test(describeConfig(config), async () => {
      const { q, k, v, options, shape } = config;
      const ours = attn.attention(q, k, v, options);
      const expected = attention64(q, k, v, options);
      const theirs = await runOrt(config);

      assert.equal(ours.length, expected.length);
      assert.equal(theirs.length, expected.length);
      const oursVsOrt = maxAbsDiff(ours, theirs);
      const oursVsRef = maxAbsDiff(ours, expected);
      const ortVsRef = maxAbsDiff(theirs, expected);
      if (oursVsOrt > worst.oursVsOrt) Object.assign(worst, { oursVsOrt, where: `#${index}` });
      worst.oursVsRef = Math.max(worst.oursVsRef, oursVsRef);
      worst.ortVsRef = Math.max(worst.ortVsRef, ortVsRef);
      assert.ok(oursVsOrt <= TOLERANCE, `|ours - onnxruntime-web| = ${oursVsOrt}`);
      assert.ok(oursVsRef <= TOLERANCE, `|ours - float64| = ${oursVsRef}`);
      assert.ok(ortVsRef <= TOLERANCE, `|onnxruntime-web - float64| = ${ortVsRef}`);

      // Tally what the suite covered, checked below.
      if (shape.kvNumHeads === 1 && shape.qNumHeads > 1) coverage.add('mqa');
      else if (shape.kvNumHeads < shape.qNumHeads) coverage.add('gqa');
      if (shape.batch > 1) coverage.add('batch');
      if (shape.qSeqLen !== shape.kvSeqLen) coverage.add('cross');
      if (shape.vHeadSize !== shape.headSize) coverage.add('vHeadSize');
      if (options.softcap) coverage.add('softcap');
      if (options.isCausal) coverage.add('causal');
      if (options.attnMask) {
        const kind = options.attnMask.data instanceof Uint8Array ? 'bool' : 'float';
        coverage.add(`${kind}-rank${options.attnMask.shape.length}`);
      }
      for (let row = 0; row < ours.length; row += shape.vHeadSize) {
        if (expected.subarray(row, row + shape.vHeadSize).every((x) => x === 0)) {
          coverage.add('fully-masked-row');
        }
      }
    });
  }

  test('the random configs covered every option', () => {
    const wanted = ['mqa', 'gqa', 'batch', 'cross', 'vHeadSize', 'softcap', 'causal'];
    for (const kind of ['bool', 'float']) {
      for (let rank = 1; rank <= 4; rank++) wanted.push(`${kind}-rank${rank}`);
    }
    wanted.push('fully-masked-row');
    for (const item of wanted) assert.ok(coverage.has(item), `no config covered ${item}`);
  });
});

describe('hand-picked semantics, all three agree', () => {
  // Cases where a wrong ordering or alignment shows up plainly; each one is also a case on
  // which implementations of the spec have differed.
  const cases = {
    // Softcap before the mask: after it, -inf would become -softcap and leak weight.
    'softcap with -Infinity in an additive mask': {
      shape: [1, 2, 2, 3, 5, 4, 4],
      options: {
        softcap: 0.5,
        attnMask: { data: new Float32Array([0, -Infinity, 0, -Infinity, 0]), shape: [5] },
      },
    },
    'softcap with a boolean mask and isCausal': {
      shape: [1, 1, 1, 4, 6, 3, 3],
      options: {
        softcap: 1,
        isCausal: true,
        attnMask: { data: new Uint8Array([1, 0, 1, 1, 0, 1]), shape: [6] },
      },
    },
    // Top-left causal alignment when qSeqLen != kvSeqLen (no past key/value).
    'isCausal with qSeqLen < kvSeqLen': {
      shape: [1, 1, 1, 3, 7, 4, 4],
      options: { isCausal: true },
    },
    'isCausal with qSeqLen > kvSeqLen': {
      shape: [1, 1, 1, 7, 3, 4, 4],
      options: { isCausal: true },
    },
    // Every key hidden: zeros (onnxruntime-web 1.30 agrees with the contract here).
    'a boolean mask that hides every key of a row': {
      shape: [2, 2, 1, 3, 4, 5, 2],
      options: {
        attnMask: { data: new Uint8Array([1, 1, 1, 1, 0, 0, 0, 0]), shape: [2, 1, 1, 4] },
      },
    },
    'an additive mask of -Infinity on every key': {
      shape: [1, 1, 1, 2, 3, 2, 2],
      options: { attnMask: { data: new Float32Array(3).fill(-Infinity), shape: [1, 3] } },
    },
    'isCausal and a boolean mask that hides key 0': {
      shape: [1, 1, 1, 4, 4, 3, 3],
      options: { isCausal: true, attnMask: { data: new Uint8Array([0, 1, 1, 1]), shape: [4] } },
    },
    // Group g of query heads reads kv head g (repeat-interleave, not tile).
    'grouped-query heads read kv head h / group': { shape: [1, 4, 2, 2, 3, 2, 3], options: {} },
  };
  for (const [name, { shape: s, options: extra }] of Object.entries(cases)) {
    test(name, async () => {
      const [batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize] = s;
      const shape = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize };
      const options = { ...shape, ...extra };
      const random = seededRandom(qSeqLen * 131 + kvSeqLen);
      const fill = (n, a) => Float32Array.from({ length: n }, () => (random() * 2 - 1) * a);
      // Distinct values per kv head make a wrong head mapping visible.
      const q = fill(batch * qNumHeads * qSeqLen * headSize, 3);
      const k = fill(batch * kvNumHeads * kvSeqLen * headSize, 3);
      const v = fill(batch * kvNumHeads * kvSeqLen * vHeadSize, 5);
      const ours = attn.attention(q, k, v, options);
      const expected = attention64(q, k, v, options);
      const theirs = await runOrt({ shape, options, q, k, v });
      assert.ok(maxAbsDiff(ours, expected) <= TOLERANCE, `ours vs float64`);
      assert.ok(maxAbsDiff(theirs, expected) <= TOLERANCE, `onnxruntime-web vs float64`);
      assert.ok(maxAbsDiff(ours, theirs) <= TOLERANCE, `ours vs onnxruntime-web`);
    });
  }
});

describe('trace() and attention() agree on single-head cases', () => {
  test("the article's example", () => {
    const t = attn.trace(article.args);
    const expected = article.outputs;
    assert.ok(maxAbsDiff(t.outputs.data, expected) < 1e-5);
    // The same numbers through the ONNX path: the article does not scale, so scale = 1.
    const y = attn.attention(t.queries.data, t.keys.data, t.values.data, {
      qNumHeads: 1,
      headSize: 3,
      scale: 1,
    });
    assert.ok(maxAbsDiff(y, expected) < 1e-5);
  });

  for (let index = 0; index < 24; index++) {
    const random = seededRandom(0x7ace0000 + index);
    const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
    const n = int(1, 70);
    const dIn = int(1, 20);
    const dK = int(1, 70);
    const dV = int(1, 70);
    const isCausal = index % 2 === 1;
    const scale = index % 3 === 0 ? 1 : 1 / Math.sqrt(dK);
    const matrix = (rows, cols) => ({
      rows,
      cols,
      data: Float32Array.from({ length: rows * cols }, () => random() * 2 - 1),
    });
    const args = {
      x: matrix(n, dIn),
      wQuery: matrix(dIn, dK),
      wKey: matrix(dIn, dK),
      wValue: matrix(dIn, dV),
      scale,
      isCausal,
    };
    test(`#${index} n=${n} dIn=${dIn} dK=${dK} dV=${dV} scale=${scale.toFixed(3)} isCausal=${isCausal}`, () => {
      const t = attn.trace(args);
      const y = attn.attention(t.queries.data, t.keys.data, t.values.data, {
        qNumHeads: 1,
        headSize: dK,
        vHeadSize: dV,
        scale,
        isCausal,
      });
      assert.ok(maxAbsDiff(y, t.outputs.data) <= 1e-5, `attention vs trace.outputs`);
      // And the trace itself against float64, stage by stage.
      const r = trace64(args);
      const flat = (rows) => rows.flat(2);
      assert.ok(maxAbsDiff(t.queries.data, flat(r.queries)) <= 1e-4, 'queries');
      assert.ok(maxAbsDiff(t.scores.data, flat(r.scores)) <= 1e-4, 'scores');
      assert.ok(maxAbsDiff(t.weights.data, flat(r.weights)) <= 1e-5, 'weights');
      assert.ok(maxAbsDiff(t.outputs.data, flat(r.outputs)) <= 1e-4, 'outputs');
    });
  }
});
