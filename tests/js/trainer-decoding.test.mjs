// trainer.forward({ tokens, headMask }) and trainer.generate({ prompt, count, ... }): the model
// in the worker answers as the same parameters answer on this thread, bit for bit (the same
// build); a text trainer takes strings, the induction trainer refuses them; a head switched off
// changes the loss; bad arguments throw at once or reject with the model's named error.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention, { createTrainer } from '../../dist/attention.mjs';

const attn = await createAttention();

const CONFIG = { context: 16, dModel: 16, layers: 2, heads: 2, mlpSize: 32, learningRate: 1e-2 };
const LINE = 'the cat sat on the mat. ';
const text = LINE.repeat(40) + 'a dog ran to the log. '.repeat(20);

/** The trainer's model rebuilt on this thread from its parameters. */
async function localTwin(trainer, config) {
  const model = attn.createTinyTransformer({ ...config, vocabSize: trainer.tokenizer.vocabSize });
  model.loadParameters(await trainer.parameters());
  return model;
}

/** Mean cross-entropy of the next character over one sequence's logits [1, T, V]. */
function lossOf(logits, ids) {
  const V = logits.dims[2];
  let total = 0;
  for (let t = 0; t + 1 < ids.length; t++) {
    const row = logits.data.subarray(t * V, (t + 1) * V);
    const largest = Math.max(...row);
    const sum = row.reduce((s, x) => s + Math.exp(x - largest), 0);
    total += largest + Math.log(sum) - row[ids[t + 1]];
  }
  return total / (ids.length - 1);
}

test('a text trainer: forward and generate on strings, as its parameters do here', async () => {
  const trainer = await createTrainer({ config: CONFIG, task: { text }, batch: 8, seed: 2 });
  try {
    await trainer.train({ steps: 150 });
    const model = await localTwin(trainer, CONFIG);
    const sentence = 'the cat sat on t';
    const ids = trainer.tokenizer.encode(sentence);
    const seen = await trainer.forward({ tokens: sentence });
    assert.deepEqual(seen, model.forward({ tokens: ids }));
    assert.deepEqual(await trainer.forward({ tokens: [...ids] }), seen);

    // Every head switched off in turn: the loss on the sentence moves, by the mask's own logits.
    const plain = lossOf(seen.logits, ids);
    for (let head = 0; head < 4; head++) {
      const headMask = [1, 1, 1, 1].map((x, i) => (i === head ? 0 : 1));
      const masked = await trainer.forward({ tokens: ids, headMask });
      assert.deepEqual(masked, model.forward({ tokens: ids, headMask }));
      assert.notEqual(lossOf(masked.logits, ids), plain, `head ${head}`);
    }

    const greedy = await trainer.generate({ prompt: 'the ', count: 12 });
    assert.ok(greedy instanceof Int32Array);
    assert.deepEqual(greedy, model.generate(trainer.tokenizer.encode('the '), 12));
    const options = { temperature: 0.8, topK: 5, seed: 11, headMask: [1, 0, 1, 1] };
    const drawn = await trainer.generate({ prompt: 'the ', count: 12, ...options });
    assert.deepEqual(drawn, model.generate(trainer.tokenizer.encode('the '), 12, options));
    assert.deepEqual(await trainer.generate({ prompt: 'the ', count: 12, ...options }), drawn);
    assert.match(trainer.tokenizer.decode(greedy), /^[a-z .]+$/);
    model.free();
  } finally {
    trainer.close();
  }
});

