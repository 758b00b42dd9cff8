// The package entry (built into dist/attention.mjs): `createAttention()` in a page, a Worker
// or Node >= 18. In a browser the glue finds attention.wasm next to this file through
// import.meta.url; in Node it is read from disk and handed over as bytes.
import createAttentionModule from '../../build/wasm/attention.mjs';
import { createAttentionWith } from './api.mjs';

const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

async function readWasmInNode() {
  // A computed specifier, so browser bundlers leave this Node-only import alone.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ fsModule);
  return readFile(new URL('./attention.wasm', import.meta.url));
}

/**
 * Loads the WebAssembly module and resolves to the attention API.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export default async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createAttention: options must be an object, got ${options}`);
  }
  const moduleOptions = {};
  if (options.wasmBinary !== undefined) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (options.wasmUrl !== undefined) {
    moduleOptions.locateFile = () => String(options.wasmUrl);
  } else if (isNode) {
    moduleOptions.wasmBinary = await readWasmInNode();
  }
  return createAttentionWith(createAttentionModule, moduleOptions);
}
