// trace() with several heads (heads, kvHeads, wOut) through the public entry: one head is
// exactly the single-head trace; every head, the concatenation and W_O match the float64
// reference; and every head agrees with attention() and with onnxAttention() (3-D layout) run
// on the trace's own projections, with grouped-query heads sharing their kv head.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import createAttention from '../../dist/attention.mjs';
import * as article from './article.mjs';
import { maxAbsDiff, multiHeadTrace64 } from './reference64.mjs';
import { randomCall, randomMatrix } from './random-trace.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

const flat = (rows) => rows.flat(Infinity);

function assertClose(actual, expected, tolerance, what) {
  const diff = maxAbsDiff(actual, expected);
  assert.ok(diff <= tolerance, `${what}: differs by ${diff} (tolerance ${tolerance})`);
}

test('one head without wOut is exactly the single-head trace: same fields, same numbers', () => {
  for (const options of [{}, { isCausal: true }, { scale: 1 / Math.sqrt(3) }]) {
    const single = attn.trace({ ...article.args, ...options });
    for (const heads of [{ heads: 1 }, { heads: 1, kvHeads: 1 }]) {
      assert.deepEqual(attn.trace({ ...article.args, ...options, ...heads }), single);
    }
    assert.deepEqual(Object.keys(single), [
      'queries',
      'keys',
      'values',
      'scores',
      'rowMax',
      'exponentials',
      'rowSums',
      'weights',
      'weighted',
      'outputs',
      'mask',
    ]);
  }
});

test('one head with wOut: heads[0] is the single-head trace, outputs are concat . wOut', () => {
  const single = attn.trace(article.args);
  const wOut = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  const t = attn.trace({ ...article.args, wOut });
  assert.deepEqual(Object.keys(t), ['heads', 'concat', 'outputs']);
  assert.deepEqual(t.heads, [single]);
  assert.deepEqual(t.concat, single.outputs);
  const o = single.outputs.data;
  const expected = [0, 1, 2].flatMap((i) => [o[i * 3] + o[i * 3 + 2], o[i * 3 + 1] + o[i * 3 + 2]]);
  assert.deepEqual([t.outputs.rows, t.outputs.cols], [3, 2]);
  assertClose(t.outputs.data, expected, 1e-5, 'outputs');
});

test('the article split into heads: each head sees its own columns and attends differently', () => {
  // wQuery and wKey with 4 columns: two heads of d_k_head = 2; wValue's 4 columns, two heads.
  const w = [
    [1, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 0, 1, 1],
    [0, 1, 1, 0],
  ];
  const t = attn.trace({ x: article.x, wQuery: w, wKey: w, wValue: w, heads: 2 });
  assert.equal(t.heads.length, 2);
  for (const head of t.heads) {
    assert.deepEqual([head.queries.rows, head.queries.cols], [3, 2]);
    assert.deepEqual(head.weighted.dims, [3, 3, 2]);
  }
  // Head 0 projects with columns 0 and 1 of w, head 1 with 2 and 3: token 1 ([1, 0, 1, 0]) asks
  // [1, 0] in head 0 and [2, 1] in head 1.
  assert.deepEqual([...t.heads[0].queries.data.slice(0, 2)], [1, 0]);
  assert.deepEqual([...t.heads[1].queries.data.slice(0, 2)], [2, 1]);
  assert.notDeepEqual(t.heads[0].weights.data, t.heads[1].weights.data);
  assert.deepEqual([t.concat.rows, t.concat.cols], [3, 4]);
  assert.deepEqual(t.outputs, t.concat);
});

test('GQA and MQA: query heads of one group get their kv head keys and values', () => {
  const { args } = randomCall(5);
  const random = seededRandom(6);
  for (const [heads, kvHeads] of [
    [4, 2],
    [4, 1],
    [3, 3],
  ]) {
    const t = attn.trace({
      x: args.x,
      wQuery: randomMatrix(random, args.x.cols, heads * 2),
      wKey: randomMatrix(random, args.x.cols, kvHeads * 2),
      wValue: randomMatrix(random, args.x.cols, kvHeads * 3),
      heads,
      kvHeads,
    });
    const group = heads / kvHeads;
    for (let h = 0; h < heads; h++) {
      const leader = t.heads[Math.floor(h / group) * group];
      assert.deepEqual(t.heads[h].keys, leader.keys, `head ${h} keys`);
      assert.deepEqual(t.heads[h].values, leader.values, `head ${h} values`);
    }
    if (kvHeads > 1) assert.notDeepEqual(t.heads[0].keys, t.heads[group].keys);
  }
});

