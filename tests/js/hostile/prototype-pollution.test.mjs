// A polluted Object.prototype (a property some other script added) against the API's own
// objects: an argument the caller left out is not an object of the caller's, so nothing
// inherited may stand in for it (onnxRotaryEmbedding's and onnxAttention's attributes,
// createAttention's options); a result is built of own properties only, so no polluted
// `grad` or `heads` turns every trace's results into one shared object; and the call records
// the JS layer writes into wasm memory read their own fields only, so every entry point
// computes what it computes clean, and leaks nothing. Where the caller does pass an object, an
// option it only inherits is refused by name, as every option bag is.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import { attention64, maxAbsDiff } from '../reference64.mjs';

const attn = await createAttention();

/**
 * Runs `work` with `values` as prototype props: non-enumerable, as a careful polluter adds
 * them, or enumerable, as `Object.prototype.x = 1` does.
 */
async function pollutedWith(values, work, prototype = Object.prototype, enumerable = false) {
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(prototype, key, {
      value,
      configurable: true,
      writable: true,
      enumerable,
    });
  }
  try {
    return await work();
  } finally {
    for (const key of Object.keys(values)) delete prototype[key];
  }
}

const floats = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.7));

test('onnxRotaryEmbedding without attributes ignores a polluted interleaved or rotary dim', async () => {
  const inputs = () => ({
    input: { type: 'float32', data: floats(2 * 3 * 8, 1), dims: [2, 3, 8] },
    // Without position_ids the caches hold a row per (batch, position): (B, S, R / 2).
    cos_cache: { type: 'float32', data: floats(2 * 3 * 4, 2), dims: [2, 3, 4] },
    sin_cache: { type: 'float32', data: floats(2 * 3 * 4, 3), dims: [2, 3, 4] },
  });
  const attributes = { num_heads: 1 };
  const clean = attn.onnxRotaryEmbedding(inputs(), attributes).output.data;
  // num_heads is needed for 3-D input: a 4-D input takes no attributes at all.
  const input4 = () => ({ ...inputs(), input: { ...inputs().input, dims: [2, 1, 3, 8] } });
  const cleanNoAttributes = attn.onnxRotaryEmbedding(input4()).output.data;
  assert.deepEqual(cleanNoAttributes, clean);
  for (const pollution of [{ interleaved: 1 }, { rotary_embedding_dim: 4 }, { num_heads: 2 }]) {
    const dirty = await pollutedWith(pollution, () => attn.onnxRotaryEmbedding(input4()));
    assert.deepEqual(dirty.output.data, clean, JSON.stringify(pollution));
    // Passed in an object, an inherited attribute is refused by name.
    await pollutedWith(pollution, () =>
      assert.throws(() => attn.onnxRotaryEmbedding(input4(), {}), {
        name: 'TypeError',
        message: new RegExp(`'${Object.keys(pollution)[0]}' is inherited`),
      }),
    );
  }
});

test('onnxAttention without attributes ignores a polluted scale, is_causal or softcap', async () => {
  const inputs = {
    Q: { type: 'float32', data: floats(1 * 2 * 3 * 4, 4), dims: [1, 2, 3, 4] },
    K: { type: 'float32', data: floats(1 * 2 * 5 * 4, 5), dims: [1, 2, 5, 4] },
    V: { type: 'float32', data: floats(1 * 2 * 5 * 4, 6), dims: [1, 2, 5, 4] },
  };
  const clean = attn.onnxAttention(inputs).Y.data;
  for (const pollution of [
    { scale: 100 },
    { is_causal: 1 },
    { softcap: 0.5 },
    { qk_matmul_output_mode: 3 },
    { left_window_size: 0 },
  ]) {
    const dirty = await pollutedWith(pollution, () => attn.onnxAttention(inputs));
    assert.deepEqual(dirty.Y.data, clean, JSON.stringify(pollution));
    const outputs = await pollutedWith(pollution, () =>
      attn.onnxAttention(inputs, undefined, ['Y']),
    );
    assert.deepEqual(outputs.Y.data, clean, JSON.stringify(pollution));
  }
  // An optional input left out is not read from the prototype either.
  const mask = { type: 'bool', data: new Uint8Array(15), dims: [3, 5] };
  const dirty = await pollutedWith({ attn_mask: mask }, () => {
    const call = { __proto__: null, ...inputs };
    return attn.onnxAttention(call);
  });
  assert.deepEqual(dirty.Y.data, clean);
});

