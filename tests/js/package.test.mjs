// The package as a JS developer gets it: `npm pack`, then a scratch project outside this repo
// installs the tarball offline and uses it in Node (ESM), bundled by esbuild in headless
// Chromium, and through TypeScript; plus the examples (a page and a Web Worker) in Chromium.
// Prints the tarball size and the gzipped size of the module (wasm + JS).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import { launchChromium } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/lib/serve.mjs';
import * as article from './article.mjs';
import { attention64, maxAbsDiff, onnxAttention64 } from './reference64.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
// The latest TypeScript (node_modules/.bin/tsc may be either version's).
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const rootPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

// The page's policy for its own scripts (web/README.md): no 'unsafe-eval', no
// 'unsafe-inline'; compiling wasm needs 'wasm-unsafe-eval'. The package must work under it.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";

let work; // a temp folder: the tarball, the scratch app, the browser profile
let app; // the scratch project that installed the tarball
let packInfo;
let browser;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'attention-package-'));
  // Under scripts/build's lock, so a concurrent build cannot hand npm a half-written dist/.
  const pack = ['npm', 'pack', '--json', '--pack-destination', work];
  const lock = join(root, 'build/.lock');
  const packed = existsSync(lock)
    ? await run('flock', [lock, ...pack], { cwd: root })
    : await run(pack[0], pack.slice(1), { cwd: root });
  [packInfo] = JSON.parse(packed.stdout);

  app = join(work, 'app');
  await mkdir(app);
  const manifest = { name: 'scratch-app', private: true, type: 'module' };
  await writeFile(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  // Offline, with an empty private cache: the tarball must install with no registry at all.
  await run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(work, packInfo.filename)],
    { cwd: app, env: { ...process.env, npm_config_cache: join(work, 'npm-cache') } },
  );

  browser = await launchChromium({ profile: join(work, 'chromium-profile') });
});

after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Opens `url` in a fresh page, waits for `globalThis[name]` and returns it. Fails on any page
 * error or console error (a CSP violation is reported as one).
 */
async function resultOfPage(url, name) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed load is reported by URL below, where a missing favicon can be told apart.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 400 && path !== '/favicon.ico') {
      problems.push(`HTTP ${response.status()} for ${path}`);
    }
  });
  try {
    await page.goto(url);
    const handle = await page
      .waitForFunction((key) => globalThis[key], name, { timeout: 20_000 })
      .catch((error) => {
        throw new Error(`${url}: no ${name}: ${error.message}; ${problems.join('; ')}`);
      });
    const value = await handle.jsonValue();
    assert.deepEqual(problems, [], `${url} reported problems`);
    return value;
  } finally {
    await page.close();
  }
}

/** The scratch project's tsconfig: resolution through the installed package.json, as in an app. */
const appTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
  },
  files: ['typed-example.ts'],
};

async function serve(folder) {
  return startServer({ root: folder, headers: { 'Content-Security-Policy': CSP } });
}

