// attn.createTinyTransformer() against bad input: every config field, every tensor of
// trainStep / forward / generate, loadParameters with missing, extra, inherited or misshapen
// entries, a step whose loss is not finite, detached buffers and a freed model. Each is a named
// TypeError or RangeError whose message names the argument, and a refused call changes nothing:
// the parameters stay bit for bit, and no wasm memory leaks.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import { assertEachReadOnce, countingProxy } from '../counting-proxy.mjs';

const attn = await createAttention();

const CONFIG = { vocabSize: 6, context: 5, dModel: 8, layers: 1, heads: 2, learningRate: 0.01 };

/** Asserts that `run` throws `Type` with a message matching `pattern`. */
function refuses(run, Type, pattern) {
  assert.throws(run, (error) => {
    assert.equal(error.constructor, Type, `${error.name}: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });
}

/** The parameters as one comparable string, bit for bit. */
const snapshot = (model) =>
  JSON.stringify(model.parameters(), (key, value) =>
    ArrayBuffer.isView(value) ? Array.from(new Uint32Array(value.buffer)) : value,
  );

function detached() {
  const array = new Int32Array(5);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

describe('createTinyTransformer refuses a bad config', () => {
  const cases = [
    [null, TypeError, /config must be an object/],
    [[1, 2], TypeError, /config must be an object/],
    [{ ...CONFIG, vocabSize: undefined }, TypeError, /config\.vocabSize is missing/],
    [
      { ...CONFIG, vocabSize: '6' },
      TypeError,
      /config\.vocabSize must be an integer .* got the string "6"/,
    ],
    [
      { ...CONFIG, vocabSize: 0 },
      RangeError,
      /config\.vocabSize must be an integer from 1 .* got 0/,
    ],
    [{ ...CONFIG, context: 2.5 }, RangeError, /config\.context must be an integer .* got 2\.5/],
    [{ ...CONFIG, context: 1e9 }, RangeError, /config\.context must be an integer from 1 to 16384/],
    [{ ...CONFIG, dModel: NaN }, RangeError, /config\.dModel/],
    [{ ...CONFIG, layers: 0 }, RangeError, /config\.layers must be an integer from 1/],
    [
      { ...CONFIG, heads: 3 },
      RangeError,
      /config\.heads must divide config\.dModel .* dModel is 8, heads 3/,
    ],
    [{ ...CONFIG, heads: 16 }, RangeError, /config\.heads must be an integer from 1 to 8, got 16/],
    [
      { ...CONFIG, kvHeads: 3 },
      RangeError,
      /config\.kvHeads must be an integer from 1 to 2, got 3/,
    ],
    [
      { ...CONFIG, dModel: 12, heads: 3, kvHeads: 2 },
      RangeError,
      /config\.kvHeads must divide config\.heads .* heads is 3, kvHeads 2/,
    ],
    [
      { ...CONFIG, positions: 'sinusoidal' },
      RangeError,
      /config\.positions must be one of 'learned', 'rope', 'alibi', 'none', got the string "sinusoidal"/,
    ],
    [{ ...CONFIG, positions: 1 }, TypeError, /config\.positions must be one of/],
    [
      { ...CONFIG, dModel: 6, heads: 2, positions: 'rope' },
      RangeError,
      /head size dModel \/ heads must be even, got 6 \/ 2 = 3/,
    ],
    [{ ...CONFIG, mlpSize: -1 }, RangeError, /config\.mlpSize must be an integer from 0/],
    [{ ...CONFIG, learningRate: NaN }, RangeError, /config\.learningRate must be a finite float32/],
    [
      { ...CONFIG, learningRate: Infinity },
      RangeError,
      /config\.learningRate must be a finite float32/,
    ],
    [{ ...CONFIG, learningRate: -0.1 }, RangeError, /config\.learningRate must be >= 0, got -0\.1/],
    [{ ...CONFIG, learningRate: '0.1' }, TypeError, /config\.learningRate must be a number/],
    [{ ...CONFIG, weightDecay: -1 }, RangeError, /config\.weightDecay must be >= 0/],
    [
      { ...CONFIG, seed: -1 },
      RangeError,
      /config\.seed must be an integer from 0 to 4294967295, got -1/,
    ],
    [{ ...CONFIG, seed: 2 ** 32 }, RangeError, /config\.seed/],
    [{ ...CONFIG, seed: 1n }, TypeError, /config\.seed must be an integer .* got the bigint 1n/],
    [{ ...CONFIG, dropout: 0.1 }, TypeError, /unknown option 'dropout'/],
    [
      { ...CONFIG, vocabSize: 1 << 20, dModel: 1 << 14, heads: 1 },
      RangeError,
      /needs .* more than the 2\.0 GiB wasm memory can hold/,
    ],
  ];
  for (const [config, Type, pattern] of cases) {
    test(`${pattern}`, () => refuses(() => attn.createTinyTransformer(config), Type, pattern));
  }

  test('an inherited field (a polluted prototype) is refused by name', () => {
    const { heads, ...rest } = CONFIG;
    const config = Object.assign(Object.create({ heads }), rest);
    refuses(() => attn.createTinyTransformer(config), TypeError, /'heads' is inherited by config/);
  });
});

describe('a tiny transformer refuses bad tensors and changes nothing', () => {
  const model = attn.createTinyTransformer(CONFIG);
  const tokens = Int32Array.from([0, 1, 2, 3, 4, 5, 0, 1, 2, 3]);
  const targets = Int32Array.from([1, 2, 3, 4, -1, 0, 1, 2, 3, -1]);
  const parameters = snapshot(model);
  let allocated;
  before(() => {
    allocated = attn.memoryStats().allocatedBytes;
  });
  const cases = [
    [
      'an argument that is not an object',
      () => model.trainStep(tokens),
      TypeError,
      /the argument must be an object \{ tokens, targets, batch \}/,
    ],
    ['missing targets', () => model.trainStep({ tokens }), TypeError, /targets is missing/],
    [
      'tokens as an array',
      () => model.trainStep({ tokens: [...tokens], targets }),
      TypeError,
      /tokens must be an Int32Array, got an array/,
    ],
    [
      'tokens as a Float32Array',
      () => model.forward({ tokens: new Float32Array(5) }),
      TypeError,
      /tokens must be an Int32Array, got a Float32Array of length 5/,
    ],
    [
      'a detached tokens buffer',
      () => model.forward({ tokens: detached() }),
      TypeError,
      /tokens is a Int32Array whose ArrayBuffer is detached/,
    ],
    [
      'a detached targets buffer',
      () => model.trainStep({ tokens: tokens.subarray(0, 5), targets: detached() }),
      TypeError,
      /targets is a Int32Array whose ArrayBuffer is detached/,
    ],
    [
      'a batch that does not divide the tokens',
      () => model.trainStep({ tokens, targets, batch: 3 }),
      RangeError,
      /tokens must hold batch \* T numbers .* multiple of 3; got 10/,
    ],
    [
      'batch 0',
      () => model.forward({ tokens, batch: 0 }),
      RangeError,
      /batch must be an integer from 1/,
    ],
    [
      'batch as a string',
      () => model.forward({ tokens, batch: '2' }),
      TypeError,
      /batch must be an integer/,
    ],
    [
      'T beyond the context',
      () => model.forward({ tokens }),
      RangeError,
      /T = tokens\.length \/ batch = 10 \/ 1 = 10 tokens per sequence, more than the model's context 5/,
    ],
    [
      'no tokens',
      () => model.forward({ tokens: new Int32Array(0) }),
      RangeError,
      /tokens must hold batch \* T numbers/,
    ],
    [
      'a token past the vocabulary',
      () => model.forward({ tokens: Int32Array.from([0, 6]) }),
      RangeError,
      /tokens\[1\] must be a token id from 0 to 5, got 6/,
    ],
    [
      'a negative token',
      () => model.forward({ tokens: Int32Array.from([-1]) }),
      RangeError,
      /tokens\[0\] must be a token id from 0 to 5, got -1/,
    ],
    [
      'targets of another length',
      () => model.trainStep({ tokens, targets: targets.subarray(1), batch: 2 }),
      RangeError,
      /targets must hold one target per token, 10 numbers, got 9/,
    ],
    [
      'a target below -1',
      () =>
        model.trainStep({ tokens, targets: targets.map((t, i) => (i === 3 ? -2 : t)), batch: 2 }),
      RangeError,
      /targets\[3\] must be -1 \(not counted\) or a token id from 0 to 5, got -2/,
    ],
    [
      'a target past the vocabulary',
      () =>
        model.trainStep({ tokens, targets: targets.map((t, i) => (i === 0 ? 6 : t)), batch: 2 }),
      RangeError,
      /targets\[0\] must be -1 .* got 6/,
    ],
    [
      'every target -1',
      () => model.trainStep({ tokens, targets: new Int32Array(10).fill(-1), batch: 2 }),
      RangeError,
      /every target is -1/,
    ],
    [
      'an unknown option',
      () => model.forward({ tokens, batch: 2, temperature: 1 }),
      TypeError,
      /unknown option 'temperature'/,
    ],
    [
      'an inherited option',
      () => model.forward(Object.assign(Object.create({ batch: 2 }), { tokens })),
      TypeError,
      /'batch' is inherited by the argument/,
    ],
    [
      'an empty prompt',
      () => model.generate([], 2),
      RangeError,
      /prompt must hold at least one token/,
    ],
    [
      'a prompt token past the vocabulary',
      () => model.generate([1, 9], 2),
      RangeError,
      /prompt\[1\] must be a token id from 0 to 5, got 9/,
    ],
    [
      'a prompt token that is not a number',
      () => model.generate([1, '2'], 2),
      TypeError,
      /prompt\[1\] must be a token id \(a number\), got the string "2"/,
    ],
    [
      'a prompt of floats',
      () => model.generate(new Float32Array(2), 2),
      TypeError,
      /prompt must be an Int32Array or an array of token ids, got a Float32Array/,
    ],
    [
      'a count that is not an integer',
      () => model.generate([1], 1.5),
      RangeError,
      /count must be an integer from 0 to 5, got 1\.5/,
    ],
    [
      'more tokens than the context',
      () => model.generate([1, 2, 3], 4),
      RangeError,
      /prompt \(3 tokens\) and count \(4\) need 6 positions .* more than the model's context 5/,
    ],
  ];
  for (const [what, run, Type, pattern] of cases) {
    test(what, () => {
      refuses(run, Type, pattern);
      assert.equal(snapshot(model), parameters, 'the parameters did not change');
      assert.equal(attn.memoryStats().allocatedBytes, allocated, 'no wasm memory leaked');
    });
  }
});

describe('loadParameters refuses a bad set whole', () => {
  const model = attn.createTinyTransformer({ ...CONFIG, seed: 1 });
  const source = attn.createTinyTransformer({ ...CONFIG, seed: 2 });
  const good = source.parameters();
  source.free();
  const loaded = snapshot(model);
  const without = (name) =>
    Object.fromEntries(Object.entries(good).filter(([key]) => key !== name));
  const cases = [
    [
      'not an object',
      () => model.loadParameters([]),
      TypeError,
      /must be an object \{ name: \{ data, dims \} \}/,
    ],
    [
      'a missing entry',
      () => model.loadParameters(without('unembedding')),
      TypeError,
      /'unembedding' is missing/,
    ],
    [
      'an extra entry',
      () => model.loadParameters({ ...good, 'layers.9.attention.wq': good.unembedding }),
      TypeError,
      /unknown option 'layers\.9\.attention\.wq'/,
    ],
    [
      'an inherited entry',
      () =>
        model.loadParameters(
          Object.assign(Object.create({ 'norm.gain': good['norm.gain'] }), without('norm.gain')),
        ),
      TypeError,
      /'norm\.gain' is inherited by parameters/,
    ],
    [
      'wrong dims',
      () =>
        model.loadParameters({
          ...good,
          'layers.0.attention.wq': { data: new Float32Array(64), dims: [4, 16] },
        }),
      RangeError,
      /parameters\['layers\.0\.attention\.wq'\]\.dims must be \[8, 8\], got \[4, 16\]/,
    ],
    [
      'dims that are not an array',
      () => model.loadParameters({ ...good, 'norm.bias': { data: new Float32Array(8), dims: 8 } }),
      TypeError,
      /parameters\['norm\.bias'\]\.dims must be an array/,
    ],
    [
      'too few numbers',
      () =>
        model.loadParameters({ ...good, 'norm.bias': { data: new Float32Array(7), dims: [8] } }),
      RangeError,
      /parameters\['norm\.bias'\]\.data must hold 8 numbers, got 7/,
    ],
    [
      'a non-number in an array',
      () =>
        model.loadParameters({
          ...good,
          'norm.bias': { data: [0, 0, 0, 'x', 0, 0, 0, 0], dims: [8] },
        }),
      TypeError,
      /parameters\['norm\.bias'\]\.data\[3\] must be a number, got the string "x"/,
    ],
    [
      'a Float64Array',
      () =>
        model.loadParameters({ ...good, 'norm.bias': { data: new Float64Array(8), dims: [8] } }),
      TypeError,
      /must be a Float32Array or an array of numbers, got a Float64Array of length 8/,
    ],
    [
      'an entry that is not an object',
      () => model.loadParameters({ ...good, 'norm.bias': 3 }),
      TypeError,
      /parameters\['norm\.bias'\] must be an object \{ data, dims \}/,
    ],
  ];
  for (const [what, run, Type, pattern] of cases) {
    test(what, () => {
      refuses(run, Type, pattern);
      assert.equal(snapshot(model), loaded, 'no entry was loaded');
    });
  }
});

test('a step whose loss is not finite is refused and leaves the model as it was', () => {
  const model = attn.createTinyTransformer(CONFIG);
  const parameters = model.parameters();
  // Finite weights whose logits overflow float32 (Infinity itself is refused by loadParameters).
  parameters.unembedding.data.fill(3e38);
  parameters['norm.gain'].data.fill(3e38);
  model.loadParameters(parameters);
  const stored = snapshot(model);
  const batch = { tokens: Int32Array.from([0, 1, 2]), targets: Int32Array.from([1, 2, 3]) };
  refuses(
    () => model.trainStep(batch),
    RangeError,
    /loss is not finite .* the step was refused and the model is unchanged/,
  );
  assert.equal(snapshot(model), stored);
  const { logits } = model.forward({ tokens: batch.tokens });
  assert.ok(logits.data.some(Number.isNaN) || logits.data.some((x) => !Number.isFinite(x)));
  model.free();
});

test('a batch whose activations cannot fit in wasm memory is refused up front', () => {
  const model = attn.createTinyTransformer(CONFIG);
  const before = attn.memoryStats().allocatedBytes;
  const tokens = new Int32Array(4_000_000); // 800 000 sequences of 5 tokens
  refuses(
    () => model.trainStep({ tokens, targets: tokens, batch: 800_000 }),
    RangeError,
    /TinyTransformer\.trainStep: batch 800000 of 5 tokens needs .* of activations and gradients, more than the 2\.0 GiB wasm memory can hold; use a smaller batch/,
  );
  assert.equal(attn.memoryStats().allocatedBytes, before);
  model.free();
});

test('a freed model refuses every method by name; free() twice is harmless', () => {
  const model = attn.createTinyTransformer(CONFIG);
  const parameters = model.parameters();
  model.free();
  model.free();
  assert.equal(model.freed, true);
  const tokens = Int32Array.from([1]);
  for (const [name, run] of [
    ['trainStep', () => model.trainStep({ tokens, targets: tokens })],
    ['forward', () => model.forward({ tokens })],
    ['generate', () => model.generate([1], 1)],
    ['parameters', () => model.parameters()],
    ['loadParameters', () => model.loadParameters(parameters)],
  ]) {
    refuses(run, TypeError, new RegExp(`TinyTransformer\\.${name}: this model has been freed`));
  }
  assert.equal(model.config.vocabSize, CONFIG.vocabSize);
});

test('every entry point reads each field of its arguments once', () => {
  const model = attn.createTinyTransformer({ ...CONFIG, mlpSize: 4 });
  const tokens = Int32Array.from([0, 1, 2, 3]);
  const targets = Int32Array.from([1, 2, 3, -1]);
  const parameters = Object.fromEntries(
    Object.entries(model.parameters()).map(([name, { data, dims }]) => [
      name,
      { data: Array.from(data), dims },
    ]),
  );
  const calls = {
    createTinyTransformer: (proxy) => attn.createTinyTransformer(proxy).free(),
    trainStep: (proxy) => model.trainStep(proxy),
    forward: (proxy) => model.forward(proxy),
    generate: (proxy) => model.generate(proxy, 2),
    loadParameters: (proxy) => model.loadParameters(proxy),
  };
  const argumentsOf = {
    createTinyTransformer: { ...CONFIG, kvHeads: 1, positions: 'rope', seed: 3 },
    trainStep: { tokens, targets, batch: 2 },
    forward: { tokens, batch: 1 },
    generate: [1, 2, 3],
    loadParameters: parameters,
  };
  for (const [name, call] of Object.entries(calls)) {
    const counts = new Map();
    call(countingProxy(argumentsOf[name], counts));
    assertEachReadOnce(counts, name);
  }
  model.free();
});
