// createAttention({ threads }): the wasm threads build, where attention() and onnxAttention()
// run each call on the calling thread and threads - 1 helpers sharing the module's memory.
// Threads can share memory in Node (worker_threads) and in a page or Worker that is
// cross-origin isolated.
//
// Its files sit beside the package entry: in browsers its glue (attention-threads.mjs, an ES
// module with no imports), the helpers' script (attention-threads.worker.mjs, which imports
// the glue; bundlers bundle the two as a worker) and the two .wasm (attention-threads.wasm
// and its Relaxed SIMD twin), each named by a literal URL bundlers follow (threads-files.mjs);
// in Node its CommonJS glue and worker script (attention-threads-node.cjs and .worker.cjs), by
// path. Or where a caller says: baseUrl's folder, or each file's URL (the trainer's worker is
// told them by its host, which sees them where the app's bundler put them).
//
// Loading settles within initTimeout: a helper whose script cannot start (a 404, a script
// served without the page's Cross-Origin-Embedder-Policy) rejects it at once, naming the
// script and why; a helper that never reports is cut off by the timeout. Either way every
// helper started is ended.
import { createAttentionWith } from './api.mjs';
import { preferRelaxed, readBesideInNode, within } from './load-module.mjs';
import { besideThisFile } from './package-files.mjs';
import { startHelperBesideThis, threadsBuildFiles, threadsFiles } from './threads-files.mjs';
import { importNodeBuiltin, isNode, startWebWorker, whyNotLoaded } from '../shared/workers.mjs';

export { notIsolatedError, threadsAvailable } from './threads-option.mjs';

/**
 * The threads build with `threads` - 1 helpers, loaded and wrapped (api.mjs wrapModule, which
 * starts the team). `options`: createAttention's, checked ({ relaxedSimd, warmUp, initTimeout,
 * base }); in a browser also `files`, each file's URL (threadsFiles() as another thread saw
 * them), which take the place of base's.
 */
export async function loadThreads(threads, options) {
  const { relaxedSimd, warmUp, initTimeout = Infinity, base = null, files: named = null } = options;
  // In a browser: where the caller names them, in base, or beside this file. The helpers'
  // script beside this file starts by its literal new Worker(new URL(…)): its URL is not
  // needed, so not looked up (threadsFiles swaps in a stand-in Worker to read it).
  const besideThis = named === null && base === null;
  const files = isNode
    ? null
    : (named ?? (base === null ? threadsBuildFiles() : threadsFiles(base)));
  const helperScript = besideThis ? null : files?.helper;
  const glue = isNode ? await nodeGlue(base) : await browserGlue(files.glue);
  const load = async (relaxed) => {
    const wasm = isNode ? nodeWasm(relaxed, base) : files[wasmKey(relaxed)];
    const helpers = isNode ? null : browserHelpers(helperScript);
    const moduleOptions = {
      attentionHelpers: threads - 1,
      ...glue.moduleOptions,
      ...helpers?.moduleOptions,
      ...(isNode ? { wasmBinary: await readBesideInNode(wasm) } : { locateFile: () => wasm }),
      ...(relaxed && { printErr: () => {} }), // a missing Relaxed SIMD file is no error
    };
    const loading = createAttentionWith(glue.factory, moduleOptions, { warmUp, threads });
    try {
      const failed = helpers?.failed ?? new Promise(() => {});
      const what = () =>
        `the threads build (${wasm}, ${threads - 1} helper${threads > 2 ? 's' : ''}${helpers ? ` from ${helpers.urls().join(', ')}` : ''})`;
      return await within(Promise.race([loading, failed]), initTimeout, what);
    } catch (error) {
      // The attempt's helpers end: the factory's argument is the module it makes (MODULARIZE),
      // whose PThread, there as soon as the glue ran, holds every helper it started.
      moduleOptions.PThread?.terminateAllThreads();
      helpers?.end();
      throw error;
    }
  };
  return preferRelaxed(relaxedSimd, load, true, false);
}

/** The key of either .wasm in threadsBuildFiles() and threadsFiles(). */
const wasmKey = (relaxed) => (relaxed ? 'relaxed' : 'simd128');

/** The URL of either .wasm in Node: in `base`, else beside this file. */
function nodeWasm(relaxed, base) {
  const file = relaxed ? 'attention-threads-relaxed.wasm' : 'attention-threads.wasm';
  return base === null ? besideThisFile(file).href : new URL(file, base).href;
}

/**
 * The browsers' glue (an ES module) from `url`: an app's bundler emitted the file there (or it
 * is the package's, served as is), so the import itself is left alone by bundlers.
 */
async function browserGlue(url) {
  let glue;
  try {
    glue = await import(/* webpackIgnore: true */ /* @vite-ignore */ url);
  } catch (error) {
    throw new Error(
      `createAttention: could not load the threads build’s glue (attention-threads.mjs) from ${url}: ${error?.message ?? error}. Serve it there, or pass baseUrl (the folder of the package’s files)`,
      { cause: error },
    );
  }
  return { factory: glue.default, moduleOptions: {} };
}

/**
 * The helpers of one load in a browser, from `script` ({ url, type }; null: beside this
 * file): moduleOptions.createHelperWorker starts each (the glue calls it,
 * scripts/lib/glue-fixes.mjs), `failed` rejects when one cannot start, end() ends them all.
 */
function browserHelpers(script) {
  const workers = [];
  const urls = [];
  let reject;
  const failed = new Promise((_, rejectFailed) => (reject = rejectFailed));
  failed.catch(() => {}); // raced, or never looked at when the load fails otherwise
  const createHelperWorker = () => {
    const { worker, url } = startWebWorker(() =>
      script ? new Worker(script.url, { type: script.type }) : startHelperBesideThis(),
    );
    workers.push(worker);
    urls.push(url);
    // Registered before the glue's own onerror (which only logs, then throws): a helper that
    // cannot start rejects the load instead of leaving it waiting for the helper's "loaded".
    worker.addEventListener('error', (event) => {
      event.stopImmediatePropagation();
      event.preventDefault();
      const threw = event.message ? `it threw ${event.message}` : '';
      Promise.resolve(threw || whyNotLoaded(url, 'script')).then((why) =>
        reject(
          new Error(
            `createAttention: a helper thread of the threads build could not start: its script ${url} ${threw ? 'failed' : 'did not load'}${why ? ` (${why})` : ''}. Serve it as the page is served (with the same Cross-Origin-Embedder-Policy), or pass threads: 1 for the one-thread module`,
          ),
        ),
      );
    });
    return worker;
  };
  return {
    moduleOptions: { createHelperWorker },
    failed,
    end: () => workers.forEach((worker) => worker.terminate()),
    urls: () => [...new Set(urls)],
  };
}

/**
 * Node's glue, CommonJS (Emscripten 3.1.6's ES module glue calls require() there), and its
 * helpers' worker script, by path.
 */
async function nodeGlue(base) {
  const [{ createRequire }, { fileURLToPath }] = await Promise.all([
    importNodeBuiltin('module'),
    importNodeBuiltin('url'),
  ]);
  const path = (file) => fileURLToPath(base === null ? besideThisFile(file) : new URL(file, base));
  const worker = path('./attention-threads-node.worker.cjs');
  return {
    factory: createRequire(import.meta.url)(path('./attention-threads-node.cjs')),
    moduleOptions: { locateFile: (file) => (file.endsWith('.worker.js') ? worker : path(file)) },
  };
}
