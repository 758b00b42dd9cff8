// Loading the WebAssembly module: started first (it downloads and compiles while the page is
// built), and explained on the page if it fails, never a blank page.
import { h } from '../dom.mjs';

/**
 * @param {() => Promise<object>} loadAttention  resolves to the API of createAttention()
 * @returns {Promise<object>} never throws synchronously
 */
export function startLoading(loadAttention) {
  try {
    return Promise.resolve(loadAttention());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What the reader sees when the module cannot be loaded: an explanation and the reason. */
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
