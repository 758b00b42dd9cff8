// Builds the page into dist/ (run by scripts/build after the wasm module):
//   dist/index.html + app.js + styles.css   the served page; app.js imports ./attention.mjs
//   dist/explainer.html                     the same page as one file for file:// and offline:
//                                           the single-file wasm glue and the page as classic
//                                           inline scripts, the styles inline.
//   dist/attention-explainer.mjs            the <attention-explainer> element (imports
//                                           ./attention.mjs); its styles inside it
// The GIF export's worker (gifenc) is bundled into each of them as text and started from a
// blob: URL, so the policies allow exactly that: worker-src blob:.
// Both carry a strict Content-Security-Policy: no 'unsafe-inline', no 'unsafe-eval'; inline
// scripts and styles are allowed by their sha256 hashes; 'wasm-unsafe-eval' lets the browser
// compile the wasm.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { TEXTS } from './model/language.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const web = join(root, 'web');
const dist = join(root, 'dist');
const singleFileGlue = join(root, 'build/wasm/attention-single.js');
// The page imports the package by its name, as an app does: from its source entry here, with
// the one-thread glue Emscripten wrote linked in under the name that source imports it by (as
// scripts/build bundles dist/attention.mjs). Only what the page uses is bundled (the tasks'
// constants, the float16 conversions, the trainer for the offline file), never the glue.
const PACKAGE_ALIASES = {
  'attention-explained': join(root, 'src/js/attention.mjs'),
  'attention-wasm-glue': join(root, 'build/wasm/attention.mjs'),
};

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Inline content must not close its own element early. */
function checkInlinable(text, tag) {
  if (new RegExp(`</${tag}`, 'i').test(text)) throw new Error(`inline ${tag} contains "</${tag}"`);
  return text;
}

async function bundle(options) {
  const result = await esbuild.build({
    bundle: true,
    write: false,
    minify: true,
    legalComments: 'none',
    // Chinese text as it is, not as \uXXXX escapes: app.js is a tenth smaller (the zh
    // sentences), and there is less to download and to scan as the page starts. Module and
    // worker scripts are always read as UTF-8, and the pages declare it for inline ones.
    charset: 'utf8',
    target: ['chrome110', 'firefox115', 'safari16'],
    logLevel: 'warning',
    alias: PACKAGE_ALIASES,
    ...options,
  });
  return result.outputFiles;
}

function policy({ scripts, styles, served }) {
  const directives = served
    ? [
        "default-src 'none'",
        `script-src 'self' 'wasm-unsafe-eval' ${scripts.join(' ')}`,
        `style-src 'self'`,
        "img-src 'self' data:",
        "connect-src 'self'",
        // blob: the GIF export's worker; 'self': chapter 3's trainer (train-worker.mjs).
        "worker-src 'self' blob:",
      ]
    : [
        "default-src 'none'",
        `script-src 'wasm-unsafe-eval' ${scripts.join(' ')}`,
        `style-src ${styles.join(' ')}`,
        'img-src data:',
        // The single-file glue first tries fetch() on its data: URL holding the wasm.
        'connect-src data:',
        'worker-src blob:',
      ];
  directives.push("base-uri 'none'", "form-action 'none'", "object-src 'none'");
  return directives.join('; ');
}

function page(template, { csp, styles, scripts, preload = '' }) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}" />`;
  // Replacer functions: a replacement string would expand "$&" and "$'" found in the code.
  return template
    .replace('<!-- build: content-security-policy -->', () => meta)
    .replace('<!-- build: styles -->', () => styles)
    .replace('<!-- build: preload -->', () => preload)
    .replace('<!-- build: scripts -->', () => scripts);
}

// The served page fetches app.js, then app.js imports attention.mjs, which then fetches
// attention.wasm: three round trips one after the other. Announced in <head>, all three download
// at once while the HTML is parsed. The wasm preload is a CORS-mode fetch with credentials for
// the same origin, as the glue's fetch() is, so the glue's request is served from it; the
// policy allows both ('self' for scripts and for connect-src).
const SERVED_PRELOADS = [
  '<link rel="modulepreload" href="app.js" />',
  '<link rel="modulepreload" href="attention.mjs" />',
  '<link rel="preload" href="attention.wasm" as="fetch" type="application/wasm" crossorigin />',
].join('\n    ');

