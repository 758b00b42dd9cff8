// 中文 / English: two toggle buttons; the choice is remembered by the app. `languages` maps
// each language to its table (the app's, from i18n/), where each names itself (`lang.<code>`).
import { h } from '../dom.mjs';

export function createLanguageSwitch({ languages, onChange }) {
  const buttons = Object.keys(languages).map((language) =>
    h('button', {
      type: 'button',
      class: 'language-button',
      lang: language === 'zh' ? 'zh-CN' : 'en',
      dataset: { language },
      text: languages[language][`lang.${language}`],
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
