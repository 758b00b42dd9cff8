// createAttention({ threads }): attention() on the wasm threads build, where the calling
// thread and helper threads share one wasm memory (Node's worker_threads; a cross-origin
// isolated Chromium page, or a Worker of one): the same outputs as the one-thread build of
// the same SIMD kind, bit for bit, call after call; and the refusals where threads cannot run
// (a page that is not isolated) or the option is wrong, each before anything loads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import createAttention, { INDUCTION_MODEL } from '../../dist/attention.mjs';
import { useChromiumPage } from './chromium-page.mjs';

// The induction model with an MLP and grouped heads, so that every stage of a step splits.
const INDUCTION_MODEL_FOR_THREADS = { ...INDUCTION_MODEL, mlpSize: 32, kvHeads: 1 };

/**
 * Teams of 2 and 3 threads (and 2 on the SIMD128 build) against the one-thread module of
 * their SIMD build, on every kind of call: { threads, relaxedSimd, outcomes, onnx }, one
 * entry per team. Self-contained: it runs in Node and, passed to page.evaluate, in a page.
 */
async function compareTeams(moduleUrl) {
  const { default: createAttention } = await import(moduleUrl);
  const relaxed = await createAttention();
  const simd128 = await createAttention({ relaxedSimd: false });
  const pairs = [
    [relaxed, await createAttention({ threads: 2 })],
    [relaxed, await createAttention({ threads: 3 })],
    [simd128, await createAttention({ threads: 2, relaxedSimd: false })],
  ];
  const random = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.37));
  // [q rows, kv rows, options]: one head split into row blocks, eight heads, causal, grouped
  // queries with odd sizes, a mask with a softcap, batch 2.
  const cases = [
    [256, 256, { qNumHeads: 1, headSize: 64 }],
    [256, 256, { qNumHeads: 8, headSize: 64 }],
    [200, 200, { qNumHeads: 4, headSize: 32, isCausal: true }],
    [130, 170, { qNumHeads: 6, kvNumHeads: 2, headSize: 24, vHeadSize: 40 }],
    [97, 97, { qNumHeads: 2, headSize: 16, softcap: 3, attnMask: { data: random(97 * 97, 9), shape: [97, 97] } }],
    [64, 80, { batch: 2, qNumHeads: 3, headSize: 8 }],
  ];
  const outcomes = cases.map(([s, t, options], i) => {
    const b = options.batch ?? 1;
    const kvHeads = options.kvNumHeads ?? options.qNumHeads;
    const q = random(b * options.qNumHeads * s * options.headSize, i);
    const k = random(b * kvHeads * t * options.headSize, i + 10);
    const v = random(b * kvHeads * t * (options.vHeadSize ?? options.headSize), i + 20);
    return pairs.map(([one, team]) => {
      const expected = one.attention(q, k, v, options);
      const y = team.attention(q, k, v, options);
      const out = team.attention(q, k, v, { ...options, out: new Float32Array(y.length) });
      return y.every((x, j) => x === expected[j]) && out.every((x, j) => x === expected[j]);
    });
  });
  const inputs = {
    Q: { data: random(2 * 40 * 16, 1), dims: [1, 2, 40, 16] },
    K: { data: random(2 * 40 * 16, 2), dims: [1, 2, 40, 16] },
    V: { data: random(2 * 40 * 16, 3), dims: [1, 2, 40, 16] },
  };
  const onnx = pairs.map(([one, team]) => {
    const expected = one.onnxAttention(inputs, { is_causal: 1 }).Y.data;
    return team.onnxAttention(inputs, { is_causal: 1 }).Y.data.every((x, j) => x === expected[j]);
  });
  return {
    threads: pairs.map(([, team]) => team.threads),
    relaxedSimd: pairs.map(([one, team]) => [one.relaxedSimd, team.relaxedSimd]),
    outcomes,
    onnx,
  };
} // prettier-ignore

/** compareTeams' result when every team matched, with this engine's Relaxed SIMD. */
const allSame = (relaxed) => ({
  threads: [2, 3, 2],
  relaxedSimd: [[relaxed, relaxed], [relaxed, relaxed], [false, false]],
  outcomes: Array.from({ length: 6 }, () => [true, true, true]),
  onnx: [true, true, true],
}); // prettier-ignore

