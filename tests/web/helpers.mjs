// Shared by the page tests: a static server for dist/ that sends the page's CSP as a header,
// headless Chromium (scripts/lib/chromium.mjs), and a page wrapper that records every console
// error, page error, failed request and CSP violation so each test can insist on none;
// pageFixture() sets them up and closes them for a whole test file.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer as startStaticServer } from '../../scripts/lib/serve.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const distDir = join(root, 'dist');
export const screenshotDir = join(root, 'test-results', 'screenshots');
export const explainerFileUrl = pathToFileURL(join(distDir, 'explainer.html')).href;

export function requireBuild() {
  for (const file of [
    'index.html',
    'explainer.html',
    'app.js',
    'attention.mjs',
    'attention.wasm',
  ]) {
    if (!existsSync(join(distDir, file)))
      throw new Error(`dist/${file} is missing: run scripts/build first`);
  }
}

/** The CSP of dist/index.html's meta tag, sent again as a header (as a real server would). */
function servedPolicy() {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const match = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/);
  if (!match) throw new Error('dist/index.html has no Content-Security-Policy meta tag');
  return match[1];
}

/**
 * Serves dist/ on 127.0.0.1 at a free port with scripts/lib/serve.mjs, the server scripts/run uses.
 * @param {{ block?: string[] }} options paths answered with 404 (to test load failures)
 */
export async function startServer({ block = [] } = {}) {
  const headers = { 'Content-Security-Policy': servedPolicy(), 'Cache-Control': 'no-store' };
  const { server, url } = await startStaticServer({ root: distDir, headers, block });
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Opens a page in a new context and records problems.
 * @param {object} options { url, reducedMotion: 'reduce' | 'no-preference', locale, viewport,
 *   hasTouch (a touch screen: page.tap() works) }
 */
export async function openPage(
  browser,
  {
    url,
    reducedMotion = 'reduce',
    locale = 'en-US',
    viewport = { width: 1440, height: 900 },
    hasTouch = false,
  },
) {
  const context = await browser.newContext({
    locale,
    viewport,
    reducedMotion,
    hasTouch,
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog opened: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  if (url) await page.goto(url);
  return { page, context, problems };
}

/**
 * The setup every page test file shares. Called once at the top of a file, it adds a before
 * hook (dist/ is built; a fresh Chromium; dist/ served) and an after hook (both closed), and
 * returns { browser, server, url, open }: set once the before hook has run, url is the
 * server's, and open(options) is openPage() in this browser.
 */
export function pageFixture() {
  const fixture = {
    browser: undefined,
    server: undefined,
    get url() {
      return fixture.server.url;
    },
    open(options = {}) {
      return openPage(fixture.browser, options);
    },
  };
  before(async () => {
    requireBuild();
    // A fresh headless Chromium: playwright gives every launch a new temporary profile.
    fixture.browser = await launchChromium();
    fixture.server = await startServer();
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}

/**
 * Like pageFixture(), for the pages that embed the element: a fresh Chromium and the
 * repository's root served, so that examples/embed/ finds ../../dist/ (as on a course site
 * that serves the package's files next to its pages). Returns { browser, url } (the url ends
 * in "/"), set once the before hook has run.
 */
export function repositoryFixture() {
  const fixture = { browser: undefined, server: undefined, url: undefined };
  before(async () => {
    requireBuild();
    fixture.browser = await launchChromium();
    const { server, url } = await startStaticServer({
      root,
      headers: { 'Cache-Control': 'no-store' },
    });
    fixture.server = server;
    fixture.url = url.endsWith('/') ? url : `${url}/`;
  });
  after(async () => {
    await fixture.browser?.close();
    await new Promise((resolve) => (fixture.server ? fixture.server.close(resolve) : resolve()));
  });
  return fixture;
}

export async function waitForReady(page) {
  await page.waitForFunction(() => document.documentElement.dataset.appState === 'ready', null, {
    timeout: 15000,
  });
}

/** Every problem seen so far, CSP violations included. */
export async function collectProblems(page, problems) {
  const violations = await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
  return [...problems, ...violations.map((v) => `CSP violation: ${v}`)];
}

/** "−1.5" -> -1.5, "−∞" -> -Infinity */
export function parseShown(text) {
  const cleaned = text.trim().replace(/\u2212/g, '-');
  if (cleaned === '-∞') return -Infinity;
  if (cleaned === '∞') return Infinity;
  return Number(cleaned);
}

/** The numbers of one row of a matrix as the current scene shows them. */
export async function sceneRow(page, matrix, row, extra = '') {
  const texts = await page.$$eval(
    `.scene-host td.cell[data-matrix="${matrix}"][data-row="${row}"]${extra}`,
    (cells) => cells.map((cell) => ({ col: Number(cell.dataset.col), text: cell.textContent })),
  );
  return texts.sort((a, b) => a.col - b.col).map((cell) => cell.text);
}

/** Opens a step through its deep link and waits until it is drawn. */
export async function gotoStep(page, baseUrl, hash) {
  await page.goto(`${baseUrl}#${hash}`);
  await waitForReady(page);
}

/** Moves the open page to step `id` by its address: the page, its model and its runs live on. */
export async function goToStep(page, id) {
  await page.evaluate((step) => (location.hash = `step=${step}`), id);
  await page.waitForFunction((step) => document.body.dataset.step === step, id);
}

export async function waitForStep(page, id) {
  await page.waitForFunction(
    (step) => document.body.dataset.step === step && document.body.dataset.settled === 'true',
    id,
    {
      timeout: 10000,
    },
  );
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
}

/** Runs trace() in Node on the same module the page uses, for cross-checks. */
export async function nodeTrace(args) {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  return attn.trace(args);
}
