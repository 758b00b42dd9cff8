// A tiny transformer's forward({ headMask }) and generate(prompt, count, options): switching a
// head off is the same as zeroing its rows of W_O, a mask of all ones is no mask bit for bit,
// generating with a mask follows the masked forward, sampling is seeded, topK 1 is greedy and a
// draw never leaves the top k; every bad option is a named TypeError / RangeError that leaves
// no wasm memory behind. A banned id is never chosen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

const CONFIG = {
  vocabSize: 9,
  context: 12,
  dModel: 16,
  layers: 2,
  heads: 4,
  mlpSize: 16,
  positions: 'rope',
  learningRate: 0.01,
  seed: 3,
};
const HEADS = CONFIG.layers * CONFIG.heads;

/** A model trained a little on "the token two back", so that its heads differ. */
function trainedModel(config = CONFIG) {
  const model = attn.createTinyTransformer(config);
  const random = seededRandom(5);
  const [B, T, V] = [4, config.context, config.vocabSize];
  for (let step = 0; step < 40; step++) {
    const tokens = new Int32Array(B * T).map(() => Math.floor(random() * V));
    const targets = tokens.map((_, i) => (i % T < 2 ? -1 : tokens[i - 2]));
    model.trainStep({ tokens, targets, batch: B });
  }
  return model;
}

/** The ids of row `row` of a [rows, width] array, largest first (ties: lower id first). */
function ranked(data, row, width) {
  const values = data.subarray(row * width, (row + 1) * width);
  return [...values.keys()].sort((a, b) => values[b] - values[a] || a - b);
}

const tokens = Int32Array.from([1, 4, 2, 8, 5, 7, 0, 3]);
const off = (...heads) => Array.from({ length: HEADS }, (_, i) => (heads.includes(i) ? 0 : 1));

describe('forward({ headMask })', () => {
  test('a mask of all ones gives the same bits as no mask', () => {
    const model = trainedModel();
    const plain = model.forward({ tokens });
    assert.deepEqual(model.forward({ tokens, headMask: off() }), plain);
    assert.deepEqual(model.forward({ tokens, headMask: new Float32Array(HEADS).fill(1) }), plain);
    model.free();
  });

  test('switching a head off equals zeroing its rows of W_O, and changes the logits', () => {
    const model = trainedModel();
    const twin = attn.createTinyTransformer(CONFIG);
    const plain = model.forward({ tokens }).logits.data;
    const d = CONFIG.dModel / CONFIG.heads;
    for (let head = 0; head < HEADS; head++) {
      const masked = model.forward({ tokens, headMask: off(head) });
      const parameters = model.parameters();
      const wo = parameters[`layers.${Math.floor(head / CONFIG.heads)}.attention.wo`].data;
      const h = head % CONFIG.heads;
      wo.fill(0, h * d * CONFIG.dModel, (h + 1) * d * CONFIG.dModel);
      twin.loadParameters(parameters);
      assert.deepEqual(masked.logits, twin.forward({ tokens }).logits, `head ${head}`);
      const moved = Math.max(...masked.logits.data.map((x, i) => Math.abs(x - plain[i])));
      assert.ok(moved > 1e-3, `head ${head} off moved the logits by only ${moved}`);
      // The mask acts on the head's output: the weights of its layer and those before it are
      // unchanged (later layers read a changed residual stream).
      const perLayer = CONFIG.heads * tokens.length * tokens.length;
      const upTo = (Math.floor(head / CONFIG.heads) + 1) * perLayer;
      assert.deepEqual(
        masked.attention.data.subarray(0, upTo),
        model.forward({ tokens }).attention.data.subarray(0, upTo),
      );
    }
    model.free();
    twin.free();
  });

  test('a factor between 0 and 1 scales the head: halfway between on and off in W_O terms', () => {
    const model = trainedModel();
    const half = model.forward({ tokens, headMask: off().map((x, i) => (i === 5 ? 0.5 : x)) });
    const parameters = model.parameters();
    const d = CONFIG.dModel / CONFIG.heads;
    const wo = parameters['layers.1.attention.wo'].data;
    for (let i = d * CONFIG.dModel; i < 2 * d * CONFIG.dModel; i++) wo[i] *= 0.5;
    const twin = attn.createTinyTransformer(CONFIG);
    twin.loadParameters(parameters);
    const scaled = twin.forward({ tokens }).logits.data;
    half.logits.data.forEach((x, i) => assert.ok(Math.abs(x - scaled[i]) < 1e-5, `logit ${i}`));
    model.free();
    twin.free();
  });
});

