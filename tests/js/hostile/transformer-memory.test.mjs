// A tiny transformer's working memory: what one call needs (activations, their gradients, the
// decoding cache) is given back when the call returns, as memoryStats() documents. A model
// holds its parameters, nothing more, between calls; one large forward() must not pin its
// activations until free(), where a later, unrelated call would run out of memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../../dist/attention.mjs';

const attn = await createAttention();

const CONFIG = { vocabSize: 16, context: 25, dModel: 32, layers: 2, heads: 4, mlpSize: 32 };

for (const positions of ['learned', 'rope', 'none']) {
  test(`${positions}: forward, trainStep and generate give their working memory back`, () => {
    const before = attn.memoryStats().allocatedBytes;
    const model = attn.createTinyTransformer({ ...CONFIG, positions });
    const held = attn.memoryStats().allocatedBytes;
    assert.ok(held > before, 'the model holds its parameters');
    // 400 sequences of 25 tokens: megabytes of activations and attention weights.
    const batch = 400;
    const tokens = Int32Array.from({ length: batch * 25 }, (_, i) => (i * 7) % 16);
    const { logits } = model.forward({ tokens, batch });
    assert.equal(logits.data.length, batch * 25 * 16);
    assert.equal(attn.memoryStats().allocatedBytes, held, 'forward kept its activations');
    const targets = Int32Array.from(tokens, (t) => (t + 1) % 16);
    assert.ok(Number.isFinite(model.trainStep({ tokens, targets, batch })));
    assert.equal(attn.memoryStats().allocatedBytes, held, 'trainStep kept its activations');
    assert.equal(model.generate([1, 2, 3], 5).length, 5);
    assert.equal(attn.memoryStats().allocatedBytes, held, 'generate kept its cache');
    // A refused step (no target counts) gives its memory back too.
    assert.throws(() => model.trainStep({ tokens, targets: targets.map(() => -1), batch }), {
      name: 'RangeError',
    });
    assert.equal(attn.memoryStats().allocatedBytes, held);
    model.free();
    assert.equal(attn.memoryStats().allocatedBytes, before);
  });
}
