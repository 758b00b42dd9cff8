// Seeded random hostile trace() calls (trace-calls.mjs), judged as random-attention.test.mjs
// judges attention(): every number of every head checked when valid, the error's kind and wording
// when not, no leak either way.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { multiHeadTrace64 } from '../reference64.mjs';
import { CALLS_PER_API } from './inputs.mjs';
import { TRACE_MUTATIONS, judgeTrace, validTraceCall } from './trace-calls.mjs';
import { assertMatches, mutateAndCheck, useInstance } from './checks.mjs';

useInstance();

describe('seeded random hostile calls', () => {
  test(`${CALLS_PER_API} trace() calls`, () => {
    const outcomes = {};
    let layersReturned = 0; // calls with several heads or W_O whose every number was checked
    for (let index = 0; index < CALLS_PER_API; index++) {
      const outcome = mutateAndCheck(
        'trace',
        index,
        validTraceCall,
        TRACE_MUTATIONS,
        judgeTrace,
        (result, verdict, label) => {
          const expected = multiHeadTrace64(verdict.args64);
          const { n, dKHead, dVHead, heads, single } = verdict.dims;
          assert.equal(result.heads === undefined, single, `${label}: the single-head form`);
          const headResults = single ? [result] : result.heads;
          assert.equal(headResults.length, heads, `${label}: heads`);
          headResults.forEach((head, h) => {
            const where = `${label}: head ${h}`;
            for (const [name, rows, cols] of [
              ['queries', n, dKHead],
              ['keys', n, dKHead],
              ['values', n, dVHead],
              ['scores', n, n],
              ['weights', n, n],
              ['outputs', n, dVHead],
            ]) {
              assert.deepEqual(
                [head[name].rows, head[name].cols],
                [rows, cols],
                `${where} ${name}`,
              );
              const want = expected.heads[h][name].flat();
              assertMatches(head[name].data, want, 1e-4, `${where} ${name}`);
            }
            assert.deepEqual(head.weighted.dims, [n, n, dVHead]);
            const weighted = expected.heads[h].weighted.flat(2);
            assertMatches(head.weighted.data, weighted, 1e-4, `${where} weighted`);
          });
          if (!single) {
            layersReturned += 1;
            assertMatches(result.concat.data, expected.concat.flat(), 1e-4, `${label}: concat`);
            // W_O sums heads * d_v_head products of numbers up to a few units each.
            const tolerance = 1e-4 * heads * dVHead;
            assertMatches(result.outputs.data, expected.outputs.flat(), tolerance, `${label}: out`);
          }
        },
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    console.log('trace() outcomes:', outcomes, 'layers returned:', layersReturned);
    assert.ok(layersReturned >= 20, `only ${layersReturned} multi-head calls returned`);
    for (const kind of ['returned', 'TypeError', 'RangeError', 'too big']) {
      assert.ok(outcomes[kind] >= 20, `only ${outcomes[kind] ?? 0} calls ${kind}`);
    }
  });
});
