// The package in apps as they are really built: `npm pack`, installed offline into a scratch
// folder (build/apps/), and the app of examples/bundler built exactly as the README's recipe
// for each bundler says (Vite's build and its dev server, webpack 5, esbuild, Rollup) and run
// as a plain page with an import map. Each runs in headless Chromium, cross-origin isolated:
// the article's attention (1.937), wasm threads (2, and 'auto'), the pool, the trainer (loss
// below 0.5 after 800 steps of INDUCTION_MODEL; on 2 threads, every step's loss as on one)
// and the element (step="result" shows 1.937; chapter 3 trains inside it, on 'auto' threads). Also: no Node-only file or type declaration lands in a web
// build. (Where a page is not isolated, 'auto' gives one thread: tests/js/threads.test.mjs.)
// Prints, per setup, the bytes the package added (gzip) and the first call's time, and writes
// them to build/apps/report.json (the README's table comes from there).
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/serve.mjs';
import { filesUnder, prepareApps, RECIPES, startViteDev } from './recipes.mjs';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
/** The article's first output, rounded as the page shows it. */
const ARTICLE_OUTPUT = [1.936621, 6.683105, 1.595068];

let work; // { root: build/apps, app(name) } from prepareApps
let browser;
const builds = {}; // recipe name -> the promise of its build, all started at once
const report = {};

before(async () => {
  [work, browser] = await Promise.all([prepareApps(), launchChromium()]);
  // Every build at once, each page run as soon as its build is done: the slow builds
  // (webpack's) overlap the other apps' runs.
  for (const recipe of RECIPES) {
    builds[recipe.name] = recipe.build(work);
    builds[recipe.name].catch(() => {}); // awaited by its test
  }
});
after(async () => {
  await browser?.close();
  if (work) await writeFile(join(work.root, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  for (const [name, line] of Object.entries(report)) console.log(`${name}: ${line.summary}`);
});

// README.md's bundlers table: its row for a setup, as { all, beforeFirstCall } in KiB.
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const README_ROWS = { vite: 'Vite', webpack: 'webpack', esbuild: 'esbuild', rollup: 'Rollup', importmap: 'import map' }; // prettier-ignore
function readmeRow(name) {
  const table = readme.slice(readme.indexOf('<!-- apps:'));
  const line = table.split('\n').find((row) => row.startsWith(`| ${README_ROWS[name]}`));
  assert.ok(line, `README.md's bundlers table has no row for ${name}`);
  const [all, beforeFirstCall] = [...line.matchAll(/([\d.]+) KiB/g)].map(([, kib]) => Number(kib));
  return { all, beforeFirstCall };
}

/** The README's sizes for `name` are within 5% of what was measured now. */
function checkReadmeSizes(name, measured) {
  const stated = readmeRow(name);
  const near = (kib, bytes) => Math.abs(kib * 1024 - bytes) <= 0.05 * bytes;
  assert.ok(
    near(stated.all, measured.gzipBytes) &&
      near(stated.beforeFirstCall, measured.gzipBytesBeforeFirstCall),
    `README.md's bundlers table is off for ${name}: ${measured.summary}`,
  );
}

/**
 * Opens `url` in a fresh page, waits for the app's results (globalThis.appResult) and its two
 * explainers, trains in the second, and returns what it saw:
 * { result, resources, problems, explainerText, trainStatus }.
 */
async function runApp(url) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed load is reported by URL below, where the browser's own favicon.ico is told apart.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 400 && path !== '/favicon.ico') {
      problems.push(`HTTP ${response.status()} ${response.url()}`);
    }
  });
  try {
    await page.goto(url);
    const result = await page
      .waitForFunction(() => globalThis.appResult, null, { timeout: 120_000 })
      .then((handle) => handle.jsonValue())
      .catch((error) => {
        throw new Error(
          `${url}: the app did not finish (${error.message}); ${problems.join('; ')}`,
        );
      });
    const resources = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => ({
        url: entry.name,
        end: entry.responseEnd,
      })),
    );
    const element = (id) => `#${id} >> .app`;
    await page.waitForSelector(`${element('result')}[data-step="result"]`, { timeout: 30_000 });
    const explainerText = await page.textContent(element('result'));
    const scene = `${element('train')} .scene-train`;
    await page
      .waitForSelector(`${scene}[data-worker="ready"]`, { timeout: 30_000 })
      .catch(async (error) => {
        const says = (await page.textContent(`${scene} .train-status`).catch(() => ''))?.trim();
        throw new Error(
          `${url}: chapter 3's trainer did not become ready (${error.message}); its status says "${says}"; ${problems.join('; ')}`,
        );
      });
    const elementThreads = await page.getAttribute('#train', 'data-trainer-threads');
    await page.click(`${scene} .train-button`);
    // Training: its live text counts the steps (the page's tests follow the loss down).
    const status = `${scene} .train-status`;
    await page.waitForFunction(
      (selector) =>
        /^step [1-9]\d* · loss /.test(
          document.querySelector('#train').shadowRoot.querySelector(selector)?.textContent.trim() ??
            '',
        ),
      '.scene-train .train-status',
      { timeout: 60_000 },
    );
    const trainStatus = (await page.textContent(status)).trim();
    await page.click(`${scene} .train-button`); // Pause
    return { result, resources, problems, explainerText, trainStatus, elementThreads };
  } finally {
    await page.close();
  }
}

