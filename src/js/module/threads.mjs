// createAttention({ threads }): the wasm threads build, where attention() and onnxAttention()
// run each call on the calling thread and threads - 1 helpers sharing the module's memory.
// Threads can share memory in Node (worker_threads) and in a page or Worker that is
// cross-origin isolated.
//
// Its files sit beside the package entry: in browsers its glue (attention-threads.mjs, an ES
// module, imported by a literal import() that bundlers split into a chunk), the helpers'
// script (attention-threads.worker.mjs, which imports the glue; started below by a literal
// new Worker(new URL(…)) that bundlers bundle as a worker) and the two .wasm
// (attention-threads.wasm and its Relaxed SIMD twin, named by literal new URL(…)s); in Node
// its CommonJS glue and worker script (attention-threads-node.cjs and .worker.cjs), by path.
//
// Loading settles within initTimeout: a helper whose script cannot start (a 404, a script
// served without the page's Cross-Origin-Embedder-Policy) rejects it at once, naming the
// script and why; a helper that never reports is cut off by the timeout. Either way every
// helper started is ended.
import { createAttentionWith } from './api.mjs';
import { preferRelaxed, readBesideInNode, within } from './load-module.mjs';
import { besideThisFile } from './package-files.mjs';
import { importNodeBuiltin, isNode, startWebWorker, whyNotLoaded } from '../shared/workers.mjs';

export { notIsolatedError, threadsAvailable } from './threads-option.mjs';

/**
 * The threads build with `threads` - 1 helpers, loaded and wrapped (api.mjs wrapModule, which
 * starts the team). `options`: createAttention's, checked ({ relaxedSimd, warmUp, initTimeout }).
 */
export async function loadThreads(threads, options) {
  const { relaxedSimd, warmUp, initTimeout = Infinity, base = null } = options;
  const glue = isNode ? await nodeGlue(base) : await browserGlue(base);
  const load = async (relaxed) => {
    const wasm = threadsWasm(relaxed, base);
    const helpers = isNode ? null : browserHelpers(base);
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

/** The URL of either .wasm: in `base`, else beside this file by a literal URL bundlers see. */
function threadsWasm(relaxed, base) {
  const file = relaxed ? 'attention-threads-relaxed.wasm' : 'attention-threads.wasm';
  if (base !== null) return new URL(file, base).href;
  if (isNode) return besideThisFile(file).href;
  return relaxed
    ? new URL('./attention-threads-relaxed.wasm', import.meta.url).href
    : new URL('./attention-threads.wasm', import.meta.url).href;
}

/** The browsers' glue (an ES module): from `base`, else the file beside this one. */
async function browserGlue(base) {
  let glue;
  try {
    glue =
      base === null
        ? await import('./attention-threads.mjs')
        : await import(
            /* webpackIgnore: true */ /* @vite-ignore */ new URL('attention-threads.mjs', base).href
          );
  } catch (error) {
    throw new Error(
      `createAttention: could not load the threads build’s glue (attention-threads.mjs, ${base === null ? 'beside attention.mjs' : `in ${base}`}): ${error?.message ?? error}. Serve it there, or pass baseUrl (the folder of the package’s files)`,
      { cause: error },
    );
  }
  return { factory: glue.default, moduleOptions: {} };
}

/**
 * The helpers of one load in a browser: moduleOptions.createHelperWorker starts each (the glue
 * calls it, scripts/lib/glue-fixes.mjs), `failed` rejects when one cannot start, end() ends
 * them all.
 */
function browserHelpers(base) {
  const workers = [];
  const urls = [];
  let reject;
  const failed = new Promise((_, rejectFailed) => (reject = rejectFailed));
  failed.catch(() => {}); // raced, or never looked at when the load fails otherwise
  const createHelperWorker = () => {
    const { worker, url } = startWebWorker(() =>
      base === null
        ? new Worker(new URL('./attention-threads.worker.mjs', import.meta.url), { type: 'module' })
        : new Worker(new URL('attention-threads.worker.mjs', base), { type: 'module' }),
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
