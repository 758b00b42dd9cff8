// Chapter 3's tiny model and its training, as data (no DOM, no worker): the model's config for
// the page's switches, how the induction task's tokens are written (letters), when the loss
// "dropped", and what a head's weights say it does. The training itself runs in a worker
// (createTrainer, app/training.mjs); the numbers here are read from what it reports.
//
// Names: L layers, H heads per layer, T = 25 tokens per row, V = 16 token ids (0 is BOS): the
// induction task's own sizes (the package's INDUCTION_LENGTH and INDUCTION_MODEL), read from it.
import { INDUCTION_LENGTH, INDUCTION_MODEL, TRANSFORMER_POSITIONS } from 'attention-explained';
import { readHeads } from './head-reading.mjs';

/**
 * The switches' choices, and the page's defaults (RoPE, seed 1: the drop comes early). The
 * positions are the model's own, as the package lists them.
 */
export const POSITIONS = TRANSFORMER_POSITIONS;
export const LAYER_CHOICES = Object.freeze([1, 2]);
/**
 * Heads per layer the page offers: those that build. Each head takes dModel / heads numbers,
 * so heads must divide dModel, and RoPE turns pairs of them, so that share must be even
 * (dModel 32: 1, 2 and 4 heads; 3 cannot be made).
 */
export const MAX_HEADS = 4;
export const HEAD_CHOICES = Object.freeze(
  Array.from({ length: MAX_HEADS }, (_, k) => k + 1).filter((heads) => {
    const size = INDUCTION_MODEL.dModel / heads;
    return Number.isInteger(size) && size % 2 === 0;
  }),
);
export const SPEEDS = Object.freeze(['fast', 'slow']);
export const TRAINING_DEFAULTS = Object.freeze({
  positions: 'rope',
  layers: INDUCTION_MODEL.layers,
  heads: INDUCTION_MODEL.heads,
  seed: 1,
  speed: 'fast',
});
/** A run stops by itself here: the drop comes long before, and the machine is shared. */
export const MAX_TRAINING_STEPS = 2000;
export const MAX_SEED = 0xffffffff;
/** Each switch that is a choice, and its choices (the seed is any whole number up to MAX_SEED). */
export const TRAINING_CHOICES = Object.freeze({
  positions: POSITIONS,
  layers: LAYER_CHOICES,
  heads: HEAD_CHOICES,
  speed: SPEEDS,
});

/**
 * What is wrong with these switches: { name, text } (the switch, and "<switch> must be …, got
 * …"), or null when the model can be made from them. The one rule for the page's switches, a
 * link's and a parameters file's.
 */
export function trainingSettingsProblem(settings) {
  const wrong = (name, expected) => ({
    name,
    text: `${name} must be ${expected}, got ${JSON.stringify(settings[name])}`,
  });
  for (const [name, allowed] of Object.entries(TRAINING_CHOICES)) {
    if (!allowed.includes(settings[name])) return wrong(name, `one of ${allowed.join(', ')}`);
  }
  const { seed } = settings;
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)
    return wrong('seed', `an integer from 0 to ${MAX_SEED}`);
  return null;
}

/** The model every run trains: the induction task's reference model with the learner's switches. */
export function modelConfig({ positions, layers, heads, seed }) {
  return { ...INDUCTION_MODEL, layers, heads, positions, seed };
}

const parameterCounts = new WeakMap(); // the module's API -> Map(config without seed -> count)

function countsOf(attn) {
  let counts = parameterCounts.get(attn);
  if (!counts) parameterCounts.set(attn, (counts = new Map()));
  return counts;
}

/** A model's shape: its config but the seed (which JSON leaves out when undefined). */
const shapeKey = (settings) => JSON.stringify({ ...modelConfig(settings), seed: undefined });

/** Whether parameterCount() knows this shape's count already (it makes no model for it). */
export const parameterCountKnown = (attn, settings) => countsOf(attn).has(shapeKey(settings));

/**
 * How many numbers (parameters) the model these switches make holds, as the module counts
 * them: a model is made, its parameters() added up, and freed (once per shape).
 */
export function parameterCount(attn, settings) {
  const counts = countsOf(attn);
  const key = shapeKey(settings);
  if (!counts.has(key)) {
    const model = attn.createTinyTransformer(modelConfig(settings));
    try {
      const tensors = Object.values(model.parameters());
      counts.set(
        key,
        tensors.reduce((sum, tensor) => sum + tensor.data.length, 0),
      );
    } finally {
      model.free();
    }
  }
  return counts.get(key);
}

/** The steps a run's model has been trained for: a loaded model's, and the run's since. */
export const trainedSteps = (run) => run.step + (run.loadedStep ?? 0);

/** Steps per chunk the page asks the worker for, and the pause after each (slow: watchable). */
export const SPEED_CHUNKS = Object.freeze({
  fast: { steps: 50, waitMs: 0 },
  slow: { steps: 10, waitMs: 250 },
});
/** Steps between progress events, and between attention snapshots. */
export const PROGRESS_EVERY = 10;
export const ATTENTION_EVERY = 50;

/** Token 0 opens every row; 1..15 are written A..O. */
export const BOS_LABEL = '⟨s⟩';
export const tokenLabel = (id) => (id === 0 ? BOS_LABEL : String.fromCharCode(64 + id));

/**
 * A typed sequence ("A B C D A B C", "abcdabc") as token ids, BOS first; letters A..O only.
 * @returns {{ tokens: number[] } | { error: { key: string, params: object } }}
 */
