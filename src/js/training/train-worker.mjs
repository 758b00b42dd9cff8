// The trainer's worker (built into dist/train-worker.mjs, a script that imports nothing: the
// one-thread module is bundled in): a Web Worker or a Node worker_thread holding one attention
// module and one tiny transformer (attn.createTinyTransformer), trained by the protocol of
// train-session.mjs. createTrainer (trainer.mjs) starts it, by a literal new Worker(new URL(…))
// that app bundlers bundle, and speaks that protocol. No top-level await (Vite's default
// worker build refuses it).
//
// The first message, { type: 'init', options, files, config, seed, batch }, also loads the
// module (options: createAttention's, threads and initTimeout included; files: the host's
// .wasm URLs, and for threads the threads build's files, so that this script bundled as a
// worker or copied into another folder, as the element starts it, finds them where the app's
// bundler put them); a module that fails to load answers it with an error
// (train-worker-handler.mjs).
import { loadOneThread } from '../module/load-module.mjs';
import { loadThreads } from '../module/threads.mjs';
import { wasmFiles } from '../module/package-files.mjs';
import { trainWorkerHandler } from './train-worker-handler.mjs';
import { listenInWorker } from '../shared/workers.mjs';

/**
 * The module createTrainer asked for: with options.threads above 1 (a count createTrainer
 * checked where threads can run) the wasm threads build, from the files the host named
 * (files.threads; none in Node, where they are read beside this script); else the one-thread
 * module.
 */
function loadAttention(options = {}, files = undefined) {
  const { threads = 1, ...oneThread } = options;
  if (threads > 1) {
    const { relaxedSimd, initTimeout } = oneThread;
    return loadThreads(threads, { relaxedSimd, initTimeout, files: files?.threads ?? null });
  }
  return loadOneThread(oneThread, files ?? wasmFiles());
}

listenInWorker(trainWorkerHandler(loadAttention));
