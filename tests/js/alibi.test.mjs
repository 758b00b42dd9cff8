// ALiBi (BLOOM, MPT): slope_h * (key position - query position) added to each head's scores,
// in attn.attention, attn.attentionBackward and a KvCache's attend. Checked against the float64
// references given the same biases as an additive mask (the slopes written here from the ALiBi
// paper, not from the core), and the ONNX way round: alibi equals that bias passed as a float
// attnMask. Bad slopes are refused, naming them; the pool does not cut such calls by head.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { planSlices } from '../../src/js/pool/pool-split.mjs';
import { readAttentionArgs } from '../../src/js/attention/attention-args.mjs';
import { attention64, attentionBackward64, maxAbsDiff } from './reference64.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

/** The ALiBi paper's slopes for `heads` heads (its reference code, get_slopes). */
function paperSlopes(heads) {
  const powerOfTwo = (n) => Array.from({ length: n }, (_, i) => 2 ** ((-8 * (i + 1)) / n));
  const n = 2 ** Math.floor(Math.log2(heads));
  const extra = powerOfTwo(2 * n).filter((_, i) => i % 2 === 0);
  return [...powerOfTwo(n), ...extra].slice(0, heads);
}

/** The biases [batch, heads, S, T] for query i at position offset + i, as a float32 mask. */
function biasMask({ batch = 1, qNumHeads, qSeqLen, kvSeqLen }, slopes, offset = 0) {
  const data = new Float32Array(batch * qNumHeads * qSeqLen * kvSeqLen);
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < qNumHeads; h++) {
      for (let i = 0; i < qSeqLen; i++) {
        for (let j = 0; j < kvSeqLen; j++) {
          const at = ((b * qNumHeads + h) * qSeqLen + i) * kvSeqLen + j;
          data[at] = Math.fround(slopes[h]) * (j - (offset + i));
        }
      }
    }
  }
  return { data, shape: [batch, qNumHeads, qSeqLen, kvSeqLen] };
}

function randoms(next, length) {
  return Float32Array.from({ length }, () => next() * 2 - 1);
}

function call(seed, shape) {
  const next = seededRandom(seed);
  const { batch = 1, qNumHeads, kvNumHeads = qNumHeads, qSeqLen, kvSeqLen, headSize } = shape;
  return {
    q: randoms(next, batch * qNumHeads * qSeqLen * headSize),
    k: randoms(next, batch * kvNumHeads * kvSeqLen * headSize),
    v: randoms(next, batch * kvNumHeads * kvSeqLen * headSize),
    gradY: randoms(next, batch * qNumHeads * qSeqLen * headSize),
  };
}

const SHAPES = [
  { qNumHeads: 4, qSeqLen: 1, kvSeqLen: 9, headSize: 8 }, // the decode path
  { qNumHeads: 8, kvNumHeads: 2, qSeqLen: 70, kvSeqLen: 70, headSize: 16, isCausal: true },
  { batch: 2, qNumHeads: 6, kvNumHeads: 3, qSeqLen: 5, kvSeqLen: 130, headSize: 12 },
  { qNumHeads: 3, qSeqLen: 33, kvSeqLen: 20, headSize: 5, softcap: 2 },
];

