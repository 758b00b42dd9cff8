// The induction task's generator (src/js/tasks/induction-task.mjs): the structure of every row of
// many batches (BOS, distinct segment, the same segment again, noise excluded, ranges, n and p
// covering their whole ranges), targets exactly at the predictable positions of the second
// copy, determinism by seed, its refusals, and the accuracy over counted targets.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  BOS,
  INDUCTION_LENGTH,
  INDUCTION_VOCAB,
  MAX_SEGMENT,
  MIN_SEGMENT,
  createInductionTask,
  inductionAccuracy,
} from '../../src/js/tasks/induction-task.mjs';

/** Recovers { p, n } of a row from its tokens alone: the one segment that repeats right away. */
function findSegment(row) {
  const found = [];
  for (let n = MIN_SEGMENT; n <= MAX_SEGMENT; n++) {
    for (let p = 0; 1 + p + 2 * n <= INDUCTION_LENGTH; p++) {
      const first = row.slice(1 + p, 1 + p + n);
      const second = row.slice(1 + p + n, 1 + p + 2 * n);
      if (first.every((token, i) => token === second[i]) && new Set(first).size === n) {
        found.push({ p, n });
      }
    }
  }
  return found;
}

test('every row: BOS, a distinct segment twice, noise from the other symbols, targets on the second copy', () => {
  const task = createInductionTask(7);
  const seenN = new Set();
  const seenP = new Set();
  for (let round = 0; round < 20; round++) {
    const { tokens, targets, batch, length, rows } = task.batch(50);
    assert.equal(batch, 50);
    assert.equal(length, INDUCTION_LENGTH);
    assert.equal(tokens.length, 50 * INDUCTION_LENGTH);
    assert.equal(targets.length, 50 * INDUCTION_LENGTH);
    for (let b = 0; b < batch; b++) {
      const row = [...tokens.subarray(b * length, (b + 1) * length)];
      const want = targets.subarray(b * length, (b + 1) * length);
      const { p, n } = rows[b];
      seenN.add(n);
      seenP.add(p);
      assert.ok(n >= MIN_SEGMENT && n <= MAX_SEGMENT, `n = ${n}`);
      assert.ok(p >= 0 && p <= 24 - 2 * n, `p = ${p} for n = ${n}`);
      // The generator's own report agrees with the tokens: exactly one repeat fits.
      assert.deepEqual(findSegment(row), [{ p, n }]);
      assert.equal(row[0], BOS);
      for (const token of row.slice(1)) assert.ok(token >= 1 && token < INDUCTION_VOCAB);
      const first = 1 + p;
      const second = first + n;
      const segment = row.slice(first, first + n);
      assert.equal(new Set(segment).size, n, 'the segment holds distinct symbols');
      assert.deepEqual(row.slice(second, second + n), segment, 'the same segment again');
      const noise = [...row.slice(1, first), ...row.slice(second + n)];
      assert.equal(noise.length, INDUCTION_LENGTH - 1 - 2 * n);
      for (const token of noise) assert.ok(!segment.includes(token), `noise ${token} in segment`);
      for (let t = 0; t < length; t++) {
        const counted = t >= second && t < second + n - 1;
        assert.equal(want[t], counted ? row[t + 1] : -1, `row ${b} position ${t}`);
      }
    }
  }
  // 1000 rows reach every n and every start the smallest segment allows.
  assert.deepEqual(
    [...seenN].sort((a, b) => a - b),
    [4, 5, 6, 7, 8, 9, 10],
  );
  assert.equal(seenP.size, 24 - 2 * MIN_SEGMENT + 1);
});

test('the same seed gives the same batches in the same order; another seed differs', () => {
  const a = createInductionTask(3);
  const b = createInductionTask(3);
  const c = createInductionTask(4);
  for (let i = 0; i < 3; i++) {
    const [x, y, z] = [a.batch(8), b.batch(8), c.batch(8)];
    assert.deepEqual(x.tokens, y.tokens);
    assert.deepEqual(x.targets, y.targets);
    assert.notDeepEqual(x.tokens, z.tokens);
  }
  assert.notDeepEqual(createInductionTask(3).batch(8).tokens, a.batch(8).tokens);
});

test('bad seeds and batch sizes are refused by name', () => {
  assert.throws(() => createInductionTask('1'), {
    name: 'TypeError',
    message: /seed must be an integer, got the string "1"/,
  });
  assert.throws(() => createInductionTask(-1), { name: 'RangeError', message: /seed .* got -1/ });
  assert.throws(() => createInductionTask(1.5), { name: 'RangeError', message: /got 1.5/ });
  const task = createInductionTask();
  assert.throws(() => task.batch(0), { name: 'RangeError', message: /batch .* got 0/ });
  assert.throws(() => task.batch(1e9), { name: 'RangeError', message: /at most 65536/ });
  assert.throws(() => task.batch(), { name: 'TypeError', message: /batch .* got undefined/ });
});

test('accuracy counts only the counted targets, by the largest logit', () => {
  const { targets, batch, length } = createInductionTask(5).batch(4);
  const vocab = INDUCTION_VOCAB;
  const data = new Float32Array(batch * length * vocab);
  let counted = 0;
  let spoiled = 0;
  for (let i = 0; i < batch * length; i++) {
    // Every position's largest logit says 1, except counted ones: their target, or a wrong
    // token for every third one.
    let pick = 1;
    if (targets[i] >= 0) {
      counted++;
      pick = counted % 3 === 0 ? (targets[i] % (vocab - 1)) + 1 : targets[i];
      if (pick !== targets[i]) spoiled++;
    }
    data[i * vocab + pick] = 5;
  }
  const result = inductionAccuracy({ data, dims: [batch, length, vocab] }, targets);
  assert.equal(result.counted, counted);
  assert.equal(result.correct, counted - spoiled);
  assert.equal(result.accuracy, (counted - spoiled) / counted);
  assert.throws(() => inductionAccuracy({ data, dims: [batch, length, vocab - 1] }, targets), {
    name: 'RangeError',
    message: /logits.data must hold/,
  });
  assert.throws(() => inductionAccuracy({ data, dims: [batch, length, vocab] }, [1]), {
    name: 'TypeError',
    message: /targets must be an Int32Array/,
  });
});

test('trainStep takes a batch as createInductionTask made it (its length and rows too)', async () => {
  const { default: createAttention, INDUCTION_MODEL } = await import('../../dist/attention.mjs');
  const attn = await createAttention({ warmUp: false });
  const model = attn.createTinyTransformer({ ...INDUCTION_MODEL, seed: 1 });
  try {
    const batch = createInductionTask(1).batch(4);
    assert.ok(Number.isFinite(model.trainStep(batch)));
    // length is checked against the tokens, not ignored.
    assert.throws(() => model.trainStep({ ...batch, length: 24 }), {
      name: 'RangeError',
      message: /length must be T = tokens\.length \/ batch = 25, got number 24/,
    });
  } finally {
    model.free();
  }
});
