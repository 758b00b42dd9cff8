// The page's state in the URL hash, e.g.
//   #step=scores-1&scaled=1&causal=1&rounding=article&x=1,0;0,2&wk=..&wq=..&wv=..
// and chapter 2's layer, when it is not the chapter's own example:
//   &heads=4&kv=2&lx=..&lq=..&lk=..&lv=..&lo=..
// and chapter 3's training switches that are not the defaults, and a trained model's
// parameters (model/parameters-link.mjs: float16, deflate-raw, base64url; decoded by the app):
//   &tpos=learned&tlayers=1&theads=2&tseed=7&tspeed=slow&trained=..
// and chapter 3's own numbers when they are not the defaults (model/learning.mjs): the
// shuffled order (tokens from 1), output 1's target and the learning steps taken:
//   &order=3,1,2&target=5,2,3&steps=11
// A link may name a chapter instead of a step (`#chapter=3`: its first step; an embedded
// explainer's chapter attribute becomes this).
// Links are shared, so the hash is untrusted input: it is parsed with bounded, linear checks
// (no backtracking-prone patterns on long strings), every value is validated, and anything
// unexpected rejects the whole hash. The caller then shows the article's example with a
// notice that names the problem as plain text. The one exception is a trained model's link
// that cannot be used (too long, not base64url): the rest of the hash still applies, and the
// model's own notice says why it was not loaded (trainedProblem).
import { dimsOf, LIMITS, MAX_ABS_ENTRY } from './model/example.mjs';
import { LAYER_LIMITS, kvChoices } from './model/layer.mjs';
import { MAX_STEPS } from './model/learning-step.mjs';
import { MAX_LINK_LENGTH } from './model/parameters-link.mjs';
import { TRAINING_DEFAULTS, trainingSettingsProblem } from './model/training.mjs';

// A number in the hash is JavaScript's shortest round-trip text for it (String(value)), at
// most 26 characters within ±1000 ("-0.0000012345678901234567", "-1.2345678901234567e-100").
const MAX_NUMBER_LENGTH = 26;
const MAX_MATRIX_TEXT = LIMITS.maxTokens * LIMITS.maxDim * (MAX_NUMBER_LENGTH + 1);
// The layer's widest matrix: W_Q or W_O, d_model × heads·d_head numbers (4 × 16).
const MAX_LAYER_CELLS = Math.max(
  LAYER_LIMITS.maxTokens * LAYER_LIMITS.dModel,
  LAYER_LIMITS.dModel * LAYER_LIMITS.maxHeads * LAYER_LIMITS.maxHeadSize,
);
const MAX_LAYER_MATRIX_TEXT = MAX_LAYER_CELLS * (MAX_NUMBER_LENGTH + 1);
// Chapter 3's order ("8,7,…,1") and target (one row of numbers).
const MAX_ORDER_TEXT = LIMITS.maxTokens * 2;
const MAX_TARGET_TEXT = LIMITS.maxDim * (MAX_NUMBER_LENGTH + 1);
const MAX_HASH_LENGTH =
  4 * (MAX_MATRIX_TEXT + 4) +
  5 * (MAX_LAYER_MATRIX_TEXT + 4) +
  160 +
  MAX_LINK_LENGTH +
  MAX_ORDER_TEXT +
  MAX_TARGET_TEXT +
  140;
