// The package entry (built into dist/attention.mjs): `createAttention()` in a page, a Worker
// or Node >= 18, `createAttentionPool()` (pool.mjs), `createTrainer()` (trainer.mjs) and the
// tiny transformer's positions choices, the induction and text tasks, the text snapshots'
// reader and the float16 conversions (all that the explainer page, web/, uses: it imports this
// entry only). The one-thread module loads through load-module.mjs, the wasm threads build
// through threads.mjs; both find their files beside this one (or where an app's bundler put
// them: every file is named by a literal URL bundlers follow).
import { describe, isOptionBag } from './shared/checks.mjs';
import { hasRelaxedSimd, loadOneThread } from './module/load-module.mjs';
import { isArrayBuffer, readOwnOptions, typedArrayType } from './shared/read-once.mjs';
import { loadThreads } from './module/threads.mjs';
import { readThreads } from './module/threads-option.mjs';
import { baseUrlOf, wasmFiles, wasmUrlOf } from './module/package-files.mjs';

export { hasRelaxedSimd };
export { createAttentionPool } from './pool/pool.mjs';
export { createTrainer, TrainerError } from './training/trainer.mjs';
export { TRANSFORMER_POSITIONS } from './training/tiny-transformer.mjs';
export {
  INDUCTION_BATCH,
  INDUCTION_LENGTH,
  INDUCTION_MODEL,
  createInductionTask,
  inductionAccuracy,
} from './tasks/induction-task.mjs';
export {
  TEXT_BATCH,
  TEXT_MODEL,
  TEXT_SAMPLING,
  TEXT_TASK,
  UNKNOWN_CHARACTER,
  createCharTokenizer,
  createTextTask,
  textTaskFor,
  trainEndOf,
} from './tasks/text-task.mjs';
export { SNAPSHOT_FORMAT, decodeSnapshot, encodeSnapshot } from './tasks/text-snapshot.mjs';
export { floatsToHalves, halvesToFloats } from './shared/float16.mjs';

const OPTION_KEYS = new Set([
  'wasmBinary',
  'wasmUrl',
  'relaxedSimd',
  'warmUp',
  'threads',
  'initTimeout',
  'baseUrl',
]);

/** How long loading may take by default (ms): the module, or the threads build and its helpers. */
const INIT_TIMEOUT_MS = 30_000;
/** The longest delay setTimeout honours (ms). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Loads the WebAssembly module and resolves to the attention API (attention.d.ts).
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL,
 *   relaxedSimd?: boolean, warmUp?: boolean, threads?: number | 'auto',
 *   initTimeout?: number, baseUrl?: string | URL }} [options]
 */
export default async function createAttention(options) {
  if (options !== undefined && !isOptionBag(options)) {
    throw new TypeError(`createAttention: options must be an object, got ${describe(options)}`);
  }
  // Own properties, each read once: an Object.prototype.threads is no option of this call
  // (refused by name when given an object; with none given, nothing inherited stands in).
  const o =
    options === undefined
      ? { __proto__: null }
      : readOwnOptions(options, OPTION_KEYS, 'createAttention', 'options');
  for (const name of ['relaxedSimd', 'warmUp']) {
    if (o[name] !== undefined && typeof o[name] !== 'boolean') {
      throw new TypeError(
        `createAttention: options.${name} must be a boolean, got ${typeof o[name]}`,
      );
    }
  }
  const initTimeout = o.initTimeout ?? INIT_TIMEOUT_MS;
  // setTimeout fires at once past 2^31 - 1 ms; Infinity is no timeout.
  if (
    typeof initTimeout !== 'number' ||
    !(initTimeout > 0) ||
    (initTimeout > MAX_TIMEOUT_MS && initTimeout !== Infinity)
  ) {
    throw new RangeError(
      `createAttention: options.initTimeout must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, or Infinity, got ${describe(initTimeout)}`,
    );
  }
  const { wasmBinary, relaxedSimd, warmUp } = o;
  if (
    wasmBinary !== undefined &&
    !isArrayBuffer(wasmBinary) &&
    typedArrayType(wasmBinary) !== 'Uint8Array'
  ) {
    throw new TypeError(
      `createAttention: options.wasmBinary must be the .wasm file's bytes, an ArrayBuffer or a Uint8Array, got ${describe(wasmBinary)}`,
    );
  }
  const wasmUrl = wasmUrlOf(o.wasmUrl, 'createAttention');
  const base = baseUrlOf(o.baseUrl, 'createAttention');
  const threads = await readThreads(o.threads, 'createAttention');
  if (threads > 1) {
    if (wasmBinary !== undefined || wasmUrl !== undefined) {
      throw new TypeError(
        'createAttention: options.threads above 1 loads the threads build, its .wasm and its helpers’ script, from beside attention.mjs: leave out wasmBinary and wasmUrl (baseUrl says where all the files are)',
      );
    }
    return loadThreads(threads, { relaxedSimd, warmUp, initTimeout, base });
  }
  return loadOneThread({ wasmBinary, wasmUrl, relaxedSimd, warmUp, initTimeout }, wasmFiles(base));
}