const traceArgs = () => ({
  x: [
    [1, 0, 1],
    [0, 2, 0],
  ],
  wQuery: [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  wKey: [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  wValue: [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
});

test('a polluted Object.prototype.grad does not make traces share their gradients', async () => {
  const shared = {};
  const [first, second, firstAfter] = await pollutedWith({ grad: shared }, () => {
    const a = attn.trace({
      ...traceArgs(),
      gradOutputs: [
        [1, 0],
        [0, 0],
      ],
    });
    const before = Array.from(a.grad.x.data);
    const b = attn.trace({
      ...traceArgs(),
      gradOutputs: [
        [0, 0],
        [0, 5],
      ],
    });
    return [a, b, before];
  });
  assert.ok(Object.hasOwn(first, 'grad') && Object.hasOwn(second, 'grad'));
  assert.notEqual(first.grad, second.grad);
  assert.deepEqual(Object.keys(shared), [], 'nothing written into the polluted object');
  assert.deepEqual(Array.from(first.grad.x.data), firstAfter, 'the first trace did not change');
  const clean = attn.trace({
    ...traceArgs(),
    gradOutputs: [
      [1, 0],
      [0, 0],
    ],
  });
  assert.deepEqual(first.grad.x.data, clean.grad.x.data);
});

test('a polluted heads (or an array index) does not make multi-head traces share heads', async () => {
  const args = () => ({
    ...traceArgs(),
    wQuery: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    heads: 2,
    kvHeads: 2,
  });
  const clean = attn.trace(args());
  for (const [values, prototype] of [
    [{ heads: [] }, Object.prototype],
    [{ 0: { polluted: true }, 1: { polluted: true } }, Array.prototype],
  ]) {
    const [a, b] = await pollutedWith(
      values,
      () => [attn.trace(args()), attn.trace(args())],
      prototype,
    );
    assert.ok(Object.hasOwn(a, 'heads'));
    assert.notEqual(a.heads, b.heads);
    assert.equal(a.heads.length, 2);
    for (const h of [0, 1]) {
      assert.ok(Object.hasOwn(a.heads, h), `head ${h} is an own element`);
      assert.deepEqual(a.heads[h].outputs.data, clean.heads[h].outputs.data);
      assert.equal(a.heads[h].polluted, undefined);
    }
  }
});

test('createAttention() ignores inherited threads, wasmUrl and warmUp', async () => {
  await pollutedWith(
    { threads: 2, wasmUrl: 'file:///nowhere/attention.wasm', warmUp: 'yes' },
    async () => {
      const own = await createAttention();
      try {
        assert.equal(own.threads, 1);
        assert.equal(
          own.attention(floats(4, 1), floats(4, 2), floats(4, 3), { qNumHeads: 1, headSize: 4 })
            .length,
          4,
        );
      } finally {
        own.close?.();
      }
    },
  );
});

test('createAttention({}) refuses an option it only inherits, by name', async () => {
  for (const [key, value] of [
    ['threads', 2],
    ['wasmUrl', 'file:///nowhere/attention.wasm'],
    ['warmUp', false],
    ['relaxedSimd', false],
    ['wasmBinary', new Uint8Array(8)],
  ]) {
    await assert.rejects(createAttention(Object.create({ [key]: value })), {
      name: 'TypeError',
      message: new RegExp(`createAttention: '${key}' is inherited by options`),
    });
  }
});

// One call of every entry point that writes a call record, with its result.
const entryOptions = { qNumHeads: 2, kvNumHeads: 1, headSize: 4, vHeadSize: 3, isCausal: true };
const q = floats(2 * 5 * 4, 1);
const k = floats(1 * 5 * 4, 2);
const v = floats(1 * 5 * 3, 3);
function everyEntryPoint() {
  const cache = attn.createKvCache({ kvNumHeads: 1, headSize: 4, vHeadSize: 3, capacity: 2 });
  try {
    cache.append(k, v); // grows
    const inputs = {
      Q: { type: 'float32', data: q, dims: [1, 2, 5, 4] },
      K: { type: 'float32', data: k, dims: [1, 1, 5, 4] },
      V: { type: 'float32', data: v, dims: [1, 1, 5, 3] },
    };
    return {
      attention: attn.attention(q, k, v, entryOptions),
      onnx: attn.onnxAttention(inputs, { is_causal: 1 }).Y.data,
      trace: attn.trace(traceArgs()).outputs.data,
      cache: cache.attend(q, { qNumHeads: 2 }),
    };
  } finally {
    cache.free();
  }
}

// A name of no field, and names of the call records' own fields (an own property must win).
// Not option names: an inherited option is refused by name, by design (read-once.mjs).
const RECORD_FIELDS = ['foo', 'pastLength', 'maskDims', 'y', 'handle', 'rows', 'qLayout'];
RECORD_FIELDS.push('maskKeys', 'scoresMode', 'names', 'rightWindow', 'alibiSlopes', 'dOut');
RECORD_FIELDS.push('withGrad');
const recordPollution = Object.fromEntries(RECORD_FIELDS.map((name) => [name, 1]));

test('an enumerable Object.prototype pollution changes no result of attention, onnxAttention, trace or a cache', async () => {
  const clean = everyEntryPoint();
  assert.ok(maxAbsDiff(clean.attention, attention64(q, k, v, entryOptions)) < 1e-5);
  const dirty = await pollutedWith(recordPollution, everyEntryPoint, Object.prototype, true);
  for (const name of Object.keys(clean)) {
    assert.deepEqual(dirty[name], clean[name], `${name} with Object.prototype polluted`);
  }
});

test('1,000 calls under an enumerable Object.prototype pollution leave no wasm memory allocated', async () => {
  everyEntryPoint(); // warm-up
  const before = attn.memoryStats().allocatedBytes;
  await pollutedWith(
    recordPollution,
    () => {
      for (let i = 0; i < 250; i++) everyEntryPoint();
    },
    Object.prototype,
    true,
  );
  assert.equal(attn.memoryStats().allocatedBytes, before);
});