describe('generate(prompt, count, options)', () => {
  test('with a head mask, it is the argmax of the masked forward over the growing prefix', () => {
    const model = trainedModel();
    const headMask = off(0, 6);
    const prompt = [2, 7, 1];
    const generated = model.generate(prompt, 6, { headMask });
    const sequence = [...prompt];
    for (let i = 0; i < 6; i++) {
      const { logits } = model.forward({ tokens: Int32Array.from(sequence), headMask });
      const next = ranked(logits.data, sequence.length - 1, CONFIG.vocabSize)[0];
      assert.equal(generated[i], next, `token ${i}`);
      sequence.push(next);
    }
    assert.notDeepEqual(model.generate(prompt, 6, { headMask: off(...off().keys()) }), generated);
    model.free();
  });

  test('no options, {} and temperature 0 are greedy; topK 1 is greedy at any temperature', () => {
    const model = trainedModel();
    const greedy = model.generate([3], 10);
    assert.deepEqual(model.generate([3], 10, {}), greedy);
    assert.deepEqual(model.generate([3], 10, { temperature: 0, topK: 4, seed: 9 }), greedy);
    assert.deepEqual(model.generate([3], 10, { temperature: 3, topK: 1, seed: 9 }), greedy);
    model.free();
  });

  test('the same seed gives the same sample; other seeds give others', () => {
    const model = trainedModel();
    const options = { temperature: 1.2, seed: 42 };
    const sample = model.generate([3, 1], 10, options);
    assert.deepEqual(model.generate(Int32Array.from([3, 1]), 10, { ...options }), sample);
    const others = new Set();
    for (let seed = 0; seed < 8; seed++) {
      others.add(model.generate([3, 1], 10, { temperature: 1.2, seed }).join());
    }
    assert.ok(others.size >= 4, `8 seeds gave only ${others.size} different samples`);
    model.free();
  });

  test('each drawn token is among the topK largest logits of the forward before it', () => {
    const model = trainedModel();
    for (let seed = 0; seed < 10; seed++) {
      const prompt = [seed % CONFIG.vocabSize];
      const drawn = model.generate(prompt, 8, { temperature: 2, topK: 2, seed });
      const sequence = [...prompt];
      for (const token of drawn) {
        const { logits } = model.forward({ tokens: Int32Array.from(sequence) });
        const top = ranked(logits.data, sequence.length - 1, CONFIG.vocabSize).slice(0, 2);
        assert.ok(top.includes(token), `seed ${seed}: ${token} is not in the top 2 ${top}`);
        sequence.push(token);
      }
    }
    model.free();
  });
});

/**
 * A model whose every next-token logit is 10·dModel for `favoured` and 0 for every other id,
 * whatever the tokens: the final LayerNorm outputs its bias (gain 0, bias 1), and the
 * unembedding's only non-zero column is the favoured id's.
 */
function favouring(favoured) {
  const model = attn.createTinyTransformer(CONFIG);
  const parameters = model.parameters();
  parameters['norm.gain'].data.fill(0);
  parameters['norm.bias'].data.fill(1);
  const unembedding = parameters.unembedding.data.fill(0); // [D, V]
  for (let d = 0; d < CONFIG.dModel; d++) unembedding[d * CONFIG.vocabSize + favoured] = 10;
  model.loadParameters(parameters);
  return model;
}

describe('generate(prompt, count, { bannedIds })', () => {
  test('a banned id is never written, even when the model favours it above all', () => {
    const model = favouring(4);
    assert.deepEqual([...model.generate([1], 8, { temperature: 1, seed: 3 })], Array(8).fill(4));
    const others = new Set();
    for (let seed = 0; seed < 20; seed++) {
      for (const options of [{}, { temperature: 1 }, { temperature: 2, topK: 3 }]) {
        const drawn = model.generate([1], 8, { ...options, seed, bannedIds: [4] });
        assert.ok(!drawn.includes(4), `seed ${seed}, ${JSON.stringify(options)}: ${drawn}`);
        drawn.forEach((id) => others.add(id));
      }
    }
    // The other ids' logits are equal: the draws spread over all eight of them.
    assert.equal(others.size, CONFIG.vocabSize - 1);
    model.free();
  });

  test('greedy takes the best id left; topK counts only the ids left', () => {
    const model = trainedModel();
    const prompt = [2, 7, 1];
    const { logits } = model.forward({ tokens: Int32Array.from(prompt) });
    const order = ranked(logits.data, prompt.length - 1, CONFIG.vocabSize);
    const bannedIds = Int32Array.from(order.slice(0, 2));
    assert.equal(model.generate(prompt, 1, { bannedIds })[0], order[2]);
    for (let seed = 0; seed < 20; seed++) {
      const [token] = model.generate(prompt, 1, { temperature: 3, topK: 2, seed, bannedIds });
      assert.ok([order[2], order[3]].includes(token), `seed ${seed}: ${token}`);
    }
    // No bans and an empty list are the same sampler, bit for bit.
    const options = { temperature: 1.1, topK: 4, seed: 5 };
    assert.deepEqual(
      model.generate(prompt, 6, { ...options, bannedIds: [] }),
      model.generate(prompt, 6, options),
    );
    model.free();
  });
});

