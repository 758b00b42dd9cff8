// NaN and Infinity weights: a model loaded with one computes NaN everywhere and can never train
// again (every step's loss is NaN), so loadParameters refuses them, naming the tensor and the
// index, and changes nothing. That holds for the model's own loadParameters, the trainer's (its
// worker's model refuses), a parameters file (1e39 is Infinity in float32) and a model link
// (float16: any half whose exponent bits are all ones).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import { createTrainer } from '../../../src/js/training/trainer.mjs';
import { decodeParametersLink, encodeParametersLink } from '../../../web/model/parameters-link.mjs';
import { parametersJson, readParametersJson } from '../../../web/model/training-export.mjs';
import { TRAINING_DEFAULTS, modelConfig } from '../../../web/model/training.mjs';

const attn = await createAttention();
const CONFIG = { vocabSize: 16, context: 25, dModel: 8, layers: 1, heads: 2, positions: 'learned' };
const NAME = 'layers.0.attention.wq';

/** Every parameter's bits, comparable with deepEqual. */
const bits = (parameters) =>
  Object.entries(parameters).map(([name, { data }]) => [
    name,
    Array.from(new Uint32Array(Float32Array.from(data).buffer)),
  ]);

/** A copy of `parameters` with `value` at data[index] of `name`, data as `kind`. */
function poisoned(parameters, name, index, value, kind = 'float32') {
  return Object.fromEntries(
    Object.entries(parameters).map(([key, { data, dims }]) => {
      const values = Array.from(data);
      if (key === name) values[index] = value;
      return [key, { data: kind === 'array' ? values : Float32Array.from(values), dims }];
    }),
  );
}

/** The error a refused non-finite weight must be: a RangeError naming tensor, index, value. */
function isNonFiniteError(name, index, shown) {
  return (error) => {
    assert.equal(error.name, 'RangeError', `${error.name}: ${error.message}`);
    const where = `parameters['${name}'].data[${index}]`;
    assert.ok(error.message.includes(where), `"${error.message}" does not name ${where}`);
    assert.ok(error.message.includes(shown), `"${error.message}" does not show ${shown}`);
    assert.match(error.message, /finite/);
    return true;
  };
}

const CASES = [
  ['float32', 3, NaN, 'NaN'],
  ['float32', 0, Infinity, 'Infinity'],
  ['float32', 63, -Infinity, '-Infinity'],
  ['array', 5, NaN, 'NaN'],
  ['array', 7, -Infinity, '-Infinity'],
  // Finite in JS, Infinity once it is a float32.
  ['array', 11, 1e39, '1e+39'],
  ['array', 12, -4e38, '-4e+38'],
];

describe("the model's loadParameters refuses non-finite weights", () => {
  const model = attn.createTinyTransformer(CONFIG);
  const original = model.parameters();
  let baseline;
  before(() => {
    baseline = attn.memoryStats().allocatedBytes;
  });
  after(() => model.free());

  for (const [kind, index, value, shown] of CASES) {
    test(`${shown} at ${NAME}[${index}] (${kind})`, () => {
      assert.throws(
        () => model.loadParameters(poisoned(original, NAME, index, value, kind)),
        isNonFiniteError(NAME, index, shown),
      );
      assert.deepEqual(bits(model.parameters()), bits(original), 'unchanged');
      assert.equal(attn.memoryStats().allocatedBytes, baseline, 'nothing leaked');
    });
  }

  test('the last value of the last tensor is checked too', () => {
    const names = Object.keys(original);
    const last = names[names.length - 1];
    const index = original[last].data.length - 1;
    assert.throws(
      () => model.loadParameters(poisoned(original, last, index, NaN)),
      isNonFiniteError(last, index, 'NaN'),
    );
    assert.deepEqual(bits(model.parameters()), bits(original));
  });

  test('the largest finite float32 weights are accepted and still compute', () => {
    const huge = poisoned(original, NAME, 0, 3.4028234663852886e38);
    model.loadParameters(huge);
    assert.equal(model.parameters()[NAME].data[0], 3.4028234663852886e38);
    model.loadParameters(original);
    assert.deepEqual(bits(model.parameters()), bits(original));
  });
});

describe("the trainer's loadParameters refuses non-finite weights", () => {
  const workerUrl = new URL('../../../dist/train-worker.mjs', import.meta.url);
  let trainer;
  let original;
  before(async () => {
    trainer = await createTrainer({ config: CONFIG, workerUrl, batch: 2 });
    original = await trainer.parameters();
  });
  after(() => trainer?.close());

  for (const [kind, index, value, shown] of CASES) {
    test(`${shown} at ${NAME}[${index}] (${kind})`, async () => {
      await assert.rejects(
        async () => trainer.loadParameters(poisoned(original, NAME, index, value, kind)),
        isNonFiniteError(NAME, index, shown),
      );
      assert.deepEqual(bits(await trainer.parameters()), bits(original), 'unchanged');
      // The trainer trains on as it was.
      const { step, loss } = await trainer.train({ steps: 1 });
      assert.equal(step, 1);
      assert.ok(Number.isFinite(loss));
      await trainer.reset();
    });
  }
});

describe("the page's parameters file and model link", () => {
  const settings = { ...TRAINING_DEFAULTS, layers: 1, heads: 2 };
  const model = attn.createTinyTransformer(modelConfig(settings));
  const parameters = model.parameters();
  after(() => model.free());

  test('a parameters file with 1e39 (Infinity in float32) is refused by tensor and index', () => {
    const name = Object.keys(parameters)[2];
    const text = parametersJson({
      settings,
      step: 300,
      parameters: poisoned(parameters, name, 4, 1e39, 'array'),
    });
    assert.match(text, /1e\+39/);
    const read = readParametersJson(text);
    assert.throws(() => model.loadParameters(read.parameters), isNonFiniteError(name, 4, '1e+39'));
    assert.deepEqual(bits(model.parameters()), bits(parameters));
  });

  for (const [value, shown] of [
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    // Finite in float32, past float16's largest (65504): Infinity in the link.
    [1e5, 'Infinity'],
  ]) {
    test(`a model link carrying ${shown} (float16) is refused by tensor and index`, async () => {
      const name = Object.keys(parameters)[1];
      const text = await encodeParametersLink({
        settings,
        step: 300,
        parameters: poisoned(parameters, name, 6, value),
      });
      // The page decodes the link, then checks it with a model of its switches (as here).
      await assert.rejects(
        async () => {
          const read = await decodeParametersLink(text);
          model.loadParameters(read.parameters);
        },
        isNonFiniteError(name, 6, shown),
      );
      assert.deepEqual(bits(model.parameters()), bits(parameters));
    });
  }
});
