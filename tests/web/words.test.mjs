// Words a learner knows, in headless Chromium: the module's names (onnxAttention, past_key,
// trace(), onnxRotaryEmbedding) are not in the prose of stages 10, 13 and 14 but in a folded
// "For developers" note under it; the terms a learner meets (softmax, d_k, KV cache, RoPE,
// LayerNorm, MLP, induction head, logits, loss) open their definition where the explanation
// first uses them; in English and Chinese.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

const web = pageFixture();
const DEVELOPER_WORDS = /onnx|past_key|present_key|trace\(|rotaryCaches/i;

test('developer words sit in a "For developers" note, not in the prose (stages 10, 13, 14)', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await web.open({ url: web.url, locale });
    await waitForReady(page);
    for (const step of ['heads-attention', 'decode-2', 'order-rope']) {
      await page.goto(`${web.url}#step=${step}`);
      await waitForStep(page, step);
      const prose = await page.$$eval('.explanation-text > p', (all) =>
        all.map((p) => p.textContent).join(' '),
      );
      assert.doesNotMatch(prose, DEVELOPER_WORDS, `${step} (${locale}): ${prose}`);
      const note = await page.$eval('.explanation-text details.developer-note', (details) => ({
        open: details.open,
        summary: details.querySelector('summary').textContent,
        text: details.textContent,
      }));
      assert.equal(note.open, false, 'folded until asked for');
      assert.equal(note.summary, locale === 'en-US' ? 'For developers' : '给开发者');
      assert.match(note.text, DEVELOPER_WORDS, `${step}: the note names the module's calls`);
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

/** A step whose explanation uses each term, and a word of its definition in each language. */
const TERMS = [
  ['softmax', 'softmax-1', /add up to 1/, /加起来为1/],
  ['dk', 'order-rope', /columns of the queries and the keys/, /查询和键的列数/],
  ['kvcache', 'kv-sharing', /keys and values of the tokens so far/, /保存在内存里/],
  ['rope', 'order-rope', /rotary position embedding/, /旋转位置编码/],
  ['layernorm', 'block-norm', /mean 0 and standard deviation 1/, /均值0、标准差1/],
  ['mlp', 'block-norm', /multi-layer perceptron/, /多层感知机/],
  ['induction', 'heads-learned', /copy what came next last time/, /复制上次接下来的内容/],
  ['logits', 'train', /raw score for each possible next token/, /原始分数/],
  ['loss', 'learn-target', /how wrong the model is/, /错得有多厉害/],
];

test('the glossary: each term a learner meets opens its definition where it appears', async () => {
  for (const [locale, column] of [
    ['en-US', 2],
    ['zh-CN', 3],
  ]) {
    const { page, context, problems } = await web.open({ url: web.url, locale });
    await waitForReady(page);
    for (const term of TERMS) {
      const [name, step] = term;
      await page.goto(`${web.url}#step=${step}`);
      await waitForStep(page, step);
      const button = page.locator(`.explanation .glossary-term[data-term="${name}"]`);
      assert.equal(await button.count(), 1, `${name} at ${step} (${locale})`);
      await button.click();
      const popup = page.locator('.glossary-popup:popover-open');
      assert.match(await popup.textContent(), term[column], `${name} (${locale})`);
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  }
});

test('one Chinese term set: 键, 值, 查询 and 词元 in every chapter, the English in brackets where they are introduced', async () => {
  const { zh } = (await import('../../web/i18n/index.mjs')).LANGUAGES;
  const english = /(?<![A-Za-z_{])(key|query|value|token)(?![A-Za-z_}])/;
  // Where English may stand: in brackets after the term the first time, in the article's own
  // words quoted, and where d_k's k is explained.
  const allowed = (text) =>
    text
      .replace(/（(key|query|value|token)[，）]/g, '')
      .replace(/（token embedding）/, '')
      .replace(/“query和value”/g, '')
      .replace(/英文 key/, '');
  for (const [name, text] of Object.entries(zh))
    assert.doesNotMatch(allowed(text), english, `${name}: ${text}`);
  assert.match(zh['inputs.embeddings'], /词元嵌入（token embedding）：词元（token）/);
  assert.match(zh['weights.three'], /键（key，橙色）、查询（query，红色）、值（value，紫色）/);
});
