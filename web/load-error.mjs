// What the reader sees when the WebAssembly module cannot be loaded: an explanation and the
// browser's reason, never a blank page.
import { h } from './dom.mjs';

export function showLoadError(root, error, tr) {
  const reason = error && error.message ? error.message : String(error);
  root.replaceChildren(
    h(
      'section',
      { class: 'load-error', role: 'alert' },
      h('h2', { text: tr('load.title') }),
      h('p', { text: tr('load.body') }),
      h('p', { text: tr('load.hintServed') }),
      h('p', { text: tr('load.hintBrowser') }),
      h('p', { class: 'load-error-reason-label', text: tr('load.reason') }),
      h('pre', { class: 'load-error-reason', text: reason }),
    ),
  );
  document.documentElement.dataset.appState = 'failed';
}