export function parseLetters(text, maxTokens = INDUCTION_LENGTH) {
  // Each character as typed: upper-casing first would turn ß into SS and ﬁ into FI, so the
  // letter refused would not be the one typed, or a ligature would pass as two letters.
  const typed = [...String(text).replace(/[\s,·]+/g, '')];
  if (typed.length === 0) return { error: { key: 'ch3.heads.emptyInput', params: {} } };
  const bad = typed.find((c) => !/^[A-Oa-o]$/.test(c));
  if (bad !== undefined) {
    return { error: { key: 'ch3.heads.badLetter', params: { letter: visibleCharacter(bad) } } };
  }
  if (typed.length + 1 > maxTokens) {
    return { error: { key: 'ch3.heads.tooLong', params: { most: maxTokens - 1 } } };
  }
  return { tokens: [0, ...typed.map((c) => c.toUpperCase().charCodeAt(0) - 64)] };
}

/**
 * A character as a message may show it: itself, or U+XXXX for one that shows nothing or
 * changes the text around it (controls, zero-width and bidi formatting characters such as
 * U+202E, which would reverse the rest of the sentence).
 */
function visibleCharacter(c) {
  if (!/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c)) return c;
  return `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Losses are averaged over this many steps before the drop is looked for (one step is noisy). */
export const SMOOTHING = 20;
/** The drop: the smoothed loss first falls below this share of its plateau (the steps before). */
export const DROP_SHARE = 0.5;
/** Steps before the plateau is measured (the first steps fall fast from ln 16 to the plateau). */
export const PLATEAU_FROM = 100;

/**
 * The step where the loss dropped, or null: the first step whose mean loss over the last
 * SMOOTHING steps is below DROP_SHARE of the plateau, the smallest such mean up to SMOOTHING
 * steps before it, from PLATEAU_FROM on (a fall from the plateau, not the fast start; the
 * lag keeps the fall itself out of the plateau).
 * @param losses every step's loss, step 1 first
 */
export function findDrop(losses) {
  const means = [];
  let sum = 0;
  let plateau = Infinity;
  for (let s = 0; s < losses.length; s++) {
    sum += losses[s];
    if (s >= SMOOTHING) sum -= losses[s - SMOOTHING];
    means.push(s + 1 < SMOOTHING ? Infinity : sum / SMOOTHING);
    const lagged = s - SMOOTHING;
    if (lagged + 1 >= PLATEAU_FROM) plateau = Math.min(plateau, means[lagged]);
    if (plateau < Infinity && means[s] < DROP_SHARE * plateau) return s + 1;
  }
  return null;
}

/** One head's [T, T] weights out of attention [L, B, H, T, T], as rows of numbers (batch row b). */
export function headWeights(attention, layer, head, b = 0) {
  const [, batch, heads, T] = attention.dims;
  const base = ((layer * batch + b) * heads + head) * T * T;
  return Array.from({ length: T }, (_, i) =>
    Array.from(attention.data.subarray(base + i * T, base + (i + 1) * T)),
  );
}

/** Every head of attention [L, B, H, T, T] read on `tokens` (batch row 0): model/head-reading.mjs. */
export function readAttention(attention, tokens) {
  const [layers, , heads] = attention.dims;
  return readHeads(
    { layers, heads, weightsOf: (layer, head) => headWeights(attention, layer, head) },
    Array.from(tokens),
  );
}

/**
 * The run's latest attention on its held-out row, { step, attention } (step: trained steps,
 * a loaded model's counted), or null: no model yet, or a snapshot of a model with other dims
 * (a switch has just made a new one).
 */
export function runAttention(run) {
  const latest =
    run.snapshots.at(-1) ?? (run.probe ? { step: 0, attention: run.probe.attention } : null);
  const { layers, heads } = run.settings;
  if (!latest || latest.attention.dims[0] !== layers || latest.attention.dims[2] !== heads)
    return null;
  return { step: latest.step + (run.loadedStep ?? 0), attention: latest.attention };
}

const readings = new WeakMap();

/**
 * readAttention(attention, tokens), read once per snapshot: kept with the attention, so the
 * train stage, the tables, the heads-learned stage and the files share one reading.
 */
export function readingOf(attention, tokens) {
  let reading = readings.get(attention);
  if (!reading) {
    reading = readAttention(attention, tokens);
    readings.set(attention, reading);
  }
  return reading;
}

/**
 * Which head does what in the run's model as it is now: every head read on the held-out row
 * (the one reader the train stage, the tables, the heads-learned stage and the files share);
 * null when runAttention() has nothing. Read once per snapshot.
 */
export function runReading(run) {
  const latest = runAttention(run);
  if (!latest || !run.probe) return null;
  return { ...readingOf(latest.attention, run.probe.tokens), step: latest.step };
}

/** The index of the largest entry of logits row t ([1, T, V]): the predicted next token. */
export function predictedToken(logits, t) {
  const V = logits.dims[2];
  let best = 0;
  for (let v = 1; v < V; v++) if (logits.data[t * V + v] > logits.data[t * V + best]) best = v;
  return best;
}

/** Keys whose weight from query `row` is at least `least`, largest first (for the token lines). */
export function attendedKeys(weights, row, least = 0.05) {
  return weights[row]
    .map((w, key) => ({ key, w }))
    .filter(({ key, w }) => key <= row && w >= least)
    .sort((a, b) => b.w - a.w);
}
