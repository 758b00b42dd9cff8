// Arithmetic lines whose terms appear one by one, and the operators between matrices.
import { h, setStyle } from '../dom.mjs';
import { ease } from './timing.mjs';

/**
 * An arithmetic line: "k₁,₂ = 1·0 + 0·1 + … = 2", whose terms appear one by one.
 * @param {string} lhs  left-hand side, e.g. "k₁,₂ ="
 * @param {string[]} terms
 * @param {string} result  e.g. "= 2" or "÷ √3 = 1.155"
 */
export function termLine(lhs, terms, result, className = '') {
  const termElements = terms.map((text) => h('span', { class: 'term', text }));
  const parts = [];
  termElements.forEach((term, m) => {
    if (m > 0) parts.push(h('span', { class: 'op', text: ' + ' }));
    parts.push(term);
  });
  const plusSigns = parts.filter((part) => part.classList.contains('op'));
  // No space inside parentheses: "(1·0 + 2·1) ÷ √3".
  const resultElement = h('span', {
    class: 'result',
    text: result.startsWith(')') ? result : ` ${result}`,
  });
  const element = h(
    'li',
    { class: `term-line ${className}`.trim() },
    h('span', { class: 'lhs', text: lhs.endsWith('(') ? lhs : `${lhs} ` }),
    parts,
    resultElement,
  );
  return {
    element,
    /** terms: how many terms are shown (fractional = the next one fading in); result 0..1 */
    show(termsShown, resultAmount) {
      const latest = termsShown > 0 && resultAmount <= 0 ? Math.ceil(termsShown) - 1 : -1;
      // Not shown yet is hidden, not only transparent: a screen reader does not read the
      // result before the line reaches it (Predict asks for it).
      const fade = (part, amount) => {
        setStyle(part, 'opacity', String(amount));
        setStyle(part, 'visibility', amount <= 0 ? 'hidden' : '');
      };
      termElements.forEach((term, m) => {
        const amount = Math.min(1, Math.max(0, termsShown - m));
        fade(term, amount);
        term.classList.toggle('is-latest', m === latest);
        if (m > 0) fade(plusSigns[m - 1], amount);
      });
      fade(resultElement, ease(resultAmount));
      element.classList.toggle('is-pending', termsShown <= 0);
    },
  };
}

/** An operator between matrices: ×, =, ·, + */
export const operator = (text, label) =>
  h('span', { class: 'operator', 'aria-hidden': label ? null : 'true', 'aria-label': label, text });

/** The scene's arithmetic lines as one list ("arithmetic" for screen readers). */
export const termLines = (tr, lines) =>
  h('ol', { class: 'term-lines', 'aria-label': tr('scene.arithmetic') }, lines);
