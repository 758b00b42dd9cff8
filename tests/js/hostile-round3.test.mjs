// Hostile callers, round 3: a polluted Object.prototype, and a refused KvCache.append. Each
// test here failed before its fix; a user would notice each (calls failing, memory leaking,
// a cache that changed although the call that asked for it was refused).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { attention64, maxAbsDiff } from './reference64.mjs';

const attn = await createAttention();

function fill(length, seed) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.sin(seed + i * 0.37);
  return out;
}

// One call of every entry point that hands Embind a value object, with its expected result.
const options = { qNumHeads: 2, kvNumHeads: 1, headSize: 4, vHeadSize: 3, isCausal: true };
const q = fill(2 * 5 * 4, 1);
const k = fill(1 * 5 * 4, 2);
const v = fill(1 * 5 * 3, 3);
const traceArgs = {
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
};
const onnxInputs = {
  Q: { type: 'float32', data: q, dims: [1, 2, 5, 4] },
  K: { type: 'float32', data: k, dims: [1, 1, 5, 4] },
  V: { type: 'float32', data: v, dims: [1, 1, 5, 3] },
};
function everyEntryPoint() {
  const cache = attn.createKvCache({ kvNumHeads: 1, headSize: 4, vHeadSize: 3, capacity: 2 });
  try {
    cache.append(k, v); // grows
    return {
      attention: attn.attention(q, k, v, options),
      onnx: attn.onnxAttention(onnxInputs, { is_causal: 1 }).Y.data,
      trace: attn.trace(traceArgs).outputs.data,
      cache: cache.attend(q, { qNumHeads: 2 }),
    };
  } finally {
    cache.free();
  }
}

/** Runs `work` with enumerable properties added to Object.prototype, then removes them. */
function polluted(work) {
  // A name of no field, and names of the core call's own fields (an own property must win).
  // Not option names: an inherited option is refused by name, by design (read-once.mjs).
  const names = ['foo', 'pastLength', 'maskDims', 'y', 'handle', 'rows', 'qLayout', 'maskKeys'];
  names.push('scoresMode', 'names', 'rightWindow');
  for (const name of names) Object.prototype[name] = 1; // eslint-disable-line no-extend-native
  try {
    return work();
  } finally {
    for (const name of names) delete Object.prototype[name];
  }
}

test('a polluted Object.prototype changes no result of attention, onnxAttention, trace or a cache', () => {
  const clean = everyEntryPoint();
  const expected = attention64(q, k, v, options);
  assert.ok(maxAbsDiff(clean.attention, expected) < 1e-5);
  const dirty = polluted(everyEntryPoint);
  for (const name of Object.keys(clean)) {
    assert.deepEqual(dirty[name], clean[name], `${name} with Object.prototype polluted`);
  }
});

test('1,000 calls under a polluted Object.prototype leave no wasm memory allocated', () => {
  everyEntryPoint(); // warm-up
  const before = attn.memoryStats().allocatedBytes;
  polluted(() => {
    for (let i = 0; i < 250; i++) everyEntryPoint();
  });
  assert.equal(attn.memoryStats().allocatedBytes, before);
});

test('a refused KvCache.append leaves the cache exactly as it was', async () => {
  // Its own module: this test grows wasm memory to its 2 GiB limit.
  const own = await createAttention();
  const cache = own.createKvCache({ kvNumHeads: 1, headSize: 1024, capacity: 1 });
  const k1 = fill(1024, 4);
  const v1 = fill(1024, 5);
  cache.append(k1, v1);
  const allocated = own.memoryStats().allocatedBytes;
  // 144,000 rows of k and v (562.5 MiB each) fit in wasm memory, but not together with the
  // cache grown to hold them: the append must be refused before anything changes.
  const rows = fill(1024 * 144000, 6);
  assert.throws(() => cache.append(rows, rows), {
    name: 'RangeError',
    message: /^KvCache\.append: .*(could not allocate|out of memory)/,
  });
  assert.equal(cache.length, 1);
  assert.equal(cache.capacity, 1);
  assert.equal(own.memoryStats().allocatedBytes, allocated, 'nothing allocated stays');
  assert.deepEqual(cache.presentKey().data, k1);
  assert.deepEqual(cache.presentValue().data, v1);
  // And it still works: the next append grows it (to twice its capacity).
  assert.equal(cache.append(v1, k1), 2);
  assert.equal(cache.capacity, 2);
  cache.free();
});
