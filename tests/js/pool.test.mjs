// createAttentionPool (dist/attention.mjs): the same results as attn.attention however a call
// is split, concurrent calls, aborted calls, workers that die mid-call, errors that keep
// their type and message, close(); the split plan itself; and the pool in a Chromium page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import createAttention, { createAttentionPool } from '../../dist/attention.mjs';
import { readAttentionArgs } from '../../src/js/attention/attention-args.mjs';
import { planSlices } from '../../src/js/pool/pool-split.mjs';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/serve.mjs';
import { seededRandom } from './seeded-random.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const attn = await createAttention();
const next = seededRandom(2024);
const random = (n) => Float32Array.from({ length: n }, () => next() * 2 - 1);

/** q, k, v for options (every dim given) and the options themselves. */
function call(options) {
  const { batch = 1, qNumHeads, kvNumHeads = qNumHeads, qSeqLen, kvSeqLen, headSize } = options;
  const vHeadSize = options.vHeadSize ?? headSize;
  return [
    random(batch * qNumHeads * qSeqLen * headSize),
    random(batch * kvNumHeads * kvSeqLen * headSize),
    random(batch * kvNumHeads * kvSeqLen * vHeadSize),
    options,
  ];
}

// Shapes that take each way of splitting: kv groups, heads inside a group (MQA), query-row
// blocks (one head), causal (never by rows), masks broadcast along different axes, and a
// call too small to split.
const SHAPES = {
  'kv groups (GQA)': { batch: 2, qNumHeads: 8, kvNumHeads: 4, qSeqLen: 150, kvSeqLen: 333, headSize: 24, vHeadSize: 40 },
  'heads inside one group (MQA)': { qNumHeads: 6, kvNumHeads: 1, qSeqLen: 257, kvSeqLen: 300, headSize: 64 },
  'query-row blocks': { qNumHeads: 1, qSeqLen: 701, kvSeqLen: 515, headSize: 33, vHeadSize: 7 },
  causal: { batch: 1, qNumHeads: 3, kvNumHeads: 3, qSeqLen: 400, kvSeqLen: 400, headSize: 64, isCausal: true },
  small: { qNumHeads: 2, qSeqLen: 9, kvSeqLen: 11, headSize: 5 },
}; // prettier-ignore

describe('the split plan', () => {
  // Every (batch, head, row) exactly once, each slice a valid call of its own.
  function assertCovers(shape, options, slices) {
    const seen = new Uint8Array(shape.batch * shape.qNumHeads * shape.qSeqLen);
    const group = shape.qNumHeads / shape.kvNumHeads;
    for (const { b, h0, h1, g0, g1, s0, s1 } of slices) {
      const wholeGroups = h0 === g0 * group && h1 === g1 * group;
      const insideOne = g1 === g0 + 1 && h0 >= g0 * group && h1 <= g1 * group;
      assert.ok(wholeGroups || insideOne, `slice ${JSON.stringify({ h0, h1, g0, g1 })}`);
      if (options.isCausal) assert.equal(s1 - s0, shape.qSeqLen, 'causal: whole rows');
      for (let h = h0; h < h1; h++) {
        for (let s = s0; s < s1; s++) seen[(b * shape.qNumHeads + h) * shape.qSeqLen + s]++;
      }
    }
    assert.ok(
      seen.every((x) => x === 1),
      'every row once',
    );
  }

  for (const [name, options] of Object.entries(SHAPES).filter(([n]) => n !== 'small')) {
    test(`${name}: slices cover every row once, one per worker or more`, () => {
      const shape = readAttentionArgs(...call(options));
      for (const workers of [2, 3, 4, 16]) {
        const slices = planSlices(shape, workers);
        assertCovers(shape, options, slices);
        if (!options.isCausal) assert.ok(slices.length >= Math.min(workers, 2), `${workers}`);
      }
    });
  }

  test('a small call, or one worker, runs whole', () => {
    assert.equal(planSlices(readAttentionArgs(...call(SHAPES.small)), 4)[0].b, -1);
    const big = readAttentionArgs(...call(SHAPES['query-row blocks']));
    assert.equal(planSlices(big, 1)[0].b, -1);
  });
});

