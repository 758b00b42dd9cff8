// attn.attentionBackward against bad and hostile input: every refusal is a named TypeError /
// RangeError that names the argument, leaks nothing and leaves the instance working; NaN and
// Infinity propagate instead of throwing; each argument is read once.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import { attentionBackward64 } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';

const attn = await createAttention();
const random = seededRandom(0xbac0001);
const floats = (n) => Float32Array.from({ length: n }, () => random() * 2 - 1);

// Two query heads sharing one kv head, 3 queries, 5 keys, D = 4, Dv = 3.
const base = { qNumHeads: 2, kvNumHeads: 1, headSize: 4, vHeadSize: 3 };
const q = floats(2 * 3 * 4);
const k = floats(5 * 4);
const v = floats(5 * 3);
const gradY = floats(2 * 3 * 3);
const expected = attentionBackward64(q, k, v, gradY, base);

function assertStillWorks() {
  const got = attn.attentionBackward(q, k, v, gradY, base);
  for (const name of ['gradQ', 'gradK', 'gradV']) {
    for (let i = 0; i < expected[name].length; i++) {
      assert.ok(Math.abs(got[name][i] - expected[name][i]) < 1e-5, `${name}[${i}] afterwards`);
    }
  }
}

/** call() throws an ErrorType whose message names `name`, leaks nothing; the instance works. */
function assertRefusesNaming(call, ErrorType, name, pattern = /./) {
  const before = attn.memoryStats();
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.ok(error.message.includes(name), `"${error.message}" names ${name}`);
    assert.match(error.message, pattern);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, before.allocatedBytes, 'nothing leaked');
  assertStillWorks();
}

test('wrong lengths: a RangeError naming the argument, expected vs given', () => {
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, floats(17), base),
    RangeError,
    'gradY',
    /18 numbers.*got 17/,
  );
  assertRefusesNaming(() => attn.attentionBackward(q, k, v, floats(19), base), RangeError, 'gradY');
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, floats(14), gradY, base),
    RangeError,
    'v',
    /15 numbers, got 14/,
  );
  assertRefusesNaming(() => attn.attentionBackward(q, floats(21), v, gradY, base), RangeError, 'k');
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, gradY, { ...base, kvNumHeads: 3 }),
    RangeError,
    'kvNumHeads',
  );
});

test('wrong types and options: a TypeError naming the argument', () => {
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, Array.from(gradY), base),
    TypeError,
    'gradY',
    /Float32Array/,
  );
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, new Float64Array(18), base),
    TypeError,
    'gradY',
  );
  assertRefusesNaming(() => attn.attentionBackward(q, k, v, gradY), TypeError, 'options');
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, gradY, { ...base, lr: 0.1 }),
    TypeError,
    "attentionBackward: unknown option 'lr'",
  );
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, gradY, { ...base, out: new Float32Array(18) }),
    TypeError,
    'out',
  );
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, gradY, { ...base, attnMask: { data: [1], shape: [1] } }),
    TypeError,
    'attnMask.data',
  );
});

test('NaN and Infinity propagate as IEEE arithmetic does; nothing throws', () => {
  const nanQ = q.slice();
  nanQ[0] = NaN; // query 0 of head 0
  const a = attn.attentionBackward(nanQ, k, v, gradY, base);
  assert.ok(Number.isNaN(a.gradQ[0]), 'its own row of gradQ');
  assert.ok(a.gradK.some(Number.isNaN), 'every key it saw');
  assert.ok(Number.isFinite(a.gradQ[3 * 4]), 'query 0 of head 1 is untouched');
  const infGrad = gradY.slice();
  infGrad[0] = Infinity;
  const b = attn.attentionBackward(q, k, v, infGrad, base);
  assert.ok(
    b.gradV.some((x) => !Number.isFinite(x)),
    'gradV carries the infinity',
  );
  assertStillWorks();
});

test('detached buffers: a TypeError naming the argument', () => {
  const detach = (array) => {
    structuredClone(array.buffer, { transfer: [array.buffer] });
    return array;
  };
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, detach(gradY.slice()), base),
    TypeError,
    'gradY',
    /detached/,
  );
  assertRefusesNaming(
    () => attn.attentionBackward(detach(q.slice()), k, v, gradY, base),
    TypeError,
    'q',
    /detached/,
  );
  const attnMask = { data: detach(new Uint8Array(5)), shape: [5] };
  assertRefusesNaming(
    () => attn.attentionBackward(q, k, v, gradY, { ...base, attnMask }),
    TypeError,
    'attnMask',
    /detached/,
  );
});

test('getters that change between reads: each option read once, buffers measured after', () => {
  // An option getter that shrinks gradY's resizable buffer runs before gradY is measured,
  // so the shrunk length is what is checked (and refused), never a stale one copied.
  for (const victim of ['gradY', 'q']) {
    const source = victim === 'gradY' ? gradY : q;
    const buffer = new ArrayBuffer(source.length * 4, { maxByteLength: source.length * 4 });
    const array = new Float32Array(buffer);
    array.set(source);
    const options = {
      ...base,
      get scale() {
        buffer.resize(4);
        return 0.5;
      },
    };
    const args = victim === 'gradY' ? [q, k, v, array] : [array, k, v, gradY];
    assertRefusesNaming(() => attn.attentionBackward(...args, options), RangeError, victim);
  }
  // A getter answering differently each time is read once: its first answer is used.
  let reads = 0;
  const options = {
    ...base,
    get isCausal() {
      reads++;
      return reads === 1;
    },
  };
  const got = attn.attentionBackward(q, k, v, gradY, options);
  assert.equal(reads, 1);
  const want = attentionBackward64(q, k, v, gradY, { ...base, isCausal: true });
  for (let i = 0; i < want.gradQ.length; i++)
    assert.ok(Math.abs(got.gradQ[i] - want.gradQ[i]) < 1e-5);
});

test('working memory past 4 GiB is counted whole (not wrapped by wasm32) and refused up front', () => {
  // One query against 9,336,896 keys of size 1: small tensors (36 MiB each), but the one-pass
  // backward's scratch grows with the keys (its scores, P and dS tiles are 32 rows wide), to
  // just past 2^32 bytes, where a 32-bit count wraps to a few KiB and would pass the fit check.
  const keys = 9_336_896;
  const k = new Float32Array(keys).fill(0.2);
  const before = attn.memoryStats();
  assert.throws(
    () =>
      attn.attentionBackward(new Float32Array([0.1]), k, k, new Float32Array([1]), {
        qNumHeads: 1,
        headSize: 1,
      }),
    (error) =>
      error instanceof RangeError &&
      /attentionBackward: .*\(plus [4-9]\.\d GiB of working memory\)/.test(error.message),
  );
  assert.deepEqual(attn.memoryStats(), before);
  assertStillWorks();
});

test('a request past the wasm memory limit is refused up front, nothing allocated', () => {
  // One zeroed array of 80 Mi floats serves as q, k, v and gradY (its pages are never
  // touched): attention() would need 1.25 GiB for it, the backward 2.2 GiB with the gradients.
  const n = 80 * 1024 * 1024;
  const big = new Float32Array(n);
  const before = attn.memoryStats();
  assert.throws(
    () => attn.attentionBackward(big, big, big, big, { qNumHeads: 1, headSize: 64 }),
    (error) =>
      error instanceof RangeError &&
      /attentionBackward: .*GiB.*more than the 2(\.0)? GiB/.test(error.message),
  );
  assert.deepEqual(attn.memoryStats(), before);
  assertStillWorks();
});
