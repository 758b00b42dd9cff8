// attn.createTinyTransformer(): a decoder-only transformer trained in wasm. What a user sees:
// the shapes of forward()'s logits and attention, causal and batch-independent results, a loss
// that starts near log(vocabSize) and falls on a task attention can solve, the same losses for
// the same seed and batches, parameters that survive a JSON round trip, greedy generate() equal
// to the argmax of forward(), every positions kind (the package's list of them is the core's),
// and no leaked wasm memory.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';

import createAttentionModule from '../../build/wasm/attention.mjs';
import createAttention, { TRANSFORMER_POSITIONS } from '../../dist/attention.mjs';
import { seededRandom } from './seeded-random.mjs';

const attn = await createAttention();

const SMALL = { vocabSize: 8, context: 8, dModel: 16, layers: 2, heads: 2, learningRate: 0.01 };

/** A batch of random tokens; targets are the previous token (-1 at each sequence's start). */
function previousTokenBatch(random, batch, T, vocabSize) {
  const tokens = new Int32Array(batch * T);
  const targets = new Int32Array(batch * T);
  for (let i = 0; i < tokens.length; i++) tokens[i] = Math.floor(random() * vocabSize);
  for (let i = 0; i < tokens.length; i++) targets[i] = i % T === 0 ? -1 : tokens[i - 1];
  return { tokens, targets, batch };
}

/** The index of the largest of row `row` of a [rows, width] array (the first on ties). */
function argmaxRow(data, row, width) {
  let best = 0;
  for (let i = 1; i < width; i++) if (data[row * width + i] > data[row * width + best]) best = i;
  return best;
}

/** JSON with typed arrays as plain arrays, the way the d.ts documents. */
const toJson = (parameters) =>
  JSON.stringify(parameters, (key, value) =>
    ArrayBuffer.isView(value) ? Array.from(value) : value,
  );

