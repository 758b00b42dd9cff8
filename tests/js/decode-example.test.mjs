// The token-by-token decoding example (examples/node/decode.mjs), run as a test: 200 tokens,
// each step feeding the previous present_key / present_value back as past_key / past_value.
// Every step's output must equal full causal attention over its whole prefix: recomputed by
// the module without a cache (to 1e-5), and by the float64 reference (to 1e-5). Timing is the
// example's to print, not this test's to assert.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { decode } from '../../examples/node/decode.mjs';
import { onnxAttention64 } from './reference64.mjs';

test('200 decoding steps with a KV cache equal full causal attention over each prefix', async () => {
  const attn = await createAttention();
  const before = attn.memoryStats().allocatedBytes;
  const run = decode(attn, { steps: 200 });
  assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
  assert.equal(run.tokens.length, 201);
  assert.deepEqual(run.cache, [1, 2, 200, 8], 'the cache holds every token');
  assert.ok(run.worst <= 1e-5, `cached vs recomputed: ${run.worst}`);

  // The same steps against float64, every 9th step and the last.
  const { queries, keys, values, outputs } = run.history;
  const stack = (rows, width, T) => {
    const out = new Float64Array(T * width);
    for (let i = 0; i < T; i++) out.set(rows[i], i * width);
    return out;
  };
  for (let step = 0; step < 200; step += step === 198 ? 1 : 9) {
    const T = step + 1;
    const reference = onnxAttention64(
      {
        Q: { data: stack(queries, 32, T), dims: [1, T, 32] },
        K: { data: stack(keys, 16, T), dims: [1, T, 16] },
        V: { data: stack(values, 16, T), dims: [1, T, 16] },
      },
      { q_num_heads: 4, kv_num_heads: 2, is_causal: 1 },
    ).Y.data.subarray(step * 32);
    outputs[step].forEach((y, i) =>
      assert.ok(Math.abs(y - reference[i]) <= 1e-5, `step ${step}[${i}]: ${y} vs ${reference[i]}`),
    );
  }

  // Deterministic: the same model generates the same tokens.
  assert.deepEqual(decode(attn, { steps: 200, check: false }).tokens, run.tokens);
});
