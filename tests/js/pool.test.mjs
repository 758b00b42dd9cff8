// createAttentionPool (dist/attention.mjs): the same results as attn.attention however a call
// is split, concurrent calls, aborted calls, workers that die mid-call, errors that keep
// their type and message, close(); the split plan itself; and the pool in a Chromium page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import createAttention, { createAttentionPool } from '../../dist/attention.mjs';
import { planSlices, splittableShape } from '../../src/js/pool-split.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
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
      const [q, k, v] = call(options);
      const shape = splittableShape(q, k, v, options);
      assert.ok(shape);
      for (const workers of [2, 3, 4, 16]) {
        const slices = planSlices(shape, options, workers);
        assertCovers(shape, options, slices);
        if (!options.isCausal) assert.ok(slices.length >= Math.min(workers, 2), `${workers}`);
      }
    });
  }

  test('a small call, or one worker, runs whole', () => {
    const [q, k, v, options] = call(SHAPES.small);
    assert.equal(planSlices(splittableShape(q, k, v, options), options, 4)[0].b, -1);
    const big = call(SHAPES['query-row blocks']);
    assert.equal(planSlices(splittableShape(...big), big[3], 1)[0].b, -1);
  });

  test('an ill-formed call is not split (the worker reports it)', () => {
    const [q, k, v, options] = call(SHAPES['query-row blocks']);
    assert.equal(splittableShape(Array.from(q), k, v, options), null);
    assert.equal(splittableShape(q, k, v, { ...options, qNumHeads: 0 }), null);
    assert.equal(splittableShape(q, k.subarray(1), v, options), null);
    const mask = { data: new Uint8Array(3), shape: [3] };
    assert.equal(splittableShape(q, k, v, { ...options, attnMask: mask }), null);
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

  test('onnxAttention is forwarded whole to a worker', { skip: !attn.onnxAttention }, async () => {
    const Q = { type: 'float32', data: random(2 * 5 * 8), dims: [1, 2, 5, 8] };
    const K = { type: 'float32', data: random(2 * 7 * 8), dims: [1, 2, 7, 8] };
    const V = { type: 'float32', data: random(2 * 7 * 8), dims: [1, 2, 7, 8] };
    const expected = attn.onnxAttention({ Q, K, V }, { is_causal: 1 });
    assert.deepEqual(await pool.onnxAttention({ Q, K, V }, { is_causal: 1 }), expected);
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
  });

  test('a worker script that fails to load rejects createAttentionPool', async () => {
    const workerUrl = new URL('./fixtures/no-such-worker.mjs', import.meta.url);
    await assert.rejects(createAttentionPool({ workers: 2, workerUrl }), /failed to start/);
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

describe('the pool in a Chromium page (Web Workers, strict CSP)', () => {
  let browser;
  let server;
  let url;
  before(async () => {
    const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";
    ({ server, url } = await startServer({ root, headers: { 'Content-Security-Policy': csp } }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });

  test('pool.attention equals attn.attention; an aborted call rejects, the pool goes on', async () => {
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
        };
      }); // prettier-ignore
      assert.deepEqual(problems, []);
      assert.equal(result.same, true);
      assert.equal(result.again, true);
      assert.equal(result.abortError, 'AbortError');
      // Chromium has Relaxed SIMD: page and workers load the relaxed build alike.
      assert.deepEqual(result.relaxedSimd, [true, true]);
    } finally {
      await page.close();
    }
  });
});