const MAX_PARTS = 28;
const MATRIX_KEYS = { x: 'x', wk: 'wKey', wq: 'wQuery', wv: 'wValue' };
const LAYER_KEYS = { lx: 'x', lq: 'wQuery', lk: 'wKey', lv: 'wValue', lo: 'wOut' };
// Chapter 3's switches (model/training.mjs): a number where the default is one.
const TRAINING_KEYS = {
  tpos: 'positions',
  tlayers: 'layers',
  theads: 'heads',
  tseed: 'seed',
  tspeed: 'speed',
};
// A word, or a number as the page writes it: a canonical integer (no 0x10, 1e3, 01 or 2e0,
// which Number() would read as something the page never wrote).
const TRAINING_VALUE_PATTERN = /^(?:[a-z]{1,10}|0|[1-9][0-9]{0,9})$/;
const LINK_PATTERN = /^[A-Za-z0-9_-]+$/;
// One shape rule for both chapters' matrices: at most this many rows and columns.
const CHAPTER_1_BOUNDS = { rows: Math.max(LIMITS.maxDim, LIMITS.maxTokens), cols: LIMITS.maxDim };
const LAYER_BOUNDS = {
  rows: Math.max(LAYER_LIMITS.maxTokens, LAYER_LIMITS.maxHeads * LAYER_LIMITS.maxHeadSize),
  cols: LAYER_LIMITS.maxHeads * LAYER_LIMITS.maxHeadSize,
};
const STEP_PATTERN = /^(?:[a-z]{1,12}(?:-[a-z]{1,12})?(?:-\d{1,2})?|\d{1,3})$/;
// Exactly the forms String(value) takes for |value| <= 1000: bounded, no backtracking.
const NUMBER_PATTERN = /^-?\d{1,4}(?:\.\d{1,24})?(?:e-\d{1,3})?$/;