/**
 * The page's styles for a shadow root: its :root and html rules apply to the host instead
 * (body's margin has no body to go to), and its layouts for the width of the screen become
 * layouts for the width of the element (container queries: an explainer in a column of prose
 * on a wide screen lays itself out as on a phone), then the element's own rules.
 */
function shadowStyles(styles, elementCss) {
  const forHost = styles
    .replace(/@media\s*([^{]*\bwidth\b[^{]*)\{/g, (query, list) => containerQuery(list) ?? query)
    .replace(/:root/g, ':host')
    .replace(/(^|[{};,])html(?=[{,])/g, '$1:host')
    .replace(/(^|[{};,])body\{[^}]*\}/g, '$1');
  return `${forHost}\n${elementCss}`;
}

/**
 * A media query's width conditions as a container query on the element: "(max-width: 860px),
 * (max-width: 1399px) and (max-height: 820px)" -> "@container explainer (max-width: 860px){"
 * (the alternatives that are widths alone, joined by "or"). null when none is: such a query
 * (a short screen) stays a media query.
 */
function containerQuery(list) {
  const widths = list
    .split(',')
    .map((alternative) => alternative.trim())
    .filter((alternative) => /^\((max|min)-width:[^()]*\)$/.test(alternative));
  return widths.length ? `@container explainer ${widths.join(' or ')}{` : null;
}

/**
 * Chapter 4's texts for the offline file, which cannot fetch: the Tang poems whole (71 KB),
 * and of the English classic (0.8 MB) its first book, Genesis, up to the verse that ends it.
 */
function offlineTexts() {
  const read = (file) => readFileSync(join(dist, 'texts', file), 'utf8');
  const bible = read('kjv-genesis-deuteronomy.txt');
  const genesisEnd = 'and he was put in a coffin in Egypt.\n';
  const end = bible.indexOf(genesisEnd);
  if (end < 0) throw new Error('the end of Genesis is not in kjv-genesis-deuteronomy.txt');
  return {
    'tang300.txt': read('tang300.txt'),
    'kjv-genesis-deuteronomy.txt': bible.slice(0, end + genesisEnd.length),
  };
}

/**
 * Chapter 4's snapshots (web/snapshots/<name>.json and .f16): copied to dist/snapshots/ for
 * the served page, and for the offline file embedded as { name: { manifest, base64 } } when
 * the file holds the text they were trained on whole (else { missing: why }).
 */
function snapshots(texts) {
  const folder = join(web, 'snapshots');
  mkdirSync(join(dist, 'snapshots'), { recursive: true });
  const embedded = {};
  for (const { file, snapshot: name } of Object.values(TEXTS)) {
    for (const ext of ['json', 'f16'])
      copyFileSync(join(folder, `${name}.${ext}`), join(dist, 'snapshots', `${name}.${ext}`));
    const manifest = JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8'));
    const textSha256 = createHash('sha256').update(texts[file], 'utf8').digest('hex');
    embedded[name] =
      textSha256 === manifest.textSha256
        ? { manifest, base64: readFileSync(join(folder, `${name}.f16`)).toString('base64') }
        : {
            missing: `this offline file holds part of ${file} only; the snapshot was trained on all of it`,
          };
  }
  return embedded;
}

async function main() {
  mkdirSync(dist, { recursive: true });
  const template = readFileSync(join(web, 'index.html'), 'utf8');
  const [css] = await bundle({
    entryPoints: [join(web, 'styles/main.css')],
    outfile: 'styles.css',
  });
  const styles = css.text.trim();
  const [gifWorker] = await bundle({
    entryPoints: [join(web, 'tools/export/gif-worker.mjs')],
    format: 'iife',
    outfile: 'gif-worker.js',
  });
  const define = { GIF_WORKER_SOURCE: JSON.stringify(gifWorker.text) };

  // --- dist/index.html: external app.js (ES module) and styles.css ---
  const [served] = await bundle({
    entryPoints: [join(web, 'main-served.mjs')],
    format: 'esm',
    outfile: join(dist, 'app.js'),
    external: ['./attention.mjs'],
    define,
    // No V8 compile hint (//# allFunctionsCalledOnLoad): fewer than a third of app.js's
    // functions (355 of 1116, 44% of its bytes) run before the page is ready (the other
    // chapters' stages, training, exports), and compiling them all as the file streams in
    // cost Chromium ~70–120 ms more CPU per load on one core than compiling the rest on
    // their first call.
  });
  const watchdog = checkInlinable(
    readFileSync(join(web, 'boot-watchdog.js'), 'utf8').trim(),
    'script',
  );
  writeFileSync(join(dist, 'app.js'), served.text);
  writeFileSync(join(dist, 'styles.css'), styles);
  const servedPolicy = policy({ scripts: [sha256(watchdog)], served: true });
  writeFileSync(
    join(dist, 'index.html'),
    page(template, {
      csp: servedPolicy,
      styles: '<link rel="stylesheet" href="styles.css" />',
      preload: SERVED_PRELOADS,
      scripts: `<script>${watchdog}</script>\n    <script type="module" src="app.js"></script>`,
    }),
  );

  // --- dist/explainer.html: everything inline, classic scripts only ---
  // Chapter 3's trainer runs in a classic worker made from the inlined module (the script
  // marked data-attention-glue) and this worker's code, as text.
  const [trainWorker] = await bundle({
    entryPoints: [join(web, 'train-worker-offline.mjs')],
    format: 'iife',
    outfile: 'train-worker.js',
  });
  const texts = offlineTexts();
  const [offline] = await bundle({
    entryPoints: [join(web, 'main-offline.mjs')],
    format: 'iife',
    // The trainer's code names the package's own worker and .wasm by new URL(…,
    // import.meta.url), which a classic script cannot: unused here (the offline page passes its
    // classic worker, whose module is inlined), and wasmFilesForWorkers finds no URL.
    logOverride: { 'empty-import-meta': 'silent' },
    outfile: 'offline.js',
    define: {
      ...define,
      TRAIN_WORKER_SOURCE: JSON.stringify(trainWorker.text),
      OFFLINE_TEXTS: JSON.stringify(texts),
      OFFLINE_SNAPSHOTS: JSON.stringify(snapshots(texts)),
    },
  });
  const glue = checkInlinable(readFileSync(singleFileGlue, 'utf8').trim(), 'script');
  const app = checkInlinable(offline.text.trim(), 'script');
  checkInlinable(styles, 'style');
  writeFileSync(
    join(dist, 'explainer.html'),
    page(template, {
      csp: policy({
        scripts: [sha256(glue), sha256(app)],
        styles: [sha256(styles)],
        served: false,
      }),
      styles: `<style>${styles}</style>`,
      scripts: `<script data-attention-glue>${glue}</script>\n    <script>${app}</script>`,
    }),
  );
  // --- dist/attention-explainer.mjs: the custom element, styles inside ---
  const [elementCss] = await bundle({
    entryPoints: [join(web, 'element/element.css')],
    outfile: 'element.css',
  });
  const [element] = await bundle({
    entryPoints: [join(web, 'element/attention-explainer.mjs')],
    format: 'esm',
    outfile: join(dist, 'attention-explainer.mjs'),
    external: ['./attention.mjs'],
    define: {
      ...define,
      EXPLAINER_CSS: JSON.stringify(shadowStyles(styles, elementCss.text.trim())),
    },
  });
  writeFileSync(join(dist, 'attention-explainer.mjs'), element.text);

  // The served policy, for servers that send it as a header (scripts/run, the tests).
  writeFileSync(join(dist, 'csp-header.txt'), `${servedPolicy}\n`);
}

await main();
