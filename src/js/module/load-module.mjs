// Loading the one-thread module: createAttention() without threads (attention.mjs), and the
// module each of the pool's and the trainer's workers holds (attention-worker.mjs,
// train-worker.mjs), which import this file and not the package entry, so that a worker's
// bundle holds the one-thread module alone.
//
// Two builds of the module sit side by side, from one source: attention.wasm (SIMD128, runs
// everywhere) and attention-relaxed.wasm, whose micro-kernels use Relaxed SIMD's
// f32x4.relaxed_madd. The second is loaded where the engine validates a tiny module using
// that instruction (Chromium and Firefox ship it; Safari and Node 20 without
// --experimental-wasm-relaxed-simd do not). Both share one glue: scripts/build checks that.
//
// In a browser the two files are named by literal new URL('./x.wasm', import.meta.url)
// (package-files.mjs), the form Vite, webpack and Rollup's asset plugins see: an app's build
// emits them and rewrites the URLs. In Node they are read from disk beside this file and
// handed over as bytes.
//
// The glue (the JS half Emscripten writes beside the .wasm) is build output, so the source names
// it by a bare specifier that no file here defines: scripts/build links it in (esbuild's
// --alias), and source never reaches into build/.
import createAttentionModule from 'attention-wasm-glue';
import { createAttentionWith } from './api.mjs';
import { importNodeBuiltin, isNode, whyNotLoaded } from '../shared/workers.mjs';

// (func (param v128) (result v128) local.get 0 local.get 0 local.get 0 f32x4.relaxed_madd)
const RELAXED_SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7b, 0x01, 0x7b, // types: (v128) -> v128
  0x03, 0x02, 0x01, 0x00, // functions: one of type 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x00, 0x20, 0x00, // code: three local.get 0
  0xfd, 0x85, 0x02, 0x0b, // f32x4.relaxed_madd, end
]); // prettier-ignore

/** True when this engine accepts Relaxed SIMD's f32x4.relaxed_madd. */
export function hasRelaxedSimd() {
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE);
  } catch {
    return false;
  }
}

/** A file beside this one, read in Node: its bytes, for the glue's wasmBinary. */
export async function readBesideInNode(url) {
  const { readFile } = await importNodeBuiltin('fs/promises');
  return readFile(new URL(url));
}

/** For the Relaxed SIMD attempt: a failure there is no error, the SIMD128 build follows. */
const quiet = () => {};

/**
 * load(relaxed) where Relaxed SIMD is wanted (relaxedSimd not false) and the engine validates
 * it, else, or when that build's .wasm is missing where the app was deployed (an app that
 * copied only the SIMD128 file), load(plain).
 */
export async function preferRelaxed(relaxedSimd, load, relaxed, plain) {
  if (relaxedSimd !== false && hasRelaxedSimd()) {
    try {
      return await load(relaxed);
    } catch {
      // The Relaxed SIMD .wasm is missing: the SIMD128 build works everywhere.
    }
  }
  return load(plain);
}

/**
 * The module's options for the .wasm at `url`: its bytes in Node; in a browser, where the glue
 * fetches it (`quietly`: no console output when it fails, for the Relaxed SIMD attempt).
 */
async function wasmAt(url, quietly) {
  if (isNode) return { wasmBinary: await readBesideInNode(url) };
  return { locateFile: () => url, ...(quietly && { printErr: quiet }) };
}

/**
 * Rejects with a named Error when `promise` has not settled within `ms` milliseconds
 * (Infinity: never). `what()` says what did not load.
 */
export function within(promise, ms, what) {
  if (ms === Infinity) return promise;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `createAttention: ${what()} did not load within ${ms} ms (initTimeout); pass a longer initTimeout if it is only slow`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The one-thread module, loaded and wrapped (api.mjs wrapModule). `options` were checked by
 * createAttention: { wasmBinary, wasmUrl, relaxedSimd, warmUp, initTimeout }; `files`, where
 * the two .wasm are (wasmFiles(baseUrl); the pool and the trainer send their host's).
 */
export async function loadOneThread(options, files) {
  const { wasmBinary, wasmUrl, relaxedSimd, warmUp, initTimeout = Infinity } = options;
  const load = async (url, quietly = false) => {
    const what = () => (url === null ? 'the WebAssembly module (wasmBinary)' : url);
    try {
      // Inside the try: in Node this reads the file, and a missing one is a load error too.
      const moduleOptions = url === null ? { wasmBinary } : await wasmAt(url, quietly);
      return await within(
        createAttentionWith(createAttentionModule, moduleOptions, { warmUp }),
        initTimeout,
        what,
      );
    } catch (error) {
      throw await loadError(error, url);
    }
  };
  if (wasmBinary !== undefined) return load(null);
  if (wasmUrl !== undefined) return load(wasmUrl);
  return preferRelaxed(
    relaxedSimd,
    (relaxed) => (relaxed ? load(files.relaxed, true) : load(files.simd128)),
    true,
    false,
  );
}

/** The error of a module that did not load from `url`: what failed, why, and what to do. */
async function loadError(error, url) {
  // createAttentionWith's error holds the glue's (its cause); a timeout says all already.
  if (url === null || /initTimeout/.test(error?.message)) return error;
  const inner = error?.cause ?? error;
  const reason = String(inner?.message ?? inner);
  const why = isNode ? '' : await whyNotLoaded(url, 'application/wasm');
  return new Error(
    `createAttention: could not load the WebAssembly module from ${url}${why ? ` (${why})` : ''}: ${reason}. ` +
      'Serve the package’s .wasm files beside its attention.mjs (a bundler that follows ' +
      'new URL(…, import.meta.url) emits them), or say where they are: baseUrl (the folder ' +
      'of the package’s files), wasmUrl or wasmBinary.',
    { cause: error },
  );
}
