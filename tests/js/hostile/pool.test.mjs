// createAttentionPool against hostile callers and workers: buffers shared by queued
// transfer: true calls, writes after a call was made, a buffer that cannot be moved, an
// initTimeout no timer can wait, and workers that send what the pool's worker never would.
// Each test here failed (or hung, or crashed Node) before its fix. Every wait is bounded, so
// a wedged pool fails its test instead of hanging it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import createAttention, { createAttentionPool } from '../../../dist/attention.mjs';
import { useChromiumPage } from '../chromium-page.mjs';

const attn = await createAttention();
const random = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.37));

/** `promise`, or a rejection naming `what` after `ms`: a hang becomes a failure. */
function within(promise, what, ms = 20_000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const settled = (promise) =>
  promise.then(
    (value) => ({ value }),
    (error) => ({ error }),
  );

// A small call: one head of 4 queries over 6 keys, whole on one worker.
const options = { qNumHeads: 1, headSize: 8, vHeadSize: 4 };
const small = (seed) => [random(4 * 8, seed), random(6 * 8, seed + 1), random(6 * 4, seed + 2)];

describe('transfer: true', () => {
  let pool;
  before(async () => {
    pool = await createAttentionPool({ workers: 1 });
  });
  after(() => pool.close());

  test('queued calls sharing a buffer: the first takes it, the second is refused, none hangs', async () => {
    const [q, k, v] = small(1);
    const [q2] = small(2);
    const expected = attn.attention(q, k, v, options);
    const busy = random(8 * 512 * 64, 8); // the one worker busy: both calls wait in the queue
    const running = pool.attention(busy, busy, busy, { qNumHeads: 8, headSize: 64 });
    const first = pool.attention(q, k, v, options, { transfer: true });
    const second = pool.attention(q2, k, v, options, { transfer: true });
    const [a, b] = await within(Promise.all([settled(first), settled(second)]), 'the calls');
    assert.deepEqual(a.value, expected);
    assert.equal(b.error?.name, 'TypeError');
    assert.match(b.error.message, /^k is a Float32Array whose ArrayBuffer is detached/);
    const [q3, k3, v3] = small(3);
    const plain = await within(pool.attention(q3, k3, v3, options), 'a later call');
    assert.deepEqual(plain, attn.attention(q3, k3, v3, options));
    await within(running, 'the busy call');
  });

  test('a queued call computes on its arrays as they were when it was made', async () => {
    const busy = random(8 * 512 * 64, 9); // keeps the one worker busy meanwhile
    const running = pool.attention(busy, busy, busy, { qNumHeads: 8, headSize: 64 });
    const [q, k, v] = small(4);
    const expected = attn.attention(q, k, v, options);
    // Three ways in: moved (a plain buffer), copied (a buffer that cannot be moved, here a
    // SharedArrayBuffer), and q, k, v sharing one buffer.
    const shared = new Float32Array(new SharedArrayBuffer(q.byteLength));
    shared.set(q);
    const one = new Float32Array(q.length + k.length + v.length);
    one.set(q);
    one.set(k, q.length);
    one.set(v, q.length + k.length);
    const views = [
      one.subarray(0, q.length),
      one.subarray(q.length, q.length + k.length),
      one.subarray(q.length + k.length),
    ];
    const [k2, v2] = [k.slice(), v.slice()];
    const calls = [
      pool.attention(q, k, v, options, { transfer: true }),
      pool.attention(shared, k2, v2, options, { transfer: true }),
      pool.attention(...views, options, { transfer: true }),
    ];
    // Written after the calls were made, before they ran.
    // (A detached array has length 0: nothing to write, and fill() would throw.)
    for (const array of [q, k, v, shared, k2, v2, one]) {
      for (let i = 0; i < array.length; i++) array[i] = 7;
    }
    const results = await within(Promise.all(calls), 'the queued calls');
    for (const y of results) assert.deepEqual(y, expected);
    assert.equal(q.length, 0, "the caller's q was taken (detached)");
    assert.equal(one.length, 0, 'the shared buffer was taken once');
    await within(running, 'the busy call');
  });
});

describe('initTimeout', () => {
  test('Infinity waits for ever (no timeout): the pool starts', async () => {
    const pool = await within(createAttentionPool({ workers: 1, initTimeout: Infinity }), 'start');
    const [q, k, v] = small(5);
    assert.deepEqual(await pool.attention(q, k, v, options), attn.attention(q, k, v, options));
    pool.close();
  });

  test('a finite timeout no timer can wait is refused up front', async () => {
    await assert.rejects(createAttentionPool({ workers: 1, initTimeout: 2 ** 31 }), {
      name: 'RangeError',
      message: /initTimeout must be at most 2\^31 - 1 ms .* or Infinity .* got 2147483648/,
    });
  });
});

describe('workers that send what ours never would', () => {
  test('a worker that posts null instead of ready: createAttentionPool rejects, Node stays up', async () => {
    const workerUrl = new URL('../fixtures/null-worker.mjs', import.meta.url);
    await assert.rejects(within(createAttentionPool({ workers: 2, workerUrl }), 'start'), {
      message: /a worker failed to start: it sent a message the pool does not understand \(null\)/,
    });
  });

  test('a wrong result, null or a failure without an error rejects that call; the pool goes on', async () => {
    const workerUrl = new URL('../fixtures/lying-worker.mjs', import.meta.url);
    const pool = await createAttentionPool({ workers: 1, workerUrl });
    try {
      const call = (length) => {
        const q = random(length, length);
        return pool.attention(q, q, q, { qNumHeads: 1, headSize: length });
      };
      await assert.rejects(within(call(13), 'a non-array result'), {
        message: /died \(it answered with an array, not a Float32Array of 13 numbers\)/,
      });
      await assert.rejects(within(call(14), 'null'), {
        message: /died \(it sent a message the pool does not understand \(null\)\)/,
      });
      await assert.rejects(within(call(15), 'no error'), {
        message: /^a worker failed without saying why$/,
      });
      const [q, k, v] = small(6);
      const y = await within(pool.attention(q, k, v, options), 'a later call');
      assert.deepEqual(y, attn.attention(q, k, v, options));
      assert.equal(pool.workers, 1);
    } finally {
      pool.close();
    }
  });
});

describe('the shared-memory path (Node: workers share the arena)', () => {
  // One head of 16 * m queries over 256 keys: large enough for the arena, 16 * m * 64 outputs.
  const shared = (m) => {
    const q = random(16 * m * 64, m);
    const k = random(256 * 64, m + 1);
    return [q, k, k.map((x) => x * x), { qNumHeads: 1, headSize: 64 }];
  };

  test('a worker that lies about its slices, or dies after running them, fails only that call', async () => {
    const workerUrl = new URL('../fixtures/shared-lying-worker.mjs', import.meta.url);
    const pool = await createAttentionPool({ workers: 2, workerUrl });
    try {
      await assert.rejects(within(pool.attention(...shared(13)), 'no slice run'), {
        message: /^attention pool: the workers ran 0 of the call's 1 slices$/,
      });
      await assert.rejects(within(pool.attention(...shared(14)), 'a string'), {
        message: /died \(it answered with .*all.*, not a count of at most 1 slices\)/,
      });
      await assert.rejects(within(pool.attention(...shared(15)), 'an exit'), {
        message: /died \(it exited with code 7\)/,
      });
      for (const m of [12, 16]) {
        const args = shared(m);
        const y = await within(pool.attention(...args), `a later call (${m})`);
        assert.deepEqual(y, attn.attention(...args));
      }
      assert.equal(pool.workers, 2);
    } finally {
      pool.close();
    }
  });
});

describe("a call's signal, aborted after the call resolved", () => {
  test('stops no worker, though a task of that call is still out', async () => {
    // Two heads of 128 queries over 256 keys: the shared path, two tasks (shared-late-worker).
    const q = random(2 * 128 * 64, 21);
    const k = random(2 * 256 * 64, 22);
    const args = [q, k, k.map((x) => -x), { qNumHeads: 2, headSize: 64 }];
    const starts = join(mkdtempSync(join(tmpdir(), 'pool-starts-')), 'starts');
    writeFileSync(starts, '');
    process.env.POOL_FIXTURE_STARTS = starts; // each worker's env: a copy as it starts
    const workerUrl = new URL('../fixtures/shared-late-worker.mjs', import.meta.url);
    const pool = await createAttentionPool({ workers: 2, workerUrl });
    try {
      const controller = new AbortController();
      const y = await within(pool.attention(...args, { signal: controller.signal }), 'the call');
      assert.deepEqual(y, attn.attention(...args));
      controller.abort(); // while the late task waits its 400 ms
      await new Promise((resolve) => setTimeout(resolve, 700));
      const started = readFileSync(starts, 'utf8').split('\n').filter(Boolean).length;
      assert.equal(started, 2, 'a worker was restarted');
      assert.deepEqual(await within(pool.attention(...args), 'a later call'), y);
    } finally {
      pool.close();
      delete process.env.POOL_FIXTURE_STARTS;
    }
  });
});

describe('transfer: true in a Chromium page', () => {
  const evaluate = useChromiumPage();

  test('shared buffers and WebAssembly.Memory views neither throw uncaught nor wedge the pool', async () => {
    const { result, problems } = await evaluate(async () => {
      const { default: createAttention, createAttentionPool } = await import('/dist/attention.mjs');
      const attn = await createAttention();
      const pool = await createAttentionPool({ workers: 1 });
      const random = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i));
      const options = { qNumHeads: 1, headSize: 8, vHeadSize: 4 };
      const within = (promise) => Promise.race([
        promise.then((value) => ({ value }), (error) => ({ error: error.name })),
        new Promise((resolve) => setTimeout(() => resolve({ error: 'hung' }), 10_000)),
      ]);
      const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
      const [q, k, v] = [random(32, 1), random(48, 2), random(24, 3)];
      const expected = attn.attention(q, k, v, options);
      const memory = new WebAssembly.Memory({ initial: 1 });
      const qm = new Float32Array(memory.buffer, 0, 32);
      qm.set(q);
      const fromMemory = await within(pool.attention(qm, k.slice(), v.slice(), options, { transfer: true }));
      const plainAfter = await within(pool.attention(q, k, v, options));
      const first = within(pool.attention(q, k, v, options, { transfer: true }));
      const second = within(pool.attention(random(32, 4), k, v, options, { transfer: true }));
      const [a, b] = [await first, await second];
      const [q3, k3, v3] = [random(32, 5), random(48, 6), random(24, 7)];
      const later = await within(pool.attention(q3, k3, v3, options));
      pool.close();
      return {
        fromMemory: fromMemory.value ? same(fromMemory.value, expected) : fromMemory.error,
        memoryKept: memory.buffer.byteLength,
        plainAfter: plainAfter.value ? same(plainAfter.value, expected) : plainAfter.error,
        first: a.value ? same(a.value, expected) : a.error,
        second: b.error ?? 'resolved',
        later: later.value ? same(later.value, attn.attention(q3, k3, v3, options)) : later.error,
      };
    }); // prettier-ignore
    assert.deepEqual(problems, []);
    assert.deepEqual(result, {
      fromMemory: true, // copied: a WebAssembly.Memory's buffer cannot be moved
      memoryKept: 65536,
      plainAfter: true,
      first: true,
      second: 'TypeError', // k was taken by the first call
      later: true,
    });
  });

  test('a Web Worker that posts null: createAttentionPool rejects at once, nothing uncaught', async () => {
    const { result: message, problems } = await evaluate(async () => {
      const { createAttentionPool } = await import('/dist/attention.mjs');
      const workerUrl = '/tests/js/fixtures/null-web-worker.mjs';
      const started = Date.now();
      const error = await createAttentionPool({ workers: 2, workerUrl, initTimeout: 10_000 })
        .then(() => null, (e) => e.message);
      return Date.now() - started < 5_000 ? error : `only after ${Date.now() - started} ms`;
    }); // prettier-ignore
    assert.match(message, /failed to start: it sent a message the pool does not understand/);
    assert.deepEqual(problems, []);
  });
});
