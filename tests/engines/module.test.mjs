// In Firefox and in WebKit: the module's own checks, run inside the served page (the same
// dist/attention.mjs and attention.wasm a user's browser loads): trace() of the article,
// attention() against a plain JS reference, hostile calls refused with TypeError/RangeError,
// SIMD in use, and which of the two builds createAttention() loaded: the Relaxed SIMD build in
// Firefox, the SIMD128 fallback in WebKit, which rejects relaxed SIMD (both checks run on the
// build chosen). And which SIMD each engine's WebAssembly.validate accepts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import * as article from '../js/article.mjs';
import { ENGINES, engineFixture } from './engines.mjs';
import { waitForReady } from './scene.mjs';
import { INVALID_MODULE, RELAXED_SIMD_MODULE, SIMD128_MODULE } from './wasm-features.mjs';

/**
 * Runs in the page: loads dist/attention.mjs next to the page and reports what it computes.
 * Self-contained (the engines serialise it), so the reference attention is written out here.
 */
async function inPageModuleChecks(args) {
  const { default: createAttention } = await import(new URL('attention.mjs', location.href).href);
  const attn = await createAttention();
  // The SIMD128 build, forced: where the engine has Relaxed SIMD, createAttention() chose the
  // relaxed build (attention-relaxed.wasm); where it has not, both are attention.wasm.
  const baseline = await createAttention({ relaxedSimd: false });
  const report = {
    simd: attn.simd,
    version: attn.version,
    relaxedSimd: attn.relaxedSimd,
    baselineRelaxedSimd: baseline.relaxedSimd,
  };

  const trace = attn.trace(args);
  report.trace = Object.fromEntries(
    ['queries', 'keys', 'values', 'scores', 'weights', 'outputs'].map((name) => [
      name,
      Array.from(trace[name].data),
    ]),
  );

  // attention() against a direct reference, [batch, heads, seq, size] layouts, grouped heads.
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const filled = (length) => Float32Array.from({ length }, random);
  const [batch, qHeads, kvHeads, qSeq, kvSeq, size, vSize] = [2, 4, 2, 5, 7, 8, 6];
  const q = filled(batch * qHeads * qSeq * size);
  const k = filled(batch * kvHeads * kvSeq * size);
  const v = filled(batch * kvHeads * kvSeq * vSize);
  function reference(isCausal) {
    const out = new Float64Array(batch * qHeads * qSeq * vSize);
    const scale = 1 / Math.sqrt(size);
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < qHeads; h++) {
        const kvh = Math.floor(h / (qHeads / kvHeads));
        for (let i = 0; i < qSeq; i++) {
          const scores = [];
          for (let j = 0; j < kvSeq; j++) {
            let dot = 0;
            for (let c = 0; c < size; c++)
              dot +=
                q[((b * qHeads + h) * qSeq + i) * size + c] *
                k[((b * kvHeads + kvh) * kvSeq + j) * size + c];
            scores.push(isCausal && j > i ? -Infinity : dot * scale);
          }
          const max = Math.max(...scores);
          const exps = scores.map((s) => Math.exp(s - max));
          const sum = exps.reduce((a, e) => a + e, 0);
          for (let j = 0; j < kvSeq; j++) {
            for (let c = 0; c < vSize; c++)
              out[((b * qHeads + h) * qSeq + i) * vSize + c] +=
                (exps[j] / sum) * v[((b * kvHeads + kvh) * kvSeq + j) * vSize + c];
          }
        }
      }
    }
    return out;
  }
  report.maxDifference = {};
  for (const isCausal of [false, true]) {
    const got = attn.attention(q, k, v, {
      batch,
      qNumHeads: qHeads,
      kvNumHeads: kvHeads,
      headSize: size,
      vHeadSize: vSize,
      isCausal,
    });
    const want = reference(isCausal);
    report.maxDifference[isCausal ? 'causal' : 'plain'] =
      got.length === want.length
        ? Math.max(...Array.from(got, (x, n) => Math.abs(x - want[n])))
        : `length ${got.length}, expected ${want.length}`;
  }
  // The two builds on one call large enough for the micro-kernels' every path (tails too).
  const [heads, rows, keys, width] = [3, 45, 70, 19];
  const qBig = filled(heads * rows * width);
  const kBig = filled(heads * keys * width);
  const vBig = filled(heads * keys * width);
  const chosen = attn.attention(qBig, kBig, vBig, { qNumHeads: heads, headSize: width });
  const simd128 = baseline.attention(qBig, kBig, vBig, { qNumHeads: heads, headSize: width });
  report.buildsDiffer = Math.max(...Array.from(chosen, (x, n) => Math.abs(x - simd128[n])));

  // Hostile calls: each must throw the named error class, naming the argument.
  const small = new Float32Array(2 * 3 * 4);
  const hostile = {
    'q as Float64Array': () =>
      attn.attention(new Float64Array(24), small, small, { qNumHeads: 2, headSize: 4 }),
    'headSize not dividing q': () =>
      attn.attention(small, small, small, { qNumHeads: 2, headSize: 5 }),
    'an unknown option': () =>
      attn.attention(small, small, small, { qNumHeads: 2, headSize: 4, bogus: 1 }),
    'kvNumHeads not dividing qNumHeads': () =>
      attn.attention(small, small, small, { qNumHeads: 2, headSize: 4, kvNumHeads: 3 }),
    'x as a string': () => attn.trace({ ...args, x: 'abc' }),
    'wQuery with too few rows': () => attn.trace({ ...args, wQuery: [[1, 0, 1]] }),
  };
  report.hostile = {};
  for (const [name, call] of Object.entries(hostile)) {
    try {
      call();
      report.hostile[name] = 'no error';
    } catch (error) {
      report.hostile[name] = `${error.constructor.name}: ${error.message}`;
    }
  }
  report.allocatedBytesAfter = attn.memoryStats().allocatedBytes;
  // Still working after all that.
  report.outputsAfter = Array.from(attn.trace(args).outputs.data.slice(0, 3));
  return report;
}