describe('threads in Node', () => {
  test('a value that is not an integer from 1 to 64: TypeError or RangeError naming it', async () => {
    await assert.rejects(createAttention({ threads: '2' }), {
      name: 'TypeError',
      message:
        'createAttention: options.threads must be an integer from 1 to 64 or \'auto\', got the string "2"',
    });
    for (const bad of [0, -1, 1.5, 65, NaN, Infinity]) {
      await assert.rejects(createAttention({ threads: bad }), {
        name: 'RangeError',
        message: `createAttention: options.threads must be an integer from 1 to 64 or 'auto', got ${bad}`,
      });
    }
    await assert.rejects(createAttention({ threads: 2, wasmBinary: new Uint8Array(8) }), {
      name: 'TypeError',
      message: /leave out wasmBinary and wasmUrl/,
    });
  });

  test('2 and 3 threads on worker_threads: the one-thread outputs, bit for bit', async () => {
    const result = await compareTeams(new URL('../../dist/attention.mjs', import.meta.url).href);
    // Node 20 validates Relaxed SIMD only with its flag: both sides are SIMD128 without it.
    const { hasRelaxedSimd } = await import('../../dist/attention.mjs');
    assert.deepEqual(result, allSame(hasRelaxedSimd()));
  });

  test('a tiny transformer trains on the team: the one-thread losses and parameters, bit for bit', async () => {
    // Rows, kv heads (grouped, RoPE) and MLP elements enough that every stage splits.
    const config = {
      vocabSize: 13, context: 32, dModel: 32, layers: 2, heads: 4, kvHeads: 2,
      positions: 'rope', mlpSize: 48, learningRate: 0.01, seed: 3,
    }; // prettier-ignore
    const one = await createAttention({ relaxedSimd: false, warmUp: false });
    const team = await createAttention({ threads: 2, relaxedSimd: false, warmUp: false });
    const models = [one, team].map((attn) => attn.createTinyTransformer(config));
    const batch = 8;
    for (let step = 0; step < 3; step++) {
      const tokens = Int32Array.from({ length: batch * 32 }, (_, i) => (i * 7 + step * 5) % 13);
      const targets = Int32Array.from(tokens, (_, i) => ((i + 1) % 32 ? tokens[i + 1] : -1));
      const [a, b] = models.map((model) => model.trainStep({ tokens, targets, batch }));
      assert.ok(Object.is(a, b), `step ${step}: loss ${a} on one thread, ${b} on two`);
    }
    const [p, q] = models.map((model) => model.parameters());
    for (const name of Object.keys(p)) {
      assert.ok(
        p[name].data.every((x, i) => Object.is(x, q[name].data[i])),
        `${name} differs`,
      );
    }
    for (const model of models) model.free();
    team.close();
  });

  test('createTrainer({ threads: 2 }): its worker trains on the threads build, the one-thread losses bit for bit', async () => {
    const { createTrainer } = await import('../../dist/attention.mjs');
    const options = {
      config: INDUCTION_MODEL_FOR_THREADS,
      seed: 4,
      batch: 16,
      relaxedSimd: false,
    };
    const runs = [];
    for (const threads of [1, 2]) {
      const losses = [];
      const trainer = await createTrainer({
        ...options,
        threads,
        onProgress: (event) => losses.push(...event.losses),
      });
      await trainer.train({ steps: 4, progressEvery: 1 });
      assert.equal(trainer.threads, threads);
      runs.push({ losses, parameters: await trainer.parameters() });
      trainer.close();
    }
    assert.equal(runs[0].losses.length, 4);
    assert.deepEqual(runs[1].losses, runs[0].losses);
    for (const [name, tensor] of Object.entries(runs[0].parameters)) {
      const other = runs[1].parameters[name].data;
      assert.ok(
        tensor.data.every((x, i) => Object.is(x, other[i])),
        `${name} differs`,
      );
    }
  });

  test('a script that made a team exits by itself when it is done', async () => {
    const script = `
      import createAttention from ${JSON.stringify(new URL('../../dist/attention.mjs', import.meta.url).href)};
      const attn = await createAttention({ threads: 2 });
      const q = new Float32Array(4 * 300 * 16).fill(0.5);
      console.log(attn.threads, attn.attention(q, q, q, { qNumHeads: 4, headSize: 16 }).length);`;
    const started = Date.now();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      { timeout: 30_000 },
    );
    assert.equal(stdout.trim(), `2 ${4 * 300 * 16}`);
    assert.ok(Date.now() - started < 20_000, 'the helpers kept the process alive');
  });

  test('threads: 1 is the one-thread module, and says so; the option is read once', async () => {
    let reads = 0;
    const attn = await createAttention({
      warmUp: false,
      get threads() {
        reads++;
        return 1;
      },
    });
    assert.equal(reads, 1);
    assert.equal(attn.threads, 1);
    assert.equal((await createAttention({ warmUp: false })).threads, 1);
  });
});