/** The checks every setup passes: the app's parts, then the element's. */
function checkApp(name, { result, problems, explainerText, trainStatus, elementThreads }) {
  assert.deepEqual(problems, [], `${name}: the page reported problems`);
  const { attention, threads, pool, trainer } = result;
  assert.ok(!attention.error, `${name}: attention: ${attention.error}`);
  attention.output.forEach((value, i) => assert.ok(Math.abs(value - ARTICLE_OUTPUT[i]) < 1e-5));
  assert.equal(attention.y[0].toFixed(3), '1.937');
  assert.ok(!threads.error, `${name}: threads: ${threads.error}`);
  assert.equal(threads.isolated, true);
  assert.equal(threads.autoSame, true);
  assert.equal(threads.auto, Math.min(8, availableParallelism())); // 'auto': the machine's cores
  assert.deepEqual({ threads: threads.threads, same: threads.same }, { threads: 2, same: true });
  assert.deepEqual(pool, { workers: 2, same: true }, `${name}: pool`);
  assert.ok(!trainer.error, `${name}: trainer: ${trainer.error}`);
  assert.equal(trainer.step, 800);
  assert.ok(trainer.loss < 0.5, `${name}: loss ${trainer.loss} after 800 steps`);
  const { trainerThreads } = result;
  assert.ok(!trainerThreads.error, `${name}: trainer on threads: ${trainerThreads.error}`);
  assert.deepEqual(trainerThreads, { threads: 2, step: 60, same: true }, `${name}: trainer on 2 threads`); // prettier-ignore
  assert.match(explainerText, /1\.937/, `${name}: the explainer at step="result"`);
  assert.match(trainStatus, /^step \d+ · loss \d\.\d{3}$/, `${name}: chapter 3's training`);
  // On wasm threads ('auto'), as the page trains.
  assert.equal(elementThreads, String(threads.auto), `${name}: chapter 3's trainer's threads`);
}

/** gzip -9 bytes of the JS and wasm under `folder`, and of those the page fetched by its first call. */
async function measure(folder, served, run) {
  const files = (await filesUnder(folder)).filter((file) => /\.(m?js|wasm)$/.test(file));
  const gzip = async (file) => gzipSync(await readFile(file), { level: 9 }).length;
  const sizes = Object.fromEntries(
    await Promise.all(files.map(async (file) => [relative(folder, file), await gzip(file)])),
  );
  const firstCall = run.result.attention.firstCallMs;
  const fetched = new Set(
    run.resources
      .filter((resource) => resource.end <= firstCall)
      .map((resource) => decodeURIComponent(new URL(resource.url).pathname.slice(1))),
  );
  const sum = (names) => names.reduce((total, name) => total + sizes[name], 0);
  return {
    files: sizes,
    gzipBytes: sum(Object.keys(sizes)),
    gzipBytesBeforeFirstCall: sum(Object.keys(sizes).filter((name) => fetched.has(served(name)))),
    firstCallMs: Math.round(firstCall),
  };
}

/** Fails when a web build holds a Node-only file, a type declaration or Node's glue. */
async function checkNoNodeFiles(folder) {
  const files = await filesUnder(folder);
  const names = files.map((file) => relative(folder, file));
  assert.deepEqual(
    names.filter((name) => /\.cjs$|\.d\.ts$|node/.test(name)),
    [],
    `${folder}: Node-only files or declarations in a web build`,
  );
}

for (const recipe of RECIPES) {
  describe(`${recipe.name}: ${recipe.summary}`, () => {
    test('builds as its recipe says, and runs the whole app in Chromium', async () => {
      const { folder, served, serveRoot, page, web } = await builds[recipe.name];
      if (web) await checkNoNodeFiles(folder);
      const { server, url } = await startServer({ root: serveRoot, headers: ISOLATION });
      try {
        const run = await runApp(`${url}${page}`);
        checkApp(recipe.name, run);
        const measured = await measure(folder, served, run);
        report[recipe.name] = {
          ...measured,
          needed: recipe.needed,
          summary: `${(measured.gzipBytes / 1024).toFixed(1)} KiB gzip in all, ${(measured.gzipBytesBeforeFirstCall / 1024).toFixed(1)} KiB before the first call, first call at ${measured.firstCallMs} ms; needed beyond the code: ${recipe.needed}`,
        };
        checkReadmeSizes(recipe.name, report[recipe.name]);
      } finally {
        server.close();
      }
    });
  });
}

describe('Vite dev server (vite.config.js: the COOP/COEP headers only)', () => {
  test('serves the app, and the whole app runs in Chromium', async () => {
    const dev = await startViteDev(work);
    try {
      const run = await runApp(dev.url);
      checkApp('vite dev', run);
      report['vite dev'] = {
        firstCallMs: Math.round(run.result.attention.firstCallMs),
        needed: 'nothing',
        summary: `first call at ${Math.round(run.result.attention.firstCallMs)} ms (unbundled)`,
      };
    } finally {
      await dev.close();
    }
  });
});
