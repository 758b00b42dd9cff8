// attn.createKvCache(): the resident key/value cache. A cache grown step by step (past its
// capacity, several times) attends exactly as full causal attention over the whole prefix
// (float64 reference) and as onnxAttention with past_* / present_*; it hands its rows back as
// ONNX present_* tensors and can start from them; every bad argument is a TypeError or
// RangeError naming it; a freed cache refuses use; nothing leaks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { onnxAttention64 } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

function randoms(next, length) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = next() * 2 - 1;
  return out;
}

/** Rows [from, to) of every head of x (heads, total, size), as (heads, to - from, size). */
function rowsOf(x, heads, total, size, from, to) {
  const out = new Float32Array(heads * (to - from) * size);
  for (let h = 0; h < heads; h++) {
    out.set(x.subarray((h * total + from) * size, (h * total + to) * size), h * (to - from) * size);
  }
  return out;
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
    if (Number.isNaN(actual[i])) assert.fail(`${what}: NaN at ${i}`);
  }
  assert.ok(worst <= tolerance, `${what}: max |difference| ${worst} > ${tolerance}`);
}

const tensor = (data, dims) => ({ type: 'float32', data, dims });

describe('a cache grown across 300 tokens', () => {
  // Batch 2, 6 query heads sharing 2 kv heads, odd head sizes; steps of 1 to 3 new tokens
  // (a prompt's tail, then decoding), starting from capacity 7 so it grows several times.
  const [B, Hq, Hkv, D, Dv, total] = [2, 6, 2, 5, 3, 300];
  const next = seededRandom(300);
  const keys = randoms(next, B * Hkv * total * D);
  const values = randoms(next, B * Hkv * total * Dv);
  const attributes = { is_causal: 1, scale: 0.45 };

  test('equals full causal attention over the prefix and onnxAttention with past/present', () => {
    const cache = attn.createKvCache({
      batch: B,
      kvNumHeads: Hkv,
      headSize: D,
      vHeadSize: Dv,
      capacity: 7,
    });
    let past = null; // onnxAttention's present_* of the previous step
    let t = 0;
    let steps = 0;
    const capacities = new Set();
    while (t < total) {
      const S = Math.min((steps % 3) + 1, total - t);
      const kNew = rowsOf(keys, B * Hkv, total, D, t, t + S);
      const vNew = rowsOf(values, B * Hkv, total, Dv, t, t + S);
      const q = randoms(next, B * Hq * S * D);
      assert.equal(cache.append(kNew, vNew), t + S);
      t += S;
      steps += 1;
      assert.equal(cache.length, t);
      capacities.add(cache.capacity);
      const y = cache.attend(q, { qNumHeads: Hq, scale: 0.45 });

      const inputs = {
        Q: tensor(q, [B, Hq, S, D]),
        K: tensor(kNew, [B, Hkv, S, D]),
        V: tensor(vNew, [B, Hkv, S, Dv]),
      };
      if (past) Object.assign(inputs, past);
      // The float64 reference over the whole prefix: the past rows, then the new ones.
      const want = onnxAttention64(inputs, attributes);
      assertClose(y, want.Y.data, 2e-6, `Y at t = ${t}`);
      const onnx = attn.onnxAttention(inputs, attributes, ['Y', 'present_key', 'present_value']);
      assertClose(y, onnx.Y.data, 1e-6, `Y against onnxAttention at t = ${t}`);
      past = { past_key: onnx.present_key, past_value: onnx.present_value };
      if (steps % 40 === 0 || t === total) {
        assert.deepEqual(cache.presentKey(), onnx.present_key);
        assert.deepEqual(cache.presentValue(), onnx.present_value);
      }
    }
    assert.ok(steps > 140, 'many steps');
    assert.ok(capacities.size >= 4, `grew several times: ${[...capacities].join(', ')}`);
    cache.free();
  });
});

