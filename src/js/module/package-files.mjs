// Where the package's files are: the one-thread module's two .wasm files, for its loader
// (load-module.mjs) and for the pool and the trainer, which tell their workers (so that a
// worker script copied on its own, as the element starts it, finds them); the folder a
// baseUrl names; a file beside the entry in Node. A file of its own, importing no glue: the
// offline page's bundle includes the trainer, and must not include the module's glue.
import { describe } from '../shared/checks.mjs';
import { isNode } from '../shared/workers.mjs';

/**
 * A file beside this module (in the package's dist/, or src/js/ from source), for Node. Not a
 * literal new URL('./x', import.meta.url): bundlers would copy the Node-only files it names.
 */
export const besideThisFile = (name) => new URL(name, import.meta.url);

/**
 * createAttention's baseUrl, checked: the folder holding the package's files (dist/ as
 * published) as an absolute URL ending in '/', resolved against the page's URL; null when
 * none is given.
 */
export function baseUrlOf(value, where) {
  if (value === undefined) return null;
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new TypeError(`${where}: baseUrl must be a string or a URL, got ${describe(value)}`);
  }
  let url;
  try {
    url = new URL(String(value), globalThis.location?.href);
  } catch {
    throw new TypeError(`${where}: baseUrl must be a URL, got ${describe(String(value))}`);
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/**
 * The URLs of the one-thread module's two .wasm files: in the folder `base` (baseUrl), else
 * as this file sees them (beside it, or where an app's bundler emitted them). The pool and
 * the trainer send them to their workers, so that a worker script copied on its own (the
 * element's, as an asset) finds them too.
 */
export function wasmFiles(base = null) {
  if (base !== null) {
    return {
      relaxed: new URL('attention-relaxed.wasm', base).href,
      simd128: new URL('attention.wasm', base).href,
    };
  }
  return {
    relaxed: new URL('./attention-relaxed.wasm', import.meta.url).href,
    simd128: new URL('./attention.wasm', import.meta.url).href,
  };
}

/**
 * What the pool and the trainer tell their workers: in a browser, wasmFiles() as the host sees
 * them (where an app's bundler put them); undefined in Node (a worker reads the files beside
 * itself) and in a classic script, which has no import.meta (the offline page's trainer,
 * whose worker has the module inlined).
 */
export function wasmFilesForWorkers() {
  if (isNode) return undefined;
  try {
    return wasmFiles();
  } catch {
    return undefined;
  }
}
