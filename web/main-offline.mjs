// Entry of dist/explainer.html, the one-file offline page: file:// allows neither ES modules
// nor fetch, so the module comes from the classic script inlined before this one
// (createAttentionModuleSingleFile, with the wasm inside as base64).
import { createAttentionWith } from '../src/js/api.mjs';
import { startApp } from './app.mjs';

startApp({
  root: document.getElementById('app'),
  loadAttention: () => {
    const factory = globalThis.createAttentionModuleSingleFile;
    if (typeof factory !== 'function') {
      return Promise.reject(
        new Error('the inlined WebAssembly module (createAttentionModuleSingleFile) is missing'),
      );
    }
    return createAttentionWith(factory);
  },
});