describe('the decode path on odd sizes', () => {
  // One query row per query head against caches up to a few thousand rows: grouped (4:1) and
  // multi-query, head sizes that leave every SIMD tail, started from ONNX past tensors.
  for (const [Hq, Hkv, D, Dv, P] of [
    [4, 1, 1, 3, 1],
    [8, 2, 65, 65, 130],
    [3, 3, 127, 33, 2047],
    [16, 2, 3, 128, 700],
  ]) {
    test(`${Hq}q/${Hkv}kv heads, D = ${D}, Dv = ${Dv}, ${P} cached rows`, () => {
      const next = seededRandom(Hq * 1000 + D + P);
      const pastKey = tensor(randoms(next, Hkv * P * D), [1, Hkv, P, D]);
      const pastValue = tensor(randoms(next, Hkv * P * Dv), [1, Hkv, P, Dv]);
      const cache = attn.createKvCache({ pastKey, pastValue });
      assert.equal(cache.length, P);
      const k = randoms(next, Hkv * D);
      const v = randoms(next, Hkv * Dv);
      const q = randoms(next, Hq * D);
      cache.append(k, v);
      const y = cache.attend(q, { qNumHeads: Hq });
      const want = onnxAttention64(
        {
          Q: tensor(q, [1, Hq, 1, D]),
          K: tensor(k, [1, Hkv, 1, D]),
          V: tensor(v, [1, Hkv, 1, Dv]),
          past_key: pastKey,
          past_value: pastValue,
        },
        { is_causal: 1 },
      );
      assertClose(y, want.Y.data, 2e-6, 'Y');
      cache.free();
    });
  }

  test('softcap, a left window, and isCausal: false are honoured', () => {
    const [Hq, Hkv, D, P, S] = [4, 2, 9, 200, 3];
    const next = seededRandom(77);
    const pastKey = tensor(randoms(next, Hkv * P * D), [1, Hkv, P, D]);
    const pastValue = tensor(randoms(next, Hkv * P * D), [1, Hkv, P, D]);
    const k = randoms(next, Hkv * S * D);
    const v = randoms(next, Hkv * S * D);
    const q = randoms(next, Hq * S * D);
    const inputs = {
      Q: tensor(q, [1, Hq, S, D]),
      K: tensor(k, [1, Hkv, S, D]),
      V: tensor(v, [1, Hkv, S, D]),
      past_key: pastKey,
      past_value: pastValue,
    };
    const cache = attn.createKvCache({ pastKey, pastValue, capacity: 1000 });
    cache.append(k, v);
    const cases = [
      [
        { softcap: 0.7, scale: 2 },
        { is_causal: 1, softcap: 0.7, scale: 2 },
      ],
      [{ leftWindow: 17 }, { is_causal: 1, left_window_size: 17 }],
      [{ isCausal: false }, {}],
    ];
    for (const [options, attributes] of cases) {
      const y = cache.attend(q, { qNumHeads: Hq, ...options });
      assertClose(y, onnxAttention64(inputs, attributes).Y.data, 2e-6, JSON.stringify(options));
    }
    cache.free();
  });

  test('truncate() rolls rejected draft rows back: the next step sees only the kept rows', () => {
    const next = seededRandom(5);
    const [Hkv, D] = [2, 8];
    const cache = attn.createKvCache({ kvNumHeads: Hkv, headSize: D, capacity: 4 });
    const rows = randoms(next, Hkv * 10 * D);
    cache.append(rowsOf(rows, Hkv, 10, D, 0, 6), rowsOf(rows, Hkv, 10, D, 0, 6));
    const kept = cache.presentKey();
    cache.append(rowsOf(rows, Hkv, 10, D, 6, 10), rowsOf(rows, Hkv, 10, D, 6, 10));
    cache.truncate(6);
    assert.equal(cache.length, 6);
    assert.deepEqual(cache.presentKey(), kept);
    cache.free();
  });
});

