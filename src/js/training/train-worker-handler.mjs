// The worker's side of createTrainer, for any worker that can load the module: the first
// message, { type: 'init', options, config, seed, batch }, loads the module (loadAttention,
// given createAttention's options) and starts the session of train-session.mjs, which answers
// it and every later message. A module that fails to load answers init with its error; any
// message before a successful init is answered "not initialised". Used by train-worker.mjs
// (the package's module worker) and by the explainer page's offline classic worker.
import { createTrainSession } from './train-session.mjs';
import { errorMessage } from '../shared/workers.mjs';

/**
 * @param {(options: object, files?: object) => Promise<object>} loadAttention resolves to the
 *   module's API (files: where the host says the .wasm files are)
 * @returns {(message: object, post: (reply: object, transfer?: Transferable[]) => void) => Promise<void>}
 */
export function trainWorkerHandler(loadAttention) {
  let handle = null;
  return async (message, post) => {
    if (handle === null && message?.type === 'init') {
      try {
        const attn = await loadAttention(message.options, message.files);
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
  };
}
