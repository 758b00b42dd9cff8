// createTrainer's loadParameters reads the caller's parameters on the caller's thread (the
// page's), so it checks each tensor's size against the model in the worker before it reads a
// single item: an array claiming millions of items (sparse, or a Proxy) is refused at once,
// naming the tensor and the count it must have, instead of freezing the page while it is read.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createTrainer } from '../../../src/js/training/trainer.mjs';

const workerUrl = new URL('../../../dist/train-worker.mjs', import.meta.url);
const CONFIG = { vocabSize: 16, context: 25, dModel: 8, layers: 1, heads: 2, positions: 'learned' };

let trainer;
let original;

before(async () => {
  trainer = await createTrainer({ config: CONFIG, workerUrl, batch: 2 });
  original = await trainer.parameters();
});
after(() => trainer.close());

/** A copy of the parameters with `name`'s entry replaced by `entry`. */
const withEntry = (name, entry) => ({ ...original, [name]: entry });

/** An array Proxy claiming `length` items that counts the items read. */
function countingArray(length, reads) {
  return new Proxy([], {
    get(target, key) {
      if (key === 'length') return length;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        reads.count += 1;
        return 0.5;
      }
      return target[key];
    },
  });
}

test('a sparse array of 2^24 items is refused before it is read, naming the tensor and size', async () => {
  const name = 'embedding.tokens';
  const count = original[name].data.length;
  const sparse = [];
  sparse.length = 2 ** 24;
  assert.throws(
    () => trainer.loadParameters(withEntry(name, { data: sparse, dims: original[name].dims })),
    (error) => {
      assert.equal(error.name, 'RangeError', `${error.name}: ${error.message}`);
      assert.ok(error.message.includes(`parameters['${name}'].data`), error.message);
      assert.ok(error.message.includes(String(count)), `${error.message}: names ${count}`);
      assert.ok(error.message.includes(String(2 ** 24)), `${error.message}: names the length`);
      return true;
    },
  );
  assert.deepEqual(await trainer.parameters(), original);
});

test('a Proxy claiming 2^22 items has none of them read', () => {
  for (const name of Object.keys(original)) {
    const reads = { count: 0 };
    assert.throws(
      () =>
        trainer.loadParameters(
          withEntry(name, { data: countingArray(2 ** 22, reads), dims: original[name].dims }),
        ),
      { name: 'RangeError', message: new RegExp(`must hold ${original[name].data.length}`) },
    );
    assert.equal(reads.count, 0, `${name}: items read before the size check`);
  }
});

test("dims that are not the model's are refused before data is read", () => {
  const name = 'layers.0.attention.wq';
  const reads = { count: 0 };
  assert.throws(
    () =>
      trainer.loadParameters(
        withEntry(name, { data: countingArray(2 ** 20, reads), dims: [1024, 1024] }),
      ),
    (error) => {
      assert.equal(error.name, 'RangeError');
      assert.match(
        error.message,
        /parameters\['layers\.0\.attention\.wq'\]\.dims must be \[8, 8\], got \[1024, 1024\]/,
      );
      return true;
    },
  );
  assert.equal(reads.count, 0);
});

test('a name the model does not have, or a missing one, is refused at once by name', async () => {
  const names = Object.keys(original);
  assert.throws(
    () => trainer.loadParameters({ ...original, 'layers.9.attention.wq': original[names[2]] }),
    {
      name: 'TypeError',
      message: /layers\.9\.attention\.wq/,
    },
  );
  const { [names[3]]: dropped, ...missing } = original;
  assert.ok(dropped);
  assert.throws(() => trainer.loadParameters(missing), {
    name: 'TypeError',
    message: new RegExp(`'${names[3].replace(/\./g, '\\.')}' is missing`),
  });
  assert.deepEqual(await trainer.parameters(), original);
});

test('after a reset to another config, the sizes of the new model are the ones checked', async () => {
  await trainer.reset({ config: { ...CONFIG, dModel: 16 } });
  const bigger = await trainer.parameters();
  assert.equal(bigger['layers.0.attention.wq'].data.length, 256);
  // The old model's parameters no longer fit.
  assert.throws(() => trainer.loadParameters(original), {
    name: 'RangeError',
    message: /dims must be \[\d+, 16\], got \[\d+, 8\]/,
  });
  await trainer.loadParameters(bigger);
  await trainer.reset({ config: CONFIG });
  await trainer.loadParameters(original);
  assert.deepEqual(await trainer.parameters(), original);
});
