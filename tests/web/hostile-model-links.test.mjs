// Model links the page cannot use, in headless Chromium: a link whose float16 numbers hold NaN
// or Infinity is refused with a notice naming the tensor and the index (it used to say "Loaded
// a model trained for 300 steps", show NaN in every head, and crash the heads stage); a link
// too long for the page says it is too long, and the rest of the link still applies.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createAttention from '../../dist/attention.mjs';
import { encodeParametersLink } from '../../web/model/parameters-link.mjs';
import { TRAINING_DEFAULTS, modelConfig } from '../../web/model/training.mjs';
import { collectProblems, pageFixture, screenshot, waitForReady } from './helpers.mjs';

const web = pageFixture();

/** The link text of the page's default model with `value` at `name`'s data[index]. */
async function poisonedLink(name, index, value) {
  const attn = await createAttention();
  const model = attn.createTinyTransformer(modelConfig(TRAINING_DEFAULTS));
  const parameters = model.parameters();
  model.free();
  parameters[name].data[index] = value;
  return encodeParametersLink({ settings: TRAINING_DEFAULTS, step: 300, parameters });
}

for (const [value, shown] of [
  [NaN, 'NaN'],
  [Infinity, 'Infinity'],
]) {
  test(`a model link holding ${shown}: refused by tensor and index; the heads stage draws`, async () => {
    const trained = await poisonedLink('layers.1.attention.wk', 17, value);
    const opened = await web.open({ url: `${web.url}#step=heads-learned&trained=${trained}` });
    const { page, problems, context } = opened;
    await waitForReady(page);
    await page.waitForSelector('[data-notice="trained"]');
    const notice = await page.textContent('[data-notice="trained"]');
    assert.match(notice, /could not be loaded, so the model is as it was/);
    assert.match(notice, /parameters\['layers\.1\.attention\.wk'\]\.data\[17\]/);
    assert.match(notice, new RegExp(`finite .*got ${shown}`));
    await page.waitForSelector('.scene-heads-learned');
    assert.doesNotMatch(await page.textContent('.scene-heads-learned'), /NaN|trained for 300/);
    assert.doesNotMatch(new URL(page.url()).hash, /trained=/);
    await screenshot(page, `ch3-model-link-${shown}`);
    assert.deepEqual(await collectProblems(page, problems), []);
    await context.close();
  });
}

test('a 68,000-character model link: "too long", and its step and switches still apply', async () => {
  const hash = `#step=train&tseed=7&trained=${'A'.repeat(68_000)}`;
  const { page, problems, context } = await web.open({ url: `${web.url}${hash}` });
  await waitForReady(page);
  await page.waitForSelector('[data-notice="trained"]');
  assert.match(
    await page.textContent('[data-notice="trained"]'),
    /68000 characters long, more than the 60000 a model link may have/,
  );
  assert.equal(await page.$('[data-notice="url"]'), null, 'the rest of the link was used');
  await page.waitForSelector('.scene-train');
  assert.equal(await page.inputValue('.scene-train input[data-control="seed"]'), '7');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
