// Chapter 4's tiny language model, as data (no DOM, no worker): which texts it trains on, the
// baselines its loss is drawn against, the learner's sentence as ids, the next-character
// probabilities and losses read from the model's logits, and the head mask. The training and
// the model's forward pass and sampling run in a worker (createTrainer, app/language-run.mjs);
// the numbers here are read from what it returns.
//
// Names: V characters in the vocabulary (the text's distinct characters), T characters of the
// learner's sentence (T <= context), L layers, H heads per layer; logits [1, T, V], attention
// [L, 1, H, T, T].
import {
  TEXT_MODEL,
  TEXT_SAMPLING,
  createCharTokenizer,
  textTaskFor,
  trainEndOf,
} from 'attention-explained';
import { textHeadReader } from './head-reading.mjs';

/**
 * The texts the learner can choose: the Tang poems, the English classic (dist/texts/, made by
 * scripts/lib/texts.mjs), or their own. `file` is its name in dist/texts/; `snapshot` names
 * the model trained on it offline (web/snapshots/<name>.json and .f16, written by
 * scripts/train-snapshots.mjs), the model chapter 4 opens with.
 */
export const TEXTS = Object.freeze({
  tang: { file: 'tang300.txt', snapshot: 'poems' },
  kjv: { file: 'kjv-genesis-deuteronomy.txt', snapshot: 'english' },
});
export const TEXT_CHOICES = Object.freeze(['tang', 'kjv', 'own']);

/** The model every run trains (its vocabulary comes from the text). */
export const LANGUAGE_MODEL = TEXT_MODEL;
/** The most characters the model reads at once: a sentence or a written text is cut to it. */
export const CONTEXT = TEXT_MODEL.context;

/** Steps between the samples written while the model trains. */
export const SAMPLE_EVERY = 200;
/**
 * How the samples written while the model trains are drawn: TEXT_SAMPLING, the module's
 * sampling for a text model (a temperature below 1, the likeliest characters only).
 */
export const SAMPLE_SAMPLING = TEXT_SAMPLING;

/**
 * Steps between two held-out losses: every sample's step for a text whose held-out tenth is
 * at most HELD_OUT_CHARS characters, less often for a longer one (the English classic's
 * 81,510 held-out characters take seconds to score: every 1,800 steps), so that scoring
 * never takes much of the training's time.
 */
const HELD_OUT_CHARS = 10_000;
export const heldOutEvery = (length) =>
  SAMPLE_EVERY * Math.max(1, Math.ceil(length / 10 / HELD_OUT_CHARS));

/** Characters in each of those samples. */
export const SAMPLE_LENGTH = CONTEXT;
/** A run stops by itself here (about a minute or two of training on one core). */
export const MAX_LANGUAGE_STEPS = 6000;
/** Steps per chunk the page asks the worker for, and between its progress events. */
export const CHUNK_STEPS = 50;
export const PROGRESS_EVERY = 10;

/**
 * The sentence each text starts with (two lines of a poem; a verse cut to the context). The
 * learner's own text starts with its first line.
 */
export const DEFAULT_SENTENCES = Object.freeze({
  tang: '床前明月光，疑是地上霜。\n举头望明月，低头思故乡',
  kjv: 'God said, Let there be light.',
});

/** The shortest text of their own the model can train on (a window, then a held-out tenth). */
export const MIN_OWN_TEXT = Math.ceil((10 * (CONTEXT + 2)) / 9) + 2;

/** The first line of a text, cut to the context: a sentence in its vocabulary. */
export function firstSentence(text) {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return [...line].slice(0, CONTEXT).join('');
}

/** The sentence a text opens with: its default, or its first line when the default does not fit. */
export function defaultSentence(choice, tokenizer, text) {
  const wanted = DEFAULT_SENTENCES[choice];
  if (wanted && parseSentence(wanted, tokenizer).ids) return wanted;
  return firstSentence(text);
}

/**
 * The learner's sentence as ids: { ids: Int32Array } or { error: { key, params } } (empty, too
 * long, or a character the text never uses: it has no id).
 */
export function parseSentence(sentence, tokenizer, { least = 2 } = {}) {
  const characters = [...String(sentence)];
  if (characters.length < least) return { error: { key: 'ch4.sentence.short', params: { least } } };
  if (characters.length > CONTEXT)
    return { error: { key: 'ch4.sentence.long', params: { most: CONTEXT } } };
  const unknown = characters.find((c) => !tokenizer.characters.includes(c));
  if (unknown !== undefined)
    return {
      error: { key: 'ch4.sentence.unknown', params: { character: showCharacter(unknown) } },
    };
  return { ids: tokenizer.encode(characters.join('')) };
}

/**
 * Where `text` (`length` characters: describeText's count) holds `sentence`: 'training' when
 * it begins in the text's first nine tenths, the part the model trains on (the model may know
 * it by heart), 'heldOut' when it is only in the last tenth (never trained on), null when the
 * text does not hold it.
 */
