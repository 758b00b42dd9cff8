// Requests past what wasm memory allows: a RangeError that says how much, nothing allocated,
// and nothing changed (a refused KvCache.append leaves the cache as it was).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';

import { SAYS_SIZE, attn, useInstance } from './checks.mjs';

useInstance();

describe('requests past the wasm memory limit', () => {
  test('attention() whose output alone is 4 GiB: RangeError saying so, nothing allocated', () => {
    // 32,768 query rows x 32,768 value columns = 2^30 floats, from inputs of 128 KiB each.
    const before = attn.memoryStats();
    const call = () =>
      attn.attention(new Float32Array(32768), new Float32Array(1), new Float32Array(32768), {
        qNumHeads: 1,
        headSize: 1,
        vHeadSize: 32768,
      });
    assert.throws(
      call,
      (error) => error instanceof RangeError && /4(\.0)? GiB/.test(error.message),
    );
    assert.deepEqual(attn.memoryStats(), before);
  });

  test('trace() past its intermediate limit: RangeError saying how much', () => {
    const n = 4096;
    const call = () =>
      attn.trace({
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: [[1]],
        wKey: [[1]],
        wValue: [[1]],
      });
    // n^2 (weighted) alone is 16 Mi numbers (64 MiB), past the limit.
    assert.throws(call, (error) => error instanceof RangeError && /MiB/.test(error.message));
  });

  test('trace() whose heads together pass the limit: RangeError saying how much', () => {
    // 256 heads of 300 x 300 scores: 23 Mi numbers for the scores alone, from 1 KiB of weights.
    const n = 300;
    const wide = { rows: 1, cols: 256, data: new Float32Array(256) };
    const before = attn.memoryStats();
    const call = () =>
      attn.trace({
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: wide,
        wKey: wide,
        wValue: wide,
        heads: 256,
      });
    assert.throws(
      call,
      (error) =>
        error instanceof RangeError &&
        /256 head\(s\)/.test(error.message) &&
        SAYS_SIZE.test(error.message),
    );
    assert.deepEqual(attn.memoryStats(), before);
  });
});

test('a refused KvCache.append leaves the cache exactly as it was', async () => {
  // Its own module: this test grows wasm memory to its 2 GiB limit.
  const own = await createAttention();
  const fill = (length, seed) => {
    const out = new Float32Array(length);
    for (let i = 0; i < length; i++) out[i] = Math.sin(seed + i * 0.37);
    return out;
  };
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
