// Entry of dist/explainer.html, the one-file offline page: file:// allows neither ES modules
// nor fetch, so the module comes from the classic script inlined before this one
// (createAttentionModuleSingleFile, with the wasm inside as base64).
import { createAttentionWith } from '../src/js/module/api.mjs';
import { createTrainer } from 'attention-explained';
import { startApp } from './app.mjs';
import { embeddedSnapshot } from './app/snapshot-files.mjs';

/* global TRAIN_WORKER_SOURCE, OFFLINE_TEXTS, OFFLINE_SNAPSHOTS */
let trainWorkerUrl = null;
/**
 * Chapter 3's training worker: a page from file:// cannot start module workers, so it is a
 * classic one from a blob: URL, made of the page's inlined module (its <script
 * data-attention-glue>, read back from the page) and the worker's code (train-worker.mjs of
 * web/, bundled into this file as text by web/build.mjs).
 */
function trainWorker() {
  if (trainWorkerUrl === null) {
    const glue = document.querySelector('script[data-attention-glue]')?.textContent ?? '';
    const source = [glue, ';\n', TRAIN_WORKER_SOURCE];
    trainWorkerUrl = URL.createObjectURL(new Blob(source, { type: 'text/javascript' }));
  }
  return trainWorkerUrl;
}

startApp({
  root: document.getElementById('app'),
  loadAttention: () => {
    const factory = globalThis.createAttentionModuleSingleFile;
    if (typeof factory !== 'function') {
      return Promise.reject(
        new Error('the inlined WebAssembly module (createAttentionModuleSingleFile) is missing'),
      );
    }
    return createAttentionWith(factory, {}, { warmUp: false }); // small calls only
  },
  startTrainer: (options) =>
    createTrainer({ ...options, workerUrl: trainWorker(), workerType: 'classic' }),
  // Chapter 4's texts, embedded by web/build.mjs (file:// cannot fetch): the Tang poems whole,
  // the English classic's first book (Genesis).
  loadText: async (file) => {
    if (!Object.hasOwn(OFFLINE_TEXTS, file)) throw new Error(`${file} is not in this file`);
    return OFFLINE_TEXTS[file];
  },
  // Chapter 4's trained models, embedded by web/build.mjs: those of the texts embedded whole.
  loadSnapshot: (name) => embeddedSnapshot(OFFLINE_SNAPSHOTS, name),
});
