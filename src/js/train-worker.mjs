// The trainer's worker (built into dist/train-worker.mjs, next to attention.mjs, which it
// imports at run time): a Web Worker or a Node worker_thread holding one attention module
// and one tiny transformer (attn.createTinyTransformer), trained by the protocol of
// train-session.mjs. createTrainer (trainer.mjs) starts it and speaks that protocol.
//
// The first message, { type: 'init', options, config, seed, batch }, also loads the module
// (options: createAttention's); a module that fails to load answers it with an error
// (train-worker-handler.mjs).
import createAttention from './attention.mjs';
import { trainWorkerHandler } from './train-worker-handler.mjs';
import { listenInWorker } from './workers.mjs';

await listenInWorker(trainWorkerHandler((options) => createAttention(options)));
