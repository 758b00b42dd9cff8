// Memory discipline of the wasm module: repeated calls neither leak (malloc's in-use bytes stay
// put) nor grow the wasm heap after warm-up, and every result is a fresh array the caller owns,
// still valid after the wasm memory grows (a view into wasm memory would be detached then).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createAttention from '../../dist/attention.mjs';
import { attention64, maxAbsDiff } from './reference64.mjs';

// A fixed, cheap fill: the values do not matter here, only that results can be checked.
function fill(length, seed) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.sin(seed + i * 0.37);
  return out;
}

// Runs `call` `count` times and checks every `every` calls that nothing moved since warm-up.
function assertFlat(attn, count, every, call) {
  for (let i = 0; i < Math.min(every, count); i++) call(i); // warm-up: caches, first growth
  const baseline = attn.memoryStats();
  let samples = 0;
  for (let i = 0; i < count; i++) {
    call(i);
    if ((i + 1) % every === 0) {
      const now = attn.memoryStats();
      assert.equal(
        now.allocatedBytes,
        baseline.allocatedBytes,
        `allocatedBytes after ${i + 1} calls`,
      );
      assert.equal(
        now.wasmMemoryBytes,
        baseline.wasmMemoryBytes,
        `wasmMemoryBytes after ${i + 1} calls`,
      );
      samples++;
    }
  }
  assert.ok(samples >= 10, 'enough samples to see a trend');
  return baseline;
}

test('100,000 small calls keep allocatedBytes and wasmMemoryBytes flat', async () => {
  const attn = await createAttention();
  const options = { batch: 2, qNumHeads: 4, kvNumHeads: 2, headSize: 8, vHeadSize: 5 };
  const q = fill(2 * 4 * 3 * 8, 1);
  const k = fill(2 * 2 * 6 * 8, 2);
  const v = fill(2 * 2 * 6 * 5, 3);
  const mask = { data: new Uint8Array([1, 1, 0, 1, 1, 1]), shape: [6] };
  const expected = attention64(q, k, v, { ...options, attnMask: mask });
  const x = [
    [1, 0, 1],
    [0, 2, 0],
  ];
  const w = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  let last;
  const before = attn.memoryStats();
  // Mostly attention() with and without a mask, and some trace() calls (one head, and two
  // heads over one kv head with W_O): every path that allocates is exercised.
  const layer = { x, wQuery: w, wKey: w.map((row) => [row[0]]), wValue: w, heads: 2, kvHeads: 1 };
  assertFlat(attn, 100_000, 5_000, (i) => {
    if (i % 20 === 19)
      last = attn.trace({ ...layer, wOut: [...w, [1, -1]] }); // 4 x 2: two heads of d_v_head 2
    else if (i % 10 === 9) last = attn.trace({ x, wQuery: w, wKey: w, wValue: w });
    else if (i % 2) last = attn.attention(q, k, v, options);
    else last = attn.attention(q, k, v, { ...options, attnMask: mask });
  });
  // The instance still computes right after all that.
  const y = attn.attention(q, k, v, { ...options, attnMask: mask });
  assert.ok(maxAbsDiff(y, expected) < 1e-5);
  assert.ok(last.outputs.data.length === 4);
  // Small calls fit in the initial heap: no growth at all, even during warm-up.
  assert.equal(attn.memoryStats().wasmMemoryBytes, before.wasmMemoryBytes);
});

test('1,000 calls at N = 1024 (1 head, headSize 64) keep the heap flat', async () => {
  const attn = await createAttention();
  const n = 1024;
  const d = 64;
  const q = fill(n * d, 4);
  const k = fill(n * d, 5);
  const v = fill(n * d, 6);
  const options = { qNumHeads: 1, headSize: d };
  const first = attn.attention(q, k, v, options);
  // Spot-check a few rows of the first result against float64 (the whole 1024 x 1024 in
  // float64 JS takes seconds; a slice of queries is the same computation).
  const rows = [0, 511, 1023];
  for (const row of rows) {
    const expected = attention64(q.subarray(row * d, (row + 1) * d), k, v, {
      qNumHeads: 1,
      headSize: d,
      qSeqLen: 1,
      kvSeqLen: n,
    });
    assert.ok(maxAbsDiff(first.subarray(row * d, (row + 1) * d), expected) < 1e-5, `row ${row}`);
  }
  let last;
  assertFlat(attn, 1_000, 50, () => {
    last = attn.attention(q, k, v, options);
  });
  assert.deepEqual(last, first, 'the same inputs give the same bits every time');
});

