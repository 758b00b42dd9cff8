// Formulas as MathML (rendered natively by the browser with local fonts, no network fonts),
// built node by node. Each helper returns a MathML element; strings become <mi>/<mn>/<mo>.

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

function node(tag, children) {
  const element = document.createElementNS(MATHML_NS, tag);
  for (const child of children) {
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

export const mi = (text) => node('mi', [text]);
export const mn = (text) => node('mn', [text]);
export const mo = (text) => node('mo', [text]);
const mtext = (text) => node('mtext', [text]);
export const row = (...children) => node('mrow', children);
export const sub = (base, index) => node('msub', [wrap(base), wrap(index)]);
export const sup = (base, power) => node('msup', [wrap(base), wrap(power)]);
export const frac = (top, bottom) => node('mfrac', [wrap(top), wrap(bottom)]);
export const sqrt = (...children) => node('msqrt', children.map(wrap));
/** Σ with an index below it: sumOver('j') */
export const sumOver = (index) => node('munder', [mo('∑'), wrap(index)]);

/** A factor with what it stands for written small under it: labelled('2', 'K and V'). */
export const labelled = (base, label) => node('munder', [wrap(base), mtext(label)]);

/** Plain strings: digits become <mn>, one letter or a Greek letter <mi>, anything else <mo>. */
function wrap(part) {
  if (typeof part !== 'string') return part;
  if (/^[0-9.]+$/.test(part)) return mn(part);
  if (/^[A-Za-zα-ωΑ-Ω]$/.test(part)) return mi(part);
  if (/^[A-Za-z_]+$/.test(part)) return mi(part);
  return mo(part);
}

/** A display formula: <math display="block"> with an accessible label in words. */
export function formula(label, ...children) {
  const math = node('math', [row(...children.map(wrap))]);
  math.setAttribute('display', 'block');
  math.setAttribute('aria-label', label);
  return math;
}

// --- the symbols the scenes use ---------------------------------------------------------

/** W with a role subscript: W_K, W_Q, W_V */
export const weightSymbol = (letter) => sub(mi('W'), mi(letter));
/** ℝ^{rows×cols} */
export const realSpace = (rows, cols) =>
  sup(mi('ℝ'), row(mn(String(rows)), mo('×'), mn(String(cols))));
/** A matrix entry's symbol with its two indices: entry('a', 'i', 'j') is a_{i,j}. */
export const entry = (letter, first, second) =>
  sub(mi(letter), row(mi(first), mo(','), mi(second)));
/** K^T */
export const transposed = (letter) => sup(mi(letter), mi('T'));

/** Horizontal space between two parts of one formula. */
export function gap(width = '1.2em') {
  const space = document.createElementNS(MATHML_NS, 'mspace');
  space.setAttribute('width', width);
  return space;
}
