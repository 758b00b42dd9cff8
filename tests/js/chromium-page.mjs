// One headless Chromium for a describe() block: the repository served over HTTP under a strict
// Content-Security-Policy (scripts, workers and wasm from the server only), and a helper that
// runs a function in a fresh blank page of it and reports the page's uncaught errors.
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/serve.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";

// What makes a page cross-origin isolated (SharedArrayBuffer, wasm threads).
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Call inside describe(): starts the server and the browser before its tests, stops them
 * after. Returns evaluate(fn, arg) -> { result, problems }: fn runs in a page at
 * /tests/js/fixtures/empty.html (so '/dist/attention.mjs' imports the build).
 * `isolated`: the server sends the headers that make its pages cross-origin isolated.
 */
export function useChromiumPage({ isolated = false } = {}) {
  let browser;
  let server;
  let url;
  before(async () => {
    const headers = { 'Content-Security-Policy': CSP, ...(isolated ? ISOLATION : {}) };
    ({ server, url } = await startServer({ root, headers }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  return async function evaluate(fn, arg) {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(`${url}tests/js/fixtures/empty.html`);
      const result = await page.evaluate(fn, arg);
      return { result, problems };
    } finally {
      await page.close();
    }
  };
}