test('a text trainer never writes its unknown id (U+FFFD) unless told to, even when the model favours it', async () => {
  // 'q', 'z' and '!' are seen once: with minCount 2 they share the unknown id.
  const rare = `${text}q z!`;
  const trainer = await createTrainer({ config: CONFIG, task: { text: rare, minCount: 2 } });
  try {
    const { unknownId, vocabSize } = trainer.tokenizer;
    assert.ok(unknownId >= 0);
    // Every next-character logit 10·dModel for the unknown id, 0 for the others.
    const parameters = await trainer.parameters();
    parameters['norm.gain'].data.fill(0);
    parameters['norm.bias'].data.fill(1);
    const unembedding = parameters.unembedding.data.fill(0);
    for (let d = 0; d < CONFIG.dModel; d++) unembedding[d * vocabSize + unknownId] = 10;
    await trainer.loadParameters(parameters);
    for (let seed = 0; seed < 5; seed++) {
      for (const options of [{}, { temperature: 1 }, { temperature: 0.8, topK: 10 }]) {
        const written = await trainer.generate({ prompt: 'the ', count: 12, seed, ...options });
        assert.ok(!written.includes(unknownId), `${JSON.stringify(options)}: ${written}`);
        assert.ok(!trainer.tokenizer.decode(written).includes('\uFFFD'));
      }
    }
    // bannedIds given replaces the default: [] allows the unknown id (and it is all it writes).
    const allowed = await trainer.generate({ prompt: 'the ', count: 6, bannedIds: [] });
    assert.deepEqual([...allowed], Array(6).fill(unknownId));
    const space = trainer.tokenizer.encode(' ')[0];
    const other = await trainer.generate({ prompt: 'the ', count: 6, bannedIds: [space] });
    assert.deepEqual([...other], Array(6).fill(unknownId));
    await assert.rejects(trainer.generate({ prompt: 'a', count: 2, bannedIds: [vocabSize] }), {
      name: 'RangeError',
      message: new RegExp(`bannedIds\\[0\\] must be a token id from 0 to ${vocabSize - 1}`),
    });
  } finally {
    trainer.close();
  }
});

test('forward and generate are answered while a run is going', async () => {
  const trainer = await createTrainer({ config: CONFIG, task: { text }, batch: 4 });
  try {
    const run = trainer.train({ steps: 100_000, progressEvery: 1 });
    while (trainer.step < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const { logits } = await trainer.forward({ tokens: 'the mat' });
    assert.deepEqual(logits.dims, [1, 7, trainer.tokenizer.vocabSize]);
    assert.equal((await trainer.generate({ prompt: 'a', count: 5, temperature: 1 })).length, 5);
    await trainer.stop();
    assert.equal((await run).stopped, true);
  } finally {
    trainer.close();
  }
});

test('bad arguments: thrown at once when their kind is wrong, rejected by the model when their size is', async () => {
  const trainer = await createTrainer({ config: CONFIG, task: { text }, batch: 4 });
  const induction = await createTrainer({
    config: { vocabSize: 16, context: 25, dModel: 16, layers: 1, heads: 2 },
  });
  try {
    const thrown = [
      [() => trainer.forward('the'), TypeError, /forward: the argument must be an object/],
      [() => trainer.forward({}), TypeError, /forward: tokens is missing/],
      [() => trainer.forward({ tokens: 'the🙂' }), RangeError, /encode: the character "🙂"/],
      [() => trainer.forward({ tokens: [1.5] }), RangeError, /tokens\[0\] must be a token id/],
      [
        () => trainer.forward({ tokens: 'the', headMask: [2, 1, 1, 1] }),
        RangeError,
        /headMask\[0\]/,
      ],
      [() => trainer.forward({ tokens: 'the', mask: [1] }), TypeError, /unknown option 'mask'/],
      [() => trainer.generate({ prompt: 'the' }), TypeError, /generate: count is missing/],
      [() => trainer.generate({ count: 3 }), TypeError, /generate: prompt is missing/],
      [
        () => trainer.generate({ prompt: 'a', count: 3, temperature: -2 }),
        RangeError,
        /temperature must be >= 0/,
      ],
      [
        () => trainer.generate({ prompt: 'a', count: 3, topK: 0.5 }),
        RangeError,
        /topK must be an integer/,
      ],
      [
        () => induction.generate({ prompt: 'abc', count: 3 }),
        TypeError,
        /string only for a text trainer/,
      ],
    ];
    for (const [call, Kind, message] of thrown) assert.throws(call, { name: Kind.name, message });
    const rejected = [
      [
        trainer.forward({ tokens: 'the', headMask: [1, 1, 1] }),
        /headMask must hold layers \* heads = 4 numbers/,
      ],
      [trainer.forward({ tokens: [0, 99] }), /tokens\[1\] must be a token id from 0 to/],
      [trainer.forward({ tokens: 'the cat sat on the mat' }), /more than the model's context 16/],
      [trainer.generate({ prompt: 'the cat', count: 11 }), /more than the model's context 16/],
    ];
    for (const [promise, message] of rejected) {
      await assert.rejects(promise, { name: 'RangeError', message });
    }
    const ids = await induction.generate({ prompt: [1, 2, 3], count: 4, temperature: 1, seed: 1 });
    assert.equal(ids.length, 4);
  } finally {
    trainer.close();
    induction.close();
  }
});
