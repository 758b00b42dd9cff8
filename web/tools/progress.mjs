// Which questions a reader solved, kept per example (its numbers and settings) in
// localStorage. Storage may be missing, full, disabled or hold anything at all: every read
// and write is guarded, and the page keeps the progress in memory when it cannot store it.
const STORAGE_KEY = 'self-attention-explainer.progress';
/** At most this many examples are remembered (the oldest are dropped). */
const MAX_EXAMPLES = 50;

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
  const entry = (key) => {
    const found = memory[key];
    return found && typeof found === 'object' && !Array.isArray(found) ? found : {};
  };
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
