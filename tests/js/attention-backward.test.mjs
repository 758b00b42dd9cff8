// attn.attentionBackward through the package entry: the gradients against a float64 backward
// (reference64.mjs), and against central finite differences of attn.attention itself, over
// every option of attn.attention.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { attention64, attentionBackward64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

function randomArray(random, length, spread = 1) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = (random() * 2 - 1) * spread;
  return out;
}

/** q, k, v and gradY for these options, drawn from `seed`. */
function inputs(options, seed, spread = 1) {
  const { batch = 1, qNumHeads, kvNumHeads = qNumHeads, qSeqLen, kvSeqLen, headSize } = options;
  const vHeadSize = options.vHeadSize ?? headSize;
  const random = seededRandom(seed);
  return {
    q: randomArray(random, batch * qNumHeads * qSeqLen * headSize, spread),
    k: randomArray(random, batch * kvNumHeads * kvSeqLen * headSize),
    v: randomArray(random, batch * kvNumHeads * kvSeqLen * vHeadSize),
    gradY: randomArray(random, batch * qNumHeads * qSeqLen * vHeadSize),
  };
}

function assertClose(actual, expected, tolerance, what) {
  assert.ok(actual instanceof Float32Array, `${what} is a Float32Array`);
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tolerance,
      `${what}[${i}]: got ${actual[i]}, expected ${expected[i]}`,
    );
  }
}

function assertMatchesFloat64(options, seed, spread = 1) {
  const { q, k, v, gradY } = inputs(options, seed, spread);
  const got = attn.attentionBackward(q, k, v, gradY, options);
  const want = attentionBackward64(q, k, v, gradY, options);
  for (const name of ['gradQ', 'gradK', 'gradV']) assertClose(got[name], want[name], 3e-5, name);
  return got;
}

// A boolean mask [qSeqLen, kvSeqLen] hiding every key of row `hiddenRow`, and some others.
function booleanMask(qSeqLen, kvSeqLen, hiddenRow) {
  const data = new Uint8Array(qSeqLen * kvSeqLen).fill(1);
  for (let i = 0; i < qSeqLen; i++) {
    for (let j = 0; j < kvSeqLen; j++) {
      if (i === hiddenRow || (i + 2 * j) % 5 === 0) data[i * kvSeqLen + j] = 0;
    }
  }
  return { data, shape: [qSeqLen, kvSeqLen] };
}

test('attentionBackward matches a float64 backward on sizes off the tile grid', () => {
  let seed = 1;
  for (const [qSeqLen, kvSeqLen] of [
    [1, 1],
    [3, 67],
    [70, 5],
    [65, 130],
  ]) {
    for (const isCausal of [false, true]) {
      assertMatchesFloat64(
        { qNumHeads: 2, qSeqLen, kvSeqLen, headSize: 7, vHeadSize: 5, isCausal },
        seed++,
      );
    }
  }
});

test('attentionBackward: GQA and MQA heads sum into their kv head; batch > 1; custom scale', () => {
  assertMatchesFloat64(
    { batch: 2, qNumHeads: 6, kvNumHeads: 2, qSeqLen: 9, kvSeqLen: 13, headSize: 8, scale: 0.3 },
    10,
  );
  assertMatchesFloat64(
    {
      batch: 3,
      qNumHeads: 4,
      kvNumHeads: 1,
      qSeqLen: 17,
      kvSeqLen: 17,
      headSize: 4,
      vHeadSize: 9,
      isCausal: true,
    },
    11,
  );
});

test('attentionBackward applies the softcap by the chain rule', () => {
  const options = {
    qNumHeads: 2,
    kvNumHeads: 1,
    qSeqLen: 8,
    kvSeqLen: 33,
    headSize: 6,
    softcap: 2,
  };
  assertMatchesFloat64(options, 20, 4);
  assertMatchesFloat64({ ...options, isCausal: true }, 21, 4);
});