describe('hostile arguments', () => {
  const make = () => attn.createKvCache({ kvNumHeads: 2, headSize: 4, capacity: 8 });
  const f32 = (n) => new Float32Array(n);

  test('createKvCache refuses bad options, naming them', () => {
    assert.throws(() => attn.createKvCache(), { name: 'TypeError', message: /options must be/ });
    assert.throws(() => attn.createKvCache({ headSize: 4 }), {
      name: 'TypeError',
      message: /kvNumHeads is missing/,
    });
    assert.throws(() => attn.createKvCache({ kvNumHeads: 2, headSize: 4, capacity: 0 }), {
      name: 'RangeError',
      message: /capacity must be a positive integer, got 0/,
    });
    assert.throws(() => attn.createKvCache({ kvNumHeads: 2.5, headSize: 4 }), {
      name: 'RangeError',
      message: /kvNumHeads/,
    });
    assert.throws(() => attn.createKvCache({ kvNumHeads: 2, headSize: 4, heads: 3 }), {
      name: 'TypeError',
      message: /unknown option 'heads'/,
    });
    assert.throws(() => attn.createKvCache({ __proto__: { kvNumHeads: 2 }, headSize: 4 }), {
      name: 'TypeError',
      message: /'kvNumHeads' is inherited/,
    });
    assert.throws(() => attn.createKvCache({ kvNumHeads: 64, headSize: 4096, capacity: 2 ** 20 }), {
      name: 'RangeError',
      message: /capacity: .* more than the .* wasm memory can hold/,
    });
    const pastKey = tensor(f32(2 * 3 * 4), [1, 2, 3, 4]);
    assert.throws(() => attn.createKvCache({ pastKey }), {
      name: 'TypeError',
      message: /pastValue is missing/,
    });
    assert.throws(
      () => attn.createKvCache({ pastKey, pastValue: tensor(f32(2 * 2 * 4), [1, 2, 2, 4]) }),
      { name: 'RangeError', message: /pastValue.dims must be .* \[1, 2, 3, 4\]/ },
    );
    assert.throws(() => attn.createKvCache({ pastKey, pastValue: pastKey, headSize: 8 }), {
      name: 'RangeError',
      message: /headSize is 8 but the past tensors say 4/,
    });
    assert.throws(
      () =>
        attn.createKvCache({
          pastKey: { type: 'float16', data: new Uint16Array(24), dims: [1, 2, 3, 4] },
          pastValue: pastKey,
        }),
      { name: 'TypeError', message: /pastKey.type must be 'float32'/ },
    );
    assert.throws(
      () => attn.createKvCache({ pastKey: tensor(f32(5), [1, 2, 3, 4]), pastValue: pastKey }),
      { name: 'RangeError', message: /pastKey.data must hold 1 \* 2 \* 3 \* 4 = 24 values/ },
    );
    assert.throws(() => attn.createKvCache({ pastKey, pastValue: pastKey, capacity: 2 }), {
      name: 'RangeError',
      message: /capacity must hold the 3 rows of pastKey/,
    });
  });

  test('append and attend refuse bad tensors and options, naming them', () => {
    const cache = make();
    assert.throws(() => cache.append([1, 2], f32(8)), {
      name: 'TypeError',
      message: /^k must be a Float32Array/,
    });
    assert.throws(() => cache.append(f32(8), new Float64Array(8)), {
      name: 'TypeError',
      message: /^v must be a Float32Array/,
    });
    assert.throws(() => cache.append(f32(7), f32(7)), {
      name: 'RangeError',
      message: /^k must hold .* a positive multiple of 8; got 7/,
    });
    assert.throws(() => cache.append(f32(16), f32(8)), {
      name: 'RangeError',
      message: /^v must hold .* = 16 numbers \(k has 2 new rows\), got 8/,
    });
    assert.equal(cache.length, 0, 'a refused append changes nothing');
    assert.throws(() => cache.attend(f32(8)), {
      name: 'RangeError',
      message: /the cache is empty/,
    });
    cache.append(f32(8), f32(8));
    assert.throws(() => cache.attend(f32(16)), {
      name: 'RangeError',
      message: /q has 2 query rows but the cache holds 1/,
    });
    assert.throws(() => cache.attend(f32(12), { qNumHeads: 3 }), {
      name: 'RangeError',
      message: /qNumHeads must be a multiple of the cache's kvNumHeads 2/,
    });
    assert.throws(() => cache.attend(f32(8), { scale: 1e39 }), {
      name: 'RangeError',
      message: /scale must be a finite float32/,
    });
    assert.throws(() => cache.attend(f32(8), { softcap: -1 }), {
      name: 'RangeError',
      message: /softcap must be 0/,
    });
    assert.throws(() => cache.attend(f32(8), { isCausal: 1 }), {
      name: 'TypeError',
      message: /isCausal must be a boolean/,
    });
    assert.throws(() => cache.attend(f32(8), { leftWindow: -2 }), {
      name: 'RangeError',
      message: /leftWindow must be -1/,
    });
    assert.throws(() => cache.attend(f32(8), { window: 2 }), {
      name: 'TypeError',
      message: /unknown option 'window'/,
    });
    assert.throws(() => cache.attend(f32(8), null), {
      name: 'TypeError',
      message: /options must be an object/,
    });
    assert.throws(() => cache.truncate(5), { name: 'RangeError', message: /from 0 to the 1 rows/ });
    assert.throws(() => cache.truncate('1'), { name: 'TypeError', message: /length must be/ });
    cache.free();
  });

  test('arguments are read once: a getter runs once, an own length is ignored', () => {
    const cache = make();
    cache.append(f32(8), f32(8));
    let reads = 0;
    const options = {
      get qNumHeads() {
        reads += 1;
        return reads === 1 ? 2 : 4;
      },
    };
    const y = cache.attend(f32(8), options);
    assert.equal(reads, 1);
    assert.equal(y.length, 8);
    const liar = f32(8);
    Object.defineProperty(liar, 'length', { value: 1e6 });
    assert.equal(cache.append(liar, f32(8)), 2);
    cache.free();
  });

  // Issue 29: attend took the cache's handle before it read its options, so a getter that
  // freed the cache made it run on freed memory, there the memory of a cache made since (it
  // returned that cache's values). Every argument is read first; the handle is taken last.
  test('an option getter that frees the cache: attend refuses, never reads freed memory', () => {
    const cache = make();
    cache.append(f32(8), f32(8));
    let other = null;
    const options = {
      get scale() {
        cache.free();
        other = make();
        other.append(f32(8).fill(7), f32(8).fill(7));
        return 0.5;
      },
    };
    assert.throws(() => cache.attend(f32(8), options), {
      name: 'TypeError',
      message: /KvCache\.attend: this cache has been freed/,
    });
    assert.ok(other !== null, 'the getter ran');
    assert.equal(other.length, 1, 'the other cache is untouched');
    other.free();
  });

  test('a freed cache refuses every use with a TypeError that says so', () => {
    const cache = make();
    cache.free();
    assert.equal(cache.freed, true);
    for (const use of [
      () => cache.append(f32(8), f32(8)),
      () => cache.attend(f32(8)),
      () => cache.presentKey(),
      () => cache.presentValue(),
      () => cache.reset(),
      () => cache.truncate(0),
      () => cache.length,
      () => cache.capacity,
    ]) {
      assert.throws(use, { name: 'TypeError', message: /this cache has been freed/ });
    }
    cache.free(); // a second free is harmless
    cache[Symbol.dispose]();
  });
});

