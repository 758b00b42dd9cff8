// The Relaxed SIMD build: the build's opcode rewrite (scripts/lib/relaxed-simd.mjs) on modules made
// by hand and on the real one, checked against two independent decoders (binaryen's wasm-dis,
// which knows the prototype encoding, and wabt, which knows the final one); the loader's
// choice between the two builds; and the relaxed build's results against the SIMD128 build's
// and the float64 reference (the fused kernel, the decode path, onnxAttention with a past and
// windows), in a Node started with --experimental-wasm-relaxed-simd.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import initWabt from 'wabt';

import createAttention, { hasRelaxedSimd } from '../../dist/attention.mjs';
import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { rewriteRelaxedMadd } from '../../scripts/lib/relaxed-simd.mjs';
import { startServer } from '../../scripts/lib/serve.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wabt = await initWabt();

// wabt's text of a module it validated with Relaxed SIMD enabled (throws if invalid).
function wabtText(bytes) {
  const module = wabt.readWasm(bytes, { relaxed_simd: true });
  try {
    module.validate();
    return module.toText({});
  } finally {
    module.destroy();
  }
}
const count = (text, word) => text.split(word).length - 1;
// Relaxed SIMD instructions in wabt's text (not strings in data segments): f32x4.relaxed_madd…
const relaxedInstructions = (text) =>
  (text.match(/^\s*\(?[a-z0-9]+x\d+\.relaxed_\w+/gm) ?? []).length;

// A module whose function pushes three v128.const and applies the prototype fma; the bytes of
// the prototype opcode (fd af 01) also sit inside an i32.const immediate (they are a valid
// LEB128: 22525), inside a v128.const and in a data segment, where they must stay.
const FMA = [0xfd, 0xaf, 0x01];
const v128 = (bytes) => [0xfd, 0x0c, ...bytes, ...new Array(16 - bytes.length).fill(0)];
function handMadeModule(body = [...FMA]) {
  const code = [
    0x00, // no locals
    0x41, ...FMA, 0x1a, // i32.const 22525, drop
    ...v128(FMA), ...v128([0x00, 0x00, 0x80, 0x3f]), ...v128([0x00, 0x00, 0x40, 0x40]),
    ...body,
    0x0b,
  ]; // prettier-ignore
  const section = (id, bytes) => [id, bytes.length, ...bytes];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x00, 0x01, 0x7b]), // () -> v128
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, 0x01]), // one memory of one page
    ...section(10, [0x01, code.length, ...code]),
    ...section(11, [0x01, 0x00, 0x41, 0x00, 0x0b, 0x03, ...FMA]), // data at 0: fd af 01
  ]); // prettier-ignore
}

test('the rewrite changes exactly the prototype instruction, not the same bytes elsewhere', () => {
  const input = handMadeModule();
  const { wasm, rewritten } = rewriteRelaxedMadd(input);
  assert.equal(rewritten, 1);
  const changed = [...input.keys()].filter((i) => input[i] !== wasm[i]);
  const at = input.length - 11 - 1 - 2; // the fma's opcode bytes: before `end` and the data
  assert.deepEqual(changed, [at, at + 1]);
  assert.deepEqual([...wasm.subarray(at - 1, at + 2)], [0xfd, 0x85, 0x02]);
  // wabt rejects the prototype encoding and accepts the final one as f32x4.relaxed_madd.
  assert.throws(() => wabtText(input));
  assert.equal(count(wabtText(wasm), 'f32x4.relaxed_madd'), 1);
  assert.equal(rewriteRelaxedMadd(input).rewritten, 1, 'the input is left as it was');
});

test('the rewrite refuses what it cannot decode instead of guessing', () => {
  assert.throws(() => rewriteRelaxedMadd(new Uint8Array([1, 2, 3])), /not a WebAssembly module/);
  const truncated = handMadeModule();
  assert.throws(() => rewriteRelaxedMadd(truncated.subarray(0, truncated.length - 12)), /end/);
  // 0x06 (`try` of the exceptions proposal) is outside what the walker decodes.
  assert.throws(() => rewriteRelaxedMadd(handMadeModule([0x06, 0x40, 0x0b, ...FMA])), /0x6/);
  // A non-minimal LEB128 of the opcode would not fit the final encoding's two bytes.
  assert.throws(
    () => rewriteRelaxedMadd(handMadeModule([0xfd, 0xaf, 0x81, 0x00])),
    /2-byte encoding/,
  );
});

