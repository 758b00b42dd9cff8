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
// not on show); otherwise the step is held at its start until the answer is in. Optional:
// whole: true for an answer that is a whole number (a sign, a position: no tolerance), and
// wait(sceneElement) -> null when the question can be asked, else (tr) => why not yet (the
// scene dispatches a bubbling "scene-ready" event when that may have changed), and
// applies(sceneElement or null) -> false for a question that does not hold for what the scene
// shows (a trained model without an induction head is not asked where its induction head
// looks); null stands for a step not on screen, where one of a step's variants applies.
// Answers are read from the numbers trace() gave for the reader's own example, so edited
// numbers, the scaling and the mask are all taken into account. Sizes too are read from the
// numbers, never from the dims a step was built with: a step object outlives a change of
// d_v or of the heads that keeps its id.
import { explainCell } from '../model/arithmetic.mjs';
import { subscript } from '../format.mjs';
import { at } from '../model/matrix.mjs';
import { ROLES } from '../roles.mjs';

/**
 * An answer counts as right within RELATIVE of the answer, or ±ABSOLUTE for an answer near 0
 * (0.063 typed for 0.0634 is right; 0.07 or 0.06 is not).
 */
export const TOLERANCE = Object.freeze({ absolute: 0.001, relative: 0.01 });

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
 * Whether the causal mask applies to a score cell's matrix (the first query cannot see the
 * last key): only then may an answer be −∞.
 */
export function maskApplies(numbers, cell) {
  if (!cell || !/scores$/.test(cell.matrix)) return false;
  const n = traceOf(numbers, cell).trace.scores.cols;
  return n > 1 && isMasked(numbers, { ...cell, row: 0, col: n - 1 });
}

/** The field of a trace a chapter 1 matrix or a head's matrix is in, and that trace. */
function traceOf(numbers, { matrix, head }) {
  if (Object.hasOwn(HEAD_MATRICES, matrix))
    return { trace: numbers.layer.heads[head], field: HEAD_MATRICES[matrix] };
  return { trace: numbers, field: matrix };
}

/**
 * The answers of common slips for a cell, each with its name (an i18n key under
 * tools.mistake.): a softmax weight without the exponential (the score divided by the row's
 * sum of scores), without the division (e^(s − max)), without the max shift and division
 * (e^s), or the weight of the wrong row (a_ji for a_ij); a score of the wrong row (s_ji), or
 * without the scaling. Worked out from trace()'s numbers only to recognise a wrong answer.
 */
function mistakesOf(numbers, cell) {
  const { matrix, row: i, col: j } = cell;
  const { trace, field } = traceOf(numbers, cell);
  if (field !== 'weights' && field !== 'scores') return [];
  const n = trace[field].rows;
  const value = (name, r, c) => at(trace[name], r, c);
  const found = [];
  if (j < n && i < trace[field].cols && i !== j)
    found.push({ key: 'wrongRow', value: value(field, j, i) });
  if (field === 'scores') {
    const scale = Object.hasOwn(HEAD_MATRICES, matrix) ? numbers.layer.scale : numbers.scale;
    if (scale !== 1) found.push({ key: 'noScale', value: value('scores', i, j) / scale });
    return found;
  }
  const scores = Array.from({ length: n }, (_, l) => value('scores', i, l));
  const total = scores.filter(Number.isFinite).reduce((a, b) => a + b, 0);
  found.push({ key: 'noDivide', value: value('exponentials', i, j) });
  found.push({ key: 'noShift', value: Math.exp(scores[j]) });
  if (total !== 0) found.push({ key: 'noExp', value: scores[j] / total });
  return found;
}

/**
 * Which slip a wrong answer is (the key of the first mistake it matches), or null.
 * @param question a resolved question (resolveQuestion)
 */
export function mistakeOf(question, given) {
  if (isRight(given, question.answer)) return null;
  return (question.mistakes ?? []).find((m) => isRight(given, m.value))?.key ?? null;
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
      whole: question.whole === true,
      wait: question.wait,
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
    mistakes: masked ? [] : mistakesOf(numbers, cell),
    hint(tr) {
      const explained = explainCell(numbers, cell, tr);
      if (masked) return [explained.title, tr('tools.hint.masked')];
      // "a = e^(…) ÷ (…) = 0.939 ÷ 15.7 = 0.063": every step but the last (after "=" or,
      // for a result printed from exact numbers, "≈"), then "= ?".
      const parts = explained.expression.split(/ [=≈] /);
      const steps = parts.slice(0, -1);
      return [explained.title, `${steps.join(' = ')} = ?`];
    },
  };
}

/** The step's questions, resolved; [] for a step that declares none. */
export function questionsOf(step, numbers, sceneElement = null) {
  return (step?.questions?.(numbers) ?? [])
    .filter((question) => question.applies?.(sceneElement) ?? true)
    .map((question) => resolveQuestion(question, numbers));
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
