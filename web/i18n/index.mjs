// Translation: tr(key, params) looks the key up in the chosen language and fills {name}
// parameters. Parameter values are inserted as plain strings; callers put the result into
// the page with textContent, never as HTML.
//
// A language's table is the page's own strings (en.mjs, zh.mjs: the chrome, load errors,
// tools, glossary, and sentences several stages share) merged with every stage's sentences,
// which each stage keeps beside it (stages/<chapter>/<name>.text.mjs, attached to the stage
// as `text` by its chapter's index.mjs). A key is defined in one place only.
import pageEn from './en.mjs';
import pageZh from './zh.mjs';
import { STAGES } from '../stages/index.mjs';

/**
 * One language's table: the page's strings and each stage's, merged.
 * @param language 'en' or 'zh'
 * @param page the page's own strings in that language
 * @param stages stages carrying `text: { en, zh }` and `titleKey`
 * @throws {RangeError} when a key is defined twice, naming both places
 */
export function mergeTexts(language, page, stages) {
  const table = { ...page };
  const home = Object.fromEntries(Object.keys(page).map((key) => [key, `i18n/${language}.mjs`]));
  for (const stage of stages) {
    const place = `the text of stage ${stage.titleKey}`;
    for (const [key, text] of Object.entries(stage.text?.[language] ?? {})) {
      if (Object.hasOwn(table, key))
        throw new RangeError(`i18n key "${key}" is defined twice: in ${home[key]} and ${place}`);
      table[key] = text;
      home[key] = place;
    }
  }
  return table;
}

const en = mergeTexts('en', pageEn, STAGES);
const zh = mergeTexts('zh', pageZh, STAGES);
export const LANGUAGES = { en, zh };
const STORAGE_KEY = 'self-attention-explainer.language';

// A count's noun agrees with it: {n|# token|# tokens} is "1 token" or "3 tokens" (# is the
// number), chosen by the language's plural rules (Chinese has no plural: it writes {n} only,
// or the two forms where one differs, such as a range of one: {i|输入1|输入1到#}).
//
// On a touch screen (no hover), a sentence that says "hover" has a twin that says "tap"
// (`<key>.touch`), used instead: a tap on a cell shows what hovering shows.
export function translator(language, { touch = isTouchScreen() } = {}) {
  const strings = LANGUAGES[language] ?? en;
  const plurals = new Intl.PluralRules(language === 'zh' ? 'zh' : 'en');
  return function tr(key, params = {}) {
    const template =
      (touch ? (strings[`${key}.touch`] ?? en[`${key}.touch`]) : undefined) ??
      strings[key] ??
      en[key] ??
      key;
    return template
      .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (match, name, one, other) => {
        if (!Object.hasOwn(params, name)) return match;
        const count = Number(params[name]);
        // One of a range ("input 1", not "inputs 1 to 1") is the first form in any language.
        const form = count === 1 || plurals.select(count) === 'one' ? one : other;
        return form.replace(/#/g, String(params[name]));
      })
      .replace(/\{(\w+)\}/g, (match, name) =>
        Object.hasOwn(params, name) ? String(params[name]) : match,
      );
  };
}

/** A screen whose main pointer cannot hover (a phone, a tablet). */
export const isTouchScreen = () => globalThis.matchMedia?.('(hover: none)').matches ?? false;

/** The remembered choice, else the browser's preferred language (zh-* -> zh), else en. */
export function initialLanguage(navigatorLanguages = []) {
  const stored = readStoredLanguage();
  if (stored) return stored;
  for (const tag of navigatorLanguages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return 'en';
}

function readStoredLanguage() {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return Object.hasOwn(LANGUAGES, stored ?? '') ? stored : null;
  } catch {
    return null; // storage can be disabled (privacy settings, some file:// setups)
  }
}

export function rememberLanguage(language) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered then; the page still switches.
  }
}

/** The value for <html lang>. */
export const htmlLang = (language) => (language === 'zh' ? 'zh-CN' : 'en');
