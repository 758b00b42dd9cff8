// The package entry (built into dist/attention.mjs): `createAttention()` in a page, a Worker
// or Node >= 18, and `createAttentionPool()` (pool.mjs). In a browser the glue finds the .wasm
// next to this file through import.meta.url; in Node it is read from disk and handed over as
// bytes.
//
// Two builds of the module sit side by side, from one source: attention.wasm (SIMD128, runs
// everywhere) and attention-relaxed.wasm, whose micro-kernels use Relaxed SIMD's
// f32x4.relaxed_madd. The second is loaded where the engine validates a tiny module using
// that instruction (Chromium and Firefox ship it; Safari and Node 20 without
// --experimental-wasm-relaxed-simd do not). Both share this glue: scripts/build checks that.
// With options.threads, the wasm threads build loads instead (the same two .wasm variants,
// attention-threads*.wasm, and a glue of their own: attention-threads.mjs in browsers,
// attention-threads-node.cjs in Node), each with its helpers' worker script.
import createAttentionModule from '../../build/wasm/attention.mjs';
import { createAttentionWith } from './api.mjs';
import { checkIntegerIn, describe, isOptionBag } from './checks.mjs';
import { readOwnOptions } from './read-once.mjs';
import { importNodeBuiltin, isNode } from './workers.mjs';

export { createAttentionPool } from './pool.mjs';
export { createTrainer, TrainerError } from './trainer.mjs';
export {
  INDUCTION_BATCH,
  INDUCTION_MODEL,
  createInductionTask,
  inductionAccuracy,
} from './induction-task.mjs';
export { TEXT_BATCH, TEXT_MODEL, createCharTokenizer, createTextTask } from './text-task.mjs';

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

async function readWasmInNode(file) {
  const { readFile } = await importNodeBuiltin('fs/promises');
  return readFile(new URL(file, import.meta.url));
}

// The most threads createAttention({ threads }) starts; the core refuses more than this too
// (attention_call::set_threads). Checked here, before the build and its Workers load.
const MAX_THREADS = 64;

/**
 * load(await relaxed()) where Relaxed SIMD is wanted (relaxedSimd not false) and the engine
 * validates it, else, or when that build's .wasm is missing where the app was deployed (an
 * app that copied only the SIMD128 file), load(await plain()).
 */
async function preferRelaxed(relaxedSimd, load, relaxed, plain) {
  if (relaxedSimd !== false && hasRelaxedSimd()) {
    try {
      return await load(await relaxed());
    } catch {
      // The Relaxed SIMD .wasm is missing: the SIMD128 build works everywhere.
    }
  }
  return load(await plain());
}

// For the Relaxed SIMD file's fetch: a failure there is no error, the SIMD128 build follows.
const quiet = () => {};

/**
 * The wasm threads build with `threads` - 1 helpers, where threads can share memory: in Node
 * (worker_threads), and in a page or Worker that is cross-origin isolated. Its glue and the
 * helpers' worker script sit beside this file, with attention-threads.wasm and
 * attention-threads-relaxed.wasm.
 */
async function loadThreadsBuild(threads, warmUp, relaxedSimd) {
  const { factory, moduleOptions } = await (isNode ? threadsGlueInNode() : threadsGlueInPage());
  const load = (more) =>
    createAttentionWith(
      factory,
      { attentionHelpers: threads - 1, ...moduleOptions, ...more },
      { warmUp, threads },
    );
  const wasm = (file) =>
    isNode ? async () => ({ wasmBinary: await readWasmInNode(file) }) : () => ({});
  const relaxed = isNode
    ? wasm('./attention-threads-relaxed.wasm')
    : () => ({
        // The glue asks locateFile for its .wasm and for the helpers' worker script.
        locateFile: (file) =>
          file.endsWith('.wasm')
            ? new URL('./attention-threads-relaxed.wasm', import.meta.url).href
            : new URL(`./${file}`, import.meta.url).href,
        printErr: quiet,
      });
  return preferRelaxed(relaxedSimd, load, relaxed, wasm('./attention-threads.wasm'));
}