test('results are fresh arrays that stay valid after the wasm memory grows', async () => {
  const attn = await createAttention();
  const q = fill(3 * 4, 7);
  const k = fill(5 * 4, 8);
  const v = fill(5 * 2, 9);
  const options = { qNumHeads: 1, headSize: 4, vHeadSize: 2 };
  const y1 = attn.attention(q, k, v, options);
  const y2 = attn.attention(q, k, v, options);
  const saved = Array.from(y1);
  const t = attn.trace({ x: [[1, 2]], wQuery: [[1], [2]], wKey: [[3], [4]], wValue: [[5], [6]] });
  const savedOutputs = Array.from(t.outputs.data);

  // Fresh: distinct arrays, each owning exactly its own buffer (not a view into wasm memory).
  assert.notEqual(y1, y2);
  assert.notEqual(y1.buffer, y2.buffer);
  for (const array of [y1, t.queries.data, t.scores.data, t.weighted.data, t.outputs.data]) {
    assert.ok(array instanceof Float32Array);
    assert.equal(array.byteOffset, 0);
    assert.equal(array.buffer.byteLength, array.byteLength);
  }
  // Writing into a result changes nothing for the next call.
  y2.fill(123);
  assert.deepEqual(Array.from(attn.attention(q, k, v, options)), saved);

  // Grow the wasm memory well past its initial size with one large but cheap call: one query
  // against 65,536 keys of 256 numbers (k and v are 64 MiB each once copied in).
  const before = attn.memoryStats().wasmMemoryBytes;
  const bigKeys = fill(65_536 * 256, 10);
  const bigOut = attn.attention(fill(256, 11), bigKeys, bigKeys, { qNumHeads: 1, headSize: 256 });
  const after = attn.memoryStats().wasmMemoryBytes;
  // The memory must hold both 64 MiB copies at once (part of them fits in what was free).
  assert.ok(
    after >= 128 * 2 ** 20 && after > before,
    `the heap grew (${before} -> ${after} bytes)`,
  );
  assert.equal(bigOut.length, 256);

  // The old results still hold their numbers and are usable.
  assert.equal(y1.length, saved.length);
  assert.deepEqual(Array.from(y1), saved);
  assert.deepEqual(Array.from(t.outputs.data), savedOutputs);
  // And calls after the growth are right.
  assert.deepEqual(Array.from(attn.attention(q, k, v, options)), saved);
  assert.ok(maxAbsDiff(y1, attention64(q, k, v, options)) < 1e-5);
});

test('20,000 onnxAttention() calls (past, 3-D, float16, scores) keep the heap flat', async () => {
  const attn = await createAttention();
  const half = (length, seed) =>
    Uint16Array.from(fill(length, seed), (x) => 0x3800 + ((x * 512) & 0x1ff));
  const cache = { data: fill(2 * 2 * 6 * 8, 3), dims: [1, 2, 6, 8] };
  const calls = [
    () =>
      attn.onnxAttention(
        {
          Q: { data: fill(32, 1), dims: [1, 1, 32] },
          K: { data: fill(16, 2), dims: [1, 1, 16] },
          V: { data: fill(16, 4), dims: [1, 1, 16] },
          past_key: { data: cache.data.subarray(0, 96), dims: [1, 2, 6, 8] },
          past_value: { data: cache.data.subarray(96), dims: [1, 2, 6, 8] },
        },
        { q_num_heads: 4, kv_num_heads: 2, is_causal: 1 },
      ),
    () =>
      attn.onnxAttention(
        {
          Q: { type: 'float16', data: half(2 * 3 * 8, 5), dims: [1, 2, 3, 8] },
          K: { type: 'float16', data: half(2 * 5 * 8, 6), dims: [1, 2, 5, 8] },
          V: { type: 'float16', data: half(2 * 5 * 8, 7), dims: [1, 2, 5, 8] },
          attn_mask: { type: 'bool', data: new Uint8Array([1, 0, 1, 1]), dims: [4] },
        },
        { qk_matmul_output_mode: 3 },
        ['Y', 'qk_matmul_output'],
      ),
  ];
  let last;
  assertFlat(attn, 20_000, 1_000, (i) => {
    last = calls[i % 2]();
  });
  assert.deepEqual(last.qk_matmul_output.dims, [1, 2, 3, 5]);
});

// In Node on Linux (where the process counts its minor page faults): dropped results give
// their pages to the next ones (src/js/module/warm-results.mjs). Before, glibc handed them back to the
// system at every garbage collection and each 512 KiB result faulted its 128 pages in again.
// Measured in a fresh process, as an app that only calls attention() would be: what other code
// allocated and freed before changes how glibc keeps freed memory.
const countsFaults = process.platform === 'linux' && process.resourceUsage().minorPageFault > 0;
test('calls without out reuse the pages of dropped results', { skip: !countsFaults }, () => {
  const script = fileURLToPath(new URL('./fixtures/result-faults.mjs', import.meta.url));
  const { perCall, pages } = JSON.parse(
    execFileSync(process.execPath, [script], { encoding: 'utf8' }),
  );
  assert.ok(
    perCall < pages / 8,
    `${perCall.toFixed(1)} minor page faults per call, of a result of ${pages} pages`,
  );
});
