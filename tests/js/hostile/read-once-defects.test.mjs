// Every argument is read exactly once: a value checked is the value used. Each test here
// reproduces a defect of an earlier version (getters that resize a buffer, options read twice);
// after each, nothing leaked. read-once-getters.test.mjs aims at each read on purpose.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { attention64, trace64 } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { tools } from './inputs.mjs';
import {
  assertComputes,
  assertMatches,
  assertRefusesNaming,
  attn,
  baseline,
  resizable,
  useInstance,
} from './checks.mjs';
import { OPTION_FIELDS, optionNames } from '../../../src/js/attention/attention-options.mjs';

useInstance();

describe('read once: reproductions of earlier defects', () => {
  const t = tools(seededRandom(0x0cce0001));
  const base = { qNumHeads: 2, kvNumHeads: 1, headSize: 4, vHeadSize: 3 };
  const q = t.floats(2 * 3 * 4);
  const k = t.floats(5 * 4);
  const v = t.floats(5 * 3);

  // Every option of the record attention() takes (OPTION_FIELDS), and the mask; the getter
  // returns the option's default.
  const defaults = { attnMask: undefined };
  for (const field of OPTION_FIELDS) defaults[field.name] = field.fallback(base);
  for (const option of [...optionNames('attention'), 'attnMask']) {
    const fallback = defaults[option];
    for (const victim of ['q', 'k']) {
      test(`a ${option} getter that shrinks ${victim}'s resizable buffer: RangeError naming ${victim}`, () => {
        for (const lengthTracking of [true, false]) {
          const target = resizable(victim === 'q' ? q : k, { lengthTracking });
          const options = { ...base };
          Object.defineProperty(options, option, {
            enumerable: true,
            get() {
              target.shrink(4);
              return fallback;
            },
          });
          const args = victim === 'q' ? [target.array, k, v] : [q, target.array, v];
          assertRefusesNaming(() => attn.attention(...args, options), RangeError, victim);
        }
      });
    }
  }

  test('a large k shrunk by a scale getter, 200 times: RangeError each time, nothing leaks', () => {
    const kvSeqLen = 4096;
    const bigK = t.floats(kvSeqLen * 4);
    const bigV = t.floats(kvSeqLen * 3);
    for (let i = 0; i < 200; i++) {
      const target = resizable(bigK);
      const options = {
        ...base,
        kvSeqLen,
        get scale() {
          target.shrink(16);
          return 1;
        },
      };
      assertRefusesNaming(() => attn.attention(q, target.array, bigV, options), RangeError, 'k');
    }
  });

  test('Symbol.toStringTag = "Float32Array" on a Uint8Array or Float64Array: TypeError', () => {
    for (const Type of [Uint8Array, Float64Array, Int32Array]) {
      const spoof = new Type(q.length);
      Object.defineProperty(spoof, Symbol.toStringTag, { value: 'Float32Array' });
      assertRefusesNaming(() => attn.attention(spoof, k, v, base), TypeError, 'q');
      const mask = { data: new Float64Array(5), shape: [5] };
      Object.defineProperty(mask.data, Symbol.toStringTag, { value: 'Float32Array' });
      assertRefusesNaming(
        () => attn.attention(q, k, v, { ...base, attnMask: mask }),
        TypeError,
        'attnMask',
      );
    }
  });

  test('an own length on a real Float32Array changes nothing', () => {
    const short = q.slice(0, 8);
    Object.defineProperty(short, 'length', { value: q.length });
    assertRefusesNaming(
      () => attn.attention(short, k, v, { ...base, qSeqLen: 3 }),
      RangeError,
      'q',
      /got 8/,
    );
    const right = q.slice();
    Object.defineProperty(right, 'length', { value: 3 });
    assertComputes(() => attn.attention(right, k, v, base), attention64(q, k, v, base), 'q');
  });

  test('a byteLength getter answering 32 then 65536: ignored, correct result, heap intact', () => {
    let calls = 0;
    const lying = k.slice();
    Object.defineProperty(lying, 'byteLength', { get: () => (calls++ ? 65536 : 32) });
    Object.defineProperty(lying, 'byteOffset', { get: () => 1 << 20 });
    Object.defineProperty(lying, 'buffer', { get: () => new ArrayBuffer(65536) });
    assertComputes(() => attn.attention(q, lying, v, base), attention64(q, k, v, base), 'k');
    assert.equal(calls, 0, 'the own byteLength getter was never called');
    assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes);
  });

  test('trace() reads x.data once: a getter that changes its answer cannot split check and copy', () => {
    const first = Float32Array.from([1, 0, 1, 0, 2, 0]);
    let reads = 0;
    const x = {
      rows: 3,
      cols: 2,
      get data() {
        reads += 1;
        return reads === 1 ? first : new Float32Array(2);
      },
    };
    const w = [
      [1, 0.5],
      [0.25, 1],
    ];
    const before = attn.memoryStats().allocatedBytes;
    const result = attn.trace({ x, wQuery: w, wKey: w, wValue: w });
    assert.equal(reads, 1);
    const expected = trace64({
      x: { rows: 3, cols: 2, data: first },
      wQuery: w,
      wKey: w,
      wValue: w,
    });
    assertMatches(result.outputs.data, expected.outputs.flat(), 1e-5, 'outputs');
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });

  test('a detached buffer: TypeError naming the argument', () => {
    const detach = (array) => {
      structuredClone(array.buffer, { transfer: [array.buffer] });
      return array;
    };
    assertRefusesNaming(
      () => attn.attention(detach(q.slice()), k, v, base),
      TypeError,
      'q',
      /detached/,
    );
    assertRefusesNaming(
      () => attn.attention(q, detach(k.slice()), v, base),
      TypeError,
      'k',
      /detached/,
    );
    const mask = { data: detach(new Uint8Array(5)), shape: [5] };
    assertRefusesNaming(
      () => attn.attention(q, k, v, { ...base, attnMask: mask }),
      TypeError,
      'attnMask',
      /detached/,
    );
    const x = { rows: 1, cols: 2, data: detach(new Float32Array(2)) };
    assertRefusesNaming(
      () => attn.trace({ x, wQuery: [[1], [1]], wKey: [[1], [1]], wValue: [[1], [1]] }),
      TypeError,
      'x',
      /detached/,
    );
  });

  test('inherited options are refused by name', () => {
    assertRefusesNaming(
      () => attn.attention(q, k, v, { __proto__: { isCausal: true }, ...base }),
      TypeError,
      'isCausal',
      /inherited/,
    );
    class Options {
      get scale() {
        return 2;
      }
    }
    assertRefusesNaming(
      () => attn.attention(q, k, v, Object.assign(new Options(), base)),
      TypeError,
      'scale',
      /inherited/,
    );
    const w = [[1]];
    assertRefusesNaming(
      () => attn.trace({ __proto__: { isCausal: true }, x: w, wQuery: w, wKey: w, wValue: w }),
      TypeError,
      'isCausal',
    );
  });

  test('a polluted Object.prototype.scale is refused, not used', () => {
    Object.prototype.scale = 1e6; // eslint-disable-line no-extend-native
    try {
      assertRefusesNaming(() => attn.attention(q, k, v, { ...base }), TypeError, 'scale');
      const w = [[1]];
      assertRefusesNaming(
        () => attn.trace({ x: w, wQuery: w, wKey: w, wValue: w }),
        TypeError,
        'scale',
      );
    } finally {
      delete Object.prototype.scale;
    }
    assertComputes(() => attn.attention(q, k, v, base), attention64(q, k, v, base), 'clean');
  });

  test('softcap 1e-46 (0 in float32) and scales that vanish in float32: RangeError', () => {
    for (const [name, value] of [
      ['softcap', 1e-46],
      ['softcap', Number.MIN_VALUE],
      ['scale', 1e-300],
      ['scale', -1e-46],
    ]) {
      assertRefusesNaming(
        () => attn.attention(q, k, v, { ...base, [name]: value }),
        RangeError,
        name,
        /float32/,
      );
    }
    const w = [[1]];
    assertRefusesNaming(
      () => attn.trace({ x: w, wQuery: w, wKey: w, wValue: w, scale: 1e-50 }),
      RangeError,
      'scale',
    );
    // The smallest float32 subnormal is a real softcap.
    const tiny = { ...base, softcap: 1.5e-45 };
    assertComputes(() => attn.attention(q, k, v, tiny), attention64(q, k, v, tiny), 'softcap');
  });
});
