// trace({ ..., gradOutputs }) -> t.grad: the gradient of every intermediate, through the public
// entry. Against the float64 reference (trace-grad64.mjs) and against central differences of
// trace() itself; one head and several (GQA, wOut), causal or not; the article's learning step.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import createAttention from '../../dist/attention.mjs';
import * as article from './article.mjs';
import { maxAbsDiff } from './reference64.mjs';
import { randomCall, randomMatrix } from './random-trace.mjs';
import { seededRandom } from './seeded-random.mjs';
import { traceGrad64 } from './trace-grad64.mjs';

const attn = await createAttention();

/** A random layer (random-trace.mjs) with a gradOutputs of its outputs' shape. */
function randomGradCall(seed, options) {
  const { args, shape, random } = randomCall(seed, options);
  const cols = args.wOut ? shape.dOut : shape.heads * shape.dVHead;
  return { ...args, gradOutputs: randomMatrix(random, shape.n, cols) };
}

/** number[][] as { rows, cols, data }. */
const asMatrix = (rows) => ({
  rows: rows.length,
  cols: rows[0].length,
  data: Float32Array.from(rows.flat()),
});

const flat = (m) => (Array.isArray(m) ? m.flat(Infinity) : [...m.data]);

function assertClose(actual, expected, tolerance, what) {
  const diff = maxAbsDiff(flat(actual), flat(expected));
  assert.ok(diff <= tolerance, `${what}: differs by ${diff} (tolerance ${tolerance})`);
}

/** Every gradient of t.grad (and of each head's) against the float64 reference. */
function assertMatchesReference(t, args, tolerance, label) {
  const expected = traceGrad64(args);
  const { heads: expectedHeads, ...whole } = expected;
  assert.deepEqual(Object.keys(t.grad), Object.keys(whole), `${label}: t.grad's fields`);
  for (const [name, want] of Object.entries(whole)) {
    assertClose(t.grad[name], want, tolerance, `${label}: grad.${name}`);
  }
  for (const [h, head] of (expectedHeads ?? []).entries()) {
    assert.deepEqual(Object.keys(t.heads[h].grad), Object.keys(head));
    for (const [name, want] of Object.entries(head)) {
      assertClose(t.heads[h].grad[name], want, tolerance, `${label}: heads[${h}].grad.${name}`);
    }
  }
}

test('the article: one step against the gradient moves output 1 toward a target', () => {
  // loss = 1/2 |output_1 - target|^2: gradOutputs is output_1 - target in row 1, 0 below.
  const target = [2, 7, 2];
  const eta = 0.01;
  const before = attn.trace(article.args).outputs.data;
  const gradOutputs = [target.map((y, c) => before[c] - y), [0, 0, 0], [0, 0, 0]];
  const t = attn.trace({ ...article.args, gradOutputs });
  assert.deepEqual([...t.grad.outputs.data], gradOutputs.flat().map(Math.fround));
  const step = (w, grad) => w.map((row, i) => row.map((x, j) => x - eta * grad.data[i * 3 + j]));
  const moved = {
    x: article.x,
    wQuery: step(article.wQuery, t.grad.wQuery),
    wKey: step(article.wKey, t.grad.wKey),
    wValue: step(article.wValue, t.grad.wValue),
  };
  const after = attn.trace(moved).outputs.data;
  const distance = (o) => Math.hypot(...target.map((y, c) => o[c] - y));
  assert.ok(
    distance(after) < distance(before),
    `distance to the target ${distance(before)} -> ${distance(after)}`,
  );
  // Token 2 and 3's outputs had no say in the loss; their gradient is 0, not their change.
  assert.deepEqual([...t.grad.outputs.data.slice(3)], [0, 0, 0, 0, 0, 0]);
});

test('without gradOutputs nothing changes; with it, the values are the same and grad is added', () => {
  for (const args of [article.args, randomGradCall(3, { heads: 4, withWOut: true })]) {
    const { gradOutputs, ...plain } = args;
    const without = attn.trace(plain);
    assert.equal(without.grad, undefined);
    const { grad, heads, ...values } = attn.trace(
      gradOutputs
        ? args
        : {
            ...args,
            gradOutputs: [
              [1, 0, 0],
              [0, 1, 0],
              [0, 0, 1],
            ],
          },
    );
    assert.ok(grad);
    const { heads: plainHeads, ...plainValues } = without;
    assert.deepEqual(values, plainValues);
    for (const [h, head] of (heads ?? []).entries()) {
      const { grad: headGrad, ...headValues } = head;
      assert.ok(headGrad, `heads[${h}].grad`);
      assert.deepEqual(headValues, plainHeads[h]);
    }
  }
});