/** The browsers' glue, an ES module (needs a cross-origin isolated page or Worker). */
async function threadsGlueInPage() {
  if (globalThis.crossOriginIsolated !== true) {
    throw new RangeError(
      'createAttention: options.threads above 1 needs wasm threads, which a page and its Workers have only when cross-origin isolated (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp); this one is not',
    );
  }
  // A computed specifier: bundlers leave this build's own glue alone (it must stay a file
  // beside its .wasm and its worker script, which imports it by URL).
  const glue = new URL('./attention-threads.mjs', import.meta.url).href;
  try {
    return { factory: (await import(/* webpackIgnore: true */ glue)).default, moduleOptions: {} };
  } catch (error) {
    throw new Error(`createAttention: could not load ${glue}: ${error?.message ?? error}`, {
      cause: error,
    });
  }
}

/**
 * Node's glue, CommonJS (Emscripten 3.1.6's ES module glue calls require() there), and its
 * helpers' worker script, by path.
 */
async function threadsGlueInNode() {
  const [{ createRequire }, { fileURLToPath }] = await Promise.all([
    importNodeBuiltin('module'),
    importNodeBuiltin('url'),
  ]);
  const path = (file) => fileURLToPath(new URL(file, import.meta.url));
  const worker = path('./attention-threads-node.worker.cjs');
  return {
    factory: createRequire(import.meta.url)(path('./attention-threads-node.cjs')),
    moduleOptions: { locateFile: (file) => (file.endsWith('.worker.js') ? worker : path(file)) },
  };
}

const CREATE_OPTIONS = new Set(['wasmBinary', 'wasmUrl', 'relaxedSimd', 'warmUp', 'threads']);

/**
 * createAttention's options, each read once, own properties only: an option the object only
 * inherits (a polluted Object.prototype.threads, say) is refused by name, never used, and an
 * unknown one (a typo) too. Options left out read as none: nothing inherited stands in.
 */
function readCreateOptions(options) {
  if (options === undefined) return { __proto__: null };
  if (!isOptionBag(options)) {
    throw new TypeError(`createAttention: options must be an object, got ${describe(options)}`);
  }
  return readOwnOptions(options, CREATE_OPTIONS, 'createAttention', 'options');
}

/**
 * Loads the WebAssembly module and resolves to the attention API.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL,
 *   relaxedSimd?: boolean, warmUp?: boolean, threads?: number }} [options]
 */
export default async function createAttention(options) {
  const {
    wasmBinary,
    wasmUrl,
    relaxedSimd,
    warmUp,
    threads: threadsOption,
  } = readCreateOptions(options);
  for (const [name, value] of [
    ['relaxedSimd', relaxedSimd],
    ['warmUp', warmUp],
  ]) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(
        `createAttention: options.${name} must be a boolean, got ${typeof value}`,
      );
    }
  }
  const threads =
    threadsOption === undefined
      ? 1
      : checkIntegerIn(threadsOption, 'createAttention: options.threads', 1, MAX_THREADS);
  if (threads > 1) {
    if (wasmBinary !== undefined || wasmUrl !== undefined) {
      throw new TypeError(
        'createAttention: options.threads above 1 loads the threads build from beside attention.mjs: leave out wasmBinary and wasmUrl',
      );
    }
    return loadThreadsBuild(threads, warmUp, relaxedSimd);
  }
  const load = (moduleOptions) =>
    createAttentionWith(createAttentionModule, moduleOptions, { warmUp });
  if (wasmBinary !== undefined) return load({ wasmBinary });
  if (wasmUrl !== undefined) return load({ locateFile: () => String(wasmUrl) });
  const relaxed = async () =>
    isNode
      ? { wasmBinary: await readWasmInNode('./attention-relaxed.wasm') }
      : // A literal URL, so bundlers that follow new URL(…, import.meta.url) copy the file.
        {
          locateFile: () => new URL('./attention-relaxed.wasm', import.meta.url).href,
          printErr: quiet,
        };
  const plain = async () =>
    isNode ? { wasmBinary: await readWasmInNode('./attention.wasm') } : {};
  return preferRelaxed(relaxedSimd, load, relaxed, plain);
}