describe('attention with alibi', () => {
  for (const [index, shape] of SHAPES.entries()) {
    test(`standard slopes, case ${index}: the float64 reference and the same bias as a float attnMask`, () => {
      const { q, k, v } = call(index + 1, shape);
      const mask = biasMask(shape, paperSlopes(shape.qNumHeads));
      const y = attn.attention(q, k, v, { ...shape, alibi: true });
      const want = attention64(q, k, v, { ...shape, attnMask: mask });
      assert.ok(maxAbsDiff(y, want) < 2e-6, `float64: ${maxAbsDiff(y, want)}`);
      const asMask = attn.attention(q, k, v, { ...shape, attnMask: mask });
      assert.ok(maxAbsDiff(y, asMask) < 1e-6, `attnMask: ${maxAbsDiff(y, asMask)}`);
      assert.ok(maxAbsDiff(y, attn.attention(q, k, v, shape)) > 1e-3, 'the bias changes y');
    });
  }

  test("a Float32Array of the caller's slopes, one per query head", () => {
    const shape = SHAPES[1];
    const slopes = Float32Array.from({ length: 8 }, (_, h) => 0.05 * (h + 1));
    const { q, k, v } = call(9, shape);
    const y = attn.attention(q, k, v, { ...shape, alibi: slopes });
    const want = attention64(q, k, v, { ...shape, attnMask: biasMask(shape, slopes) });
    assert.ok(maxAbsDiff(y, want) < 2e-6, `${maxAbsDiff(y, want)}`);
  });

  test('attentionBackward: the gradients of the same bias as an additive mask', () => {
    for (const [index, shape] of SHAPES.entries()) {
      const { q, k, v, gradY } = call(20 + index, { ...shape, headSize: shape.headSize });
      const mask = biasMask(shape, paperSlopes(shape.qNumHeads));
      const got = attn.attentionBackward(q, k, v, gradY, { ...shape, alibi: true });
      const want = attentionBackward64(q, k, v, gradY, { ...shape, attnMask: mask });
      for (const name of ['gradQ', 'gradK', 'gradV']) {
        const worst = maxAbsDiff(got[name], want[name]);
        assert.ok(worst < 2e-5, `case ${index} ${name}: ${worst}`);
      }
    }
  });

  test('refuses slopes that are not one finite float32 per query head, naming alibi', () => {
    const shape = SHAPES[0];
    const { q, k, v } = call(3, shape);
    const refuse = (alibi, name, message) =>
      assert.throws(() => attn.attention(q, k, v, { ...shape, alibi }), { name, message });
    refuse(
      'yes',
      'TypeError',
      /alibi must be true \(the standard slopes\), false, or a Float32Array/,
    );
    refuse([0.5, 0.25, 0.125, 0.0625], 'TypeError', /alibi must be/);
    refuse(new Float64Array(4), 'TypeError', /alibi must be/);
    refuse(new Float32Array(3), 'RangeError', /one slope per query head \(qNumHeads = 4\), got 3/);
    refuse(Float32Array.of(1, NaN, 1, 1), 'RangeError', /alibi\[1\] must be a finite slope/);
    refuse(Float32Array.of(1, 1, Infinity, 1), 'RangeError', /alibi\[2\]/);
  });

  test('the standard slopes given as an array: the same output, bit for bit', () => {
    const shape = SHAPES[0];
    const { q, k, v } = call(4, shape);
    const slopes = Float32Array.of(2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8);
    const y = attn.attention(q, k, v, { ...shape, alibi: slopes });
    assert.deepEqual(y, attn.attention(q, k, v, { ...shape, alibi: true }));
  });
});

describe('a KvCache attends with alibi', () => {
  test('query i of S at position T - S + i: the bias of full attention over the cache', () => {
    const qNumHeads = 4;
    const kvNumHeads = 2;
    const headSize = 8;
    const next = seededRandom(31);
    const cache = attn.createKvCache({ kvNumHeads, headSize, capacity: 4 });
    let keys = new Float32Array(0);
    let values = new Float32Array(0);
    let length = 0;
    for (const rows of [5, 1, 3, 1]) {
      const k = randoms(next, kvNumHeads * rows * headSize);
      const v = randoms(next, kvNumHeads * rows * headSize);
      cache.append(k, v);
      // The whole cache, head by head, for the reference.
      const grow = (all, add) => {
        const out = new Float32Array(all.length + add.length);
        for (let g = 0; g < kvNumHeads; g++) {
          out.set(
            all.subarray(g * length * headSize, (g + 1) * length * headSize),
            g * (length + rows) * headSize,
          );
          out.set(
            add.subarray(g * rows * headSize, (g + 1) * rows * headSize),
            (g * (length + rows) + length) * headSize,
          );
        }
        return out;
      };
      keys = grow(keys, k);
      values = grow(values, v);
      length += rows;
      const q = randoms(next, qNumHeads * rows * headSize);
      const y = cache.attend(q, { qNumHeads, alibi: true });
      const shape = { qNumHeads, kvNumHeads, qSeqLen: rows, kvSeqLen: length, headSize };
      const mask = biasMask(shape, paperSlopes(qNumHeads), length - rows);
      // Causal, bottom-right: query i sees keys up to length - rows + i.
      for (let h = 0; h < qNumHeads; h++) {
        for (let i = 0; i < rows; i++) {
          for (let j = length - rows + i + 1; j < length; j++) {
            mask.data[(h * rows + i) * length + j] = -Infinity;
          }
        }
      }
      const want = attention64(q, keys, values, { ...shape, attnMask: mask });
      assert.ok(maxAbsDiff(y, want) < 2e-6, `after ${length} rows: ${maxAbsDiff(y, want)}`);
    }
    cache.free();
  });
});

