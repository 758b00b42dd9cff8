// Short explanations of the jargon the page uses (WebAssembly, trace(), Gaussian, Xavier,
// Transformer, token embedding): the first time a term appears in a piece of text, it
// becomes a button that opens a small pop-up (the HTML popover attribute: no script needed to
// open, close on Escape or a click elsewhere). The terms and their definitions are i18n keys:
// 'glossary.<term>.match' is the word as the sentence spells it in that language,
// 'glossary.<term>' the definition.
import { h } from '../dom.mjs';

export const GLOSSARY_TERMS = [
  'webassembly',
  'trace',
  'gaussian',
  'xavier',
  'transformer',
  'embedding',
];

/**
 * `text` as nodes, with each glossary term not yet in `seen` turned into a pop-up button.
 * @param {string} text  plain text (never parsed as HTML)
 * @param {Set<string>} seen  terms already explained nearby; updated
 * @param {(name: string) => string} id  the app's id maker (unique ids per instance)
 * @returns {Node[]}
 */
export function withGlossary(text, tr, seen, id) {
  const found = [];
  for (const term of GLOSSARY_TERMS) {
    if (seen.has(term)) continue;
    const match = tr(`glossary.${term}.match`);
    const at = text.indexOf(match);
    if (at !== -1) found.push({ term, at, match });
  }
  found.sort((a, b) => a.at - b.at);
  const nodes = [];
  let cursor = 0;
  for (const { term, at, match } of found) {
    if (at < cursor) continue; // overlaps a term already linked
    nodes.push(text.slice(cursor, at));
    seen.add(term);
    const popupId = id(`glossary-${term}-${(glossaryCount = (glossaryCount + 1) % 1e9)}`);
    nodes.push(
      h('button', {
        type: 'button',
        class: 'glossary-term',
        popovertarget: popupId,
        'aria-describedby': popupId,
        text: match,
      }),
      h(
        'span',
        { class: 'glossary-popup', id: popupId, popover: 'auto', role: 'note' },
        h('strong', { text: match }),
        ' ',
        tr(`glossary.${term}`),
      ),
    );
    cursor = at + match.length;
  }
  nodes.push(text.slice(cursor));
  return nodes;
}

// Only makes ids unique; it holds no state of any explainer.
let glossaryCount = 0;
