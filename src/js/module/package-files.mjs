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
 * An option naming a file or folder (`name`: 'baseUrl', 'wasmUrl'), checked: a string or a URL,
 * resolved against the page's URL, as an absolute URL's href. In Node there is no page to
 * resolve against: a relative path is refused, with the way to make a file: URL.
 */
function urlOption(value, name, where) {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new TypeError(`${where}: ${name} must be a string or a URL, got ${describe(value)}`);
  }
  try {
    return new URL(String(value), globalThis.location?.href).href;
  } catch {
    const hint = isNode ? ' (in Node an absolute URL, for a file url.pathToFileURL(path))' : '';
    throw new TypeError(`${where}: ${name} must be a URL${hint}, got ${describe(String(value))}`);
  }
}

/**
 * createAttention's baseUrl, checked: the folder holding the package's files (dist/ as
 * published) as an absolute URL ending in '/', resolved against the page's URL; null when
 * none is given.
 */
export function baseUrlOf(value, where) {
  if (value === undefined) return null;
  const href = urlOption(value, 'baseUrl', where);
  return href.endsWith('/') ? href : `${href}/`;
}

/**
 * createAttention's wasmUrl, checked: the .wasm file to load instead of the package's own, as
 * an absolute URL resolved against the page's URL; undefined when none is given.
 */
export const wasmUrlOf = (value, where) =>
  value === undefined ? undefined : urlOption(value, 'wasmUrl', where);

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
