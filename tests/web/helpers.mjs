// Shared by the page tests: a static server for dist/ that sends the page's CSP as a header,
// headless Chromium through playwright-core, and a page wrapper that records every console
// error, page error, failed request and CSP violation so each test can insist on none.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const distDir = join(root, 'dist');
export const screenshotDir = join(root, 'test-results', 'screenshots');
export const explainerFileUrl = pathToFileURL(join(distDir, 'explainer.html')).href;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

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
 * Serves dist/ on 127.0.0.1 at a free port.
 * @param {{ block?: string[] }} options paths answered with 404 (to test load failures)
 */
export async function startServer({ block = [] } = {}) {
  const policy = servedPolicy();
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^[/\\]+/, '');
    const file = join(distDir, relative);
    if (!file.startsWith(distDir + sep) || block.includes(`/${relative}`) || !existsSync(file)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': policy,
      'Cache-Control': 'no-store',
    });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A fresh headless Chromium (playwright gives every launch a new temporary profile). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/**
 * Opens a page in a new context and records problems.
 * @param {object} options { url, reducedMotion: 'reduce' | 'no-preference', locale, viewport, expectFailures }
 */
export async function openPage(
  browser,
  { url, reducedMotion = 'reduce', locale = 'en-US', viewport = { width: 1440, height: 900 } },
) {
  const context = await browser.newContext({
    locale,
    viewport,
    reducedMotion,
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
