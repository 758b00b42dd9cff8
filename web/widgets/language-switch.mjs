// 中文 / English: two toggle buttons; the choice is remembered by the app.
import { h } from '../dom.mjs';
import { LANGUAGES } from '../i18n/index.mjs';

export function createLanguageSwitch({ onChange }) {
  const buttons = Object.keys(LANGUAGES).map((language) =>
    h('button', {
      type: 'button',
      class: 'language-button',
      lang: language === 'zh' ? 'zh-CN' : 'en',
      dataset: { language },
      text: LANGUAGES[language][`lang.${language}`],
      onclick: () => onChange(language),
    }),
  );
  const element = h('div', { class: 'language-switch', role: 'group' }, buttons);

  function update(current, tr) {
    element.setAttribute('aria-label', tr('app.language'));
    for (const button of buttons)
      button.setAttribute('aria-pressed', String(button.dataset.language === current));
  }

  return { element, update };
}