describe('createTinyTransformer', () => {
  test('fills in the defaults of its config', () => {
    const model = attn.createTinyTransformer({
      vocabSize: 5,
      context: 4,
      dModel: 8,
      layers: 1,
      heads: 2,
    });
    assert.deepEqual(
      { ...model.config },
      {
        vocabSize: 5,
        context: 4,
        dModel: 8,
        layers: 1,
        heads: 2,
        kvHeads: 2,
        positions: 'learned',
        mlpSize: 0,
        learningRate: 1e-3,
        weightDecay: 0,
        seed: 0,
      },
    );
    model.free();
  });

  test("forward() gives logits [B, T, V] and every head's causal attention [L, B, H, T, T]", () => {
    const model = attn.createTinyTransformer({ ...SMALL, seed: 3 });
    const B = 3;
    const T = 5;
    const { tokens } = previousTokenBatch(seededRandom(1), B, T, SMALL.vocabSize);
    const { logits, attention } = model.forward({ tokens, batch: B });
    assert.deepEqual(logits.dims, [B, T, SMALL.vocabSize]);
    assert.equal(logits.data.length, B * T * SMALL.vocabSize);
    assert.ok(logits.data.every(Number.isFinite));
    assert.deepEqual(attention.dims, [SMALL.layers, B, SMALL.heads, T, T]);
    for (let row = 0; row < attention.data.length / T; row++) {
      const t = row % T;
      let sum = 0;
      for (let s = 0; s < T; s++) {
        const w = attention.data[row * T + s];
        if (s > t) assert.equal(w, 0, `row ${row}: key ${s} is after query ${t}`);
        else assert.ok(w > 0, `row ${row}: key ${s} has weight ${w}`);
        sum += w;
      }
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${row} sums to ${sum}`);
    }
    model.free();
  });

  test('a later token changes no earlier logit, and a sequence gives the same bits alone or in a batch', () => {
    const model = attn.createTinyTransformer({ ...SMALL, mlpSize: 16, seed: 4 });
    const V = SMALL.vocabSize;
    const T = 6;
    const { tokens } = previousTokenBatch(seededRandom(2), 2, T, V);
    const both = model.forward({ tokens, batch: 2 }).logits.data;
    const second = model.forward({ tokens: tokens.slice(T), batch: 1 }).logits.data;
    assert.deepEqual(second, both.slice(T * V));
    const changed = tokens.slice(0, T);
    changed[T - 1] = (changed[T - 1] + 1) % V;
    const again = model.forward({ tokens: changed }).logits.data;
    assert.deepEqual(again.slice(0, (T - 1) * V), both.slice(0, (T - 1) * V));
    assert.notDeepEqual(again.slice((T - 1) * V), both.slice((T - 1) * V, T * V));
    model.free();
  });

  for (const positions of ['learned', 'rope', 'none']) {
    test(`positions '${positions}': the loss starts near log(V) and falls on the previous-token task`, () => {
      // Without positions a layer cannot tell the previous token from any other: it must fail.
      const model = attn.createTinyTransformer({ ...SMALL, layers: 1, positions, seed: 5 });
      const random = seededRandom(3);
      const losses = [];
      for (let step = 0; step < 150; step++) {
        losses.push(model.trainStep(previousTokenBatch(random, 8, 8, SMALL.vocabSize)));
      }
      assert.ok(Math.abs(losses[0] - Math.log(SMALL.vocabSize)) < 0.6, `first loss ${losses[0]}`);
      const last = losses.at(-1);
      if (positions === 'none') assert.ok(last > 1, `without positions the loss fell to ${last}`);
      else assert.ok(last < 0.3, `the loss only fell to ${last}`);
      model.free();
    });
  }

  test("positions 'alibi': the recency bias alone does better than no positions on the previous-token task", () => {
    // ALiBi tells a near key from a far one (slope_h * (s - t)), not the previous token from
    // itself: with the paper's gentle slopes for 4 heads it helps, where a table gets it all.
    const lastLoss = (positions) => {
      const model = attn.createTinyTransformer({ ...SMALL, layers: 1, positions, seed: 5 });
      const random = seededRandom(3);
      let loss = NaN;
      for (let step = 0; step < 150; step++) {
        loss = model.trainStep(previousTokenBatch(random, 8, 8, SMALL.vocabSize));
      }
      model.free();
      return loss;
    };
    const none = lastLoss('none');
    const alibi = lastLoss('alibi');
    assert.ok(alibi < none - 0.1, `alibi ${alibi}, none ${none}`);
  });

  test("the package's positions choices are the core's, in its order, and each one builds", async () => {
    // The raw module: its TransformerPositions, registered from the core's positions_choices.
    const Module = await createAttentionModule({
      wasmBinary: await readFile(new URL('../../dist/attention.wasm', import.meta.url)),
    });
    const core = Object.keys(Module.TransformerPositions).filter((key) => key !== 'values');
    assert.deepEqual(TRANSFORMER_POSITIONS, core);
    assert.ok(Object.isFrozen(TRANSFORMER_POSITIONS));
    for (const positions of TRANSFORMER_POSITIONS)
      attn.createTinyTransformer({ ...SMALL, positions }).free();
  });

  test('grouped kv heads and an MLP train too', () => {
    const model = attn.createTinyTransformer({
      ...SMALL,
      heads: 4,
      kvHeads: 2,
      mlpSize: 32,
      seed: 6,
    });
    const random = seededRandom(4);
    let loss = Infinity;
    for (let step = 0; step < 150; step++) {
      loss = model.trainStep(previousTokenBatch(random, 8, 8, SMALL.vocabSize));
    }
    assert.ok(loss < 0.3, `the loss only fell to ${loss}`);
    model.free();
  });

  test('the same seed and batches give the same losses and parameters, bit for bit', () => {
    const config = { ...SMALL, mlpSize: 8, positions: 'rope', seed: 7 };
    const a = attn.createTinyTransformer(config);
    const b = attn.createTinyTransformer(config);
    const other = attn.createTinyTransformer({ ...config, seed: 8 });
    const random = seededRandom(5);
    for (let step = 0; step < 5; step++) {
      const batch = previousTokenBatch(random, 4, 8, SMALL.vocabSize);
      const la = a.trainStep(batch);
      assert.equal(b.trainStep(batch), la, `step ${step}`);
      if (step === 0) assert.notEqual(other.trainStep(batch), la);
    }
    assert.equal(toJson(a.parameters()), toJson(b.parameters()));
    a.free();
    b.free();
    other.free();
  });

  test('parameters() survive a JSON round trip into another model', () => {
    const config = { ...SMALL, mlpSize: 8, kvHeads: 1, seed: 9 };
    const trained = attn.createTinyTransformer(config);
    const random = seededRandom(6);
    for (let step = 0; step < 5; step++) trained.trainStep(previousTokenBatch(random, 4, 8, 8));
    const parameters = trained.parameters();
    assert.deepEqual(parameters['layers.1.attention.wk'].dims, [16, 8]);
    assert.deepEqual(parameters['embedding.positions'].dims, [8, 16]);
    assert.ok(parameters['layers.0.attention.wq'].data instanceof Float32Array);
    const copy = attn.createTinyTransformer({ ...config, seed: 10 });
    const { tokens } = previousTokenBatch(random, 2, 8, 8);
    assert.notDeepEqual(copy.forward({ tokens, batch: 2 }), trained.forward({ tokens, batch: 2 }));
    copy.loadParameters(JSON.parse(toJson(parameters)));
    assert.deepEqual(copy.forward({ tokens, batch: 2 }), trained.forward({ tokens, batch: 2 }));
    assert.equal(toJson(copy.parameters()), toJson(parameters));
    trained.free();
    copy.free();
  });

  test('generate() is the argmax of forward() over the growing prefix', () => {
    for (const positions of ['learned', 'rope', 'alibi']) {
      const model = attn.createTinyTransformer({
        ...SMALL,
        mlpSize: 8,
        kvHeads: 1,
        positions,
        seed: 11,
      });
      const random = seededRandom(7);
      for (let step = 0; step < 30; step++) model.trainStep(previousTokenBatch(random, 4, 8, 8));
      const prompt = [3, 1, 4];
      const generated = model.generate(prompt, 5);
      assert.ok(generated instanceof Int32Array);
      assert.equal(generated.length, 5);
      const sequence = [...prompt];
      for (let i = 0; i < 5; i++) {
        const T = sequence.length;
        const { logits } = model.forward({ tokens: Int32Array.from(sequence) });
        const next = argmaxRow(logits.data, T - 1, SMALL.vocabSize);
        assert.equal(generated[i], next, `${positions}: token ${i}`);
        sequence.push(next);
      }
      assert.deepEqual(model.generate(Int32Array.from(prompt), 5), generated);
      assert.equal(model.generate(prompt, 0).length, 0);
      model.free();
    }
  });

  test('training, forward, generate and free leave no wasm memory behind', () => {
    const before = attn.memoryStats().allocatedBytes;
    const model = attn.createTinyTransformer({ ...SMALL, positions: 'rope', mlpSize: 8 });
    model.trainStep(previousTokenBatch(seededRandom(8), 4, 8, 8));
    model.forward({ tokens: new Int32Array(8) });
    model.generate([1], 3);
    model.free();
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });
});
