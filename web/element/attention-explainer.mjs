// dist/attention-explainer.mjs: the <attention-explainer> custom element, the page's
// walkthrough embedded in another page with one module script:
//   <script type="module" src="attention-explainer.mjs"></script>
//   <attention-explainer lang="zh" step="softmax-1" controls="minimal"></attention-explainer>
// Attributes, read when the element is connected (taken out of the page, it stops its playback
// and its training worker; put back, it starts anew):
//   lang       en | zh (else the reader's stored choice or browser language)
//   step       the starting step, as in the page's #step= links ("scores-1", or a number)
//   chapter    start at the first step of this chapter (when no step is given)
//   example    settings and numbers in the page's URL encoding ("scaled=1&x=1,0;0,2&wk=…")
//   controls   full | minimal (the walkthrough and its playback) | none (the scene only)
//   autoplay   present: plays from the starting step
//   base-url   the folder of the package's files (attention.mjs, train-worker.mjs, the .wasm)
//              when they are not beside this file (or where an app's bundler put them); also
//              the baseUrl property
// Once chapter 3 or 4 has started its trainer, the element's data-trainer-threads says how many
// threads it trains on ('auto': the cores where the page is cross-origin isolated, else 1).
// Each element is its own explainer with its own state (startApp on a root inside its shadow
// root). The styles live in the shadow root, adopted as a constructed stylesheet (allowed by
// a strict style-src); keys reach an element only while the focus is inside it.
import { startApp } from '../app.mjs';
import { hashOf } from '../app/markup.mjs';
import { fetchSnapshot } from '../app/snapshot-files.mjs';

/* global EXPLAINER_CSS */
let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(EXPLAINER_CSS);
  }
  return sheet;
}

// The package's files: beside this one (or where an app's bundler put them: the module by a
// literal import(), the trainer's worker by a literal new URL(…)), or in the folder an element's
// base-url attribute (baseUrl property) names, for a page that serves them elsewhere.
const besideThis = () => ({
  module: () => import('./attention.mjs'),
  worker: new URL('./train-worker.mjs', import.meta.url).href,
});
const inFolder = (base) => ({
  module: () =>
    import(/* webpackIgnore: true */ /* @vite-ignore */ new URL('attention.mjs', base).href),
  worker: new URL('train-worker.mjs', base).href,
});

// One module per folder for every element of the page: it is compiled once.
const modules = new Map(); // base URL ('' beside this file) -> the files there and their API
function filesAt(base) {
  if (!modules.has(base)) {
    const files = base === '' ? besideThis() : inFolder(base);
    const module = files.module();
    modules.set(base, {
      module,
      worker: files.worker,
      // Chapter 4's texts and trained models: texts/ and snapshots/ beside the worker script
      // (the package's folder).
      texts: new URL('texts/', files.worker).href,
      snapshots: new URL('snapshots/', files.worker).href,
      // Small calls only: no warm-up call (createAttention's warmUp) to delay the first step.
      attention: module.then((m) => m.default({ warmUp: false })),
    });
  }
  return modules.get(base);
}

// Chapter 3's training: the package's trainer, its worker (train-worker.mjs, a script that
// imports nothing) started from a blob: URL. A course page's policy may allow workers from
// blob: only (worker-src blob:, which the GIF export needs anyway), and a worker's static
// imports count as workers too; a dynamic import() counts as a script, from beside this one,
// which the page's script-src already allows. The messages that come before the worker's
// code has loaded (the trainer's first, at once) wait and are then handed to it in order.
// The trainer tells the worker where the host found the .wasm files, so the worker script
// needs nothing beside it. (The offline file cannot start module workers at all: it has a
// classic worker of its own.)
const TRAIN_WORKER_BOOT = `const early = [];
const keep = (event) => {
  event.stopImmediatePropagation(); // the worker's own listener gets it once, below
  early.push(event.data);
};
self.addEventListener('message', keep);
import(WORKER).then(() => {
  self.removeEventListener('message', keep);
  for (const data of early) self.dispatchEvent(new MessageEvent('message', { data }));
});
`;
const bootUrls = new Map(); // worker URL -> its boot's blob: URL
function bootUrl(worker) {
  if (!bootUrls.has(worker)) {
    const boot = TRAIN_WORKER_BOOT.replace('WORKER', JSON.stringify(worker));
    bootUrls.set(worker, URL.createObjectURL(new Blob([boot], { type: 'text/javascript' })));
  }
  return bootUrls.get(worker);
}

