// Every argument is read exactly once: getters, Proxies and overridden intrinsics aimed at each
// read, counting reads where they can; after each, nothing leaked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { assertEachReadOnce, countingProxy } from '../counting-proxy.mjs';
import { attention64, multiHeadTrace64, trace64 } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { tools } from './inputs.mjs';
import { nested } from './trace-calls.mjs';
import {
  assertComputes,
  assertMatches,
  assertRefusesNaming,
  attn,
  baseline,
  resizable,
  useInstance,
} from './checks.mjs';

useInstance();

describe('read once: getters, Proxies and overridden intrinsics aimed at each read', () => {
  const t = tools(seededRandom(0x0cce0002));
  const shape = { batch: 2, qNumHeads: 2, kvNumHeads: 1, headSize: 3, vHeadSize: 2 };
  const q = t.floats(2 * 2 * 3 * 3);
  const k = t.floats(2 * 4 * 3);
  const v = t.floats(2 * 4 * 2);
  const mask = { data: Uint8Array.from([1, 0, 1, 1, 1, 1, 0, 1]), shape: [2, 1, 1, 4] };
  const full = { ...shape, scale: 0.7, isCausal: true, softcap: 3, attnMask: mask };
  const expected = attention64(q, k, v, full);

  test('attention(): every option, the mask and each of its dims read once', () => {
    const counts = new Map();
    assertComputes(() => attn.attention(q, k, v, countingProxy(full, counts)), expected, 'y');
    assertEachReadOnce(counts, 'options');
    for (const key of ['.scale', '.attnMask', '.attnMask.data', '.attnMask.shape.1']) {
      assert.equal(counts.get(key), 1, key);
    }
  });

  test('trace(): the argument, every matrix field, row and cell read once', () => {
    const nested = [
      [1, 0.5],
      [0.25, -1],
      [2, 1],
    ];
    const w = [
      [1, 0.5],
      [0.25, 1],
    ];
    const args = {
      x: nested,
      wQuery: { rows: 2, cols: 2, data: Float32Array.from(w.flat()) },
      wKey: w,
      wValue: { rows: 2, cols: 2, data: Float32Array.from(w.flat()) },
      scale: 0.5,
      isCausal: true,
    };
    const counts = new Map();
    const before = attn.memoryStats().allocatedBytes;
    const result = attn.trace(countingProxy(args, counts));
    assertEachReadOnce(counts, 'trace');
    for (const key of ['.x', '.x.0', '.x.0.1', '.x.length', '.x.2.length', '.wQuery.data']) {
      assert.equal(counts.get(key), 1, key);
    }
    assertMatches(result.outputs.data, trace64(args).outputs.flat(), 1e-5, 'outputs');
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });

  test('trace(): heads, kvHeads and wOut (its rows, cells, or fields) read once too', () => {
    const w = [
      [1, 0.5, -1, 2],
      [0.25, 1, 0.5, -0.5],
    ];
    const wOut = [
      [1, 0, 2],
      [0, 1, 1],
      [-1, 0.5, 0],
      [2, 1, 0.25],
    ];
    for (const form of [wOut, { rows: 4, cols: 3, data: Float32Array.from(wOut.flat()) }]) {
      const args = {
        x: [
          [1, 0.5],
          [2, -1],
          [0, 1],
        ],
        wQuery: w,
        wKey: w.map((row) => row.slice(0, 2)),
        wValue: w.map((row) => row.slice(0, 2)),
        wOut: form,
        heads: 2,
        kvHeads: 1,
      };
      const counts = new Map();
      const before = attn.memoryStats().allocatedBytes;
      const result = attn.trace(countingProxy(args, counts));
      assertEachReadOnce(counts, 'trace');
      for (const key of ['.heads', '.kvHeads', '.wOut']) assert.equal(counts.get(key), 1, key);
      const expected = multiHeadTrace64({ ...args, wOut });
      assertMatches(result.outputs.data, expected.outputs.flat(), 1e-5, 'outputs');
      assert.equal(attn.memoryStats().allocatedBytes, before);
    }
  });

  test('getters that answer differently on every read are read once: the first answer counts', () => {
    // Each getter's first answer is the valid one; a second read would get junk.
    const flaky = {};
    for (const [key, value] of Object.entries(full)) {
      let reads = 0;
      Object.defineProperty(flaky, key, {
        enumerable: true,
        get: () => (reads++ === 0 ? value : ({ batch: 7, attnMask: 'junk' }[key] ?? -1)),
      });
    }
    assertComputes(() => attn.attention(q, k, v, flaky), expected, 'y');
    let shapeReads = 0;
    const flakyMask = {
      data: mask.data,
      get shape() {
        return shapeReads++ === 0 ? mask.shape : [9, 9, 9, 9];
      },
    };
    assertComputes(
      () => attn.attention(q, k, v, { ...full, attnMask: flakyMask }),
      expected,
      'flaky mask',
    );
  });

  test('a Proxy whose ownKeys and get disagree cannot slip in an unchecked option', () => {
    const sneaky = new Proxy(
      { ...shape },
      {
        ownKeys: (target) => Reflect.ownKeys(target),
        get: (target, key) => (key === 'scale' ? 'not a number' : target[key]),
      },
    );
    // 'scale' is not an own key: never read, the default applies.
    assertComputes(
      () => attn.attention(q, k, v, sneaky),
      attention64(q, k, v, shape),
      'default scale',
    );
    const lying = new Proxy(
      { ...shape },
      { ownKeys: (target) => [...Reflect.ownKeys(target), 'sneaky'] },
    );
    assertRefusesNaming(() => attn.attention(q, k, v, lying), TypeError, 'sneaky');
  });

  test('a subclass of Float32Array overriding length, byteLength, byteOffset and buffer', () => {
    class Liar extends Float32Array {
      get length() {
        return 1;
      }
      get byteLength() {
        return 1 << 30;
      }
      get byteOffset() {
        return 12;
      }
      get buffer() {
        return new ArrayBuffer(8);
      }
    }
    assertComputes(() => attn.attention(Liar.from(q), k, v, full), expected, 'Liar q');
    assertRefusesNaming(
      () => attn.attention(q, Liar.from(k.subarray(4)), v, full),
      RangeError,
      'k',
    );
  });

  test('overridden %TypedArray%.prototype getters and set, Array.isArray, ArrayBuffer.isView', () => {
    const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
    const saved = new Map();
    const override = (object, key, descriptor) => {
      saved.set([object, key], Object.getOwnPropertyDescriptor(object, key));
      Object.defineProperty(object, key, { configurable: true, ...descriptor });
    };
    let y;
    let refused;
    try {
      override(TypedArrayPrototype, 'length', { get: () => 4 });
      override(TypedArrayPrototype, 'byteLength', { get: () => 1 << 20 });
      override(TypedArrayPrototype, 'byteOffset', { get: () => 8 });
      override(TypedArrayPrototype, 'buffer', { get: () => new ArrayBuffer(16) });
      override(TypedArrayPrototype, Symbol.toStringTag, { get: () => 'Float32Array' });
      override(TypedArrayPrototype, 'set', { value: () => {} });
      override(TypedArrayPrototype, 'subarray', { value: () => new Uint8Array(0) });
      override(Array, 'isArray', { value: () => false });
      override(ArrayBuffer, 'isView', { value: () => false });
      override(Number, 'isInteger', { value: () => true });
      override(Math, 'fround', { value: (x) => x });
      y = attn.attention(q, k, v, full);
      try {
        attn.attention(new Float64Array(q.length), k, v, { ...full, softcap: 1e-46 });
      } catch (error) {
        refused = error;
      }
    } finally {
      for (const [[object, key], descriptor] of saved)
        Object.defineProperty(object, key, descriptor);
    }
    assertMatches(y, expected, 1e-5, 'y');
    assert.ok(refused instanceof TypeError && /\bq\b/.test(refused.message), String(refused));
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  // (Not Array#push: Emscripten's own glue relies on it to pass the call to the core, which
  // then refuses the garbled call with a RangeError instead of computing.)
  test('a replaced Array iterator, Set#has and Set#forEach: options still checked, memory still freed', () => {
    const saved = [
      [Array.prototype, Symbol.iterator],
      [Set.prototype, 'has'],
      [Set.prototype, 'forEach'],
    ].map(([object, key]) => ({
      object,
      key,
      descriptor: Object.getOwnPropertyDescriptor(object, key),
    }));
    const calls = [full, { ...full, causal: true }, { __proto__: { scale: 9 }, ...shape }];
    const outcomes = [];
    try {
      // Until restored, this test itself must not iterate arrays (no for-of, no destructuring).
      Array.prototype[Symbol.iterator] = function* () {}; // eslint-disable-line no-extend-native
      Set.prototype.has = () => true;
      Set.prototype.forEach = () => {};
      for (let i = 0; i < calls.length; i++) {
        try {
          outcomes[i] = attn.attention(q, k, v, calls[i]);
        } catch (error) {
          outcomes[i] = error;
        }
      }
    } finally {
      for (let i = 0; i < saved.length; i++) {
        Object.defineProperty(saved[i].object, saved[i].key, saved[i].descriptor);
      }
    }
    assertMatches(outcomes[0], expected, 1e-5, 'y');
    assert.ok(
      outcomes[1] instanceof TypeError && /causal/.test(outcomes[1].message),
      String(outcomes[1]),
    );
    assert.ok(
      outcomes[2] instanceof TypeError && /scale/.test(outcomes[2].message),
      String(outcomes[2]),
    );
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes, 'leaked');
  });

  test('a getter that detaches q: TypeError naming q, nothing leaks', () => {
    const victim = q.slice();
    const options = {
      ...shape,
      get isCausal() {
        structuredClone(victim.buffer, { transfer: [victim.buffer] });
        return false;
      },
    };
    assertRefusesNaming(() => attn.attention(victim, k, v, options), TypeError, 'q', /detached/);
  });

  test('a getter that grows q before it is measured: the grown q is checked and used', () => {
    const buffer = new ArrayBuffer(q.byteLength, { maxByteLength: q.byteLength * 2 });
    const grown = new Float32Array(buffer); // length-tracking: qSeqLen is inferred from it
    grown.set(q);
    const options = {
      ...full,
      get softcap() {
        buffer.resize(q.byteLength * 2);
        grown.fill(0.25, q.length);
        return 3;
      },
    };
    const y = attn.attention(grown, k, v, options);
    assertMatches(y, attention64(Float32Array.from(grown), k, v, full), 1e-5, 'y');
    assert.equal(y.length, expected.length * 2);
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  test('a trace() matrix getter that shrinks another matrix buffer: RangeError naming it', () => {
    const target = resizable(Float32Array.from([1, 0, 0, 1]));
    const rows = [[1, 2]];
    const x = new Proxy(rows, {
      get(object, key) {
        if (key === '0') target.shrink(4);
        return object[key];
      },
    });
    const wQuery = { rows: 2, cols: 2, data: target.array };
    assertRefusesNaming(
      () => attn.trace({ wQuery, x, wKey: [[1], [1]], wValue: [[1], [1]] }),
      RangeError,
      'wQuery',
    );
  });
});