test('one head: every gradient matches the float64 reference, causal or not, either matrix form', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const args = randomGradCall(seed, { heads: 1, withWOut: false });
    const t = attn.trace(args);
    assertMatchesReference(t, args, 2e-5, `seed ${seed}`);
    assert.deepEqual(t.grad.weighted.dims, [args.x.rows, args.x.rows, args.wValue.cols]);
    if (args.isCausal) {
      const n = args.x.rows;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) assert.equal(t.grad.scores.data[i * n + j], 0);
      }
    }
    // number[][] gives the same as { rows, cols, data }.
    const nested = Array.from({ length: args.gradOutputs.rows }, (_, i) =>
      Array.from(
        args.gradOutputs.data.subarray(i * args.gradOutputs.cols, (i + 1) * args.gradOutputs.cols),
      ),
    );
    assert.deepEqual(attn.trace({ ...args, gradOutputs: nested }).grad, t.grad);
  }
});

test('several heads with GQA and wOut: each head and the layer match the float64 reference', () => {
  for (let seed = 100; seed < 200; seed++) {
    const args = randomGradCall(seed);
    const t = attn.trace(args);
    assertMatchesReference(t, args, 5e-5, `seed ${seed}`);
  }
});

/**
 * Central differences of loss = sum(gradOutputs (.) outputs) through trace() itself (float32),
 * against t.grad, for every cell of every input and weight.
 */
function assertCentralDifferences(args, label) {
  const g = flat(args.gradOutputs);
  const loss = (changed) => {
    const o = attn.trace({ ...args, ...changed, gradOutputs: undefined }).outputs.data;
    return o.reduce((sum, x, i) => sum + x * g[i], 0);
  };
  const t = attn.trace(args);
  const h = 1e-2;
  for (const name of ['x', 'wQuery', 'wKey', 'wValue', 'wOut']) {
    if (args[name] === undefined) continue;
    const m = args[name];
    for (let i = 0; i < m.data.length; i++) {
      const at = (delta) => {
        const data = Float32Array.from(m.data);
        data[i] += delta;
        return loss({ [name]: { ...m, data } });
      };
      const numeric = (at(h) - at(-h)) / (2 * h);
      const got = t.grad[name].data[i];
      assert.ok(
        Math.abs(got - numeric) <= 2e-3 * (1 + Math.abs(numeric)),
        `${label}: grad.${name}[${i}] is ${got}, central differences give ${numeric}`,
      );
    }
  }
}

test('central differences of trace() itself: one head, causal and not', () => {
  for (const seed of [11, 12, 13, 14]) {
    const args = randomGradCall(seed, { heads: 1, withWOut: false });
    assertCentralDifferences(args, `seed ${seed}`);
  }
  const matrices = Object.fromEntries(
    ['x', 'wQuery', 'wKey', 'wValue'].map((name) => [name, asMatrix(article[name])]),
  );
  const gradOutputs = asMatrix([
    [1, -1, 0.5],
    [0.25, 0, -2],
    [1, 1, 1],
  ]);
  const options = { scale: 1 / Math.sqrt(3), isCausal: true, gradOutputs };
  assertCentralDifferences({ ...matrices, ...options }, 'the article, scaled, causal');
});

test('central differences of trace() itself: several heads, GQA, wOut, causal', () => {
  const random = seededRandom(21);
  const [n, dIn] = [4, 3];
  const args = {
    x: randomMatrix(random, n, dIn),
    wQuery: randomMatrix(random, dIn, 4 * 2),
    wKey: randomMatrix(random, dIn, 2 * 2),
    wValue: randomMatrix(random, dIn, 2 * 3),
    wOut: randomMatrix(random, 4 * 3, 2),
    heads: 4,
    kvHeads: 2,
    scale: 0.7,
    isCausal: true,
    gradOutputs: randomMatrix(random, n, 2),
  };
  assertCentralDifferences(args, 'heads 4, kvHeads 2, wOut');
  const t = attn.trace(args);
  // The query heads of one group show their kv head's one gradient.
  assert.deepEqual(t.heads[0].grad.keys, t.heads[1].grad.keys);
  assert.deepEqual(t.heads[2].grad.values, t.heads[3].grad.values);
  assert.notDeepEqual(t.heads[1].grad.keys, t.heads[2].grad.keys);
  assertCentralDifferences(
    { ...args, wOut: undefined, gradOutputs: randomMatrix(random, n, 4 * 3) },
    'heads 4, kvHeads 2, no wOut',
  );
});

test('gradients allocate nothing that outlives the call', () => {
  const before = attn.memoryStats().allocatedBytes;
  for (let seed = 300; seed < 340; seed++) attn.trace(randomGradCall(seed));
  assert.equal(attn.memoryStats().allocatedBytes, before);
});
