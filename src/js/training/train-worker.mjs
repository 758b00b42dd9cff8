// The trainer's worker (built into dist/train-worker.mjs, a script that imports nothing: the
// one-thread module is bundled in): a Web Worker or a Node worker_thread holding one attention
// module and one tiny transformer (attn.createTinyTransformer), trained by the protocol of
// train-session.mjs. createTrainer (trainer.mjs) starts it, by a literal new Worker(new URL(…))
// that app bundlers bundle, and speaks that protocol. No top-level await (Vite's default
// worker build refuses it).
//
// The first message, { type: 'init', options, files, config, seed, batch }, also loads the
// module (options: createAttention's, threads included; files: the host's .wasm URLs, so that a copy of this
// script in another folder, as the element starts it, finds them); a module that fails to
// load answers it with an error (train-worker-handler.mjs).
import { loadOneThread } from '../module/load-module.mjs';
import { loadThreads } from '../module/threads.mjs';
import { wasmFiles } from '../module/package-files.mjs';
import { trainWorkerHandler } from './train-worker-handler.mjs';
import { listenInWorker } from '../shared/workers.mjs';

/**
 * The module createTrainer asked for: with options.threads above 1 (a count createTrainer
 * checked where threads can run) the wasm threads build, whose files sit beside the one-thread
 * module's (the host's `files`, else beside this script); else the one-thread module.
 */
function loadAttention(options = {}, files = undefined) {
  const { threads = 1, ...oneThread } = options;
  if (threads > 1) {
    const base = files ? new URL('.', files.simd128).href : null;
    return loadThreads(threads, { relaxedSimd: oneThread.relaxedSimd, base });
  }
  return loadOneThread(oneThread, files ?? wasmFiles());
}

listenInWorker(trainWorkerHandler(loadAttention));