describe('threads in a cross-origin isolated Chromium page', () => {
  const evaluate = useChromiumPage({ isolated: true });

  test('2 and 3 threads, either SIMD build: the one-thread outputs, bit for bit, for every kind of call', async () => {
    const { result, problems } = await evaluate(compareTeams, '/dist/attention.mjs');
    assert.deepEqual(problems, []);
    assert.deepEqual(result, allSame(true)); // Chromium has Relaxed SIMD
  });

  test('call after call, mixed sizes: the same answers, and no memory kept', async () => {
    const { result, problems } = await evaluate(async () => {
      const { default: createAttention } = await import('/dist/attention.mjs');
      const one = await createAttention(); // the team's SIMD build (Relaxed, in Chromium)
      const attn = await createAttention({ threads: 2 });
      const random = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.37));
      const shapes = [[1, 300], [8, 64], [2, 1], [4, 257], [1, 3]];
      const calls = shapes.map(([heads, n], i) => {
        const q = random(heads * n * 32, i);
        const options = { qNumHeads: heads, headSize: 32, isCausal: i % 2 === 1 };
        return { q, options, expected: one.attention(q, q, q, options) };
      });
      const before = attn.memoryStats().allocatedBytes;
      let wrong = 0;
      for (let round = 0; round < 40; round++) {
        const { q, options, expected } = calls[round % calls.length];
        const y = attn.attention(q, q, q, options);
        if (!y.every((x, j) => x === expected[j])) wrong++;
      }
      return { wrong, kept: attn.memoryStats().allocatedBytes - before };
    }); // prettier-ignore
    assert.deepEqual(problems, []);
    assert.deepEqual(result, { wrong: 0, kept: 0 });
  });

  test("createTrainer({ threads: 2 }): the trainer's worker starts its helpers, the one-thread losses bit for bit", async () => {
    const { result, problems } = await evaluate(async (model) => {
      const { createTrainer } = await import('/dist/attention.mjs');
      const losses = [];
      const counts = [];
      for (const threads of [1, 2]) {
        const run = [];
        const trainer = await createTrainer({
          config: model, seed: 4, batch: 16, relaxedSimd: false, threads,
          onProgress: (event) => run.push(...event.losses),
        }); // prettier-ignore
        await trainer.train({ steps: 3, progressEvery: 1 });
        trainer.close();
        losses.push(run);
        counts.push(trainer.threads);
      }
      return { counts, steps: losses[0].length, same: losses[1].every((x, i) => Object.is(x, losses[0][i])) };
    }, INDUCTION_MODEL_FOR_THREADS); // prettier-ignore
    assert.deepEqual(problems, []);
    assert.deepEqual(result, { counts: [1, 2], steps: 3, same: true });
  });

  test('in a module Worker of the page too', async () => {
    const { result, problems } = await evaluate(
      () =>
        new Promise((resolve) => {
          const worker = new Worker('/tests/js/fixtures/threads-worker.mjs', { type: 'module' });
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => resolve({ error: event.message ?? 'worker error' });
        }),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(result, { isolated: true, threads: 2, same: true });
  });
});

describe('threads in a page that is not cross-origin isolated', () => {
  const evaluate = useChromiumPage();

  test("a RangeError that says what the page needs; one thread still loads, and 'auto' is one thread", async () => {
    const { result, problems } = await evaluate(async () => {
      const { default: createAttention } = await import('/dist/attention.mjs');
      let error;
      try {
        await createAttention({ threads: 2 });
      } catch (e) {
        error = { name: e.name, message: e.message };
      }
      const auto = await createAttention({ threads: 'auto' });
      return {
        isolated: crossOriginIsolated,
        error,
        one: (await createAttention()).threads,
        auto: auto.threads,
      };
    });
    assert.deepEqual(problems, []);
    assert.equal(result.isolated, false);
    assert.equal(result.error.name, 'RangeError');
    assert.match(
      result.error.message,
      /Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp/,
    );
    assert.equal(result.one, 1);
    assert.equal(result.auto, 1, "threads: 'auto' is one thread where the page is not isolated");
  });
});
