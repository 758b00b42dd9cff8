// attention()'s `out` option: the result written into the caller's Float32Array, identical to
// a call without it; every bad `out` refused by name before anything is written; no leak over
// many calls; the pool refuses it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { readFile } from 'node:fs/promises';

import createAttentionModule from '../../build/wasm/attention.mjs';
import createAttention, { createAttentionPool } from '../../dist/attention.mjs';
import { wrapModule } from '../../src/js/module/api.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();
const next = seededRandom(11);
const random = (n) => Float32Array.from({ length: n }, () => next() * 2 - 1);

// GQA, different value size and a mask: out has the output's size, not q's.
const options = { batch: 2, qNumHeads: 4, kvNumHeads: 2, headSize: 16, vHeadSize: 8 };
const [qSeqLen, kvSeqLen] = [5, 7];
const q = random(2 * 4 * qSeqLen * 16);
const k = random(2 * 2 * kvSeqLen * 16);
const v = random(2 * 2 * kvSeqLen * 8);
const yLength = 2 * 4 * qSeqLen * 8;
const mask = {
  data: Uint8Array.from({ length: kvSeqLen }, (_, j) => (j === 3 ? 0 : 1)),
  shape: [kvSeqLen],
};
const withMask = { ...options, isCausal: true, attnMask: mask };

test('out receives exactly the result of a call without it, and is returned', () => {
  for (const opts of [options, withMask, { ...options, softcap: 2 }]) {
    const expected = attn.attention(q, k, v, opts);
    const out = new Float32Array(yLength).fill(Number.NaN);
    const returned = attn.attention(q, k, v, { ...opts, out });
    assert.equal(returned, out, 'the very array passed comes back');
    assert.deepEqual(out, expected);
  }
});

test('out may be a view into a larger buffer: only its own bytes are written', () => {
  const expected = attn.attention(q, k, v, options);
  const buffer = new ArrayBuffer((yLength + 6) * 4);
  const whole = new Float32Array(buffer).fill(7);
  const out = new Float32Array(buffer, 3 * 4, yLength);
  attn.attention(q, k, v, { ...options, out });
  assert.deepEqual(out, expected);
  assert.deepEqual([...whole.subarray(0, 3)], [7, 7, 7]);
  assert.deepEqual([...whole.subarray(3 + yLength)], [7, 7, 7]);
});

test('out may share a buffer with an input when their bytes do not overlap', () => {
  const expected = attn.attention(q, k, v, options);
  const buffer = new Float32Array(q.length + yLength);
  buffer.set(q);
  const qView = buffer.subarray(0, q.length);
  const out = buffer.subarray(q.length);
  attn.attention(qView, k, v, { ...options, out });
  assert.deepEqual(out, expected);
  assert.deepEqual(qView, q, 'q is untouched');
});

