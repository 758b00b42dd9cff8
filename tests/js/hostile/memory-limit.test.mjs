// Requests past what wasm memory allows: a RangeError that says how much, nothing allocated.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

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