describe('memory', () => {
  test('caches created, grown, used and freed leave the heap as it was', () => {
    const next = seededRandom(9);
    const k = randoms(next, 3 * 16);
    const q = randoms(next, 6 * 16);
    const before = attn.memoryStats().allocatedBytes;
    for (let i = 0; i < 50; i++) {
      const cache = attn.createKvCache({ kvNumHeads: 3, headSize: 16, capacity: 2 });
      for (let step = 0; step < 20; step++) {
        cache.append(k, k);
        cache.attend(q, { qNumHeads: 6 });
      }
      cache.presentKey();
      if (i % 2) cache.free();
      else cache[Symbol.dispose]();
    }
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });

  test('steps on a live cache allocate nothing that stays', () => {
    const cache = attn.createKvCache({ kvNumHeads: 2, headSize: 8, capacity: 1000 });
    const k = new Float32Array(16).fill(0.5);
    const q = new Float32Array(16).fill(0.25);
    cache.append(k, k);
    const baseline = attn.memoryStats();
    for (let i = 0; i < 500; i++) {
      cache.append(k, k);
      cache.attend(q);
    }
    assert.deepEqual(attn.memoryStats(), baseline);
    assert.throws(() => cache.attend(q, { qNumHeads: 4 }), RangeError);
    assert.deepEqual(attn.memoryStats(), baseline, 'a refused call leaks nothing either');
    cache.free();
  });
});
