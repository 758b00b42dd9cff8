// createTrainer's workerType (src/js/training/trainer.mjs): 'module' (the default) or 'classic' (how the
// offline page starts its worker from a blob: URL; tests/web/chapter3-train.test.mjs trains
// through it in Chromium). Anything else is refused by name before a worker starts; Node's
// worker_threads ignore it. With the stand-in model of fixtures/fake-train-worker.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createTrainer } from '../../src/js/training/trainer.mjs';

const workerUrl = new URL('./fixtures/fake-train-worker.mjs', import.meta.url);
const config = { vocabSize: 16, context: 25, dModel: 8, layers: 2, heads: 2 };

test('workerType: another string is a RangeError, another kind a TypeError, naming it', async () => {
  await assert.rejects(createTrainer({ config, workerUrl, workerType: 'shared' }), {
    name: 'RangeError',
    message: `createTrainer: workerType must be 'module' or 'classic', got the string "shared"`,
  });
  await assert.rejects(createTrainer({ config, workerUrl, workerType: 1 }), {
    name: 'TypeError',
    message: /workerType must be 'module' or 'classic', got number 1/,
  });
});

test("workerType 'classic' in Node: the same worker_thread, training as before", async () => {
  const trainer = await createTrainer({ config, workerUrl, workerType: 'classic', batch: 4 });
  const result = await trainer.train({ steps: 5 });
  trainer.close();
  assert.equal(result.step, 5);
  assert.equal(result.stopped, false);
});
