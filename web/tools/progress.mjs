// Which questions a reader solved, kept per example (its numbers and settings) in
// localStorage. Storage may be missing, full, disabled or hold anything at all: every read
// and write is guarded, and the page keeps the progress in memory when it cannot store it.
const STORAGE_KEY = 'self-attention-explainer.progress';
/** At most this many examples are remembered (the oldest are dropped). */
const MAX_EXAMPLES = 50;
/** What one question's entry may say; anything else in storage (hand-edited) is dropped. */
const OUTCOMES = new Set(['solved', 'revealed']);
/** A question id ("scores::1:0:2", "cache-numbers:3") is short and plain. */
const QUESTION_ID = /^[\w-]+(?::[\w-]*){0,5}$/;
const MAX_ID_LENGTH = 64;

/** The entries of one example that can be true: known outcomes of plausible question ids. */
function cleanEntry(found) {
  if (!found || typeof found !== 'object' || Array.isArray(found)) return {};
  return Object.fromEntries(
    Object.entries(found).filter(
      ([id, outcome]) =>
        OUTCOMES.has(outcome) && id.length <= MAX_ID_LENGTH && QUESTION_ID.test(id),
    ),
  );
}

/**
 * How many of these questions (the ids the page asks for this example) are solved. Stored
 * progress is the reader's to edit: only the page's own questions count, so "Solved: 999"
 * cannot be typed into storage.
 */
export const solvedAmong = (done, questionIds) =>
  questionIds.filter((id) => done[id] === 'solved').length;

/** What is stored ({} for nothing or junk), or null when storage cannot be read at all. */
function readAll() {
  let text;
  try {
    text = globalThis.localStorage?.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function writeAll(all) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(all));
    return true;
  } catch {
    return false;
  }
}

/**
 * @returns {{ get(exampleKey): Record<string, 'solved' | 'revealed'>,
 *   mark(exampleKey, questionId, outcome), reset(exampleKey) }}
 */
export function createProgress() {
  let memory = readAll() ?? {};
  const entry = (key) => cleanEntry(Object.hasOwn(memory, key) ? memory[key] : null);
  return {
    get: (key) => ({ ...entry(key) }),
    mark(key, questionId, outcome) {
      memory = readAll() ?? memory;
      const updated = { ...entry(key), [questionId]: outcome };
      delete memory[key];
      memory[key] = updated; // re-inserted last: the most recent example
      const keys = Object.keys(memory);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_EXAMPLES))) delete memory[old];
      writeAll(memory);
    },
    reset(key) {
      memory = readAll() ?? memory;
      delete memory[key];
      writeAll(memory);
    },
  };
}