describe('a pool of two workers in Node', () => {
  let pool;
  before(async () => {
    pool = await createAttentionPool({ workers: 2 });
  });
  after(() => pool?.close());

  for (const [name, options] of Object.entries(SHAPES)) {
    test(`${name}: the same numbers as attn.attention`, async () => {
      const args = call(options);
      assert.deepEqual(await pool.attention(...args), attn.attention(...args));
    });
  }

  test('masks broadcast along batch, heads or rows are sliced with the call', async () => {
    const options = {
      batch: 2,
      qNumHeads: 4,
      kvNumHeads: 2,
      qSeqLen: 300,
      kvSeqLen: 260,
      headSize: 16,
    };
    const [q, k, v] = call(options);
    const { batch: B, qNumHeads: H, qSeqLen: S, kvSeqLen: L } = options;
    const masks = [
      { data: Uint8Array.from({ length: S * L }, () => (next() < 0.8 ? 1 : 0)), shape: [S, L] },
      { data: random(B * H * S * L), shape: [B, H, S, L] },
      { data: random(H * L), shape: [H, 1, L] },
      { data: Uint8Array.from({ length: B * L }, (_, i) => (i % 7 ? 1 : 0)), shape: [B, 1, 1, L] },
    ]; // prettier-ignore
    for (const attnMask of masks) {
      const both = [q, k, v, { ...options, attnMask }];
      assert.deepEqual(await pool.attention(...both), attn.attention(...both), `${attnMask.shape}`);
    }
    // A mask with one head row sliced by rows too (one batch, one head: row blocks).
    const one = { qNumHeads: 1, qSeqLen: 600, kvSeqLen: 200, headSize: 8 };
    const [q1, k1, v1] = call(one);
    const attnMask = { data: random(600 * 200), shape: [1, 1, 600, 200] };
    const args = [q1, k1, v1, { ...one, attnMask }];
    assert.deepEqual(await pool.attention(...args), attn.attention(...args));
  });

  test("the caller's arrays are neither changed nor detached, unless it opts in", async () => {
    for (const options of [SHAPES.small, SHAPES['kv groups (GQA)']]) {
      const args = call(options);
      const copies = args.slice(0, 3).map((a) => a.slice());
      await pool.attention(...args);
      args.slice(0, 3).forEach((a, i) => assert.deepEqual(a, copies[i]));
    }
    const args = call(SHAPES.small);
    const expected = attn.attention(...args);
    assert.deepEqual(await pool.attention(...args, { transfer: true }), expected);
    assert.equal(args[0].length, 0, 'q moved to the worker (detached)');
  });

  test('a call copies its arrays when it is made: writes after it change nothing', async () => {
    for (const options of [SHAPES['kv groups (GQA)'], SHAPES['query-row blocks']]) {
      const args = call(options);
      const expected = attn.attention(...args);
      const pending = pool.attention(...args);
      args.slice(0, 3).forEach((a) => a.fill(0.5));
      assert.deepEqual(await pending, expected);
    }
  });

  test('a call does not wait for a worker busy with another: the idle one runs all its slices', async () => {
    // onnxAttention goes whole to one worker; N = 2048 keeps it busy for a while.
    const tensor = (data) => ({ type: 'float32', data, dims: [1, 4, 2048, 64] });
    const x = random(4 * 2048 * 64);
    const long = pool.onnxAttention({ Q: tensor(x), K: tensor(x), V: tensor(x) });
    const order = [];
    long.then(() => order.push('long'));
    const args = call({ qNumHeads: 2, qSeqLen: 512, kvSeqLen: 512, headSize: 64 });
    const y = await pool.attention(...args);
    order.push('short');
    assert.deepEqual(y, attn.attention(...args));
    await long;
    assert.deepEqual(order, ['short', 'long']);
  });

  test('concurrent calls each get their own result', async () => {
    const calls = Object.values(SHAPES).flatMap((options) => [call(options), call(options)]);
    const results = await Promise.all(calls.map((args) => pool.attention(...args)));
    results.forEach((y, i) => assert.deepEqual(y, attn.attention(...calls[i])));
  });

  test('validation errors come back as the same TypeError / RangeError', async () => {
    const [q, k, v, options] = call(SHAPES['kv groups (GQA)']);
    const bad = [
      [Array.from(q), k, v, options],
      [q, k, v, { ...options, headSize: undefined }],
      [q, k, v, { ...options, kvNumHeads: 3 }],
      [q, k, v, { ...options, causal: true }],
      [q, k, v, { ...options, softcap: -1 }], // well-formed shape: split, each slice refuses
      [q, k, v, { ...options, attnMask: { data: new Uint8Array(4), shape: [2, 2] } }],
      [q, k.subarray(0, 5), v, options],
    ];
    for (const args of bad) {
      let expected;
      try {
        attn.attention(...args);
      } catch (error) {
        expected = error;
      }
      assert.ok(expected, 'attn.attention refuses it');
      await assert.rejects(pool.attention(...args), (error) => {
        assert.equal(error.constructor, expected.constructor);
        assert.equal(error.message, expected.message);
        return true;
      });
    }
    await assert.rejects(pool.attention(q, k, v, options, { sigal: null }), TypeError);
  });

  test('an aborted call rejects at once; the pool replaces its workers and goes on', async () => {
    const big = call({ qNumHeads: 8, qSeqLen: 2048, kvSeqLen: 2048, headSize: 64 });
    const controller = new AbortController();
    const pending = pool.attention(...big, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending, { name: 'AbortError' });
    const args = call(SHAPES['kv groups (GQA)']);
    assert.deepEqual(await pool.attention(...args), attn.attention(...args));
    assert.equal(pool.workers, 2);
    await assert.rejects(pool.attention(...args, { signal: AbortSignal.abort() }), {
      name: 'AbortError',
    });
  });

  test('onnxAttention: the same outputs as attn.onnxAttention (past, windows, 3-D, float16)', async () => {
    const Q = { type: 'float32', data: random(2 * 5 * 8), dims: [1, 2, 5, 8] };
    const K = { type: 'float32', data: random(2 * 7 * 8), dims: [1, 2, 7, 8] };
    const V = { type: 'float32', data: random(2 * 7 * 8), dims: [1, 2, 7, 8] };
    const past = { type: 'float32', data: random(2 * 3 * 8), dims: [1, 2, 3, 8] };
    const half = (t) => ({ ...t, type: 'float16', data: Uint16Array.from(t.data, () => 0x3c00) });
    const calls = [
      [{ Q, K, V }, { is_causal: 1 }],
      [{ Q, K, V, past_key: past, past_value: past }, { left_window_size: 2 }],
      [{ Q, K, V }, { softcap: 3, qk_matmul_output_mode: 3 }, ['Y', 'qk_matmul_output']],
      [
        {
          Q: { type: 'float32', data: Q.data, dims: [1, 5, 16] },
          K: { type: 'float32', data: K.data, dims: [1, 7, 16] },
          V: { type: 'float32', data: V.data, dims: [1, 7, 16] },
        },
        { q_num_heads: 2, kv_num_heads: 2 },
      ],
      [{ Q: half(Q), K: half(K), V: half(V) }],
    ];
    for (const args of calls) {
      assert.deepEqual(await pool.onnxAttention(...args), attn.onnxAttention(...args));
    }
  });
});

