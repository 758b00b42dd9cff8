// Entry of dist/index.html: the page loads the package's own ES module (dist/attention.mjs,
// which fetches attention.wasm next to it). A dynamic import, so a missing or broken module
// becomes an explained error on the page instead of a script that never runs.
import { startApp } from './app.mjs';
import { fetchSnapshot } from './app/snapshot-files.mjs';

startApp({
  root: document.getElementById('app'),
  loadAttention: async () => {
    const module = await import('./attention.mjs');
    // Traces and small calls only: the Relaxed SIMD build would speed up nothing here, and
    // attention.wasm is the file this page preloads; the warm-up call, which readies the
    // kernel for large calls, would only delay the first step (~15 ms of the page's load).
    return module.default({ relaxedSimd: false, warmUp: false });
  },
  // Chapter 3's training: dist/train-worker.mjs, next to attention.mjs, as a module worker, on
  // the wasm threads build where the page is cross-origin isolated (threads: 'auto').
  startTrainer: async (options) =>
    (await import('./attention.mjs')).createTrainer({ ...options, threads: 'auto' }),
  // Chapter 4's texts: dist/texts/, beside the page.
  loadText: async (file) => {
    const response = await fetch(`texts/${file}`);
    if (!response.ok) throw new Error(`texts/${file}: ${response.status} ${response.statusText}`);
    return response.text();
  },
  // Chapter 4's trained models: dist/snapshots/, beside the page.
  loadSnapshot: (name) => fetchSnapshot(new URL('snapshots/', location.href), name),
});