/** Shortens untrusted text for a message (it is shown as text, never as HTML). */
export function excerpt(text, max = 40) {
  // Control characters, and the bidi embeddings, overrides and isolates (U+202A–202E,
  // U+2066–2069), which would reorder the rest of the sentence they are shown in.
  const printable = String(text).replace(
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    '?',
  );
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

const problem = (key, params = {}) => ({ ok: false, problem: { key, params } });

function parseFlag(value) {
  if (value === '1') return true;
  if (value === '0') return false;
  return undefined;
}

/** "1,0;0,2" -> [[1, 0], [0, 2]] or undefined if anything is off. */
function parseMatrix(text, bounds = CHAPTER_1_BOUNDS) {
  if (text.length > bounds.rows * bounds.cols * (MAX_NUMBER_LENGTH + 1)) return undefined;
  const rows = text.split(';');
  if (rows.length > bounds.rows) return undefined;
  const matrix = [];
  for (const rowText of rows) {
    const cells = rowText.split(',');
    if (cells.length < 1 || cells.length > bounds.cols) return undefined;
    const row = [];
    for (const cell of cells) {
      if (!NUMBER_PATTERN.test(cell)) return undefined;
      const value = Number(cell);
      if (!Number.isFinite(value) || Math.abs(value) > MAX_ABS_ENTRY) return undefined;
      row.push(value === 0 ? 0 : value);
    }
    if (matrix.length > 0 && row.length !== matrix[0].length) return undefined;
    matrix.push(row);
  }
  return matrix;
}

function checkShapes(example) {
  const { n, dIn, dK, dV } = dimsOf(example);
  const within = (value, max) => value >= 1 && value <= max;
  if (!within(n, LIMITS.maxTokens) || !within(dIn, LIMITS.maxDim)) return 'x';
  if (example.wKey.length !== dIn || !within(dK, LIMITS.maxDim)) return 'wk';
  if (example.wQuery.length !== dIn || example.wQuery[0].length !== dK) return 'wq';
  if (example.wValue.length !== dIn || !within(dV, LIMITS.maxDim)) return 'wv';
  return null;
}

/** The layer's shape rules (layer.mjs); the name of the first part that breaks one, or null. */
function checkLayerShapes(layer) {
  const { heads, kvHeads } = layer;
  const n = layer.x.length;
  const dModel = LAYER_LIMITS.dModel;
  if (n < 1 || n > LAYER_LIMITS.maxTokens || layer.x[0].length !== dModel) return 'lx';
  const dHead = layer.wQuery[0].length / heads;
  if (layer.wQuery.length !== dModel) return 'lq';
  if (!Number.isInteger(dHead) || dHead < 1 || dHead > LAYER_LIMITS.maxHeadSize) return 'lq';
  for (const [key, name] of [
    ['lk', 'wKey'],
    ['lv', 'wValue'],
  ]) {
    if (layer[name].length !== dModel || layer[name][0].length !== kvHeads * dHead) return key;
  }
  if (layer.wOut.length !== heads * dHead || layer.wOut[0].length !== dModel) return 'lo';
  return null;
}

/** "3,1,2" -> [2, 0, 1]: a shuffled order of up to LIMITS.maxTokens tokens, or undefined. */
function parseOrder(text) {
  if (text.length > MAX_ORDER_TEXT || !/^[1-9](?:,[1-9])*$/.test(text)) return undefined;
  const order = text.split(',').map((k) => Number(k) - 1);
  const isPermutation =
    order.length <= LIMITS.maxTokens &&
    order.every((k, i) => order.indexOf(k) === i && k < order.length);
  return isPermutation ? order : undefined;
}

/** The learning steps taken: a whole number from 1 to MAX_STEPS, or undefined. */
function parseSteps(text) {
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const steps = Number(text);
  return steps >= 1 && steps <= MAX_STEPS ? steps : undefined;
}

/** Chapter 3's own numbers, each read by its rule (undefined: refused). */
const LEARNING_PARSERS = {
  order: parseOrder,
  target: (text) =>
    text.length > MAX_TARGET_TEXT
      ? undefined
      : parseMatrix(text, { rows: 1, cols: LIMITS.maxDim })?.[0],
  steps: parseSteps,
};

function parseHeadCount(value) {
  return /^[1-9]$/.test(value) ? Number(value) : undefined;
}

/**
 * @param {string} hash location.hash, with or without the leading '#'
 * @returns {{ ok: true, state: object, trainedProblem?: { key, params } }
 *   | { ok: false, problem: { key, params } }}
 *   state: { step?, chapter?, scaled?, causal?, rounding?, example?, layer?, training?,
 *   trained?, learning? } (learning: the keys the hash names of { order, target, steps });
 *   trainedProblem: why a `trained=` value was left out (the rest of the hash applies)
 */
export function parseHash(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  const state = {};
  if (text === '') return { ok: true, state };
  if (text.length > MAX_HASH_LENGTH) return problem('url.tooLong', { length: text.length });
  const parts = text.split('&');
  if (parts.length > MAX_PARTS) return problem('url.tooManyParts');
  const seen = new Set();
  const matrices = {};
  const layerMatrices = {};
  const headCounts = {};
  const training = {};
  const learning = {};
  let trainedProblem = null;
  for (const part of parts) {
    const equals = part.indexOf('=');
    const rawKey = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? '' : part.slice(equals + 1);
    let key;
    let value;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue);
    } catch {
      return problem('url.badEncoding', { text: excerpt(part) });
    }
    if (seen.has(key)) return problem('url.duplicateKey', { key: excerpt(key) });
    seen.add(key);
    if (key === 'step') {
      if (!STEP_PATTERN.test(value)) return problem('url.badStep', { value: excerpt(value) });
      state.step = value;
    } else if (key === 'scaled' || key === 'causal') {
      const flag = parseFlag(value);
      if (flag === undefined) return problem('url.badValue', { key, value: excerpt(value) });
      state[key] = flag;
    } else if (key === 'rounding') {
      if (value !== 'exact' && value !== 'article') {
        return problem('url.badValue', { key, value: excerpt(value) });
      }
      state.rounding = value;
    } else if (Object.hasOwn(MATRIX_KEYS, key)) {
      const matrix = parseMatrix(value);
      if (!matrix) return problem('url.badMatrix', { key, value: excerpt(value) });
      matrices[MATRIX_KEYS[key]] = matrix;
    } else if (Object.hasOwn(LAYER_KEYS, key)) {
      const matrix = parseMatrix(value, LAYER_BOUNDS);
      if (!matrix) return problem('url.badMatrix', { key, value: excerpt(value) });
      layerMatrices[LAYER_KEYS[key]] = matrix;
    } else if (key === 'heads' || key === 'kv') {
      const count = parseHeadCount(value);
      if (count === undefined || count > LAYER_LIMITS.maxHeads)
        return problem('url.badValue', { key, value: excerpt(value) });
      headCounts[key] = count;
    } else if (Object.hasOwn(TRAINING_KEYS, key)) {
      if (!TRAINING_VALUE_PATTERN.test(value))
        return problem('url.badValue', { key, value: excerpt(value) });
      const name = TRAINING_KEYS[key];
      training[name] = typeof TRAINING_DEFAULTS[name] === 'number' ? Number(value) : value;
    } else if (Object.hasOwn(LEARNING_PARSERS, key)) {
      const read = LEARNING_PARSERS[key](value);
      if (read === undefined) return problem('url.badValue', { key, value: excerpt(value) });
      learning[key] = read;
    } else if (key === 'trained') {
      trainedProblem = trainedLinkProblem(value);
      if (!trainedProblem) state.trained = value;
    } else if (key === 'chapter') {
      state.chapter = value; // the app knows the chapters (app/url.mjs)
    } else {
      return problem('url.unknownKey', { key: excerpt(key) });
    }
  }
  if (Object.keys(training).length > 0) {
    const settings = { ...TRAINING_DEFAULTS, ...training };
    const wrong = trainingSettingsProblem(settings);
    if (wrong) {
      const key = Object.keys(TRAINING_KEYS).find((k) => TRAINING_KEYS[k] === wrong.name);
      return problem('url.badValue', { key, value: excerpt(String(settings[wrong.name])) });
    }
    state.training = settings;
  }
  if (Object.keys(learning).length > 0) state.learning = learning;
  const given = Object.keys(matrices).length;
  if (given > 0) {
    if (given !== 4) return problem('url.incompleteExample');
    const badKey = checkShapes(matrices);
    if (badKey) return problem('url.badShape', { key: badKey });
    state.example = matrices;
  }
  const layerGiven = Object.keys(layerMatrices).length + Object.keys(headCounts).length;
  if (layerGiven > 0) {
    if (layerGiven !== 7) return problem('url.incompleteExample');
    const { heads, kv: kvHeads } = headCounts;
    if (!kvChoices(heads).includes(kvHeads))
      return problem('url.badValue', { key: 'kv', value: String(kvHeads) });
    const layer = { heads, kvHeads, ...layerMatrices };
    const badKey = checkLayerShapes(layer);
    if (badKey) return problem('url.badShape', { key: badKey });
    state.layer = layer;
  }
  return trainedProblem ? { ok: true, state, trainedProblem } : { ok: true, state };
}

