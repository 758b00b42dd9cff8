// Short explanations of the jargon the page uses (WebAssembly, trace(), Gaussian, Xavier,
// Transformer, token embedding, and the terms a learner meets along the way: softmax, d_k,
// KV cache, RoPE, LayerNorm, MLP, induction head, logits, loss): the first time a term appears
// in a piece of text, it becomes a button that opens a small pop-up (the HTML popover
// attribute: no script needed to open, close on Escape or a click elsewhere). The terms and
// their definitions are i18n keys: 'glossary.<term>.match' is the word as the sentences spell
// it in that language (spellings separated by "|", any case), 'glossary.<term>' the definition.
import { h } from '../dom.mjs';
import { placeBeside } from '../popup-place.mjs';

export const GLOSSARY_TERMS = [
  'webassembly',
  'trace',
  'gaussian',
  'xavier',
  'transformer',
  'embedding',
  'softmax',
  'dk',
  'kvcache',
  'rope',
  'layernorm',
  'mlp',
  'induction',
  'logits',
  'loss',
];

const isLetter = (c) => c !== undefined && /[A-Za-z]/.test(c);

/** Where `text` first spells the term (any of its spellings, any case, a whole word): or null. */
function findTerm(text, spellings) {
  const lower = text.toLowerCase();
  let found = null;
  for (const spelling of spellings.split('|')) {
    const word = spelling.toLowerCase();
    let at = lower.indexOf(word);
    // Not inside a longer word ("loss" in "lossless"): a Latin term stands alone, or with a
    // plural s ("token embeddings").
    const alone = (k) => {
      const end = k + word.length;
      const plural = text[end] === 's' && !isLetter(text[end + 1]);
      return !isLetter(text[k - 1]) && (!isLetter(text[end]) || plural);
    };
    while (at !== -1 && !alone(at)) at = lower.indexOf(word, at + 1);
    if (at !== -1 && (found === null || at < found.at)) found = { at, length: word.length };
  }
  return found;
}

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
    const place = findTerm(text, tr(`glossary.${term}.match`));
    if (place) found.push({ term, ...place });
  }
  found.sort((a, b) => a.at - b.at);
  const nodes = [];
  let cursor = 0;
  for (const { term, at, length } of found) {
    if (at < cursor) continue; // overlaps a term already linked
    const match = text.slice(at, at + length);
    nodes.push(text.slice(cursor, at));
    seen.add(term);
    const popupId = id(`glossary-${term}-${(glossaryCount = (glossaryCount + 1) % 1e9)}`);
    nodes.push(
      h('button', {
        type: 'button',
        class: 'glossary-term',
        popovertarget: popupId,
        'aria-describedby': popupId,
        dataset: { term },
        text: match,
      }),
      h(
        'span',
        {
          class: 'glossary-popup',
          id: popupId,
          popover: 'auto',
          role: 'note',
          ontoggle: besideItsTerm,
        },
        h('strong', { text: match }),
        ' ',
        tr(`glossary.${term}`),
      ),
    );
    cursor = at + length;
  }
  nodes.push(text.slice(cursor));
  return nodes;
}

/**
 * An opened pop-up goes under (or over) the paragraph that holds its term, not in the middle
 * of the screen, where on a phone it covered the very sentence it explains. A paragraph taller
 * than a third of the screen: under or over the term's line instead.
 */
function besideItsTerm(event) {
  const popup = event.currentTarget;
  if (event.newState !== 'open') return;
  const term = popup.getRootNode().querySelector(`[popovertarget="${CSS.escape(popup.id)}"]`);
  if (!term) return;
  const paragraph = term.closest('p, li, figcaption');
  const short = paragraph && paragraph.getBoundingClientRect().height < window.innerHeight / 3;
  placeBeside(popup, term, short ? paragraph : term);
}

// Only makes ids unique; it holds no state of any explainer.
let glossaryCount = 0;
