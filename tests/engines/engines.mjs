// Firefox and WebKit behind one small page interface, so that each cross-engine test is written
// once: goto, evaluate (a self-contained function run in the page), waitFor, click (on an
// element a page function finds), press and type (real key events), screenshot, problems.
// engineFixture() starts one engine and the static server for a test file, and stops them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { launchFirefox } from '../../scripts/lib/firefox.mjs';
import { WEBDRIVER_KEYS, launchWebKit } from '../../scripts/lib/webkit.mjs';
import { requireBuild, startServer } from '../web/helpers.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const screenshotDir = join(root, 'test-results', 'screenshots');
export const explainerFileUrl = pathToFileURL(join(root, 'dist', 'explainer.html')).href;

export const VIEWPORT = { width: 1280, height: 800 };

/** Polls `fn(arg)` in the page until it returns something truthy; resolves to that. */
async function waitFor(page, fn, arg, { timeout = 10000, interval = 50, what } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await page.evaluate(fn, arg);
      if (last) return last;
    } catch (error) {
      last = error.message; // e.g. evaluated while the page navigates: try again
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${timeout} ms for ${what ?? fn.name ?? 'a condition'}: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

// In-page recorder of what a user would call a failure: uncaught errors, rejected promises,
// console errors and warnings, CSP violations. Firefox reports these through the protocol as
// well; WebKit's WebDriver has no log, so there this is the only record, from goto() on.
function installProblemRecorder() {
  if (window.__engineProblems) return;
  const problems = (window.__engineProblems = []);
  window.addEventListener('error', (event) => problems.push(`page error: ${event.message}`));
  window.addEventListener('unhandledrejection', (event) =>
    problems.push(`unhandled rejection: ${event.reason?.message ?? event.reason}`),
  );
  document.addEventListener('securitypolicyviolation', (event) =>
    problems.push(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`),
  );
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = (...args) => {
      problems.push(`console ${level}: ${args.map(String).join(' ')}`);
      original.apply(console, args);
    };
  }
}

/** Firefox: one incognito browser context per page, so no test sees another's storage. */
class FirefoxPage {
  static async open(browser) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport(VIEWPORT);
    return new FirefoxPage(context, page, await browser.version());
  }

  constructor(context, page, version) {
    this.engine = 'firefox';
    this.version = version;
    this.context = context;
    this.page = page;
    this.logged = [];
    page.on('console', (message) => {
      if (['error', 'warn', 'warning'].includes(message.type()))
        this.logged.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.logged.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) =>
      this.logged.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on('response', (response) => {
      if (response.status() >= 400)
        this.logged.push(`HTTP ${response.status()}: ${response.url()}`);
    });
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load', timeout: 20000 });
    await this.evaluate(installProblemRecorder);
  }

  evaluate(fn, ...args) {
    return this.page.evaluate(fn, ...args);
  }

  waitFor(fn, arg, options) {
    return waitFor(this, fn, arg, options);
  }

  /** Clicks the element that `finder(arg)`, run in the page, returns. */
  async click(finder, arg) {
    const handle = await this.page.evaluateHandle(finder, arg);
    const element = handle.asElement();
    if (!element) throw new Error(`click: ${finder.name}(${JSON.stringify(arg)}) found nothing`);
    await element.click();
    await handle.dispose();
  }

  /** One key (a KeyboardEvent key name such as 'ArrowRight'), with modifiers held if given. */
  async press(key, { modifiers = [] } = {}) {
    for (const modifier of modifiers) await this.page.keyboard.down(modifier);
    await this.page.keyboard.press(key);
    for (const modifier of modifiers.toReversed()) await this.page.keyboard.up(modifier);
  }

  type(text) {
    return this.page.keyboard.type(text);
  }

  async screenshot(name) {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  async problems() {
    const recorded = await this.evaluate(() => window.__engineProblems ?? []).catch(() => []);
    // The protocol sees console messages too: keep each once.
    return [...new Set([...this.logged, ...recorded])];
  }

  close() {
    return this.context.close();
  }
}

/** WebKit: one MiniBrowser window (a WebDriver session, a new browser process) per page. */
class WebKitPage {
  static async open(webkit) {
    const session = await webkit.newSession();
    // The window's size: the viewport is this less MiniBrowser's toolbar.
    await session.setWindowSize(VIEWPORT.width, VIEWPORT.height);
    return new WebKitPage(session);
  }

  constructor(session) {
    this.engine = 'webkit';
    this.version = `${session.capabilities.browserName}/${session.capabilities.browserVersion}`;
    this.session = session;
  }

  async goto(url) {
    await this.session.navigate(url);
    await this.evaluate(installProblemRecorder);
  }

  evaluate(fn, ...args) {
    return this.session.execute(fn.toString(), args);
  }

  waitFor(fn, arg, options) {
    return waitFor(this, fn, arg, options);
  }

  async click(finder, arg) {
    const element = await this.evaluate(finder, arg);
    if (!element) throw new Error(`click: ${finder.name}(${JSON.stringify(arg)}) found nothing`);
    await this.session.click(element);
  }

  async press(key, { modifiers = [] } = {}) {
    const code = WEBDRIVER_KEYS[key] ?? key;
    if (modifiers.length === 0) return this.session.keys([code]);
    if (modifiers.length !== 1) throw new Error('press: one modifier at most');
    return this.session.chord(WEBDRIVER_KEYS[modifiers[0]], [code]);
  }

  type(text) {
    return this.session.keys([...text]);
  }

  async screenshot(name) {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    writeFileSync(path, await this.session.screenshot());
    return path;
  }

  problems() {
    return this.evaluate(() => window.__engineProblems ?? []);
  }

  close() {
    return this.session.close();
  }
}

/** The engines every cross-engine test runs in: name, how to start it, its page class. */
export const ENGINES = [
  {
    name: 'firefox',
    launch: async () => {
      const browser = await launchFirefox();
      return { open: () => FirefoxPage.open(browser), close: () => browser.close() };
    },
  },
  {
    name: 'webkit',
    launch: async () => {
      const webkit = await launchWebKit();
      return { open: () => WebKitPage.open(webkit), close: webkit.close };
    },
  },
];

/**
 * The setup of a cross-engine test file, for one engine: a before hook (dist/ is built; the
 * engine started; dist/ served as scripts/lib/serve.mjs serves it) and an after hook (all stopped).
 * Returns { url, open() }: url is the server's once the before hook has run; open() a new page.
 */
export function engineFixture(engine) {
  const fixture = {
    browser: undefined,
    server: undefined,
    get url() {
      return fixture.server.url;
    },
    open() {
      return fixture.browser.open();
    },
  };
  before(async () => {
    requireBuild();
    fixture.server = await startServer();
    fixture.browser = await engine.launch();
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}