describe('the packed package', () => {
  test('npm pack ships the module (its four builds), its source map, the pool worker and the trainer worker, its types, the <attention-explainer> element and its types, and nothing else', () => {
    const files = packInfo.files.map((file) => file.path).sort();
    assert.deepEqual(files, [
      'README.md',
      'dist/attention-explainer.d.ts',
      'dist/attention-explainer.mjs',
      'dist/attention-relaxed.wasm',
      'dist/attention-threads-node.cjs',
      'dist/attention-threads-node.worker.cjs',
      'dist/attention-threads-relaxed.wasm',
      'dist/attention-threads.mjs',
      'dist/attention-threads.wasm',
      'dist/attention-threads.worker.mjs',
      'dist/attention-worker.mjs',
      'dist/attention.d.ts',
      'dist/attention.mjs',
      'dist/attention.mjs.map',
      'dist/attention.wasm',
      'dist/train-worker.mjs',
      'dist/types/api.d.ts',
      'dist/types/attention.d.ts',
      'dist/types/kv-cache.d.ts',
      'dist/types/onnx.d.ts',
      'dist/types/pool.d.ts',
      'dist/types/tasks.d.ts',
      'dist/types/trace.d.ts',
      'dist/types/training.d.ts',
      'package.json',
    ]);
    assert.equal(packInfo.version, rootPackage.version);
    console.log(
      `tarball ${packInfo.filename}: ${packInfo.size} bytes (${packInfo.unpackedSize} unpacked)`,
    );
  });

  test('the module is small: wasm + JS gzipped', async () => {
    const sizes = {};
    for (const file of ['attention.wasm', 'attention.mjs']) {
      const bytes = await readFile(join(app, 'node_modules/attention-explained/dist', file));
      sizes[file] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    }
    const gzip = sizes['attention.wasm'].gzip + sizes['attention.mjs'].gzip;
    console.log(
      `attention.wasm ${sizes['attention.wasm'].raw} B (gzip ${sizes['attention.wasm'].gzip}), ` +
        `attention.mjs ${sizes['attention.mjs'].raw} B (gzip ${sizes['attention.mjs'].gzip}), ` +
        `together ${(gzip / 1024).toFixed(1)} KiB gzipped`,
    );
    // A guard against accidental bloat (a debug build, an embedded copy of the wasm, each
    // 100 KiB or more): the point of the package is one small import instead of megabytes of
    // onnxruntime-web. The module's own growth shows in README's Size table (checked within
    // 5%): 155.0 KiB with the threads loader and close() (the threads build is separate files),
    // about 161 KiB with the tiny transformer's head mask and sampling, and ALiBi in the trace
    // and the tiny transformer.
    assert.ok(gzip < 170 * 1024, `${gzip} bytes gzipped`);
  });

  test('a scratch project imports it in Node (ESM) and gets the article numbers', async () => {
    const script = `
      import createAttention from 'attention-explained';
      const attn = await createAttention();
      const t = attn.trace({
        x: ${JSON.stringify(article.x)},
        wQuery: ${JSON.stringify(article.wQuery)},
        wKey: ${JSON.stringify(article.wKey)},
        wValue: ${JSON.stringify(article.wValue)},
      });
      const y = attn.attention(t.queries.data, t.keys.data, t.values.data,
        { qNumHeads: 1, headSize: 3, scale: 1 });
      console.log(JSON.stringify({
        resolved: import.meta.resolve('attention-explained'),
        element: import.meta.resolve('attention-explained/attention-explainer.mjs'),
        outputs: Array.from(t.outputs.data), y: Array.from(y),
        simd: attn.simd, version: attn.version,
      }));`;
    await writeFile(join(app, 'check.mjs'), script);
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: app });
    const result = JSON.parse(stdout);
    // Resolved from the scratch project's node_modules, not from this repo.
    assert.ok(result.resolved.startsWith(`file://${app}/node_modules/attention-explained/`));
    // The element (a browser module) sits beside the module it imports.
    assert.equal(
      result.element,
      `file://${app}/node_modules/attention-explained/dist/attention-explainer.mjs`,
    );
    assert.ok(existsSync(new URL(result.element)));
    assert.ok(maxAbsDiff(result.outputs, article.outputs) < 1e-5, `${result.outputs}`);
    assert.ok(maxAbsDiff(result.y, article.outputs) < 1e-5, `${result.y}`);
    assert.equal(result.simd, true);
    assert.equal(result.version, rootPackage.version);
  });

  test('attention.mjs has a source map, its sources inside: a stack trace points into src/js', async () => {
    const dist = join(app, 'node_modules/attention-explained/dist');
    const code = await readFile(join(dist, 'attention.mjs'), 'utf8');
    assert.match(code, /\/\/# sourceMappingURL=attention\.mjs\.map\s*$/);
    const map = JSON.parse(await readFile(join(dist, 'attention.mjs.map'), 'utf8'));
    const index = map.sources.findIndex((source) =>
      source.endsWith('src/js/module/load-module.mjs'),
    );
    assert.ok(index >= 0, `${map.sources}`);
    assert.match(map.sourcesContent[index], /export async function loadOneThread/);
  });

  test('TypeScript 5.0, the oldest stated in README.md, checks the typed example against the installed package too', async () => {
    // The same project as the next test, type-checked by typescript@5.0.4 (a dev dependency,
    // installed as typescript-5.0).
    await copyFile(join(root, 'tests/js/typed-example.ts'), join(app, 'typed-example.ts'));
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify(appTsconfig));
    const tsc50 = join(root, 'node_modules/typescript-5.0/bin/tsc');
    const { stdout } = await run(process.execPath, [tsc50, '--version']);
    assert.equal(stdout.trim(), 'Version 5.0.4');
    await run(process.execPath, [tsc50, '--noEmit', '-p', app]);
  });

  test('TypeScript: the typed example checks against the installed package', async () => {
    // Resolution through the installed package.json ("exports" -> "types"), as in an app.
    await copyFile(join(root, 'tests/js/typed-example.ts'), join(app, 'typed-example.ts'));
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify(appTsconfig));
    await run(process.execPath, [tsc, '--noEmit', '-p', app]);
  });
});