// Each hostile case builds its arguments twice (getters keep state), once for attn.attention
// and once for the pool: both must give the same numbers, or the same error.
async function assertPoolAgrees(pool, makeArgs, label, method = 'attention') {
  let expected;
  let thrown;
  try {
    expected = attn[method](...makeArgs());
  } catch (error) {
    thrown = error;
  }
  const result = pool[method](...makeArgs());
  if (thrown) {
    await assert.rejects(result, (error) => {
      assert.equal(error.constructor, thrown.constructor, label);
      assert.equal(error.message, thrown.message, label);
      return true;
    });
  } else {
    assert.deepEqual(await result, expected, label);
  }
}

describe('the pool reads its arguments once, like attn.attention', () => {
  let pool;
  before(async () => {
    pool = await createAttentionPool({ workers: 2 });
  });
  after(() => pool?.close());
  // Large enough to be split (GQA: by kv groups), so each worker gets a slice of the snapshot.
  const shape = SHAPES['kv groups (GQA)'];
  const [q, k, v] = call(shape);

  test('an option getter is read once: a second, different answer is never used', async () => {
    for (const name of ['qNumHeads', 'kvNumHeads', 'headSize', 'scale', 'isCausal']) {
      let reads = 0;
      const make = () => {
        reads = 0;
        const options = { ...shape };
        Object.defineProperty(options, name, {
          enumerable: true,
          get() {
            reads += 1;
            // The first answer is the right one; any later one would slice other shapes.
            return reads === 1 ? { ...shape, isCausal: false, scale: 0.25 }[name] : 1;
          },
        });
        return [q, k, v, options];
      };
      await assertPoolAgrees(pool, make, name);
      assert.equal(reads, 1, `${name} read once by the pool`);
    }
  });

  test('a mask whose data and shape getters change their answer is read once', async () => {
    const { batch: B, qNumHeads: H, qSeqLen: S, kvSeqLen: L } = shape;
    const data = Uint8Array.from({ length: B * S * L }, (_, i) => (i % 5 ? 1 : 0));
    let reads = 0;
    const make = () => {
      let dataReads = 0;
      let shapeReads = 0;
      const attnMask = {
        get data() {
          reads += 1;
          return ++dataReads === 1 ? data : new Uint8Array(H * S * L);
        },
        get shape() {
          reads += 1;
          return ++shapeReads === 1 ? [B, 1, S, L] : [1, H, S, L];
        },
      };
      return [q, k, v, { ...shape, attnMask }];
    };
    await assertPoolAgrees(pool, make, 'mask getters');
    assert.equal(reads, 4, 'each getter read once by attn.attention and once by the pool');
  });

  test('a Proxy of options: one get per own option, none after', async () => {
    const gets = [];
    const make = () => {
      gets.length = 0;
      return [q, k, v, new Proxy({ ...shape }, { get: (t, key) => (gets.push(key), t[key]) })];
    };
    await assertPoolAgrees(pool, make, 'proxy');
    assert.deepEqual(gets.sort(), Object.keys(shape).sort());
  });

  test('own length / toStringTag on q, or a subclass, change nothing', async () => {
    class Sneaky extends Float32Array {}
    const make = () => {
      const q2 = q.slice();
      Object.defineProperty(q2, 'length', { value: 3 });
      Object.defineProperty(q2, Symbol.toStringTag, { value: 'Uint8Array' });
      return [q2, Sneaky.from(k), v, shape];
    };
    await assertPoolAgrees(pool, make, 'own length');
  });

  test('detached buffers, bad option names, inherited options: the same errors', async () => {
    const detached = () => {
      const d = q.slice();
      structuredClone(d.buffer, { transfer: [d.buffer] });
      return d;
    };
    const cases = {
      'detached q': () => [detached(), k, v, shape],
      'detached mask data': () => {
        const data = new Uint8Array(shape.kvSeqLen);
        structuredClone(data.buffer, { transfer: [data.buffer] });
        return [q, k, v, { ...shape, attnMask: { data, shape: [shape.kvSeqLen] } }];
      },
      'an unknown option': () => [q, k, v, { ...shape, numHeads: 8 }],
      'an unknown mask field': () => [
        q,
        k,
        v,
        { ...shape, attnMask: { data: new Uint8Array(333), shape: [333], kind: 'bool' } },
      ],
      'an inherited option': () => [q, k, v, Object.assign(Object.create({ scale: 2 }), shape)],
      'options that are an array': () => [q, k, v, [shape]],
      'q as a DataView': () => [new DataView(q.buffer), k, v, shape],
      'a resizable q shrunk by a getter': () => {
        const buffer = new ArrayBuffer(q.byteLength, { maxByteLength: q.byteLength });
        const q2 = new Float32Array(buffer);
        q2.set(q);
        const options = { ...shape };
        Object.defineProperty(options, 'softcap', {
          enumerable: true,
          get: () => (buffer.resize(8), 0),
        });
        return [q2, k, v, options];
      },
      'kvNumHeads that does not divide': () => [q, k, v, { ...shape, kvNumHeads: 3 }],
    };
    for (const [label, make] of Object.entries(cases)) {
      await assertPoolAgrees(pool, make, label);
    }
    await assert.rejects(pool.attention(q, k, v, shape, { sigal: null }), {
      name: 'TypeError',
      message: /unknown option 'sigal'/,
    });
    await assert.rejects(pool.attention(q, k, v, shape, { signal: {} }), {
      name: 'TypeError',
      message: /signal must be an AbortSignal/,
    });
  });

  test('onnxAttention: a Tensor whose data is a getter is read once; bad names refused alike', async () => {
    let reads = 0;
    class Tensor {
      #data;
      constructor(type, data, dims) {
        this.type = type;
        this.#data = data;
        this.dims = dims;
      }
      get data() {
        reads += 1;
        return this.#data;
      }
    }
    const tensor = (n) => new Tensor('float32', random(n), [1, 2, n / 16, 8]);
    const [Q, K, V] = [tensor(48), tensor(64), tensor(64)];
    reads = 0;
    assert.deepEqual(await pool.onnxAttention({ Q, K, V }), attn.onnxAttention({ Q, K, V }));
    assert.equal(reads, 6, 'each data getter once per call');
    const cases = {
      'an unknown attribute': () => [{ Q, K, V }, { isCausal: 1 }],
      'an unknown input': () => [{ Q, K, V, mask: Q }],
      'an inherited attribute': () => [{ Q, K, V }, Object.create({ is_causal: 1 })],
      'an unknown output': () => [{ Q, K, V }, {}, ['Y', 'present']],
      'a detached Q': () => {
        const data = random(48);
        structuredClone(data.buffer, { transfer: [data.buffer] });
        return [{ Q: { type: 'float32', data, dims: [1, 2, 3, 8] }, K, V }];
      },
    };
    for (const [label, make] of Object.entries(cases)) {
      await assertPoolAgrees(pool, make, label, 'onnxAttention');
    }
  });
});

