// The trainer's worker (built into dist/train-worker.mjs, a script that imports nothing: the
// one-thread module is bundled in): a Web Worker or a Node worker_thread holding one attention
// module and one tiny transformer (attn.createTinyTransformer), trained by the protocol of
// train-session.mjs. createTrainer (trainer.mjs) starts it, by a literal new Worker(new URL(…))
// that app bundlers bundle, and speaks that protocol. No top-level await (Vite's default
// worker build refuses it).
//
// The first message, { type: 'init', options, files, config, seed, batch }, also loads the
// module (options: createAttention's; files: the host's .wasm URLs, so that a copy of this
// script in another folder, as the element starts it, finds them); a module that fails to
// load answers it with an error (train-worker-handler.mjs).
import { loadOneThread } from '../module/load-module.mjs';
import { wasmFiles } from '../module/package-files.mjs';
import { trainWorkerHandler } from './train-worker-handler.mjs';
import { listenInWorker } from '../shared/workers.mjs';

listenInWorker(
  trainWorkerHandler((options, files) => loadOneThread(options ?? {}, files ?? wasmFiles())),
);