describe('TypeScript types (dist/attention.d.ts)', () => {
  test('tsc --noEmit type-checks tests/js/typed-example.ts', async () => {
    await run(process.execPath, [tsc, '--noEmit', '-p', join(root, 'tests/js')]);
  });

  test('the check can fail: without its @ts-expect-error, a wrong option is an error', async () => {
    const source = await readFile(join(root, 'tests/js/typed-example.ts'), 'utf8');
    const marker = '// @ts-expect-error: an unknown option';
    assert.ok(source.includes(marker));
    const folder = join(work, 'ts-negative');
    await mkdir(folder);
    await writeFile(join(folder, 'typed-example.ts'), source.replace(marker, '// (removed)'));
    const tsconfig = JSON.parse(
      (await readFile(join(root, 'tests/js/tsconfig.json'), 'utf8')).replace(/^\s*\/\/.*$/gm, ''),
    );
    tsconfig.compilerOptions.paths = {
      'attention-explained': [join(root, 'dist/attention.d.ts')],
      'attention-explained/attention-explainer.mjs': [join(root, 'dist/attention-explainer.d.ts')],
    };
    await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
    const failure = await run(process.execPath, [tsc, '--noEmit', '-p', folder]).then(
      () => null,
      (error) => error,
    );
    assert.ok(failure, 'tsc accepted an unknown option');
    // Exactly one error, on the line the directive covered ("... known properties, but
    // 'causal' does not exist in type 'AttentionOptions'").
    assert.equal(
      failure.stdout
        .trim()
        .split('\n')
        .filter((l) => / error TS/.test(l)).length,
      1,
    );
    assert.match(
      failure.stdout,
      /error TS\d+: Object literal may only specify known properties.*'causal'/,
    );
  });
});

describe('the examples in Chromium (served from this repo, strict CSP)', () => {
  let server;
  let url;
  before(async () => ({ server, url } = await serve(root)));
  after(() => server?.close());

  test('examples/browser: a page imports dist/attention.mjs', async () => {
    const result = await resultOfPage(`${url}examples/browser/`, 'attentionResult');
    assert.ok(maxAbsDiff(result.outputs, article.outputs) < 1e-5, `${result.outputs}`);
  });

  test('float16 as a Float16Array (Chromium has one): read in, and given back as one', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${url}examples/browser/`);
      // Multiples of 1/16: exact in float16, so both sides start from the same numbers.
      const result = await page.evaluate(async () => {
        const { default: createAttention } = await import('/dist/attention.mjs');
        const attn = await createAttention();
        const tensor = (offset) => ({
          data: Float16Array.from({ length: 24 }, (_, i) => (((i + offset) % 16) - 8) / 16),
          dims: [1, 2, 3, 4],
        });
        const out = attn.onnxAttention(
          { Q: tensor(0), K: tensor(5), V: tensor(9) },
          { is_causal: 1 },
        );
        return {
          tag: Object.prototype.toString.call(out.Y.data),
          type: out.Y.type,
          y: Array.from(out.Y.data),
        };
      });
      assert.equal(result.tag, '[object Float16Array]');
      assert.equal(result.type, 'float16');
      const tensor = (offset) => ({
        data: Array.from({ length: 24 }, (_, i) => (((i + offset) % 16) - 8) / 16),
        dims: [1, 2, 3, 4],
      });
      const expected = onnxAttention64(
        { Q: tensor(0), K: tensor(5), V: tensor(9) },
        { is_causal: 1 },
      );
      result.y.forEach((y, i) =>
        assert.ok(
          Math.abs(y - expected.Y.data[i]) <= 2 ** -10,
          `Y[${i}]: ${y} vs ${expected.Y.data[i]}`,
        ),
      );
    } finally {
      await page.close();
    }
  });

  test('examples/worker: a module Web Worker computes and transfers results back', async () => {
    const result = await resultOfPage(`${url}examples/worker/`, 'workerResult');
    assert.ok(maxAbsDiff(result.outputs, article.outputs) < 1e-5, `${result.outputs}`);
    // The multi-head call of examples/worker/main.js, recomputed here in float64.
    const q = Float32Array.from({ length: 2 * 4 * 8 }, (_, i) => Math.sin(i));
    const k = Float32Array.from({ length: 4 * 8 }, (_, i) => Math.cos(i));
    const v = Float32Array.from({ length: 4 * 8 }, (_, i) => (i % 8) / 8);
    const expected = attention64(q, k, v, {
      qNumHeads: 2,
      kvNumHeads: 1,
      headSize: 8,
      isCausal: true,
    });
    assert.ok(maxAbsDiff(result.y, expected) < 1e-5);
  });
});