describe('bad masks and options', () => {
  test('are named TypeErrors / RangeErrors, and leave no wasm memory behind', () => {
    const model = trainedModel();
    const before = attn.memoryStats().allocatedBytes;
    const refusals = [
      [{ headMask: off().slice(1) }, RangeError, /headMask must hold layers \* heads = 8 numbers/],
      [{ headMask: [...off(), 1] }, RangeError, /headMask must hold layers \* heads = 8/],
      [{ headMask: off().map((x, i) => (i === 3 ? 1.5 : x)) }, RangeError, /headMask\[3\].*0 to 1/],
      [{ headMask: off().map((x, i) => (i === 2 ? NaN : x)) }, RangeError, /headMask\[2\]/],
      [{ headMask: off().map((x, i) => (i === 1 ? -0.5 : x)) }, RangeError, /headMask\[1\]/],
      [{ headMask: off().map((x, i) => (i === 0 ? '1' : x)) }, TypeError, /headMask\[0\].*number/],
      [{ headMask: new Int32Array(HEADS) }, TypeError, /headMask must be an array of numbers/],
      [{ headMask: 'all' }, TypeError, /headMask must be/],
    ];
    for (const [extra, Kind, message] of refusals) {
      assert.throws(() => model.forward({ tokens, ...extra }), { name: Kind.name, message });
      assert.throws(() => model.generate([1], 3, extra), { name: Kind.name, message });
    }
    const options = [
      [{ temperature: -1 }, RangeError, /temperature must be >= 0, got -1/],
      [{ temperature: NaN }, RangeError, /temperature must be a finite float32/],
      [{ temperature: Infinity }, RangeError, /temperature must be a finite float32/],
      [{ temperature: '1' }, TypeError, /temperature must be a number/],
      [{ topK: 1.5 }, RangeError, /topK must be an integer from 0 to 4294967295, got 1.5/],
      [{ topK: -1 }, RangeError, /topK must be an integer/],
      [{ seed: 2 ** 32 }, RangeError, /seed must be an integer from 0 to 4294967295/],
      [{ seed: null }, TypeError, /seed must be an integer/],
      [{ temprature: 1 }, TypeError, /temprature/],
      [{ bannedIds: [9] }, RangeError, /bannedIds\[0\] must be a token id from 0 to 8, got 9/],
      [{ bannedIds: Int32Array.of(2, -1) }, RangeError, /bannedIds\[1\] must be a token id/],
      [{ bannedIds: [1.5] }, RangeError, /bannedIds\[0\] must be a token id \(an integer/],
      [{ bannedIds: ['1'] }, TypeError, /bannedIds\[0\] must be a token id \(a number\)/],
      [{ bannedIds: new Float32Array(2) }, TypeError, /bannedIds must be an Int32Array/],
      [{ bannedIds: 3 }, TypeError, /bannedIds must be an Int32Array/],
      [
        { bannedIds: [...Array(CONFIG.vocabSize).keys()] },
        RangeError,
        /bannedIds bans every one of the model's 9 ids/,
      ],
      [null, TypeError, /options must be an object/],
      [[1], TypeError, /options must be an object/],
    ];
    for (const [bad, Kind, message] of options) {
      assert.throws(() => model.generate([1], 3, bad), { name: Kind.name, message });
    }
    assert.equal(attn.memoryStats().allocatedBytes, before);
    model.free();
  });

  test('a getter in the options that frees the model is refused before the model is used', () => {
    const model = trainedModel();
    const options = {
      get seed() {
        model.free();
        return 1;
      },
    };
    assert.throws(() => model.generate([1], 3, options), { name: 'TypeError', message: /freed/ });
  });
});
