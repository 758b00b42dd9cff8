// Number formatting for display. The page shows numbers as text (never pictures of numbers),
// so these strings are what a reader, a screen reader and the tests all see.

const MINUS = '\u2212';
const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';

/**
 * Exact view: integers as integers ("4"), other numbers with 3 decimals ("0.063"), trailing
 * zeros dropped only when the float really is that short decimal (0.37 -> "0.37", but
 * 1.9999938 -> "2.000", so a near-integer never pretends to be exact).
 */
export function formatExact(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '∞';
  if (value === -Infinity) return `${MINUS}∞`;
  if (Number.isInteger(value)) return withMinus(String(value));
  let text = value.toFixed(3);
  const shortDecimal = Math.abs(value - Number(text)) <= 1e-6 * Math.max(1, Math.abs(value));
  if (shortDecimal) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
  return withMinus(text);
}

/** The article's view: one decimal, as it prints softmax weights and outputs ("0.5", "2.0"). */
export function formatOneDecimal(value) {
  if (!Number.isFinite(value)) return formatExact(value);
  let text = value.toFixed(1);
  if (text === '-0.0') text = '0.0';
  return withMinus(text);
}

/**
 * A probability to four significant digits (0.002228, not 0.0022), so that −ln of the printed
 * number gives the printed loss to its last digit, and two unlikely characters' chances are
 * told apart, however small.
 */
export function formatProbability(p) {
  return p < 1e-4 ? p.toExponential(3) : p.toPrecision(4);
}

/**
 * A training loss as a status line counts it: three decimals, and below 0.0005 (where three
 * decimals read "0.000", as if the model were sure and right everywhere: the tiny model's loss
 * goes on falling to 0.00003 and below) two significant digits, "0.00032".
 */
export function formatLoss(x) {
  if (x >= 0.0005 || x === 0) return x.toFixed(3);
  return x < 1e-6 ? '< 0.000001' : x.toPrecision(2);
}

/**
 * A loss (or a change of loss) in nats: three decimals, or three significant digits below 0.1
 * (0.00712), so that a model that knows a text by heart does not read as a loss of 0.007 that
 * "goes from 0.007 to 0.007".
 */
export function formatNats(x) {
  return Math.abs(x) >= 0.1 || x === 0 ? x.toFixed(3) : x.toPrecision(3);
}

function withMinus(text) {
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

/**
 * Numbers shown together (a row, a matrix), all with the same decimals: integers stay
 * integers ("1 2 3") only when every one of them is; otherwise every number gets the three
 * decimals of formatExact ("1.000 1.937 0.000"), so "0" never sits beside "0.000". A format
 * other than formatExact (the article's one decimal) already prints them alike.
 */
export function formatList(values, format = formatExact) {
  const list = Array.from(values);
  if (format !== formatExact) return list.map((v) => format(v));
  const mixed = list.some((v) => Number.isFinite(v) && !Number.isInteger(v));
  const fixed = (v) => {
    if (!Number.isFinite(v)) return formatExact(v);
    let text = v.toFixed(3);
    if (/^-0\.0*$/.test(text)) text = text.slice(1);
    return withMinus(text);
  };
  return list.map((v) => (mixed ? fixed(v) : formatExact(v)));
}

/** A table of numbers (rows of them) as texts, every one alike (formatList). */
export function formatGrid(rows, format = formatExact) {
  const texts = formatList(rows.flat(), format);
  let k = 0;
  return rows.map((row) => row.map(() => texts[k++]));
}

/** "[1, 0, 2]" with the given number formatter, the numbers alike (formatList). */
export function formatVector(values, format = formatExact) {
  return `[${formatList(values, format).join(', ')}]`;
}

/**
 * A number in a field to edit: every digit the reader typed or the page was given (String(),
 * never rounded: the field's text is the number used), with the page's minus sign, as the
 * scene and the tables print it ("−2.5"). parseEntry (model/example.mjs) reads both signs.
 */
export function formatEditable(value) {
  return withMinus(String(value));
}

/** 1-based index as Unicode subscript digits, for labels such as "k₂" (n is at most 8). */
export function subscript(index) {
  return String(index)
    .split('')
    .map((digit) => SUBSCRIPT_DIGITS[Number(digit)])
    .join('');
}

/** Wraps a negative operand in parentheses so "2·−1" reads as "2·(−1)". */
export function operand(text) {
  return text.startsWith(MINUS) ? `(${text})` : text;
}

/** A number as printed, read back: "−1.5" -> -1.5, "0.063" -> 0.063. */
export const valueOfText = (text) => Number(String(text).replace(/\u2212/g, '-'));

/**
 * "=" or "≈" between printed operands and a printed result: "=" when the printed operands,
 * combined (`combine` of their values) and rounded to the result's decimals, give the printed
 * result; "≈" when they do not, because the operands are printed rounded and the result was
 * computed from the exact numbers (0.063 · 2 printed as 0.127: the weight is 0.0634).
 * @param {string} result  the printed result
 * @param {string[]} operands  the printed operands
 * @param {(values: number[]) => number} combine
 */
export function relation(result, operands, combine) {
  const decimals = (String(result).split('.')[1] ?? '').length;
  const fromPrinted = combine(operands.map(valueOfText));
  const rounded = Number(fromPrinted.toFixed(decimals));
  return Math.abs(rounded - valueOfText(result)) <= 1e-9 ? '=' : '≈';
}
