// The page loads, served and as one file from disk, with no console error, failed request
// or CSP violation; both carry a strict policy; a module that fails to load is explained.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  collectProblems,
  distDir,
  explainerFileUrl,
  pageFixture,
  screenshot,
  startServer,
  waitForReady,
} from './helpers.mjs';

const web = pageFixture();

function policyOf(file) {
  const html = readFileSync(join(distDir, file), 'utf8');
  return html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
}

test('both pages carry a strict Content-Security-Policy', () => {
  for (const file of ['index.html', 'explainer.html']) {
    const policy = policyOf(file);
    assert.ok(policy, `${file} has a CSP meta tag`);
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src'));
    assert.ok(scriptSrc, `${file}: script-src present`);
    const sources = scriptSrc.trim().split(/\s+/).slice(1);
    for (const banned of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'blob:']) {
      assert.ok(!sources.includes(banned), `${file}: script-src must not allow ${banned}`);
    }
    assert.ok(sources.includes("'wasm-unsafe-eval'"), `${file}: wasm compiles`);
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(policy, /unsafe-inline/);
  }
  const offline = readFileSync(join(distDir, 'explainer.html'), 'utf8');
  assert.doesNotMatch(offline, /<script[^>]+src=/, 'explainer.html loads no external script');
  assert.doesNotMatch(
    offline,
    /<link[^>]+stylesheet/,
    'explainer.html loads no external stylesheet',
  );
  assert.doesNotMatch(offline, /type="module"/, 'explainer.html has only classic scripts');
});

test('the served page loads cleanly under its CSP header', async () => {
  const { page, context, problems } = await web.open({ url: web.url });
  await waitForReady(page);
  assert.equal(await page.textContent('h1'), 'Self-attention, step by step');
  assert.equal(await page.getAttribute('body', 'data-step'), 'inputs');
  const firstRow = await page.$$eval(
    '.scene-host td.cell[data-matrix="x"][data-row="0"]',
    (cells) => cells.map((c) => c.textContent),
  );
  assert.deepEqual(firstRow, ['1', '0', '1', '0']);
  await screenshot(page, '01-served-inputs');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('dist/explainer.html works from file:// with the network off', async () => {
  const { page, context, problems } = await web.open();
  await context.setOffline(true);
  await page.goto(`${explainerFileUrl}#step=result`);
  await waitForReady(page);
  assert.equal(await page.getAttribute('body', 'data-step'), 'result');
  const outputs = await page.$$eval('.scene-host td.cell[data-matrix="outputs"]', (cells) =>
    cells.map((c) => c.textContent),
  );
  assert.deepEqual(outputs, [
    '1.937',
    '6.683',
    '1.595',
    '2.000',
    '7.964',
    '0.054',
    '2.000',
    '7.760',
    '0.358',
  ]);
  await screenshot(page, '02-file-result');
  assert.deepEqual(await collectProblems(page, problems), []);
  await context.close();
});

test('a missing wasm file shows an explanation, not a blank page', async () => {
  const broken = await startServer({ block: ['/attention.wasm'] });
  const { page, context } = await web.open({ url: broken.url });
  await page.waitForSelector('.load-error', { timeout: 15000 });
  const text = await page.textContent('.load-error');
  assert.match(text, /could not start/);
  assert.match(text, /WebAssembly module/);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.appState), 'failed');
  await screenshot(page, '03-load-error');
  await context.close();
  await broken.close();
});

test('a missing page script is reported on the page', async () => {
  const broken = await startServer({ block: ['/app.js'] });
  const { page, context } = await web.open({ url: broken.url });
  await page.waitForSelector('.boot-status.is-error', { timeout: 15000 });
  assert.match(await page.textContent('.boot-status.is-error'), /could not be loaded/);
  await context.close();
  await broken.close();
});
