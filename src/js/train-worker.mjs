// The trainer's worker (built into dist/train-worker.mjs, next to attention.mjs, which it
// imports at run time): a Web Worker or a Node worker_thread holding one attention module
// and one tiny transformer (attn.createTinyTransformer), trained by the protocol of
// train-session.mjs. createTrainer (trainer.mjs) starts it and speaks that protocol.
//
// The first message, { type: 'init', options, config, seed, batch }, also loads the module
// (options: createAttention's); a module that fails to load answers it with an error.
import createAttention from './attention.mjs';
import { createTrainSession } from './train-session.mjs';
import { errorMessage, listenInWorker } from './workers.mjs';

let handle = null;

await listenInWorker(async (message, post) => {
  if (handle === null && message?.type === 'init') {
    try {
      const attn = await createAttention(message.options);
      handle = createTrainSession({
        createModel: (config) => attn.createTinyTransformer(config),
        post,
      });
    } catch (error) {
      post({ id: message.id, ok: false, error: errorMessage(error) });
      return;
    }
  }
  if (handle === null) {
    post({ id: message?.id, ok: false, error: errorMessage(new Error('not initialised')) });
    return;
  }
  handle(message);
});