describe('workers that die, and close()', () => {
  test('a worker dying mid-call rejects that call; the pool recovers', async () => {
    const workerUrl = new URL('./fixtures/dying-worker.mjs', import.meta.url);
    const pool = await createAttentionPool({ workers: 2, workerUrl });
    try {
      const deadly = call({ qNumHeads: 1, qSeqLen: 1, kvSeqLen: 3, headSize: 13 }); // 13 out
      await assert.rejects(pool.attention(...deadly), {
        message: /worker running this call died \(it exited with code 7\)/,
      });
      // Other calls, before and after, are unharmed; the dead worker has been replaced.
      const args = call(SHAPES['kv groups (GQA)']);
      const [a, b] = await Promise.all([pool.attention(...args), pool.attention(...args)]);
      assert.deepEqual(a, attn.attention(...args));
      assert.deepEqual(b, a);
      assert.equal(pool.workers, 2);
    } finally {
      pool.close();
    }
  });

  test('close() rejects running and queued calls, then every new one', async () => {
    const pool = await createAttentionPool({ workers: 1 });
    const big = call({ qNumHeads: 4, qSeqLen: 2048, kvSeqLen: 2048, headSize: 64 });
    const running = pool.attention(...big);
    const queued = pool.attention(...big);
    await new Promise((resolve) => setTimeout(resolve, 10));
    pool.close();
    await assert.rejects(running, /died \(the pool was closed\)/);
    await assert.rejects(queued, /closed before the call ran/);
    await assert.rejects(pool.attention(...big), /the pool is closed/);
    assert.equal(pool.workers, 0);
  });

  test('bad pool options are refused', async () => {
    await assert.rejects(createAttentionPool({ workers: 0 }), RangeError);
    await assert.rejects(createAttentionPool({ workers: 'two' }), TypeError);
    await assert.rejects(createAttentionPool({ threads: 2 }), /unknown option 'threads'/);
    await assert.rejects(createAttentionPool({ relaxedSimd: 'yes' }), {
      name: 'TypeError',
      message: /relaxedSimd must be a boolean, got the string "yes"/,
    });
    await assert.rejects(createAttentionPool(Object.create({ workers: 1 })), /inherited/);
  });

  test('a worker script that fails to load rejects createAttentionPool', async () => {
    const workerUrl = new URL('./fixtures/no-such-worker.mjs', import.meta.url);
    await assert.rejects(createAttentionPool({ workers: 2, workerUrl }), /failed to start/);
  });

  test('with no worker left (none restarts), calls reject instead of waiting', async () => {
    const workerUrl = new URL('./fixtures/last-worker.mjs', import.meta.url);
    const marker = join(tmpdir(), `attention-pool-last-worker-${process.pid}`);
    rmSync(marker, { force: true });
    const pool = await createAttentionPool({ workers: 1, workerUrl });
    try {
      const deadly = call({ qNumHeads: 1, qSeqLen: 1, kvSeqLen: 3, headSize: 13 }); // 13 out
      await assert.rejects(pool.attention(...deadly), /died \(it exited with code 7\)/);
      // Its replacement fails to start: a call queued meanwhile fails with that reason…
      const args = call(SHAPES.small);
      await assert.rejects(pool.attention(...args), /failed to start/);
      // …and from then on every call is refused at once.
      await assert.rejects(pool.attention(...args), /no worker left/);
      assert.equal(pool.workers, 0);
    } finally {
      pool.close();
      rmSync(marker, { force: true });
    }
  });

  test('a worker that never reports ready rejects createAttentionPool after initTimeout', async () => {
    const workerUrl = new URL('./fixtures/silent-worker.mjs', import.meta.url);
    const started = Date.now();
    await assert.rejects(createAttentionPool({ workers: 2, workerUrl, initTimeout: 300 }), {
      name: 'Error',
      message: /a worker did not report ready within 300 ms/,
    });
    assert.ok(Date.now() - started < 10_000);
    await assert.rejects(createAttentionPool({ initTimeout: -1 }), RangeError);
  });

  test('an idle pool that is never closed does not keep Node running', async () => {
    const script = `
      import { createAttentionPool } from ${JSON.stringify(`${root}dist/attention.mjs`)};
      const pool = await createAttentionPool({ workers: 2 });
      const y = await pool.attention(new Float32Array(8), new Float32Array(8),
        new Float32Array(8), { qNumHeads: 1, headSize: 4 });
      console.log(y.length);`;
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    assert.equal(stdout.trim(), '8');
  });
});

