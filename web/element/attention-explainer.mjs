// dist/attention-explainer.mjs: the <attention-explainer> custom element, the page's
// walkthrough embedded in another page with one module script:
//   <script type="module" src="attention-explainer.mjs"></script>
//   <attention-explainer lang="zh" step="softmax-1" controls="minimal"></attention-explainer>
// Attributes, read when the element is connected:
//   lang       en | zh (else the reader's stored choice or browser language)
//   step       the starting step, as in the page's #step= links ("scores-1", or a number)
//   chapter    start at the first step of this chapter (when no step is given)
//   example    settings and numbers in the page's URL encoding ("scaled=1&x=1,0;0,2&wk=…")
//   controls   full | minimal (the walkthrough and its playback) | none (the scene only)
//   autoplay   present: plays from the starting step
// Each element is its own explainer with its own state (startApp on a root inside its shadow
// root). The styles live in the shadow root, adopted as a constructed stylesheet (allowed by
// a strict style-src); keys reach an element only while the focus is inside it.
import { startApp } from '../app.mjs';
import { hashOf } from './markup.mjs';

/* global EXPLAINER_CSS */
let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(EXPLAINER_CSS);
  }
  return sheet;
}

// One module for every element of the page: it is compiled once.
let attention = null;
const loadAttention = () => {
  // Small calls only: no warm-up call (createAttention's warmUp) to delay the first step.
  attention ??= import('./attention.mjs').then((module) => module.default({ warmUp: false }));
  return attention;
};

// Chapter 3's training: the package's trainer, its worker (train-worker.mjs, next to
// attention.mjs) started from a blob: URL. A course page's policy may allow workers from
// blob: only (worker-src blob:, which the GIF export needs anyway), and a worker's static
// imports count as workers too; a dynamic import() counts as a script, from beside this one,
// which the page's script-src already allows. The messages that come before the worker's
// code has loaded (the trainer's first, at once) wait and are then handed to it in order.
// (The offline file cannot start module workers at all: it has a classic worker of its own.)
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
let trainWorkerUrl = null;
const startTrainer = async (options) => {
  const module = await import('./attention.mjs');
  const worker = JSON.stringify(new URL('./train-worker.mjs', import.meta.url).href);
  trainWorkerUrl ??= URL.createObjectURL(
    new Blob([TRAIN_WORKER_BOOT.replace('WORKER', worker)], { type: 'text/javascript' }),
  );
  return module.createTrainer({ ...options, workerUrl: trainWorkerUrl });
};

const CONTROLS = ['full', 'minimal', 'none'];

export class AttentionExplainer extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return; // moved in the page: it keeps its explainer
    const shadow = this.attachShadow({ mode: 'open' });
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
    this.ready = startApp({
      root,
      loadAttention,
      startTrainer,
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
  }
}

if (!customElements.get('attention-explainer'))
  customElements.define('attention-explainer', AttentionExplainer);
