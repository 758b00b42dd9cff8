// examples/node/text-scores.mjs's helpers, which the measurements of docs/text.md use: the
// share of verse lines with five or seven characters between punctuation marks, and sampling
// with the model's generate() in pieces longer than its context (at temperature 0, or with
// topK 1, the model's greedy generate()).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import createAttention, { createCharTokenizer } from '../../dist/attention.mjs';
import { sampleText, verseLineShare } from '../../examples/node/text-scores.mjs';

test('verse lines: the first and last (maybe partial) and empty ones are not counted', () => {
  assert.deepEqual(verseLineShare('光，白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。\n'), {
    lines: 4,
    fiveOrSeven: 4,
    share: 1,
  });
  // A six-character line and a four-character one among five- and seven-character lines.
  assert.deepEqual(verseLineShare('，朝辞白帝彩云间，千里江陵一日，两岸猿声，轻舟已过万重山。'), {
    lines: 4,
    fiveOrSeven: 2,
    share: 0.5,
  });
  assert.ok(Number.isNaN(verseLineShare('没有标点').share));
});

test('sampling at temperature 0 or topK 1 picks what greedy generate() picks; a seed repeats a sample', async () => {
  const attn = await createAttention();
  const tokenizer = createCharTokenizer('床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n');
  const model = attn.createTinyTransformer({
    vocabSize: tokenizer.vocabSize,
    context: 16,
    dModel: 16,
    layers: 1,
    heads: 2,
    seed: 4,
  });
  try {
    const prompt = '床前明月';
    const greedy = tokenizer.decode(model.generate(tokenizer.encode(prompt), 8));
    assert.equal(sampleText(model, tokenizer, prompt, 8, { temperature: 0 }), greedy);
    assert.equal(sampleText(model, tokenizer, prompt, 8, { temperature: 2, topK: 1 }), greedy);
    // 40 characters: three pieces of a context of 16, each prompted with the last 8.
    const sample = sampleText(model, tokenizer, prompt, 40, { seed: 5 });
    assert.equal([...sample].length, 40);
    assert.equal(sampleText(model, tokenizer, prompt, 40, { seed: 5 }), sample);
    assert.notEqual(sampleText(model, tokenizer, prompt, 40, { seed: 6 }), sample);
  } finally {
    model.free();
  }
});