function inPageValidate(modules) {
  return Object.fromEntries(
    Object.entries(modules).map(([name, bytes]) => [
      name,
      WebAssembly.validate(new Uint8Array(bytes)),
    ]),
  );
}

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const web = engineFixture(engine);

    test('the module in the page: the build chosen, trace, attention against a reference, hostile calls', async () => {
      const page = await web.open();
      try {
        await page.goto(`${web.url}#step=inputs`);
        await waitForReady(page);
        const report = await page.evaluate(inPageModuleChecks, article.args);
        assert.equal(report.simd, true, 'SIMD runs');
        // WebKit rejects Relaxed SIMD: createAttention() falls back to the SIMD128 build there,
        // and loads the relaxed one in Firefox. Every number below comes from that build.
        assert.equal(
          report.relaxedSimd,
          engine.name !== 'webkit',
          `${engine.name}: attn.relaxedSimd is ${report.relaxedSimd}`,
        );
        assert.equal(report.baselineRelaxedSimd, false, 'relaxedSimd: false loads SIMD128');
        if (report.relaxedSimd) assert.ok(report.buildsDiffer <= 1e-6, `${report.buildsDiffer}`);
        else assert.equal(report.buildsDiffer, 0, 'one build, the same numbers');
        for (const name of ['queries', 'keys', 'values', 'scores', 'weights', 'outputs']) {
          report.trace[name].forEach((value, n) =>
            assert.ok(
              Math.abs(value - article[name][n]) <= 1e-5,
              `trace ${name}[${n}]: ${value}, the article ${article[name][n]}`,
            ),
          );
        }
        for (const [mask, difference] of Object.entries(report.maxDifference))
          assert.ok(
            difference < 1e-5,
            `attention (${mask}) differs from the reference by ${difference}`,
          );
        const expected = {
          'q as Float64Array': /^TypeError: .*\bq\b.*Float32Array/,
          'headSize not dividing q': /^RangeError: .*\b(q|headSize)\b/,
          'an unknown option': /^TypeError: .*\bbogus\b/,
          'kvNumHeads not dividing qNumHeads': /^RangeError: .*\bkvNumHeads\b/,
          'x as a string': /^TypeError: .*\bx\b/,
          'wQuery with too few rows': /^RangeError: .*\bwQuery\b/,
        };
        for (const [name, pattern] of Object.entries(expected))
          assert.match(report.hostile[name], pattern, name);
        assert.equal(report.allocatedBytesAfter, 0, 'nothing leaked by the refused calls');
        report.outputsAfter.forEach((value, c) =>
          assert.ok(Math.abs(value - article.outputs[c]) <= 1e-5),
        );
        assert.deepEqual(await page.problems(), []);
      } finally {
        await page.close();
      }
    });

    test('WebAssembly.validate: SIMD128 accepted; relaxed SIMD as this engine ships it', async () => {
      const page = await web.open();
      try {
        await page.goto(`${web.url}#step=inputs`);
        const accepted = await page.evaluate(inPageValidate, {
          simd128: SIMD128_MODULE,
          relaxedSimd: RELAXED_SIMD_MODULE,
          invalid: INVALID_MODULE,
        });
        assert.equal(accepted.simd128, true, 'SIMD128 (what the module needs) validates');
        assert.equal(accepted.invalid, false, 'a broken module is refused: the check can fail');
        // Firefox has relaxed SIMD on by default; WebKit does not implement it. If WebKit
        // starts accepting it, the relaxed-SIMD build's fallback is no longer exercised here.
        assert.equal(
          accepted.relaxedSimd,
          engine.name !== 'webkit',
          `${engine.name}: relaxed SIMD ${accepted.relaxedSimd ? 'accepted' : 'rejected'}`,
        );
      } finally {
        await page.close();
      }
    });
  });
}
