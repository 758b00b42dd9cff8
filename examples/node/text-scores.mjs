// How a character model is scored on a text: its held-out loss, samples drawn through its key/value
// cache, and the share of sampled verse lines with five or seven characters. The text examples
// (train-text.mjs, text-minute.mjs), scripts/train-snapshots.mjs and the benchmark (in Node and,
// bundled, in Chromium: bench/common/text-bench.mjs) all score with these functions. They take
// the model, its task and its tokenizer as arguments and import nothing, so that they run
// anywhere.

/** Marks that end a line of verse: Chinese and ASCII punctuation, and the line break. */
export const VERSE_BREAKS = /[，。？！；：、,.?!;:\n]/u;

/** Mean cross-entropy (nats) and accuracy of a model over a task's held-out windows. */
export function heldOutLoss(model, task, rowsPerCall = 64) {
  const { tokens, targets, batch: rows, length: T } = task.heldOut();
  const V = model.config.vocabSize;
  let total = 0;
  let right = 0;
  let counted = 0;
  for (let first = 0; first < rows; first += rowsPerCall) {
    const batch = Math.min(rowsPerCall, rows - first);
    const slice = tokens.subarray(first * T, (first + batch) * T);
    const { data } = model.forward({ tokens: slice, batch }).logits;
    for (let n = 0; n < batch * T; n++) {
      const target = targets[first * T + n];
      if (target < 0) continue;
      const row = data.subarray(n * V, (n + 1) * V);
      let largest = -Infinity;
      let best = 0;
      for (let v = 0; v < V; v++) if (row[v] > largest) [largest, best] = [row[v], v];
      let sum = 0;
      for (let v = 0; v < V; v++) sum += Math.exp(row[v] - largest);
      total += largest + Math.log(sum) - row[target];
      right += best === target ? 1 : 0;
      counted++;
    }
  }
  return { loss: total / counted, accuracy: right / counted };
}

/**
 * `count` characters after `prompt`, drawn by the model's own generate() through its key/value
 * cache (greedy at temperature 0, else from softmax(logits / temperature) over the topK
 * likeliest), never the tokenizer's unknown id (U+FFFD is no character to write). A sample
 * longer than the context is made in pieces: each piece is prompted with the last half-context
 * of characters so far and runs to the end of the context. The same seed gives the same text.
 * Returns the new text only.
 */
export function sampleText(
  model,
  tokenizer,
  prompt,
  count,
  { temperature = 0.8, topK = 0, seed = 1 } = {},
) {
  const { context } = model.config;
  const keep = Math.max(1, Math.floor(context / 2));
  const ids = [...tokenizer.encode(prompt)];
  const bannedIds = tokenizer.unknownId >= 0 ? [tokenizer.unknownId] : [];
  const made = [];
  for (let piece = 0; made.length < count; piece++) {
    const window = ids.slice(-keep);
    const n = Math.min(context - window.length + 1, count - made.length);
    const options = { temperature, topK, seed: (seed + piece) >>> 0, bannedIds };
    const next = model.generate(window, n, options);
    ids.push(...next);
    made.push(...next);
  }
  return tokenizer.decode(made);
}

/**
 * The lines of generated verse between punctuation marks, leaving out the first (it may
 * continue the prompt's) and the last (it may be unfinished) and empty ones (two marks in a
 * row, as "。\n"): { lines, fiveOrSeven, share }.
 */
export function verseLineShare(text) {
  const lines = text
    .split(VERSE_BREAKS)
    .slice(1, -1)
    .filter((line) => line !== '');
  const fiveOrSeven = lines.filter((line) => [...line].length === 5 || [...line].length === 7);
  return {
    lines: lines.length,
    fiveOrSeven: fiveOrSeven.length,
    share: lines.length === 0 ? NaN : fiveOrSeven.length / lines.length,
  };
}

/**
 * The prompt samples of a text start from: the first full line of its held-out part (the
 * characters from `trainLength` on, which the model never trained on).
 */
export function heldOutPrompt(text, trainLength) {
  const heldOut = [...text].slice(trainLength).join('');
  return heldOut.slice(heldOut.indexOf('\n') + 1).split('\n')[0];
}

/**
 * A model measured on its text task: the held-out loss and accuracy, `length` characters
 * sampled after `prompt` with `sampling` (generate's temperature, topK, seed), and for verse
 * the 5/7 line share of that sample: { loss, accuracy, verse (or null), sample }.
 */
export function scoreTextModel(model, task, { prompt, verse, length, sampling }) {
  const { loss, accuracy } = heldOutLoss(model, task);
  const sample = sampleText(model, task.tokenizer, prompt, length, sampling);
  return { loss, accuracy, verse: verse ? verseLineShare(sample) : null, sample };
}