/**
 * A trainer for chapters 3 and 4 of the element `host`: on the wasm threads build where the
 * page is cross-origin isolated (threads: 'auto'; the trainer tells its worker where the
 * threads build's files are, as the package's module sees them: beside it, or where an app's
 * bundler put them), on one thread where its helpers cannot start (a policy that allows blob:
 * workers only). The host's data-trainer-threads says which.
 */
async function startTrainer(host, files, options) {
  const { createTrainer } = await files.module;
  const start = (threads) =>
    createTrainer({ ...options, threads, workerUrl: bootUrl(files.worker) });
  const trainer = await start('auto').catch((error) => {
    if (!globalThis.crossOriginIsolated) throw error;
    // Said once, not thrown: training still works, on one thread, and a developer who
    // expected threads learns why they are missing.
    console.info(
      `<attention-explainer>: the trainer's threads could not start (${error?.message ?? error}); it trains on one thread`,
    );
    return start(1);
  });
  host.dataset.trainerThreads = String(trainer.threads);
  return trainer;
}

/** A base-url attribute's value as an absolute folder URL ('' for none or an invalid one). */
function folderOf(value) {
  if (!value) return '';
  try {
    const href = new URL(value, document.baseURI).href;
    return href.endsWith('/') ? href : `${href}/`;
  } catch {
    return '';
  }
}

const CONTROLS = ['full', 'minimal', 'none'];

export class AttentionExplainer extends HTMLElement {
  /** The folder of the package's files (attention.mjs, train-worker.mjs, the .wasm). */
  get baseUrl() {
    return this.getAttribute('base-url') ?? '';
  }

  set baseUrl(value) {
    this.setAttribute('base-url', String(value));
  }

  connectedCallback() {
    if (this.app) return; // moved in the page: it keeps its explainer
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    shadow.replaceChildren(); // an explainer removed from the page and put back starts anew
    shadow.adoptedStyleSheets = [styleSheet()];
    const controls = CONTROLS.includes(this.getAttribute('controls'))
      ? this.getAttribute('controls')
      : 'full';
    const loading = document.createElement('p');
    loading.className = 'boot-status';
    loading.dataset.loading = '';
    const root = document.createElement('div');
    root.className = 'app';
    root.dataset.controls = controls;
    root.append(loading);
    shadow.append(root);
    // The page's own explainer (if any) leaves keys typed in here to this one.
    this.dataset.explainer = '';
    const language = (this.getAttribute('lang') ?? '').toLowerCase().split('-')[0];
    const files = filesAt(folderOf(this.baseUrl));
    this.app = startApp({
      root,
      loadAttention: () => files.attention,
      startTrainer: (options) => startTrainer(this, files, options),
      loadText: async (file) => {
        const response = await fetch(new URL(file, files.texts));
        if (!response.ok) throw new Error(`${file}: ${response.status} ${response.statusText}`);
        return response.text();
      },
      loadSnapshot: (name) => fetchSnapshot(files.snapshots, name),
      embed: {
        language: language === 'zh' || language === 'en' ? language : undefined,
        hash: hashOf({
          step: this.getAttribute('step'),
          chapter: this.getAttribute('chapter'),
          example: this.getAttribute('example'),
        }),
        autoplay: this.hasAttribute('autoplay'),
      },
    });
    this.ready = this.app;
  }

  // Taken out of the page: its playback and its training worker stop (a course page's tabs
  // or an app's routes would otherwise leave one more worker training at each visit). A move
  // within the page (out and back in the same task) keeps it as it is.
  disconnectedCallback() {
    const app = this.app;
    queueMicrotask(() => {
      if (this.isConnected || this.app !== app) return;
      this.app = null;
      app?.then((started) => started?.stop());
    });
  }
}

if (!customElements.get('attention-explainer'))
  customElements.define('attention-explainer', AttentionExplainer);