test('attentionBackward: masked keys pass no gradient and a fully masked row gives zeros', () => {
  const qSeqLen = 6;
  const kvSeqLen = 66;
  const options = {
    batch: 2,
    qNumHeads: 2,
    qSeqLen,
    kvSeqLen,
    headSize: 5,
    vHeadSize: 3,
    attnMask: booleanMask(qSeqLen, kvSeqLen, 2),
  };
  const { gradQ, gradV } = assertMatchesFloat64(options, 30);
  for (let bh = 0; bh < 4; bh++) {
    for (let c = 0; c < 5; c++) assert.equal(gradQ[(bh * qSeqLen + 2) * 5 + c], 0, 'row 2');
  }
  // A key hidden from every row gets no gradient in its k and v rows.
  const data = options.attnMask.data.slice();
  for (let i = 0; i < qSeqLen; i++) data[i * kvSeqLen + 10] = 0;
  const { q, k, v, gradY } = inputs(options, 31);
  const masked = attn.attentionBackward(q, k, v, gradY, {
    ...options,
    attnMask: { data, shape: [qSeqLen, kvSeqLen] },
  });
  for (let bh = 0; bh < 4; bh++) {
    for (let c = 0; c < 3; c++) assert.equal(masked.gradV[(bh * kvSeqLen + 10) * 3 + c], 0);
    for (let c = 0; c < 5; c++) assert.equal(masked.gradK[(bh * kvSeqLen + 10) * 5 + c], 0);
  }
  assert.ok(gradV.some((x) => x !== 0));
});

test('attentionBackward with an additive mask broadcast over batch and query rows', () => {
  const random = seededRandom(40);
  const data = randomArray(random, 4 * 11, 2);
  data[3] = -Infinity;
  assertMatchesFloat64(
    {
      batch: 2,
      qNumHeads: 4,
      kvNumHeads: 2,
      qSeqLen: 7,
      kvSeqLen: 11,
      headSize: 4,
      vHeadSize: 9,
      isCausal: true,
      attnMask: { data, shape: [4, 1, 11] },
    },
    41,
  );
});

test('attentionBackward agrees with central finite differences of attn.attention', () => {
  // Every option at once, small; L = sum(gradY o attention(q, k, v)), in float64 from the
  // float32 outputs, so the nudge is large (float32 rounding) and the tolerance loose.
  const options = {
    batch: 2,
    qNumHeads: 4,
    kvNumHeads: 2,
    qSeqLen: 3,
    kvSeqLen: 5,
    headSize: 3,
    vHeadSize: 2,
    isCausal: true,
    softcap: 1.5,
    attnMask: { data: new Float32Array([0, -1, 0.5, 0, 0.25]), shape: [5] },
  };
  const { q, k, v, gradY } = inputs(options, 50);
  const loss = (qq, kk, vv) => {
    const y = attn.attention(qq, kk, vv, options);
    let sum = 0;
    for (let i = 0; i < y.length; i++) sum += gradY[i] * y[i];
    return sum;
  };
  const grads = attn.attentionBackward(q, k, v, gradY, options);
  const h = 1 / 64;
  for (const [name, tensor, grad] of [
    ['q', q, grads.gradQ],
    ['k', k, grads.gradK],
    ['v', v, grads.gradV],
  ]) {
    for (let i = 0; i < tensor.length; i++) {
      const nudged = (delta) => {
        const copy = tensor.slice();
        copy[i] += delta;
        return copy;
      };
      const args = (t) => (name === 'q' ? [t, k, v] : name === 'k' ? [q, t, v] : [q, k, t]);
      const numeric = (loss(...args(nudged(h))) - loss(...args(nudged(-h)))) / (2 * h);
      assert.ok(
        Math.abs(numeric - grad[i]) <= 2e-3,
        `d L / d ${name}[${i}]: finite differences ${numeric}, attentionBackward ${grad[i]}`,
      );
    }
  }
});

test('attentionBackward gives fresh arrays and leaves its inputs alone', () => {
  const options = { qNumHeads: 1, qSeqLen: 4, kvSeqLen: 4, headSize: 4 };
  const { q, k, v, gradY } = inputs(options, 60);
  const copies = [q, k, v, gradY].map((a) => a.slice());
  const first = attn.attentionBackward(q, k, v, gradY, options);
  const second = attn.attentionBackward(q, k, v, gradY, options);
  assert.notEqual(first.gradQ.buffer, second.gradQ.buffer);
  assert.deepEqual(first, second);
  assert.deepEqual([q, k, v, gradY], copies);
  // The yardstick's forward is attn.attention's: the backward's float64 twin differentiates
  // the same function the wasm forward computes.
  assertClose(attn.attention(q, k, v, options), attention64(q, k, v, options), 1e-5, 'y');
});

test('attentionBackward leaks nothing: 200 calls keep allocatedBytes and wasm memory flat', () => {
  const options = { qNumHeads: 4, kvNumHeads: 2, qSeqLen: 33, kvSeqLen: 40, headSize: 8 };
  const { q, k, v, gradY } = inputs(options, 70);
  attn.attentionBackward(q, k, v, gradY, options); // warm-up: the first growth
  const before = attn.memoryStats();
  for (let i = 0; i < 200; i++) attn.attentionBackward(q, k, v, gradY, options);
  assert.deepEqual(attn.memoryStats(), before);
});
