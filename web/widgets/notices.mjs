// Notices above the walkthrough (e.g. "this link could not be used"). Each is stored as an
// i18n key plus parameters, so it follows language switches; untrusted parameters (text
// from a URL) only ever reach the page through textContent.
import { h } from '../dom.mjs';

export function createNotices(translate) {
  const element = h('div', { class: 'notices', 'aria-live': 'polite' });
  let notices = [];
  let tr = translate;

  function render() {
    element.replaceChildren(
      ...notices.map((notice, k) =>
        h(
          'div',
          {
            class: `notice is-${notice.kind}`,
            role: notice.kind === 'error' ? 'alert' : 'status',
            dataset: { notice: notice.id },
          },
          h('p', { class: 'notice-text', text: notice.text(tr) }),
          h(
            'span',
            { class: 'notice-buttons' },
            notice.action
              ? h('button', {
                  type: 'button',
                  class: 'notice-action',
                  text: notice.action.label(tr),
                  onclick: () => {
                    hide(notice.id);
                    notice.action.run();
                  },
                })
              : null,
            h('button', {
              type: 'button',
              class: 'notice-dismiss',
              text: tr('notice.dismiss'),
              onclick: () => {
                notices = notices.filter((_, other) => other !== k);
                render();
              },
            }),
          ),
        ),
      ),
    );
  }

  function hide(id) {
    notices = notices.filter((other) => other.id !== id);
    render();
  }

  return {
    element,
    /**
     * @param {{ id: string, kind: 'warning' | 'error' | 'info', text: (tr) => string,
     *   action?: { label: (tr) => string, run: () => void } }} notice  action: a button that
     *   runs it and closes the notice
     */
    show(notice) {
      notices = [...notices.filter((other) => other.id !== notice.id), notice];
      render();
    },
    hide,
    setTranslator(translate) {
      tr = translate;
      render();
    },
  };
}