test('the built relaxed module: every prototype fma rewritten, checked by two decoders', () => {
  const prototype = readFileSync(`${root}build/wasm/attention-relaxed.wasm`);
  const shipped = readFileSync(`${root}dist/attention-relaxed.wasm`);
  const { wasm, rewritten } = rewriteRelaxedMadd(prototype);
  assert.ok(rewritten > 0);
  assert.deepEqual(new Uint8Array(shipped), wasm, 'dist/ holds the rewritten module');
  assert.equal(rewriteRelaxedMadd(shipped).rewritten, 0, 'no prototype fma is left');
  const text = wabtText(shipped);
  assert.equal(count(text, 'f32x4.relaxed_madd'), rewritten);
  assert.equal(relaxedInstructions(text), rewritten, 'no other relaxed instruction');
  // binaryen 108 (the toolchain's own) names the prototype instruction f32x4.relaxed_fma.
  const dis = spawnSync('wasm-dis', [`${root}build/wasm/attention-relaxed.wasm`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (dis.status === 0) assert.equal(count(dis.stdout, 'f32x4.relaxed_fma'), rewritten);
  // The SIMD128 build has none, and validates in an engine without Relaxed SIMD.
  const baseline = readFileSync(`${root}dist/attention.wasm`);
  assert.equal(relaxedInstructions(wabtText(baseline)), 0);
  assert.equal(WebAssembly.validate(baseline), true);
});

test('without Relaxed SIMD in the engine, createAttention loads the SIMD128 build', async () => {
  // Node 20 runs this file without --experimental-wasm-relaxed-simd.
  assert.equal(WebAssembly.validate(readFileSync(`${root}dist/attention-relaxed.wasm`)), false);
  assert.equal(hasRelaxedSimd(), false);
  const attn = await createAttention();
  assert.equal(attn.relaxedSimd, false);
  assert.equal(attn.simd, true);
  await assert.rejects(createAttention({ relaxedSimd: 'yes' }), {
    name: 'TypeError',
    message: /relaxedSimd must be a boolean, got string/,
  });
});

test('createAttention({ warmUp: false }) skips only the warm-up call: the same numbers', async () => {
  const [warm, cold] = await Promise.all([createAttention(), createAttention({ warmUp: false })]);
  const x = Float32Array.from({ length: 3 * 4 * 8 }, (_, i) => Math.sin(i));
  const options = { batch: 1, qNumHeads: 4, headSize: 8 };
  assert.deepEqual(cold.attention(x, x, x, options), warm.attention(x, x, x, options));
  await assert.rejects(createAttention({ warmUp: 'no' }), {
    name: 'TypeError',
    message: /^createAttention: options\.warmUp must be a boolean, got string$/,
  });
});

test('with Relaxed SIMD, the relaxed build loads and matches the SIMD128 build', () => {
  const script = `
    import createAttention, { createAttentionPool, hasRelaxedSimd }
      from ${JSON.stringify(`${root}dist/attention.mjs`)};
    import { attention64, maxAbsDiff, onnxAttention64 }
      from ${JSON.stringify(`${root}tests/js/reference64.mjs`)};
    import { seededRandom } from ${JSON.stringify(`${root}tests/js/seeded-random.mjs`)};
    const relaxed = await createAttention();
    const baseline = await createAttention({ relaxedSimd: false });
    const next = seededRandom(11);
    const random = (n) => Float32Array.from({ length: n }, () => next() * 2 - 1);
    const cases = [];
    // Odd sizes: SIMD tails in every dimension, GQA, a causal case, a long one (many blocks).
    for (const [batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize, isCausal] of [
      [1, 1, 1, 1, 1, 1, 1, false], [2, 6, 3, 77, 131, 37, 45, false],
      [1, 4, 1, 129, 129, 64, 64, true], [1, 2, 2, 5, 700, 17, 3, false],
      [1, 1, 1, 300, 1100, 128, 128, false]]) {
      const options = { batch, qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize, vHeadSize, isCausal };
      const q = random(batch * qNumHeads * qSeqLen * headSize);
      const k = random(batch * kvNumHeads * kvSeqLen * headSize);
      const v = random(batch * kvNumHeads * kvSeqLen * vHeadSize);
      const a = relaxed.attention(q, k, v, options);
      const b = baseline.attention(q, k, v, options);
      const exact = attention64(q, k, v, options);
      cases.push({ options, builds: maxAbsDiff(a, b), relaxed: maxAbsDiff(a, exact),
        simd128: maxAbsDiff(b, exact) });
    }
    // The decode path (a few query rows per kv head: attention() with a small qSeqLen, GQA).
    for (const [qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize] of [
      [8, 2, 1, 1000, 64], [6, 3, 4, 257, 37], [4, 1, 2, 3000, 128]]) {
      const options = { qNumHeads, kvNumHeads, qSeqLen, kvSeqLen, headSize };
      const q = random(qNumHeads * qSeqLen * headSize);
      const k = random(kvNumHeads * kvSeqLen * headSize);
      const v = random(kvNumHeads * kvSeqLen * headSize);
      const a = relaxed.attention(q, k, v, options);
      const b = baseline.attention(q, k, v, options);
      const exact = attention64(q, k, v, options);
      cases.push({ options: { decode: true, ...options }, builds: maxAbsDiff(a, b),
        relaxed: maxAbsDiff(a, exact), simd128: maxAbsDiff(b, exact) });
    }
    // onnxAttention: a past cache (queries at offset P), sliding windows, a 3-D layout.
    const tensor = (dims) => ({ type: 'float32', dims,
      data: random(dims.reduce((x, y) => x * y, 1)) });
    for (const [inputs, attributes] of [
      [{ Q: tensor([1, 4, 70, 48]), K: tensor([1, 2, 70, 48]), V: tensor([1, 2, 70, 40]),
         past_key: tensor([1, 2, 300, 48]), past_value: tensor([1, 2, 300, 40]) },
       { is_causal: 1 }],
      [{ Q: tensor([2, 2, 150, 33]), K: tensor([2, 2, 150, 33]), V: tensor([2, 2, 150, 33]) },
       { is_causal: 1, left_window_size: 40, right_window_size: 5 }],
      [{ Q: tensor([1, 1, 4 * 64]), K: tensor([1, 500, 2 * 64]), V: tensor([1, 500, 2 * 64]),
         past_key: tensor([1, 2, 700, 64]), past_value: tensor([1, 2, 700, 64]) },
       { q_num_heads: 4, kv_num_heads: 2, left_window_size: 256 }]]) {
      const a = relaxed.onnxAttention(inputs, attributes).Y.data;
      const b = baseline.onnxAttention(inputs, attributes).Y.data;
      const exact = onnxAttention64(inputs, attributes).Y.data;
      cases.push({ options: { onnx: attributes }, builds: maxAbsDiff(a, b),
        relaxed: maxAbsDiff(a, exact), simd128: maxAbsDiff(b, exact) });
    }
    // The pool's workers share the process's V8 flags: they load the relaxed build too.
    const pool = await createAttentionPool({ workers: 2 });
    const options = { qNumHeads: 4, qSeqLen: 300, kvSeqLen: 300, headSize: 64 };
    const [q, k, v] = [0, 1, 2].map(() => random(4 * 300 * 64));
    const expected = relaxed.attention(q, k, v, options);
    const poolSame = (await pool.attention(q, k, v, options)).every((x, i) => x === expected[i]);
    const poolRelaxed = pool.relaxedSimd;
    pool.close();
    console.log(JSON.stringify({ probe: hasRelaxedSimd(), relaxed: relaxed.relaxedSimd,
      baseline: baseline.relaxedSimd, cases, poolRelaxed, poolSame }));`;
  const stdout = execFileSync(
    process.execPath,
    ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  const result = JSON.parse(stdout);
  assert.equal(result.probe, true);
  assert.equal(result.relaxed, true, 'createAttention() chose the relaxed build');
  assert.equal(result.baseline, false, 'relaxedSimd: false forced the SIMD128 build');
  assert.equal(result.poolRelaxed, true, "the pool's workers loaded the relaxed build");
  assert.equal(result.poolSame, true, 'the pool gives the relaxed build its exact numbers');
  for (const c of result.cases) {
    const what = JSON.stringify(c);
    // A fused multiply-add rounds once where mul + add rounds twice: last-bit differences.
    assert.ok(c.builds <= 2e-6, what);
    assert.ok(c.relaxed <= 2e-6, what);
    assert.ok(c.relaxed <= c.simd128 * 4 + 1e-7, what);
  }
  // The two builds really differ somewhere (else this test would not tell them apart).
  assert.ok(
    result.cases.some((c) => c.builds > 0),
    'V8 fuses relaxed_madd on this CPU: some last bits differ',
  );
});

describe('in Chromium (which has Relaxed SIMD)', () => {
  let browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  // Loads dist/attention.mjs in a page of a server that answers 404 for `block`, and returns
  // what both builds make of one call.
  async function inPage(block) {
    const { server, url } = await startServer({ root, block });
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${url}tests/js/fixtures/empty.html`);
      const result = await page.evaluate(async () => {
        const { default: createAttention } = await import('/dist/attention.mjs');
        const chosen = await createAttention();
        const baseline = await createAttention({ relaxedSimd: false });
        const q = Float32Array.from({ length: 3 * 45 * 19 }, (_, i) => Math.sin(i));
        const k = Float32Array.from({ length: 3 * 70 * 19 }, (_, i) => Math.cos(i * 0.7));
        const options = { qNumHeads: 3, headSize: 19 };
        const a = chosen.attention(q, k, k, options);
        const b = baseline.attention(q, k, k, options);
        let diff = 0;
        for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i] - b[i]));
        return { relaxedSimd: chosen.relaxedSimd, baseline: baseline.relaxedSimd, diff };
      });
      return { ...result, errors };
    } finally {
      await page.close();
      server.close();
    }
  }

  test('createAttention() loads the relaxed build; it matches the SIMD128 build', async () => {
    const result = await inPage([]);
    assert.deepEqual(result.errors, []);
    assert.equal(result.relaxedSimd, true);
    assert.equal(result.baseline, false);
    assert.ok(result.diff <= 1e-6, `${result.diff}`);
  });

  test('an app that deployed only attention.wasm still loads (the SIMD128 build)', async () => {
    const result = await inPage(['/dist/attention-relaxed.wasm']);
    assert.deepEqual(result.errors, []);
    assert.equal(result.relaxedSimd, false);
    assert.equal(result.diff, 0);
  });
});
