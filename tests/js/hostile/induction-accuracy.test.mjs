// Hostile arguments to inductionAccuracy. Breaks found: logits.data was read twice (a getter
// passed the Float32Array check and then gave something else), and dims were not checked to
// be counts, so [1, 2, 1.5] or [-1, -1, 1] were accepted and measured nonsense.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { inductionAccuracy } from '../../../src/js/tasks/induction-task.mjs';

const logits = () => ({ data: Float32Array.from([0, 1, 1, 0]), dims: [1, 2, 2] });
const targets = Int32Array.from([1, 0]);

test('inductionAccuracy measures what it is given', () => {
  assert.deepEqual(inductionAccuracy(logits(), targets), { correct: 2, counted: 2, accuracy: 1 });
});

test('logits.data is read once: a getter cannot swap it after the check', () => {
  let reads = 0;
  const swapping = {
    get data() {
      reads++;
      return reads === 1 ? Float32Array.from([0, 1, 1, 0]) : [0, 1, 1, 0];
    },
    dims: [1, 2, 2],
  };
  assert.deepEqual(inductionAccuracy(swapping, targets).accuracy, 1);
  assert.equal(reads, 1);
});

test('dims that are not three counts are refused by name', () => {
  for (const dims of [
    [1, 2, 1.5],
    [-1, -1, 1],
    [1, '2', 2],
    [1, 2],
    [NaN, 2, 2],
  ]) {
    assert.throws(
      () => inductionAccuracy({ data: new Float32Array(3), dims }, Int32Array.from([1, 0])),
      { name: 'TypeError', message: /logits\.dims must be \[batch, T, vocab\]/ },
      String(dims),
    );
  }
  const huge = new Proxy([], { get: (t, key) => (key === 'length' ? 2 ** 32 - 1 : t[key]) });
  assert.throws(() => inductionAccuracy({ data: new Float32Array(4), dims: huge }, targets), {
    name: 'RangeError',
    message: /logits\.dims must have at most 3 items/,
  });
});