describe('a pool where memory cannot be shared with workers (messages carry the data)', () => {
  let pool;
  before(async () => {
    // A browser page that is not cross-origin isolated has no SharedArrayBuffer to post;
    // the pool decides when it starts, so hiding it then gives Node that pool.
    const { SharedArrayBuffer } = globalThis;
    globalThis.SharedArrayBuffer = undefined;
    try {
      pool = await createAttentionPool({ workers: 2 });
    } finally {
      globalThis.SharedArrayBuffer = SharedArrayBuffer;
    }
  });
  after(() => pool?.close());

  test('every way of splitting, and concurrent calls: the same numbers as attn.attention', async () => {
    const calls = Object.values(SHAPES).map((options) => call(options));
    const results = await Promise.all(calls.map((args) => pool.attention(...args)));
    results.forEach((y, i) => assert.deepEqual(y, attn.attention(...calls[i])));
  });
});

// Twice: a page that is not cross-origin isolated (messages carry the data) and one that is
// (COOP/COEP headers: the workers share the arena, pool-shared.mjs).
describe('the pool in a Chromium page (Web Workers, strict CSP)', () => {
  const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";
  const isolation = {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  };
  let browser;
  const servers = {};
  before(async () => {
    const csps = { 'Content-Security-Policy': csp };
    servers.plain = await startServer({ root, headers: csps });
    servers.isolated = await startServer({ root, headers: { ...csps, ...isolation } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    servers.plain?.server.close();
    servers.isolated?.server.close();
  });

  for (const kind of ['plain', 'isolated']) {
    test(`${kind} page: pool.attention equals attn.attention; an aborted call rejects, the pool goes on`, async () => {
      const { url } = servers[kind];
      const page = await browser.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(error.message));
      try {
        await page.goto(`${url}tests/js/fixtures/empty.html`);
        const result = await page.evaluate(async () => {
          const { default: createAttention, createAttentionPool } = await import('/dist/attention.mjs');
          const attn = await createAttention();
          const pool = await createAttentionPool({ workers: 2 });
          const random = (n) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37));
          const options = { qNumHeads: 4, kvNumHeads: 2, qSeqLen: 300, kvSeqLen: 280, headSize: 32 };
          const q = random(4 * 300 * 32);
          const k = random(2 * 280 * 32).reverse();
          const v = random(2 * 280 * 32).map((x) => x * x);
          const y = await pool.attention(q, k, v, options);
          const expected = attn.attention(q, k, v, options);
          const controller = new AbortController();
          const big = random(8 * 2048 * 64);
          const aborted = pool.attention(big, big, big, { qNumHeads: 8, headSize: 64 }, {
            signal: controller.signal,
          });
          setTimeout(() => controller.abort(), 20);
          const abortError = await aborted.then(() => 'resolved', (error) => error.name);
          const again = await pool.attention(q, k, v, options);
          pool.close();
          return {
            same: y.length === expected.length && y.every((x, i) => x === expected[i]),
            again: again.every((x, i) => x === expected[i]),
            abortError,
            relaxedSimd: [attn.relaxedSimd, pool.relaxedSimd],
            isolated: self.crossOriginIsolated,
          };
        }); // prettier-ignore
        assert.deepEqual(problems, []);
        assert.equal(result.same, true);
        assert.equal(result.again, true);
        assert.equal(result.abortError, 'AbortError');
        assert.equal(result.isolated, kind === 'isolated');
        // Chromium has Relaxed SIMD: page and workers load the relaxed build alike.
        assert.deepEqual(result.relaxedSimd, [true, true]);
      } finally {
        await page.close();
      }
    });
  }
});
