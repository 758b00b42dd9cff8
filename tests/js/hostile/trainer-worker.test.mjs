// Hostile arguments to createTrainer's loadParameters and a polluted host realm, with the real
// model in its worker (dist/train-worker.mjs). Each test is a break that was found: the host
// copied parameters with Float32Array.from and [...dims] into a plain object, so an own
// '__proto__' entry vanished, strings and nulls became numbers, an own Symbol.iterator
// replaced the data, and a Proxy claiming 2^32 dims ran the host out of memory; the channel
// read message fields through the prototype chain, so Object.prototype.type = 'progress'
// turned every answer into a bad progress event.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createTrainer } from '../../../src/js/training/trainer.mjs';

const workerUrl = new URL('../../../dist/train-worker.mjs', import.meta.url);
const CONFIG = { vocabSize: 16, context: 25, dModel: 8, layers: 1, heads: 2, positions: 'learned' };

let trainer;
let original; // the parameters at step 0, as parameters() gave them

before(async () => {
  trainer = await createTrainer({ config: CONFIG, workerUrl, batch: 2 });
  original = await trainer.parameters();
});
after(() => trainer.close());

/** A fresh copy of the parameters, each entry made by make(name, data, dims). */
function copyWith(make) {
  const copy = {};
  for (const [name, { data, dims }] of Object.entries(original)) {
    copy[name] = make(name, new Float32Array(data), [...dims]);
  }
  return copy;
}

async function assertUnchanged() {
  assert.deepEqual(await trainer.parameters(), original);
}

test("an own '__proto__' entry is refused by name, not dropped", async () => {
  const text = JSON.stringify(copyWith((_, data, dims) => ({ data: [...data], dims })));
  const withProto = JSON.parse(`{"__proto__":{"data":[1],"dims":[1]},${text.slice(1)}`);
  assert.ok(Object.hasOwn(withProto, '__proto__'));
  // Refused at once, by the host (it knows the model's names), or by the worker's model.
  await assert.rejects(async () => trainer.loadParameters(withProto), {
    name: 'TypeError',
    message: /__proto__/,
  });
  await assertUnchanged();
});

test('strings, nulls and holes in data are refused by index, not converted', async () => {
  for (const bad of ['1', null, undefined, 1n, {}]) {
    const p = copyWith((_, data, dims) => ({
      data: [...data].map((x, i) => (i === 3 ? bad : x)),
      dims,
    }));
    assert.throws(() => trainer.loadParameters(p), {
      name: 'TypeError',
      message: /\.data\[3\] must be a number/,
    });
  }
  const dimsAsString = copyWith((_, data, dims) => ({ data, dims: dims.map(String) }));
  assert.throws(() => trainer.loadParameters(dimsAsString), {
    name: 'TypeError',
    message: /\.dims\[0\] must be a number/,
  });
  await assertUnchanged();
});

test('an own Symbol.iterator or length on a Float32Array does not change what is loaded', async () => {
  const p = copyWith((_, data, dims) => {
    const fake = Array.from({ length: data.length }, () => 7);
    Object.defineProperty(data, Symbol.iterator, { value: () => fake[Symbol.iterator]() });
    Object.defineProperty(data, 'length', { value: 1 });
    return { data, dims };
  });
  await trainer.loadParameters(p);
  await assertUnchanged();
});

test('a Proxy claiming 2^32 - 1 dims or data items is refused at once', async () => {
  const huge = new Proxy([], { get: (t, key) => (key === 'length' ? 2 ** 32 - 1 : t[key]) });
  const name = Object.keys(original)[0];
  for (const field of ['dims', 'data']) {
    const p = copyWith((_, data, dims) => ({ data, dims }));
    p[name] = { ...p[name], [field]: huge };
    assert.throws(() => trainer.loadParameters(p), {
      name: 'RangeError',
      // dims: at most 8 of them; data: exactly the model's count, checked before any item.
      message: new RegExp(`\\.${field} must (have at most|hold \\d+ numbers, got 4294967295)`),
    });
  }
  await assertUnchanged();
});

test('a detached Float32Array is refused by name', async () => {
  const p = copyWith((_, data, dims) => ({ data, dims }));
  const name = Object.keys(p)[1];
  structuredClone(p[name].data.buffer, { transfer: [p[name].data.buffer] });
  assert.throws(() => trainer.loadParameters(p), { name: 'TypeError', message: /detached/ });
  await assertUnchanged();
});

test('dims that cannot be cloned to the worker are refused and leave nothing pending', async () => {
  const p = copyWith((_, data, dims) => ({ data, dims }));
  const name = Object.keys(p)[0];
  p[name].dims = [() => 1, 8];
  assert.throws(() => trainer.loadParameters(p), { name: 'TypeError', message: /dims\[0\]/ });
  assert.deepEqual(await trainer.evaluate({ batch: 1 }).then((e) => e.step), 0);
});

test('a polluted Object.prototype (type, attention, ok, error) does not break the channel', async () => {
  const keys = { type: 'progress', attention: 5, error: 'x', id: 1 };
  for (const [key, value] of Object.entries(keys)) {
    Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
  }
  try {
    const events = [];
    const polluted = await createTrainer({
      config: CONFIG,
      workerUrl,
      batch: 2,
      onProgress: (e) => events.push(e),
    });
    try {
      const result = await polluted.train({ steps: 3, progressEvery: 2 });
      assert.equal(result.step, 3);
      assert.deepEqual(
        events.map((e) => e.step),
        [2, 3],
      );
      assert.equal((await polluted.evaluate({ batch: 2 })).step, 3);
    } finally {
      polluted.close();
    }
  } finally {
    for (const key of Object.keys(keys)) delete Object.prototype[key];
  }
});

test("an initTimeout past setTimeout's limit, or a workerUrl of the wrong kind, is refused by name", async () => {
  for (const initTimeout of [Infinity, 2 ** 31, 1e12]) {
    await assert.rejects(createTrainer({ config: CONFIG, workerUrl, initTimeout }), {
      name: 'RangeError',
      message: /initTimeout must be a positive number of milliseconds up to 2147483647/,
    });
  }
  for (const bad of [5, {}, ['./x.mjs']]) {
    await assert.rejects(createTrainer({ config: CONFIG, workerUrl: bad }), {
      name: 'TypeError',
      message: /workerUrl must be a string or a URL/,
    });
  }
});

test('a replaced Array iterator cannot hide a parameter from loadParameters', async () => {
  const p = copyWith((_, data, dims) => ({ data, dims }));
  p.extra = { data: [1], dims: [1] };
  const iterator = Array.prototype[Symbol.iterator];
  let loading;
  Array.prototype[Symbol.iterator] = function* () {
    for (let i = 0; i < this.length; i++) if (this[i] !== 'extra') yield this[i];
  };
  try {
    // The copy is made now, synchronously (a refusal then rejects the promise).
    loading = (async () => trainer.loadParameters(p))();
  } finally {
    Array.prototype[Symbol.iterator] = iterator;
  }
  await assert.rejects(loading, { name: 'TypeError', message: /'extra'/ });
  await assertUnchanged();
});