function detachedFloat32Array(length) {
  const array = new Float32Array(length);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

const hostile = [
  ['a plain array', () => new Array(yLength).fill(0), TypeError, /out must be a Float32Array, got/],
  ['a Float64Array', () => new Float64Array(yLength), TypeError, /out must be a Float32Array/],
  [
    'a DataView',
    () => new DataView(new ArrayBuffer(yLength * 4)),
    TypeError,
    /out must be a Float32Array/,
  ],
  ['null', () => null, TypeError, /out must be a Float32Array, got null/],
  [
    'a Proxy of a Float32Array',
    () => new Proxy(new Float32Array(yLength), {}),
    TypeError,
    /out must be a Float32Array/,
  ],
  [
    'one number too short',
    () => new Float32Array(yLength - 1),
    RangeError,
    new RegExp(`out must hold .* = ${yLength} numbers, got ${yLength - 1}`),
  ],
  ['one number too long', () => new Float32Array(yLength + 1), RangeError, /out must hold/],
  [
    'detached',
    () => detachedFloat32Array(yLength),
    TypeError,
    /out is a Float32Array whose ArrayBuffer is detached/,
  ],
  ['q itself (as long as y)', 'q', RangeError, /out must not share memory with q/],
  ['overlapping v', 'v', RangeError, /out must not share memory with v/],
  ['over the mask bytes', 'mask', RangeError, /out must not share memory with attnMask\.data/],
];

for (const [name, make, Type, message] of hostile) {
  test(`out as ${name}: ${Type.name} naming out, inputs untouched`, () => {
    // Inputs laid out so that `out` can be made to overlap each of them.
    const sameSize = { batch: 1, qNumHeads: 2, headSize: 4, qSeqLen: 3, kvSeqLen: 3 };
    const size = 2 * 3 * 4;
    const qq = random(size);
    const kk = random(size);
    const backing = new Float32Array(size + 2 + size);
    const vv = backing.subarray(0, size);
    vv.set(random(size));
    const maskBytes = new Float32Array(size);
    let args;
    if (make === 'q') args = [qq, kk, vv, { ...sameSize, out: qq }];
    else if (make === 'v') {
      args = [qq, kk, vv, { ...sameSize, out: backing.subarray(2, 2 + size) }];
    } else if (make === 'mask') {
      const additive = new Float32Array(maskBytes.buffer, 0, 9);
      const out = new Float32Array(maskBytes.buffer, 0, size);
      args = [qq, kk, vv, { ...sameSize, attnMask: { data: additive, shape: [3, 3] }, out }];
    } else {
      args = [q, k, v, { ...options, out: make() }];
    }
    const before = [...args].map((a) => (ArrayBuffer.isView(a) ? a.slice() : a));
    assert.throws(
      () => attn.attention(...args),
      (error) => {
        assert.ok(error instanceof Type, `${error.constructor.name}: ${error.message}`);
        assert.match(error.message, message);
        return true;
      },
    );
    for (let i = 0; i < 3; i++) assert.deepEqual(args[i], before[i], 'inputs untouched');
    // The instance keeps working.
    assert.equal(attn.attention(q, k, v, options).length, yLength);
  });
}

test("out as a view of the module's own wasm memory is refused", async () => {
  // Not reachable through createAttention(): the raw module is wrapped here to hand one over.
  const Module = await createAttentionModule({
    wasmBinary: await readFile(new URL('../../dist/attention.wasm', import.meta.url)),
  });
  const raw = wrapModule(Module);
  const pointer = Module._malloc(yLength * 4);
  try {
    const out = new Float32Array(Module.HEAPU8.buffer, pointer, yLength);
    assert.throws(() => raw.attention(q, k, v, { ...options, out }), {
      name: 'RangeError',
      message: /out must not be a view of the module's own wasm memory/,
    });
  } finally {
    Module._free(pointer);
  }
  assert.deepEqual(raw.attention(q, k, v, options), attn.attention(q, k, v, options));
});

test('out behind a getter is read once, and the array it gave is the one filled', () => {
  const arrays = [new Float32Array(yLength), new Float32Array(yLength)];
  let reads = 0;
  const opts = { ...options };
  Object.defineProperty(opts, 'out', { enumerable: true, get: () => arrays[reads++] });
  const returned = attn.attention(q, k, v, opts);
  assert.equal(reads, 1);
  assert.equal(returned, arrays[0]);
  assert.deepEqual(arrays[0], attn.attention(q, k, v, options));
  assert.ok(
    arrays[1].every((x) => x === 0),
    'the second array was never touched',
  );
});

test('out inherited from the prototype is refused by name', () => {
  const opts = Object.assign(Object.create({ out: new Float32Array(yLength) }), options);
  assert.throws(() => attn.attention(q, k, v, opts), /'out' is inherited/);
});

test('10,000 calls with out keep allocatedBytes and wasmMemoryBytes flat', () => {
  const out = new Float32Array(yLength);
  for (let i = 0; i < 100; i++) attn.attention(q, k, v, { ...withMask, out });
  const baseline = attn.memoryStats();
  for (let i = 0; i < 10_000; i++) {
    attn.attention(q, k, v, { ...withMask, out });
    if (i % 1000 === 0) {
      // A failing call in between frees what it allocated too.
      assert.throws(
        () => attn.attention(q, k, v, { ...withMask, out: out.subarray(1) }),
        RangeError,
      );
    }
  }
  assert.deepEqual(attn.memoryStats(), baseline);
  assert.deepEqual(out, attn.attention(q, k, v, withMask));
});

let pool;
before(async () => {
  pool = await createAttentionPool({ workers: 1 });
});
after(() => pool?.close());

test('the pool refuses out with a TypeError naming it, and keeps working', async () => {
  await assert.rejects(pool.attention(q, k, v, { ...options, out: new Float32Array(yLength) }), {
    name: 'TypeError',
    message: /attention pool: the option out is not supported/,
  });
  assert.deepEqual(await pool.attention(q, k, v, options), attn.attention(q, k, v, options));
});

// KvCache.attend()'s `out`: the same rule, for a decoding loop's one output array.
describe('KvCache.attend out', () => {
  // GQA (4 query heads over 2 kv heads), value size unlike the key size, two new rows.
  const shape = { batch: 1, kvNumHeads: 2, headSize: 8, vHeadSize: 4 };
  const [qNumHeads, rows, cached] = [4, 2, 9];
  const attendLength = qNumHeads * rows * 4;
  const cacheOf = (api) => {
    const cache = api.createKvCache({ ...shape, capacity: 16 });
    cache.append(random(2 * cached * 8), random(2 * cached * 4));
    return cache;
  };
  const qs = random(qNumHeads * rows * 8);

  test('out receives exactly the result of a step without it, and is returned', () => {
    const cache = cacheOf(attn);
    for (const opts of [{ qNumHeads }, { qNumHeads, softcap: 1.5, leftWindow: 3 }]) {
      const expected = cache.attend(qs, opts);
      const out = new Float32Array(attendLength).fill(Number.NaN);
      assert.equal(cache.attend(qs, { ...opts, out }), out, 'the very array passed comes back');
      assert.deepEqual(out, expected);
    }
    cache.free();
  });

  const refused = [
    ['an Int32Array', () => new Int32Array(attendLength), TypeError, /out must be a Float32Array/],
    ['one number short', () => new Float32Array(attendLength - 1), RangeError, /out must hold/],
    ['detached', () => detachedFloat32Array(attendLength), TypeError, /detached/],
    ['q itself', 'q', RangeError, /out must not share memory with q/],
  ];
  for (const [name, make, Type, message] of refused) {
    test(`out as ${name}: ${Type.name} naming out, q and the cache untouched`, () => {
      const cache = cacheOf(attn);
      const expected = cache.attend(qs, { qNumHeads });
      const q = qs.slice();
      const out = make === 'q' ? q.subarray(0, attendLength) : make();
      assert.throws(
        () => cache.attend(q, { qNumHeads, out }),
        (error) => error instanceof Type && message.test(error.message),
      );
      assert.deepEqual(q, qs, 'q untouched');
      assert.equal(cache.length, cached);
      assert.deepEqual(cache.attend(qs, { qNumHeads }), expected, 'the cache attends as before');
      cache.free();
    });
  }

  test("out as a view of the module's own wasm memory is refused", async () => {
    const Module = await createAttentionModule({
      wasmBinary: await readFile(new URL('../../dist/attention.wasm', import.meta.url)),
    });
    const raw = wrapModule(Module);
    const cache = cacheOf(raw);
    const pointer = Module._malloc(attendLength * 4);
    try {
      const out = new Float32Array(Module.HEAPU8.buffer, pointer, attendLength);
      assert.throws(() => cache.attend(qs, { qNumHeads, out }), {
        name: 'RangeError',
        message: /out must not be a view of the module's own wasm memory/,
      });
    } finally {
      Module._free(pointer);
    }
    assert.equal(cache.attend(qs, { qNumHeads }).length, attendLength);
    cache.free();
  });

  test('10,000 steps with out keep memoryStats flat, a refused one between them', () => {
    const cache = cacheOf(attn);
    const out = new Float32Array(attendLength);
    for (let i = 0; i < 100; i++) cache.attend(qs, { qNumHeads, out });
    const baseline = attn.memoryStats();
    for (let i = 0; i < 10_000; i++) {
      cache.attend(qs, { qNumHeads, out });
      if (i % 1000 === 0) {
        assert.throws(() => cache.attend(qs, { qNumHeads, out: out.subarray(1) }), RangeError);
      }
    }
    assert.deepEqual(attn.memoryStats(), baseline);
    assert.deepEqual(out, cache.attend(qs, { qNumHeads }));
    cache.free();
  });
});
