// Predict, then reveal: the questions of a step, checked against the live numbers.
//
// A step declares its questions (step.questions(numbers), in its stage file) as plain data:
//   { cell: { matrix, row, col, query?, head? } }   a number the scene computes (a key
//                                              entry, a score, a weight, an output entry, a
//                                              head's weight...): its answer, prompt and hint
//                                              follow from the cell, as its data attributes
//                                              name it
//   { id, prompt(tr), answer(numbers), hint(tr, numbers) -> string[] }   anything else (the
//                                              size of a KV cache)
// and hold: false when the scene may stay drawn while the question is open (its numbers are
// not on show); otherwise the step is held at its start until the answer is in.
// Answers are read from the numbers trace() gave for the reader's own example, so edited
// numbers, the scaling and the mask are all taken into account. Sizes too are read from the
// numbers, never from the dims a step was built with: a step object outlives a change of
// d_v or of the heads that keeps its id.
import { explainCell } from '../model/arithmetic.mjs';
import { subscript } from '../format.mjs';
import { at } from '../model/matrix.mjs';
import { ROLES } from '../roles.mjs';

/** An answer counts as right within ±ABSOLUTE, or within RELATIVE of a large answer. */
export const TOLERANCE = Object.freeze({ absolute: 0.01, relative: 0.01 });

/** A head's matrices in chapter 2 (cells with data-head): the field of its trace. */
const HEAD_MATRICES = { 'head-scores': 'scores', 'head-weights': 'weights' };

/** The value of a computed cell, as trace() gave it. */
export function cellValue(numbers, { matrix, row, col, query, head }) {
  if (matrix === 'weighted') return numbers.weightedAt(query, row, col);
  if (Object.hasOwn(HEAD_MATRICES, matrix))
    return at(numbers.layer.heads[head][HEAD_MATRICES[matrix]], row, col);
  return at(numbers[matrix], row, col);
}

const cellId = ({ matrix, row, col, query, head }) =>
  [matrix, query ?? '', head ?? '', row, col].join(':');

/** "s₁,₂": the cell's letter with its indices, as the scenes write it. */
export function cellSymbol({ matrix, row, col, query }) {
  const pair = (a, b) => `${subscript(a + 1)},${subscript(b + 1)}`;
  if (matrix === 'weighted') return `a${pair(query, row)}·v${pair(row, col)}`;
  if (Object.hasOwn(HEAD_MATRICES, matrix))
    return `${ROLES[HEAD_MATRICES[matrix]].letter}${pair(row, col)}`;
  return `${ROLES[matrix].letter}${pair(row, col)}`;
}

/** Whether the causal mask hides the cell's key from its query. */
function isMasked(numbers, { matrix, row, col, head }) {
  if (Object.hasOwn(HEAD_MATRICES, matrix)) return numbers.layer.masked(head, row, col);
  return (matrix === 'scores' || matrix === 'weights') && numbers.masked(row, col);
}

/**
 * One question made complete: { id, prompt(tr), answer, hint(tr) -> string[], cell? }.
 * A hint is the arithmetic step by step, without its last result (the answer).
 */
export function resolveQuestion(question, numbers) {
  if (!question.cell) {
    return {
      id: question.id,
      hold: question.hold !== false,
      prompt: question.prompt,
      answer: question.answer(numbers),
      hint: (tr) => question.hint(tr, numbers),
    };
  }
  const { cell } = question;
  const masked = isMasked(numbers, cell);
  return {
    id: cellId(cell),
    cell,
    hold: question.hold !== false,
    prompt: (tr) =>
      tr(`tools.ask.${cell.matrix}`, {
        symbol: cellSymbol(cell),
        i: (cell.query ?? cell.row) + 1,
        j: (cell.query === undefined ? cell.col : cell.row) + 1,
        c: cell.col + 1,
        h: (cell.head ?? 0) + 1,
      }),
    answer: cellValue(numbers, cell),
    hint(tr) {
      const explained = explainCell(numbers, cell, tr);
      if (masked) return [explained.title, tr('tools.hint.masked')];
      // "a = e^(…) ÷ (…) = 0.939 ÷ 15.7 = 0.063": every step but the last, then "= ?".
      const parts = explained.expression.split(' = ');
      const steps = parts.slice(0, -1);
      return [explained.title, `${steps.join(' = ')} = ?`];
    },
  };
}

/** The step's questions, resolved; [] for a step that declares none. */
export function questionsOf(step, numbers) {
  return (step?.questions?.(numbers) ?? []).map((question) => resolveQuestion(question, numbers));
}

/**
 * Commas in a typed number. The page's languages (English, Chinese) write a decimal point and
 * group thousands with commas, so "1,999" is one thousand nine hundred and ninety-nine, never
 * 1.999. A comma is read as a decimal comma only where it cannot be a thousands separator:
 * the only comma, not followed by exactly three digits ("0,5", "1,25"), or after a leading 0
 * ("0,063"). Anything else with commas ("1,99,9", "1,5.2") is not a number.
 */
function withoutCommas(text) {
  if (!text.includes(',')) return text;
  if (/^[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/.test(text)) return text.replace(/,/g, '');
  if (/^[+-]?\d*,\d+$/.test(text) && !/^[+-]?[1-9]\d{0,2},\d{3}$/.test(text))
    return text.replace(',', '.');
  return null;
}

/**
 * Reads a typed answer: "0.5", "−1.5", ".25", "1/2", "-inf", "−∞", "0,5", "1,999" (1999).
 * @returns {number | null} null when it is not a number
 */
export function parseAnswer(text) {
  const cleaned = withoutCommas(
    String(text)
      .trim()
      .replace(/[\u2212\u2013]/g, '-')
      .replace(/\s+/g, ''),
  );
  if (cleaned === null) return null;
  if (/^-(inf|infinity|∞)$/i.test(cleaned)) return -Infinity;
  if (/^\+?(inf|infinity|∞)$/i.test(cleaned)) return Infinity;
  const fraction = /^([+-]?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(cleaned);
  if (fraction) {
    const value = Number(fraction[1]) / Number(fraction[2]);
    return Number.isFinite(value) ? value : null;
  }
  if (cleaned.length > 32 || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

/** Whether `given` is the answer, within TOLERANCE (infinities must match exactly). */
export function isRight(given, answer) {
  if (!Number.isFinite(answer) || !Number.isFinite(given)) return given === answer;
  const allowed = Math.max(TOLERANCE.absolute, TOLERANCE.relative * Math.abs(answer));
  return Math.abs(given - answer) <= allowed + 1e-12;
}
