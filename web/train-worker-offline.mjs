// Chapter 3's training worker in the offline file (dist/explainer.html): a classic worker
// (file:// pages cannot start module workers) whose blob holds the page's inlined module
// first (it defines createAttentionModuleSingleFile) and then this code, bundled by
// web/build.mjs. It serves the same protocol as the package's train-worker.mjs
// (train-session.mjs), which the served page starts instead.
import { createAttentionWith } from '../src/js/api.mjs';
import { createTrainSession } from '../src/js/train-session.mjs';
import { errorMessage } from '../src/js/workers.mjs';

/* global createAttentionModuleSingleFile */
let handle = null;
const post = (reply, transfer) => self.postMessage(reply, transfer);

self.addEventListener('message', async ({ data: message }) => {
  if (handle === null && message?.type === 'init') {
    try {
      const attn = await createAttentionWith(createAttentionModuleSingleFile);
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
