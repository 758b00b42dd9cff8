// Where the wasm threads build's files are in a browser: its glue (attention-threads.mjs), its
// helpers' script (attention-threads.worker.mjs, which imports the glue) and its two .wasm. For
// the loader (threads.mjs) and for the trainer's host, which tells its worker: a worker script
// bundled or copied on its own (the element's is an asset copy) cannot follow these literals
// itself, and no bundler follows a literal inside a worker the same way everywhere.
//
// Beside this file, each is named by a literal URL that Vite, webpack and Rollup's plugins
// follow (they emit the file and put their URL in place of ours): new URL(…, import.meta.url)
// for a file, new Worker(new URL(…)) for the helpers' script (bundled with its glue as a
// worker). A file of its own, importing no glue: the offline page's bundle has the trainer.
import { workerScriptOf } from '../shared/workers.mjs';

/** Starts one helper from beside this file, as the app's bundler made its script. */
export const startHelperBesideThis = () =>
  new Worker(new URL('./attention-threads.worker.mjs', import.meta.url), { type: 'module' });

/**
 * The threads build's glue and two .wasm in a browser, as absolute URLs: { glue, relaxed,
 * simd128 } (Relaxed SIMD and SIMD128). In the folder `base` (baseUrl), else as this file
 * sees them: beside it, or where an app's bundler emitted them. What the loader needs when
 * its helpers start beside this file (startHelperBesideThis), which their script's URL is not.
 */
export function threadsBuildFiles(base = null) {
  if (base !== null) {
    const at = (file) => new URL(file, base).href;
    return {
      glue: at('attention-threads.mjs'),
      relaxed: at('attention-threads-relaxed.wasm'),
      simd128: at('attention-threads.wasm'),
    };
  }
  return {
    glue: new URL('./attention-threads.mjs', import.meta.url).href,
    relaxed: new URL('./attention-threads-relaxed.wasm', import.meta.url).href,
    simd128: new URL('./attention-threads.wasm', import.meta.url).href,
  };
}

/**
 * threadsBuildFiles(base) and the helpers' script: { glue, helper: { url, type }, relaxed,
 * simd128 } (helper: the script and how it is started, module or classic), for a thread that
 * starts the helpers from elsewhere (the trainer's worker). Beside this file the script's URL
 * is read by briefly swapping in a stand-in Worker (workerScriptOf); helper is null where it
 * cannot be known.
 */
export function threadsFiles(base = null) {
  const helper =
    base === null
      ? workerScriptOf(startHelperBesideThis)
      : { url: new URL('attention-threads.worker.mjs', base).href, type: 'module' };
  return { ...threadsBuildFiles(base), helper };
}