describe('the pool', () => {
  test('a call with alibi is cut by batch entries only, never by heads or query rows', () => {
    const shape = { batch: 2, qNumHeads: 8, qSeqLen: 512, kvSeqLen: 512, headSize: 64 };
    const length = 2 * 8 * 512 * 64;
    const q = new Float32Array(length);
    const plain = planSlices(readAttentionArgs(q, q, q, shape), 8);
    assert.ok(
      plain.some((s) => s.h1 - s.h0 < 8 || s.s1 - s.s0 < 512),
      'plain calls are cut finer',
    );
    const slices = planSlices(readAttentionArgs(q, q, q, { ...shape, alibi: true }), 8);
    assert.deepEqual(
      slices.map(({ b, h0, h1, s0, s1 }) => [b, h0, h1, s0, s1]),
      [
        [0, 0, 8, 0, 512],
        [1, 0, 8, 0, 512],
      ],
    );
  });
});

describe('trace with alibi', () => {
  const n = 7;
  const heads = 4;
  const headSize = 3;
  const next = seededRandom(41);
  const matrix = (rows, cols) => ({ rows, cols, data: randoms(next, rows * cols) });
  const x = matrix(n, 5);
  const wQuery = matrix(5, heads * headSize);
  const wKey = matrix(5, 2 * headSize);
  const wValue = matrix(5, 2 * headSize);
  const layer = { x, wQuery, wKey, wValue, heads, kvHeads: 2, scale: 0.5 };

  for (const [name, alibi, slopes] of [
    ['the standard slopes', true, paperSlopes(heads)],
    ["the caller's slopes", Float32Array.of(0.5, -0.25, 0, 2), [0.5, -0.25, 0, 2]],
  ]) {
    for (const isCausal of [false, true]) {
      test(`${name}${isCausal ? ', causal' : ''}: each head's scores and outputs are the float64 reference's with the bias`, () => {
        const t = attn.trace({ ...layer, isCausal, alibi });
        const plain = attn.trace({ ...layer, isCausal });
        const shape = { qNumHeads: 1, qSeqLen: n, kvSeqLen: n, headSize, scale: 0.5, isCausal };
        for (let h = 0; h < heads; h++) {
          const { queries, keys, values, scores, outputs } = t.heads[h];
          const bias = biasMask(shape, [slopes[h]]);
          const want = attention64(queries.data, keys.data, values.data, {
            ...shape,
            attnMask: bias,
          });
          assert.ok(
            maxAbsDiff(outputs.data, want) < 2e-6,
            `head ${h}: ${maxAbsDiff(outputs.data, want)}`,
          );
          for (let i = 0; i < n * n; i++) {
            const before = plain.heads[h].scores.data[i];
            if (before === -Infinity) assert.equal(scores.data[i], -Infinity);
            else
              assert.ok(
                Math.abs(scores.data[i] - (before + bias.data[i])) < 1e-5,
                `head ${h} score ${i}`,
              );
          }
        }
      });
    }
  }

  test('with gradients: the bias is a constant, so the trace still matches attentionBackward with it', () => {
    const gradOutputs = matrix(n, heads * headSize);
    const t = attn.trace({ ...layer, isCausal: true, alibi: true, gradOutputs });
    for (let h = 0; h < heads; h++) {
      const { queries, keys, values, grad } = t.heads[h];
      const gradY = gradOutputs.data.filter(
        (_, i) => Math.floor((i % (heads * headSize)) / headSize) === h,
      );
      const shape = { qNumHeads: 1, qSeqLen: n, kvSeqLen: n, headSize, scale: 0.5, isCausal: true };
      const want = attentionBackward64(queries.data, keys.data, values.data, gradY, {
        ...shape,
        attnMask: biasMask(shape, [paperSlopes(heads)[h]]),
      });
      assert.ok(maxAbsDiff(grad.queries.data, want.gradQ) < 1e-5, `head ${h} dq`);
    }
  });

  test('bad slopes are refused as attention() refuses them, naming alibi', () => {
    assert.throws(() => attn.trace({ ...layer, alibi: new Float32Array(3) }), {
      name: 'RangeError',
      message: /alibi must hold one slope per query head \(qNumHeads = 4\), got 3/,
    });
    assert.throws(() => attn.trace({ ...layer, alibi: 'yes' }), {
      name: 'TypeError',
      message: /alibi/,
    });
  });
});