export function sentencePlace(text, sentence, length = characterCount(text)) {
  const at = sentence ? text.indexOf(sentence) : -1;
  if (at < 0) return null;
  const start = characterCount(text.slice(0, at));
  return start < trainEndOf(length) ? 'training' : 'heldOut';
}

/** A character as a page shows it: a line break and a space named, others as they are. */
export function showCharacter(c) {
  if (c === '\n') return '↵';
  if (c === ' ') return '␣';
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c))
    return `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return c;
}

/** Characters in a text (code points, as the tokenizer counts them). */
export const characterCount = (text) => {
  let n = 0;
  for (const _ of text) n++; // eslint-disable-line no-unused-vars
  return n;
};

/**
 * What a text is to the model: how the text task reads it (textTaskFor: by its length,
 * characters seen fewer than minCount times share the unknown id, and training hides some
 * input characters behind it; the snapshots' texts were read so), its tokenizer, its ids, and
 * the unigram and bigram baselines (nats per character on its held-out tenth, counted on its
 * first nine tenths). Refused text (too short) throws a RangeError.
 */
export function describeText(text) {
  const task = textTaskFor(text);
  const tokenizer = createCharTokenizer(text, { minCount: task.minCount });
  const ids = tokenizer.encode(text);
  if (ids.length < MIN_OWN_TEXT) {
    throw new RangeError(
      `the text must hold at least ${MIN_OWN_TEXT} characters, got ${ids.length}`,
    );
  }
  // distinct: the text's different characters (the vocabulary keeps those seen minCount times).
  const distinct = new Set(text).size;
  return {
    task,
    tokenizer,
    length: ids.length,
    distinct,
    baselines: baselines(ids, tokenizer.vocabSize),
  };
}

/**
 * The losses two models without attention get on the held-out tenth (the text's last tenth,
 * as the trainer's evaluate()), in nats per character, both counted on the first nine tenths:
 *   unigram: p(c) = (count(c) + 1) / (N + V), each character by how often it occurs;
 *   bigram:  p(c | b) = (count(b c) + k_b · p_uni(c)) / (count(b) + k_b), the character before
 *            decides, k_b the number of different characters seen after b (Witten–Bell
 *            smoothing: a b followed by many different characters leans more on the unigram).
 */
export function baselines(ids, V) {
  const trainEnd = trainEndOf(ids.length);
  const uni = new Float64Array(V);
  for (let i = 0; i < trainEnd; i++) uni[ids[i]] += 1;
  const pUni = (c) => (uni[c] + 1) / (trainEnd + V);
  const pairs = new Map();
  const before = new Float64Array(V);
  const kinds = new Float64Array(V);
  for (let i = 1; i < trainEnd; i++) {
    const key = ids[i - 1] * V + ids[i];
    const seen = pairs.get(key) ?? 0;
    if (seen === 0) kinds[ids[i - 1]] += 1;
    pairs.set(key, seen + 1);
    before[ids[i - 1]] += 1;
  }
  let unigram = 0;
  let bigram = 0;
  let n = 0;
  for (let i = trainEnd + 1; i < ids.length; i++) {
    const c = ids[i];
    const b = ids[i - 1];
    const k = Math.max(1, kinds[b]);
    unigram -= Math.log(pUni(c));
    bigram -= Math.log(((pairs.get(b * V + c) ?? 0) + k * pUni(c)) / (before[b] + k));
    n += 1;
  }
  return { unigram: unigram / n, bigram: bigram / n };
}

/** Nats the held-out loss must rise above its best before it counts as risen (not noise). */
export const HELD_OUT_RISE = 0.02;
/**
 * Nats within which a held-out loss is "about the same as" a line without attention, neither
 * beating it nor above it: the snapshot of the poems scores 5.860 against unigram's 5.87, a
 * difference the lines' two printed decimals do not even show, and held-out scores move by
 * more than that from one scoring to the next.
 */
export const BASELINE_MARGIN = 0.02;
/** Training steps averaged for the training loss at a held-out score (one step is noisy). */
const TRAIN_LOSS_WINDOW = 50;

/**
 * The mean training loss of the TRAIN_LOSS_WINDOW steps up to `step` (losses[k] is step k+1);
 * at step 0 (a snapshot as loaded, scored before any step here) the first steps after it.
 */
function trainLossAt(losses, step) {
  const window =
    step > 0
      ? losses.slice(Math.max(0, step - TRAIN_LOSS_WINDOW), step)
      : losses.slice(0, TRAIN_LOSS_WINDOW);
  return window.length ? window.reduce((a, b) => a + b, 0) / window.length : NaN;
}

/**
 * What the held-out losses say of the model shown, against the two lines without attention:
 * whether its newest held-out loss is below each line by more than BASELINE_MARGIN (beats
 * it) or within it (near it), and whether it is memorising the training text: its held-out loss has risen more than
 * HELD_OUT_RISE from its best while the training loss kept falling.
 * @param heldOut [{ step, loss }] by step (run.heldOut)
 * @param losses the training loss at each step trained here (losses[k] is step k + 1)
 * @param lines { unigram, bigram } (baselines)
 * @returns null before the first held-out score, else
 *   { beatsUnigram, beatsBigram, nearUnigram, nearBigram, loss, best, overfitting }
 *   (best: the { step, loss } of the lowest held-out loss)
 */
export function heldOutVerdict(heldOut, losses, { unigram, bigram }) {
  const last = heldOut.at(-1);
  if (!last) return null;
  const best = heldOut.reduce((a, b) => (b.loss < a.loss ? b : a));
  const overfitting =
    last.loss - best.loss > HELD_OUT_RISE &&
    last.step > best.step &&
    trainLossAt(losses, last.step) < trainLossAt(losses, best.step);
  const near = (line) => Math.abs(last.loss - line) <= BASELINE_MARGIN;
  return {
    beatsUnigram: last.loss < unigram - BASELINE_MARGIN,
    beatsBigram: last.loss < bigram - BASELINE_MARGIN,
    nearUnigram: near(unigram),
    nearBigram: near(bigram),
    loss: last.loss,
    best,
    overfitting,
  };
}

/** Row t of logits [1, T, V] as probabilities (softmax, the row's maximum subtracted first). */
export function softmaxRow(logits, t) {
  const V = logits.dims[2];
  const row = logits.data.subarray(t * V, (t + 1) * V);
  let max = -Infinity;
  for (const x of row) max = Math.max(max, x);
  const p = new Float64Array(V);
  let sum = 0;
  for (let v = 0; v < V; v++) sum += p[v] = Math.exp(row[v] - max);
  for (let v = 0; v < V; v++) p[v] /= sum;
  return p;
}

/** The `k` most likely ids of a probability row, most likely first: [{ id, p }]. */
export function topChoices(p, k) {
  const order = Array.from(p.keys()).sort((a, b) => p[b] - p[a]);
  return order.slice(0, k).map((id) => ({ id, p: p[id] }));
}

/**
 * What the model says about a sentence of ids, from the logits of its forward pass: at every
 * place t < T-1 the probability of the true next character ids[t+1] and its loss −ln p; the
 * mean of those losses (the sentence's loss, nats per character); and at the last place that
 * has a true next character (T-2) its probabilities, top five and the true one's rank.
 */
export function sentenceScores(logits, ids) {
  const T = ids.length;
  const places = [];
  for (let t = 0; t + 1 < T; t++) {
    const p = softmaxRow(logits, t);
    const truth = ids[t + 1];
    places.push({ t, truth, p: p[truth], loss: -Math.log(p[truth]), best: topChoices(p, 1)[0].id });
  }
  const loss = places.reduce((sum, x) => sum + x.loss, 0) / places.length;
  const last = T - 2;
  const p = softmaxRow(logits, last);
  const truth = ids[T - 1];
  const rank = 1 + Array.from(p).filter((q) => q > p[truth]).length;
  return { places, loss, last: { t: last, p, truth, top: topChoices(p, 5), rank } };
}

/** A head mask with every head on: L·H ones, layer-major. */
export const allHeadsOn = (layers, heads) => new Array(layers * heads).fill(1);
/** The heads a mask has switched off, as [{ layer, head }] (0-based). */
export function headsOff(mask, heads) {
  const off = [];
  mask.forEach((on, k) => on || off.push({ layer: Math.floor(k / heads), head: k % heads }));
  return off;
}

/** One head's [T][T] weights out of attention [L, 1, H, T, T]. */
export function headOf(attention, layer, head) {
  const [, , H, T] = attention.dims;
  const base = (layer * H + head) * T * T;
  return Array.from({ length: T }, (_, i) =>
    Array.from(attention.data.subarray(base + i * T, base + (i + 1) * T)),
  );
}

/**
 * Every head of attention [L, 1, H, T, T] read on the sentence's characters (strings):
 * [{ layer, head, weights, ...readTextHead() }], layer-major (as a head mask).
 */
export function readSentenceHeads(attention, characters) {
  const [L, , H] = attention.dims;
  const read = textHeadReader(characters);
  const heads = [];
  for (let layer = 0; layer < L; layer++) {
    for (let head = 0; head < H; head++) {
      const weights = headOf(attention, layer, head);
      heads.push({ layer, head, weights, ...read(weights) });
    }
  }
  return heads;
}

/**
 * The share of generated lines of verse with five or seven characters between punctuation
 * marks (the stretches a sample holds whole: those after its first mark).
 */
export function verseShare(text) {
  const pieces = text.split(/[，。？！；：、\n]/u);
  const whole = pieces.slice(1, -1).filter((s) => s.length > 0);
  if (whole.length === 0) return null;
  return whole.filter((s) => [...s].length === 5 || [...s].length === 7).length / whole.length;
}
