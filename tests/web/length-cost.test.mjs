// Stage 12's length slider and the cache calculator: the counts against a hand computation,
// the real model named with its published sizes, and the slider moving the numbers on the
// page (n² for attention, n for the cache), in English and Chinese.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { LLAMA_3_8B, MODEL_DEFAULTS } from '../../web/model/layer.mjs';
import { lengthCost } from '../../web/model/layer-numbers.mjs';
import { LENGTHS } from '../../web/draw/length-cost.mjs';
import { collectProblems, pageFixture, waitForReady, waitForStep } from './helpers.mjs';

test('lengthCost: attention and cache of n tokens, by hand', () => {
  // Llama 3 8B at its 8192-token context. Attention per head and layer: the causal triangle's
  // 8192·8193/2 = 33,558,528 pairs, each a 128-long dot product for the score and another for
  // the weighted sum; 32 heads, 32 layers.
  const pairs = (8192 * 8193) / 2;
  assert.equal(pairs, 33_558_528);
  const llama = lengthCost(LLAMA_3_8B, 8192);
  assert.equal(llama.attention, 32 * 32 * 2 * pairs * 128);
  assert.equal(llama.attention, 8_797_166_764_032);
  // Cache: 2 (K and V) × 32 layers × 8192 tokens × 8 K/V heads × 128 × 2 bytes = 1 GiB.
  assert.equal(llama.cacheBytes, 2 * 32 * 8192 * 8 * 128 * 2);
  assert.equal(llama.cacheBytes, 1024 ** 3);
  // The page's layer at its 4 tokens: 1 layer, 4 heads of 2, float32. 4·5/2 = 10 pairs.
  const layer = { dModel: 4, heads: 4, kvHeads: 4, dHead: 2, bytes: 4 };
  assert.deepEqual(lengthCost(layer, 4), {
    attention: 4 * 2 * 10 * 2,
    cacheBytes: 2 * 4 * 4 * 2 * 4,
  });
  // n² against n: doubling the length.
  for (const n of [64, 1024]) {
    const once = lengthCost(LLAMA_3_8B, n);
    const twice = lengthCost(LLAMA_3_8B, 2 * n);
    assert.equal(twice.cacheBytes / once.cacheBytes, 2);
    assert.equal(twice.attention / once.attention, (2 * (2 * n + 1)) / (n + 1));
  }
});

test('Llama 3 8B: its published sizes, which the calculator starts with', () => {
  assert.deepEqual(
    { ...LLAMA_3_8B },
    {
      name: 'Llama 3 8B',
      layers: 32,
      dModel: 4096,
      heads: 32,
      kvHeads: 8,
      dHead: 128,
      context: 8192,
      bytes: 2,
    },
  );
  assert.equal(LLAMA_3_8B.heads * LLAMA_3_8B.dHead, LLAMA_3_8B.dModel);
  assert.equal(MODEL_DEFAULTS.tokens, LLAMA_3_8B.context);
  assert.deepEqual(LENGTHS.slice(0, 4), [1, 2, 4, 8]);
  assert.equal(LENGTHS.at(-1), LLAMA_3_8B.context);
});

const web = pageFixture();

for (const locale of ['en-US', 'zh-CN']) {
  test(`stage 12 (${locale}): the length slider, the calculator's named model and labelled factors`, async () => {
    const { page, context, problems } = await web.open({
      url: `${web.url}#step=kv-sharing`,
      locale,
    });
    await waitForReady(page);
    await waitForStep(page, 'kv-sharing');
    const read = () =>
      page.$$eval('.length-cost [data-value]', (items) =>
        Object.fromEntries(
          items.map((p) => [
            `${p.dataset.model}-${p.className.replace('length-', '')}`,
            Number(p.dataset.value),
          ]),
        ),
      );
    // The page opens at the example's 4 tokens.
    assert.equal(await page.textContent('.length-n'), '4');
    assert.deepEqual(await read(), {
      'example-attention': 160,
      'example-cache': 256,
      'llama-attention': 2_621_440,
      'llama-cache': 524_288,
    });
    // To the end (8192): the model's 1 GiB, 8,797,166,764,032 multiply-adds, on screen.
    const slider = page.locator('.length-range');
    await slider.focus();
    await page.keyboard.press('End');
    assert.equal((await page.textContent('.length-n')).replace(/\D/g, ''), '8192');
    const end = await read();
    assert.equal(end['llama-cache'], 1024 ** 3);
    assert.equal(end['llama-attention'], 8_797_166_764_032);
    assert.match(await page.textContent('.length-cache[data-model="llama"]'), /1 GiB/);
    assert.match(
      await page.textContent('.length-attention[data-model="llama"]'),
      /8,797,166,764,032/,
    );
    // One step back (4096): attention about a quarter, the cache half.
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(() => document.body.dataset.step), 'kv-sharing');
    const before = await read();
    assert.equal(end['llama-cache'] / before['llama-cache'], 2);
    assert.ok(Math.abs(end['llama-attention'] / before['llama-attention'] - 4) < 0.001);
    assert.match(await page.textContent('.length-growth[data-model="llama"]'), /×4(?!\d)|×4$/);
    // The calculator names the model it sizes, and writes out its product with both 2s named.
    assert.match(await page.textContent('.kv-calculator h3'), /Llama 3 8B/);
    const product = await page.textContent('.calc-product');
    assert.match(
      product,
      locale === 'en-US' ? /^2 \(a key and a value\) ×/ : /^2（一个键和一个值）×/,
    );
    assert.match(
      product,
      locale === 'en-US' ? /× 2 bytes a number \(float16/ : /每个数 2 字节（float16/,
    );
    assert.match(product, /1,073,741,824/);
    // An edit: no longer Llama's sizes, and the title says so.
    await page.fill('.calc-input[data-size="layers"]', '16');
    assert.doesNotMatch(await page.textContent('.kv-calculator h3'), /：Llama 3 8B$|: Llama 3 8B$/);
    // The formula labels its two factors.
    const labels = await page.$$eval('.explanation math munder mtext', (items) =>
      items.map((item) => item.textContent),
    );
    assert.deepEqual(
      labels,
      locale === 'en-US'
        ? ['K and V', 'per number: 2 in float16']
        : ['K 和 V', '每个数：float16 为 2'],
    );
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}

test('stage 13: the multiply-adds table names its decoding step out of the decoding steps', async () => {
  const { page, context, problems } = await web.open({ url: `${web.url}#step=decode-3` });
  await waitForReady(page);
  await waitForStep(page, 'decode-3');
  assert.equal(
    await page.textContent('.count-table caption'),
    'Multiply-adds of decoding step 3 of 4 (token 3)',
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
