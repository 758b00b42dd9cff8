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
import createAttentionModule from '../../build/wasm/attention.mjs';
import { createAttentionWith } from './api.mjs';

export { createAttentionPool } from './pool.mjs';
export { createTrainer, TrainerError } from './trainer.mjs';
export {
  INDUCTION_BATCH,
  INDUCTION_MODEL,
  createInductionTask,
  inductionAccuracy,
} from './induction-task.mjs';

const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

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
  // A computed specifier, so browser bundlers leave this Node-only import alone.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ fsModule);
  return readFile(new URL(file, import.meta.url));
}

/**
 * Loads the WebAssembly module and resolves to the attention API.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL,
 *   relaxedSimd?: boolean, warmUp?: boolean }} [options]
 */
export default async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createAttention: options must be an object, got ${options}`);
  }
  // Each option read once.
  const { wasmBinary, wasmUrl, relaxedSimd, warmUp } = options;
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
  const load = (moduleOptions) =>
    createAttentionWith(createAttentionModule, moduleOptions, { warmUp });
  if (wasmBinary !== undefined) return load({ wasmBinary });
  if (wasmUrl !== undefined) return load({ locateFile: () => String(wasmUrl) });
  if (relaxedSimd !== false && hasRelaxedSimd()) {
    try {
      return await load(
        isNode
          ? { wasmBinary: await readWasmInNode('./attention-relaxed.wasm') }
          : // A literal URL, so bundlers that follow new URL(…, import.meta.url) copy the file.
            {
              locateFile: () => new URL('./attention-relaxed.wasm', import.meta.url).href,
              printErr: () => {}, // a failed fetch is not an error: the SIMD128 build follows
            },
      );
    } catch {
      // attention-relaxed.wasm missing where the app was deployed (an app that copied only
      // attention.wasm): the SIMD128 build below works everywhere.
    }
  }
  return load(isNode ? { wasmBinary: await readWasmInNode('./attention.wasm') } : {});
}