test('300 random layers (heads 1-4, kvHeads dividing, wOut or not) match the float64 reference', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const { args, shape } = randomCall(seed);
    const t = attn.trace(args);
    const expected = multiHeadTrace64(args);
    const what = `seed ${seed} ${JSON.stringify(shape)} wOut ${args.wOut !== undefined}`;
    const single = shape.heads === 1 && args.wOut === undefined;
    const heads = single ? [t] : t.heads;
    assert.equal(heads.length, shape.heads, what);
    heads.forEach((head, h) => {
      const e = expected.heads[h];
      for (const name of ['queries', 'keys', 'values', 'scores', 'weights', 'outputs']) {
        assertClose(head[name].data, flat(e[name]), 1e-4, `${what} head ${h} ${name}`);
      }
      assertClose(head.weighted.data, flat(e.weighted), 1e-4, `${what} head ${h} weighted`);
    });
    if (!single) assertClose(t.concat.data, flat(expected.concat), 1e-4, `${what} concat`);
    assertClose(t.outputs.data, flat(expected.outputs), 1e-4, `${what} outputs`);
  }
});

/**
 * The trace's per-head projections laid out for attention(): q [1, heads, n, dKHead],
 * k [1, kvHeads, n, dKHead], v [1, kvHeads, n, dVHead] (kv head g read from its first query
 * head, g * group).
 */
function projectionsOf(t, { n, heads, kvHeads, dKHead, dVHead }) {
  const group = heads / kvHeads;
  const q = new Float32Array(heads * n * dKHead);
  const k = new Float32Array(kvHeads * n * dKHead);
  const v = new Float32Array(kvHeads * n * dVHead);
  t.heads.forEach((head, h) => q.set(head.queries.data, h * n * dKHead));
  for (let g = 0; g < kvHeads; g++) {
    k.set(t.heads[g * group].keys.data, g * n * dKHead);
    v.set(t.heads[g * group].values.data, g * n * dVHead);
  }
  return { q, k, v };
}

/** [1, heads, n, d] -> [1, n, heads * d]: ONNX's 3-D layout, each token's heads side by side. */
function toTokenMajor(data, heads, n, d) {
  const out = new Float32Array(data.length);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < n; i++)
      for (let c = 0; c < d; c++) out[(i * heads + h) * d + c] = data[(h * n + i) * d + c];
  return out;
}

test('every head equals attention() and onnxAttention() (3-D) on the same q, k, v', () => {
  for (let seed = 1000; seed < 1100; seed++) {
    const { args, shape } = randomCall(seed);
    const { n, heads, kvHeads, dKHead, dVHead } = shape;
    const t = attn.trace({ ...args, wOut: undefined });
    if (heads === 1) continue; // one head without wOut: the single-head form, tested above
    const { q, k, v } = projectionsOf(t, shape);
    const what = `seed ${seed} ${JSON.stringify(shape)}`;
    const y = attn.attention(q, k, v, {
      qNumHeads: heads,
      kvNumHeads: kvHeads,
      headSize: dKHead,
      vHeadSize: dVHead,
      scale: args.scale,
      isCausal: args.isCausal,
    });
    t.heads.forEach((head, h) => {
      const yHead = y.subarray(h * n * dVHead, (h + 1) * n * dVHead);
      assertClose(head.outputs.data, yHead, 1e-5, `${what} attention() head ${h}`);
    });
    // 3-D: Q is [1, n, heads * dKHead], which is exactly x . wQuery; Y is the concatenation.
    const out = attn.onnxAttention(
      {
        Q: { data: toTokenMajor(q, heads, n, dKHead), dims: [1, n, heads * dKHead] },
        K: { data: toTokenMajor(k, kvHeads, n, dKHead), dims: [1, n, kvHeads * dKHead] },
        V: { data: toTokenMajor(v, kvHeads, n, dVHead), dims: [1, n, kvHeads * dVHead] },
      },
      {
        q_num_heads: heads,
        kv_num_heads: kvHeads,
        scale: args.scale,
        is_causal: args.isCausal ? 1 : 0,
      },
    );
    assert.deepEqual(out.Y.dims, [1, n, heads * dVHead]);
    assertClose(out.Y.data, t.concat.data, 1e-5, `${what} onnxAttention Y vs concat`);
  }
});

test('the per-row softmax fields and the mask are there for every head', () => {
  const { args } = randomCall(77);
  const t = attn.trace({ ...args, heads: 2, kvHeads: 1, ...twoHeads(args), isCausal: true });
  for (const head of t.heads) {
    const n = head.scores.rows;
    assert.ok(head.rowMax instanceof Float32Array && head.rowMax.length === n);
    assert.ok(head.rowSums instanceof Float32Array && head.rowSums.length === n);
    assert.ok(head.mask.data instanceof Uint8Array);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const k = i * n + j;
        assert.equal(head.mask.data[k], j > i ? 1 : 0);
        const expected = head.exponentials.data[k] / head.rowSums[i];
        assert.ok(Math.abs(head.weights.data[k] - expected) <= 1e-6, `weights[${i}][${j}]`);
      }
    }
  }
});

/** Weights for two query heads over one kv head, from the same seeded numbers as `args`. */
function twoHeads(args) {
  const random = seededRandom(78);
  const dIn = args.x.cols;
  return {
    wQuery: randomMatrix(random, dIn, 4),
    wKey: randomMatrix(random, dIn, 2),
    wValue: randomMatrix(random, dIn, 3),
    wOut: undefined,
  };
}
