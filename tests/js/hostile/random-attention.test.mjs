// Hostile input for attention(): thousands of seeded random calls, each a valid call with one to
// three things broken (wrong types, null, BigInt, strings, sparse and ragged arrays, typed arrays
// of the wrong kind or length, negative / fractional / enormous dims, mismatched heads, bad
// masks, unknown keys, requests past the 2 GiB wasm memory): attention-calls.mjs.
//
// The oracle is an independent reading of the contract (the TSDoc of attention.d.ts):
// `judgeAttention` decides whether a call is valid. Then:
//   valid            -> the call returns, and the result matches the float64 reference;
//   valid, too big   -> RangeError that says how much was asked;
//   invalid          -> TypeError or RangeError whose message names a broken argument.
// After every call malloc's in-use bytes are back where they were (checks.mjs).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { attention64 } from '../reference64.mjs';
import { CALLS_PER_API } from './inputs.mjs';
import { ATTENTION_MUTATIONS, judgeAttention, validAttentionCall } from './attention-calls.mjs';
import { assertMatches, mutateAndCheck, useInstance } from './checks.mjs';

useInstance();

describe('seeded random hostile calls', () => {
  test(`${CALLS_PER_API} attention() calls`, () => {
    const outcomes = {};
    for (let index = 0; index < CALLS_PER_API; index++) {
      const outcome = mutateAndCheck(
        'attention',
        index,
        validAttentionCall,
        ATTENTION_MUTATIONS,
        judgeAttention,
        (result, verdict, label) => {
          assert.ok(result instanceof Float32Array, `${label}: result type`);
          assertMatches(result, attention64(...verdict.inputs, verdict.options), 1e-4, label);
        },
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log('attention() outcomes:', outcomes);
    // The mix must exercise every branch of the oracle, or the suite proves little.
    for (const kind of ['returned', 'TypeError', 'RangeError', 'too big']) {
      assert.ok(outcomes[kind] >= 20, `only ${outcomes[kind] ?? 0} calls ${kind}`);
    }
  });
});
