// Crafted links: none may inject markup or script, hang the page or break it. Each falls
// back to the article's example with a visible notice that quotes the problem as text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collectProblems,
  explainerFileUrl,
  pageFixture,
  screenshot,
  waitForReady,
} from './helpers.mjs';

const HOSTILE_HASHES = [
  'step=<script>window.__pwned=1</script>',
  'step=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E',
  '"><img src=x onerror="window.__pwned=1">',
  'step=javascript:window.__pwned=1',
  'step=%3Csvg%20onload%3Dwindow.__pwned%3D1%3E',
  'step=__proto__',
  'step=constructor',
  '__proto__=1',
  'toString=1',
  'step=%E0%A4%A',
  'step=%',
  `step=${'a'.repeat(200000)}`,
  `x=${'1,'.repeat(4000)}1&wq=1&wk=1&wv=1`,
  `${'&'.repeat(5000)}`,
  `step=${'('.repeat(3000)}a`,
  'x=1e999&wq=1&wk=1&wv=1',
  'x=NaN&wq=1&wk=1&wv=1',
  'x=Infinity&wq=1&wk=1&wv=1',
  'x=1,2;3&wq=1,1&wk=1,1&wv=1,1',
  'x=1;2&wq=1',
  'x=1,2&wq=1&wk=1&wv=1',
  `x=${Array(9).fill('1').join(';')}&wq=1&wk=1&wv=1`,
  'x=2000&wq=1&wk=1&wv=1',
  'x=0x10&wq=1&wk=1&wv=1',
  'step=9999',
  'step=0',
  'step=keys-row-9',
  'scaled=yes',
  'causal=true',
  'rounding=%3Cb%3Ebold%3C%2Fb%3E',
  'step=inputs&step=weights',
  'step=sum-1%00',
  'step=%E2%80%AEsum-1',
  'step=%F0%9F%98%80',
];

const web = pageFixture();

/** The page is intact, shows the article's first step, and a notice, and nothing ran. */
async function assertFellBack(page, hash) {
  await waitForReady(page);
  const state = await page.evaluate(() => ({
    pwned: window.__pwned,
    step: document.body.dataset.step,
    firstRow: [
      ...document.querySelectorAll('.scene-host td.cell[data-matrix="x"][data-row="0"]'),
    ].map((c) => c.textContent),
    notice: document.querySelector('.notice')?.textContent ?? '',
    injected: document.querySelectorAll(
      'img, svg:not(.icon), iframe, object, embed, .notice script, .notice b',
    ).length,
    scripts: document.scripts.length,
  }));
  const what = `hash ${JSON.stringify(hash.slice(0, 60))}`;
  assert.equal(state.pwned, undefined, `${what}: no script ran`);
  assert.equal(state.injected, 0, `${what}: no markup injected`);
  assert.equal(state.step, 'inputs', `${what}: first step`);
  assert.deepEqual(state.firstRow, ['1', '0', '1', '0'], `${what}: the article's inputs`);
  assert.match(
    state.notice,
    /This link could not be used .* so the article’s example is shown instead\./s,
    `${what}: notice`,
  );
  assert.ok(state.notice.length < 400, `${what}: the notice quotes only a short excerpt`);
  assert.equal(
    await page.evaluate(() => location.hash),
    '#step=inputs',
    `${what}: the URL is cleaned up`,
  );
}

test('hostile hashes on page load fall back with a notice, quickly and safely', async () => {
  const { page, context, problems } = await web.open();
  for (const hash of HOSTILE_HASHES) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(`${web.url}#${hash}`);
    await assertFellBack(page, hash);
    assert.ok(Date.now() - started < 5000, `hash ${hash.slice(0, 40)}: handled within 5 s`);
  }
  await page.goto(`${web.url}#step=<script>window.__pwned=1</script>`);
  await waitForReady(page);
  assert.match(
    await page.textContent('.notice-text'),
    /“<script>window.__pwned=1<\/script>” is not a step name/,
  );
  await screenshot(page, '50-hostile-url-notice');
  // The notice can be dismissed.
  await page.click('.notice-dismiss');
  assert.equal(await page.$$eval('.notice', (n) => n.length), 0);
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('hostile hashes typed into an open page (hashchange) fall back the same way', async () => {
  const { page, context, problems } = await web.open({
    url: `${web.url}#step=sum-2&scaled=1`,
  });
  await waitForReady(page);
  for (const hash of HOSTILE_HASHES.slice(0, 12)) {
    await page.evaluate(() => {
      location.hash = 'step=sum-2&scaled=1';
    });
    await page.waitForFunction(() => document.body.dataset.step === 'sum-2');
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await page.waitForFunction(() => document.body.dataset.step === 'inputs');
    await assertFellBack(page, hash);
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('the one-file page from disk is just as defensive', async () => {
  const { page, context, problems } = await web.open();
  for (const hash of HOSTILE_HASHES.slice(0, 6)) {
    await page.goto('about:blank');
    await page.goto(`${explainerFileUrl}#${hash}`);
    await assertFellBack(page, hash);
  }
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a valid link with edited numbers is accepted without a notice', async () => {
  const { page, context, problems } = await web.open();
  await page.goto(`${web.url}#step=sum-1&causal=1&x=1,2;3,4&wq=1;0&wk=0;1&wv=-1.5;2e-3`);
  await waitForReady(page);
  assert.equal(await page.$$eval('.notice', (n) => n.length), 0);
  assert.equal(await page.getAttribute('body', 'data-step'), 'sum-1');
  assert.equal(
    await page.inputValue('.workbench [data-editor="wValue"] input[data-row="1"]'),
    '0.002',
  );
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});
