// A tiny transformer's methods against an argument that frees the model while it is read: a
// getter (or Proxy trap) that calls free() and then builds another model, which may take the
// freed memory. The method must see that its model is gone and refuse by name, leaving the
// other model exactly as it was; it must never load into, train or read the other model.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';

const attn = await createAttention();

const CONFIG = { vocabSize: 6, context: 5, dModel: 8, layers: 1, heads: 2, learningRate: 0.05 };
const tokens = Int32Array.from([0, 1, 2, 3, 4, 5, 0, 1, 2, 3]);
const targets = Int32Array.from([1, 2, 3, 4, -1, 0, 1, 2, 3, -1]);

/** Every parameter's bits, comparable with deepEqual. */
const bits = (model) =>
  Object.entries(model.parameters()).map(([name, { data }]) => [
    name,
    Array.from(new Uint32Array(data.buffer)),
  ]);

/**
 * Runs `call(model, freeing)`, where `freeing(value)` is a getter body that frees the model,
 * builds another (seed 9) in its place and returns `value`. Asserts the call refused by name,
 * and that the other model is bit for bit what a fresh model of seed 9 is.
 */
function assertRefusedAfterFree(call) {
  const baseline = attn.memoryStats().allocatedBytes;
  const model = attn.createTinyTransformer({ ...CONFIG, seed: 1 });
  let other = null;
  const freeing = (value) => {
    if (!model.freed) {
      model.free();
      other = attn.createTinyTransformer({ ...CONFIG, seed: 9 });
    }
    return value;
  };
  const fresh = attn.createTinyTransformer({ ...CONFIG, seed: 9 });
  const expected = bits(fresh);
  fresh.free();
  assert.throws(
    () => call(model, freeing),
    (error) => {
      assert.equal(error.constructor, TypeError, `${error.name}: ${error.message}`);
      assert.match(error.message, /TinyTransformer\.\w+: this model has been freed/);
      return true;
    },
  );
  assert.ok(other !== null, 'the getter ran');
  assert.deepEqual(bits(other), expected, 'the other model is untouched');
  // The other model still trains as a model of its own.
  assert.ok(Number.isFinite(other.trainStep({ tokens, targets, batch: 2 })));
  other.free();
  assert.equal(attn.memoryStats().allocatedBytes, baseline, 'nothing leaked');
}

/** An object whose `key` is an own, enumerable getter returning freeing(value). */
function withGetter(object, key, value, freeing) {
  return Object.defineProperty(object, key, {
    enumerable: true,
    get: () => freeing(value),
  });
}

test('loadParameters: a getter that frees the model is refused, not written into another model', () => {
  assertRefusedAfterFree((model, freeing) => {
    const given = model.parameters();
    const [last] = Object.keys(given).slice(-1);
    const entry = given[last];
    delete given[last];
    // The last entry is read after every other: the model is freed with the rest all read.
    withGetter(given, last, { data: entry.data.map(() => 0.5), dims: entry.dims }, freeing);
    for (const name of Object.keys(given)) {
      if (name !== last) given[name].data = given[name].data.map(() => 0.25);
    }
    model.loadParameters(given);
  });
});

test('loadParameters: a Proxy whose data read frees the model is refused', () => {
  assertRefusedAfterFree((model, freeing) => {
    const given = model.parameters();
    const name = Object.keys(given)[0];
    given[name] = new Proxy(given[name], {
      get: (target, key) => (key === 'data' ? freeing(target.data) : target[key]),
    });
    model.loadParameters(given);
  });
});

test('trainStep: a getter that frees the model is refused, not a step of another model', () => {
  assertRefusedAfterFree((model, freeing) => {
    const args = withGetter({ batch: 2 }, 'tokens', tokens, freeing);
    args.targets = targets;
    model.trainStep(args);
  });
});

test('forward: a getter that frees the model is refused, not run on another model', () => {
  assertRefusedAfterFree((model, freeing) => {
    model.forward(withGetter({ batch: 2 }, 'tokens', tokens, freeing));
  });
  assertRefusedAfterFree((model, freeing) => {
    model.forward(withGetter({ tokens }, 'batch', 2, freeing));
  });
});

test('generate: a prompt whose item read frees the model is refused', () => {
  assertRefusedAfterFree((model, freeing) => {
    const prompt = [1, 2];
    withGetter(prompt, 1, 2, freeing);
    model.generate(prompt, 2);
  });
  assertRefusedAfterFree((model, freeing) => {
    const prompt = new Proxy([3, 4], {
      get: (target, key) => (key === '0' ? freeing(target[0]) : target[key]),
    });
    model.generate(prompt, 1);
  });
});