/** Why a `trained=` value cannot be a model link ({ key, params }), or null when it may be. */
function trainedLinkProblem(value) {
  if (value.length > MAX_LINK_LENGTH)
    return { key: 'url.trainedTooLong', params: { length: value.length, most: MAX_LINK_LENGTH } };
  if (!LINK_PATTERN.test(value)) return { key: 'url.trainedNotText', params: {} };
  return null;
}

/**
 * The shortest text that reads back as exactly this number (String(value)): whatever the
 * editor accepts, the link carries without loss, and parseMatrix accepts it.
 */
const formatForUrl = (value) => String(value === 0 ? 0 : value);

const matrixToText = (matrix) => matrix.map((row) => row.map(formatForUrl).join(',')).join(';');

/**
 * The hash for a state; settings and switches at their defaults and the article's own example
 * are left out, so the common link stays short: "#step=softmax-1".
 */
export function serializeHash({
  step,
  scaled,
  causal,
  rounding,
  example,
  isArticleExample,
  layer,
  isLayerExample = true,
  training = TRAINING_DEFAULTS,
  trained = null,
  learning = { order: null, target: null, steps: 1 },
}) {
  const parts = [`step=${encodeURIComponent(step)}`];
  if (scaled) parts.push('scaled=1');
  if (causal) parts.push('causal=1');
  if (rounding === 'article') parts.push('rounding=article');
  if (example && !isArticleExample) {
    for (const [key, name] of Object.entries(MATRIX_KEYS)) {
      parts.push(`${key}=${matrixToText(example[name])}`);
    }
  }
  if (layer && !isLayerExample) {
    parts.push(`heads=${layer.heads}`, `kv=${layer.kvHeads}`);
    for (const [key, name] of Object.entries(LAYER_KEYS)) {
      parts.push(`${key}=${matrixToText(layer[name])}`);
    }
  }
  for (const [key, name] of Object.entries(TRAINING_KEYS)) {
    if (training[name] !== TRAINING_DEFAULTS[name]) parts.push(`${key}=${training[name]}`);
  }
  if (trained) parts.push(`trained=${trained}`);
  if (learning.order) parts.push(`order=${learning.order.map((k) => k + 1).join(',')}`);
  if (learning.target) parts.push(`target=${matrixToText([learning.target])}`);
  if (learning.steps !== 1) parts.push(`steps=${learning.steps}`);
  return `#${parts.join('&')}`;
}
