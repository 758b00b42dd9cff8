// Chapter 3's training worker in the offline file (dist/explainer.html): a classic worker
// (file:// pages cannot start module workers) whose blob holds the page's inlined module
// first (it defines createAttentionModuleSingleFile) and then this code, bundled by
// web/build.mjs. It serves the same protocol as the package's train-worker.mjs
// (train-worker-handler.mjs), which the served page starts instead.
import { createAttentionWith } from '../src/js/module/api.mjs';
import { trainWorkerHandler } from '../src/js/training/train-worker-handler.mjs';

/* global createAttentionModuleSingleFile */
const handle = trainWorkerHandler(() => createAttentionWith(createAttentionModuleSingleFile));
const post = (reply, transfer) => self.postMessage(reply, transfer);
self.addEventListener('message', (event) => handle(event.data, post));
