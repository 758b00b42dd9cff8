// The half-precision conversions that float16 tensors go through on their way into and out of
// wasm memory: every one of the 65,536 halves, the rounding between neighbours (ties to even),
// subnormals, overflow, infinities and NaN.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  floatToHalf,
  floatsToHalves,
  halfToFloat,
  halvesToFloats,
} from '../../src/js/shared/float16.mjs';

const isNaNHalf = (bits) => (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0;

test('halfToFloat: the defining values', () => {
  assert.equal(halfToFloat(0x3c00), 1);
  assert.equal(halfToFloat(0xc000), -2);
  assert.equal(halfToFloat(0x7bff), 65504); // the largest half
  assert.equal(halfToFloat(0x0400), 2 ** -14); // the smallest normal
  assert.equal(halfToFloat(0x0001), 2 ** -24); // the smallest subnormal
  assert.equal(halfToFloat(0x03ff), 1023 * 2 ** -24); // the largest subnormal
  assert.ok(Object.is(halfToFloat(0x8000), -0));
  assert.equal(halfToFloat(0x7c00), Infinity);
  assert.equal(halfToFloat(0xfc00), -Infinity);
  assert.ok(Number.isNaN(halfToFloat(0x7e00)));
  assert.equal(halfToFloat(0x3555), 0.333251953125);
});

test('every half survives the round trip half -> float -> half', () => {
  for (let bits = 0; bits < 65536; bits++) {
    const back = floatToHalf(halfToFloat(bits));
    if (isNaNHalf(bits)) assert.ok(isNaNHalf(back), `NaN 0x${bits.toString(16)}`);
    else assert.equal(back, bits, `0x${bits.toString(16)}`);
  }
});

test('between two neighbouring halves: nearest wins, a tie goes to the even one', () => {
  // Every pair of neighbours among the positive finite halves (and their negatives).
  for (let bits = 0; bits < 0x7bff; bits++) {
    const lo = halfToFloat(bits);
    const hi = halfToFloat(bits + 1);
    const mid = (lo + hi) / 2; // exact in float32: halves have 11 significant bits
    const even = bits % 2 === 0 ? bits : bits + 1;
    assert.equal(floatToHalf(mid), even, `tie between 0x${bits.toString(16)} and its successor`);
    assert.equal(floatToHalf(-mid), even | 0x8000);
    const quarter = (hi - lo) / 4;
    assert.equal(floatToHalf(mid - quarter), bits, `below the tie at 0x${bits.toString(16)}`);
    assert.equal(floatToHalf(mid + quarter), bits + 1, `above the tie at 0x${bits.toString(16)}`);
  }
});

test('overflow, underflow, infinities and NaN', () => {
  assert.equal(floatToHalf(65519.99), 0x7bff); // still rounds down to 65504
  assert.equal(floatToHalf(65520), 0x7c00); // the tie above 65504 goes to infinity
  assert.equal(floatToHalf(1e10), 0x7c00);
  assert.equal(floatToHalf(-1e10), 0xfc00);
  assert.equal(floatToHalf(Infinity), 0x7c00);
  assert.equal(floatToHalf(-Infinity), 0xfc00);
  assert.ok(isNaNHalf(floatToHalf(NaN)));
  assert.equal(floatToHalf(2 ** -25), 0); // half the smallest subnormal: tie to even (0)
  assert.equal(floatToHalf(2 ** -25 * 1.0001), 1);
  assert.equal(floatToHalf(-(2 ** -26)), 0x8000);
  assert.equal(floatToHalf(1e-30), 0);
  assert.ok(Object.is(halfToFloat(floatToHalf(-0)), -0));
  // The value is rounded to float32 first, as the core sees it: 1 + 2^-11 + 2^-40 is above
  // the tie in float64 but exactly on it in float32, so it goes to the even half, 1.
  assert.equal(floatToHalf(1 + 2 ** -11 + 2 ** -40), 0x3c00);
});

test('the bulk conversions agree with the scalar ones', () => {
  const halves = Uint16Array.from({ length: 4096 }, (_, i) => (i * 16 + 7) & 0xffff);
  const floats = new Float32Array(halves.length);
  halvesToFloats(halves, floats);
  const back = new Uint16Array(halves.length);
  floatsToHalves(floats, back);
  for (let i = 0; i < halves.length; i++) {
    if (isNaNHalf(halves[i])) continue;
    assert.equal(floats[i], halfToFloat(halves[i]));
    assert.equal(back[i], halves[i]);
  }
});
