// Defects the hostile suites found in the module, each kept as a minimal repro guarding its fix.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import vm from 'node:vm';

import createAttention from '../../../dist/attention.mjs';
import { attention64, trace64 } from '../reference64.mjs';
import { SAYS_SIZE, assertMatches, attn, namesOneOf, useInstance } from './checks.mjs';

useInstance();

describe('regressions found by this suite', () => {
  const q = Float32Array.from([0.3, -0.2, 0.5, 0.1]);
  const k = Float32Array.from([0.1, 0.2, -0.3, 0.4, 0.5, -0.6]);
  const v = Float32Array.from([1, 2, 3, 4, 5, 6]);
  const base = { qNumHeads: 1, headSize: 2, vHeadSize: 2 };

  test('scale and softcap: huge float32 values compute, values past float32 are refused', () => {
    // Representable in float32 (< 3.4028e38), so valid ONNX attributes: must compute.
    for (const extra of [{ scale: 3e38 }, { softcap: 3e38 }, { softcap: 1e38 }]) {
      const options = { ...base, ...extra };
      const y = attn.attention(q, k, v, options);
      assertMatches(y, attention64(q, k, v, options), 1e-4, JSON.stringify(extra));
    }
    // Not representable: the contract's "a number beyond what is allowed" -> RangeError.
    for (const [name, value] of [
      ['scale', 1e39],
      ['softcap', 1e39],
    ]) {
      assert.ok(Math.fround(value) === Infinity && value <= Number.MAX_VALUE);
      assert.throws(
        () => attn.attention(q, k, v, { ...base, [name]: value }),
        (error) => error instanceof RangeError && error.message.includes(name),
      );
    }
  });

  test('trace() lets NaN and +Infinity propagate through softmax, as attention() does', () => {
    const args = {
      x: [
        [1, 2],
        [Infinity, 1],
        [0.5, -1],
      ],
      wQuery: [
        [1, 0.5],
        [0.3, 1],
      ],
      wKey: [
        [1, -0.5],
        [0.2, 1],
      ],
      wValue: [[1], [2]],
    };
    const t = attn.trace(args);
    const expected = trace64(args);
    assertMatches(t.weights.data, expected.weights.flat(), 1e-6, 'weights');
    // The same numbers through attention(): a row with a NaN score is NaN there.
    const y = attn.attention(t.queries.data, t.keys.data, t.values.data, {
      qNumHeads: 1,
      headSize: 2,
      vHeadSize: 1,
      scale: 1,
    });
    assertMatches(t.outputs.data, y, 1e-6, 'trace vs attention');
  });

  test('options given as a typed array: TypeError naming options', () => {
    assert.throws(
      () => attn.attention(q, k, v, new Float32Array(2)),
      (error) => error instanceof TypeError && namesOneOf(error.message, ['options']),
    );
  });

  test('a Proxy of a Float32Array: TypeError naming the argument', () => {
    assert.throws(
      () => attn.attention(new Proxy(q.slice(), {}), k, v, base),
      (error) => error instanceof TypeError && namesOneOf(error.message, ['q']),
    );
  });

  test('a Float32Array from another realm (iframe, vm context) is a Float32Array', () => {
    const foreign = vm.runInNewContext('new Float32Array([0.3, -0.2, 0.5, 0.1])');
    const y = attn.attention(foreign, k, v, base);
    assertMatches(y, attention64(q, k, v, base), 1e-6, 'cross-realm q');
  });

  test('a request under 2 GiB on paper that does not fit: RangeError saying how much', async () => {
    // A fresh instance: this grows its wasm memory to the 2 GiB maximum for good.
    const own = await createAttention();
    // Not 0: Embind's registrations (e.g. trace's value_object) keep a few bytes for good.
    const before = own.memoryStats().allocatedBytes;
    const rows = 32768;
    const vHeadSize = (2 ** 29 - 2 ** 20) / rows; // the output is 2 GiB - 4 MiB
    assert.throws(
      () =>
        own.attention(new Float32Array(rows), new Float32Array(1), new Float32Array(vHeadSize), {
          qNumHeads: 1,
          headSize: 1,
          vHeadSize,
        }),
      (error) =>
        error instanceof RangeError &&
        SAYS_SIZE.test(error.message) &&
        namesOneOf(error.message, ['q', 'v', 'vHeadSize', 'output']),
    );
    assert.equal(own.memoryStats().allocatedBytes, before);
  });
});
