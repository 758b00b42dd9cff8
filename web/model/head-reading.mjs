// The one reader of "which head does what": every head's attention weights on one row of
// tokens, read as what most of its weight goes to. Chapter 3's train stage heatmaps, the
// tables, what the heads did at the drop, the heads-learned stage and the heatmaps' files all
// take their words from here, on the same row (the run's held-out row), so they name the same
// heads; chapter 4 reads its character model's heads on the learner's sentence with the text
// patterns (readTextHead: previous character, same place in the line before, punctuation,
// start of the line). No DOM.
//
// Names: T tokens of the row, weights [T][T] (rows are queries, columns keys; a query sees
// itself and the keys before it). Row 0 (⟨s⟩, which can only look at itself) is left out of
// every mean.

/**
 * What a head can read as, in the order a tie is settled: the token just before, the token
 * after the earlier copy of the current one (an induction head), the earlier copy itself, one
 * fixed token wherever it stands (⟨s⟩, or one letter), the current token itself; else leaning
 * to one of these (a clear share, short of half), spread over many tokens (diffuse), or
 * focused with no one of these patterns (mixed).
 */
export const HEAD_KINDS = Object.freeze([
  'previous',
  'induction',
  'copy',
  'fixed',
  'self',
  'leans',
  'diffuse',
  'mixed',
]);
/** A head reads as a pattern when at least this share of its weight, on average, goes there. */
export const PATTERN_SHARE = 0.5;
/**
 * Short of PATTERN_SHARE, a head with at least this share on one pattern leans to it: a head
 * with 0.497 on the previous token is no more "diffuse" than one with 0.532 is plainly a
 * previous-token head. (Uniform weights put 2/T on the previous token: under 0.1 at T = 25.)
 */
export const LEAN_SHARE = 0.4;
/** Without a pattern, a head spread over this many tokens or more (on average) is diffuse. */
export const DIFFUSE_KEYS = 3;

/** The mean weight a head puts on the previous token (rows 1..T-1): 1 for a previous-token head. */
export function previousTokenScore(weights) {
  let sum = 0;
  for (let i = 1; i < weights.length; i++) sum += weights[i][i - 1];
  return weights.length > 1 ? sum / (weights.length - 1) : 0;
}

/**
 * The mean weight a head puts, from each token that occurred before, on the token right after
 * that earlier occurrence (where an induction head looks); null when no token repeats.
 */
export function inductionScore(weights, tokens) {
  let sum = 0;
  let counted = 0;
  for (let t = 1; t < tokens.length; t++) {
    const earlier = tokens.lastIndexOf(tokens[t], t - 1);
    if (earlier < 1 || earlier + 1 >= t) continue;
    sum += weights[t][earlier + 1];
    counted += 1;
  }
  return counted ? sum / counted : null;
}

/**
 * The mean weight, from each token that occurred before, on its earlier copies (the token
 * itself, not the one after it); null when no token repeats.
 */
export function copyScore(weights, tokens) {
  let sum = 0;
  let counted = 0;
  for (let t = 1; t < tokens.length; t++) {
    let share = 0;
    let copies = 0;
    for (let j = 1; j < t; j++) {
      if (tokens[j] !== tokens[t]) continue;
      share += weights[t][j];
      copies += 1;
    }
    if (copies === 0) continue;
    sum += share;
    counted += 1;
  }
  return counted ? sum / counted : null;
}

/**
 * The token a head keeps looking at wherever it stands: for each token id, the mean weight on
 * it from the queries that can see it (from its first place on), if they are at least half of
 * the rows. Returns the largest: { token, share } (token -1, share 0 when none qualifies).
 */
export function fixedTokenScore(weights, tokens) {
  const rows = tokens.length - 1;
  let best = { token: -1, share: 0 };
  for (const token of new Set(tokens)) {
    const first = tokens.indexOf(token);
    const seeing = tokens.length - Math.max(1, first);
    if (seeing < rows / 2) continue;
    let sum = 0;
    for (let i = Math.max(1, first); i < tokens.length; i++) {
      for (let j = first; j <= i; j++) if (tokens[j] === token) sum += weights[i][j];
    }
    if (sum / seeing > best.share) best = { token, share: sum / seeing };
  }
  return best;
}

/** The mean weight a head puts on the current token itself (rows 1..T-1). */
export function selfScore(weights) {
  let sum = 0;
  for (let i = 1; i < weights.length; i++) sum += weights[i][i];
  return weights.length > 1 ? sum / (weights.length - 1) : 0;
}

/**
 * How many keys a query spreads its weight over, on average: e to the entropy of its row
 * (1 for a row on one key, k for a row spread evenly over k).
 */
export function spreadKeys(weights) {
  let sum = 0;
  for (let i = 1; i < weights.length; i++) {
    let entropy = 0;
    for (let j = 0; j <= i; j++) {
      const w = weights[i][j];
      if (w > 0) entropy -= w * Math.log(w);
    }
    sum += Math.exp(entropy);
  }
  return weights.length > 1 ? sum / (weights.length - 1) : 1;
}

/**
 * One head's reading: { kind, toward?, share, token?, keys, scores } where kind is one of
 * HEAD_KINDS, toward the pattern a head that leans leans to, share the mean weight on that
 * pattern (for diffuse and mixed: none, 0), token the fixed token's id (kind 'fixed', or
 * leaning to it), keys the mean number of keys a query spreads over, and scores every
 * pattern's share ({ previous, induction, copy, fixed, self }; induction and copy null when no
 * token repeats).
 */
export function readHead(weights, tokens) {
  const fixed = fixedTokenScore(weights, tokens);
  const scores = {
    previous: previousTokenScore(weights),
    induction: inductionScore(weights, tokens),
    copy: copyScore(weights, tokens),
    fixed: fixed.share,
    self: selfScore(weights),
  };
  const read = pickKind(scores, HEAD_KINDS.slice(0, 5), spreadKeys(weights), LEAN_SHARE);
  const onFixed = read.kind === 'fixed' || read.toward === 'fixed';
  return onFixed ? { ...read, token: fixed.token } : read;
}

/**
 * A character model's head, short of PATTERN_SHARE, leans to a pattern with at least this
 * share, if that is at least LEAN_OVER_EVEN times the share the same sentence gives the
 * pattern with even weights (every row spread over all the characters it sees): a head with
 * 0.30 on the previous character draws a band under the diagonal, but 0.28 on the
 * punctuation of a line with many marks is what spreading evenly gives.
 */
export const TEXT_LEAN_SHARE = 0.25;
export const LEAN_OVER_EVEN = 2;

/**
 * The reading from the patterns' shares: the pattern (in `patterns`' order for a tie) with the
 * most weight if it has at least PATTERN_SHARE; else, with `lean` given, 'leans' toward it if
 * it has at least that; else diffuse (spread over DIFFUSE_KEYS keys or more) or mixed.
 * Returns { kind, toward?, share, keys, scores }.
 */
function pickKind(scores, patterns, keys, lean = Infinity, chance = null) {
  let best = null;
  for (const name of patterns) {
    if ((scores[name] ?? 0) > (best ? scores[best] : 0)) best = name;
  }
  const share = best ? scores[best] : 0;
  if (share >= PATTERN_SHARE) return { kind: best, share, keys, scores };
  const aboveChance = !chance || share >= LEAN_OVER_EVEN * (chance[best] ?? 0);
  if (share >= lean && aboveChance) return { kind: 'leans', toward: best, share, keys, scores };
  return { kind: keys >= DIFFUSE_KEYS ? 'diffuse' : 'mixed', share: 0, keys, scores };
}

/**
 * Every head of a model read on one row: `weightsOf(layer, head)` gives a head's [T][T]
 * weights. Returns { heads: [{ layer, head, weights, ...readHead() }], previousHead,
 * inductionHead }: the induction head read most clearly (null: this model has none) and the
 * previous-token head read most clearly in a layer before it (or, with no induction head, in
 * any layer; null when there is none).
 */
export function readHeads({ layers, heads: perLayer, weightsOf }, tokens) {
  const heads = [];
  for (let layer = 0; layer < layers; layer++) {
    for (let head = 0; head < perLayer; head++) {
      const weights = weightsOf(layer, head);
      heads.push({ layer, head, weights, ...readHead(weights, tokens) });
    }
  }
  const clearest = (list) => list.reduce((a, b) => (b.share > a.share ? b : a), list[0]) ?? null;
  const inductionHead = clearest(heads.filter((x) => x.kind === 'induction'));
  const previousHead = clearest(
    heads.filter(
      (x) => x.kind === 'previous' && (inductionHead === null || x.layer < inductionHead.layer),
    ),
  );
  return { heads, previousHead, inductionHead };
}

// --- Text: a character model's heads on a sentence ---------------------------------------
// Characters are strings here (one per token). A line ends at a line break or at a mark that
// ends a stretch of verse or prose (，。？！；： and their ASCII twins), so that a couplet's
// second half is "the line after" its first.

/** What a head of a character model can read as, in the order a tie is settled. */
export const TEXT_HEAD_KINDS = Object.freeze([
  'previous',
  'line',
  'punctuation',
  'lineStart',
  'self',
  'leans',
  'diffuse',
  'mixed',
]);

const LINE_END = /^[\n，。？！；：,.?!;:]$/u;
const PUNCTUATION = /^[\p{P}\n]$/u;

/** Each character's line (0, 1, …) and its place in it (0 first), by LINE_END. */
function linePlaces(characters) {
  let line = 0;
  let place = 0;
  return characters.map((c) => {
    const here = { line, place };
    if (LINE_END.test(c)) [line, place] = [line + 1, 0];
    else place += 1;
    return here;
  });
}

/**
 * The mean weight a head puts, from each character with one at the same place in the line
 * before, on that character (the parallel place of a couplet); null when no line has one
 * before it.
 */
export function sameColumnScore(weights, characters) {
  const places = linePlaces(characters);
  let sum = 0;
  let counted = 0;
  for (let t = 1; t < characters.length; t++) {
    const { line, place } = places[t];
    const j = places.findIndex((x) => x.line === line - 1 && x.place === place);
    if (line === 0 || j < 0) continue;
    sum += weights[t][j];
    counted += 1;
  }
  return counted ? sum / counted : null;
}

/**
 * The mean weight a head puts on the punctuation marks (and line breaks) before a character,
 * over the characters that have one before them; null when none has.
 */
export function punctuationScore(weights, characters) {
  let sum = 0;
  let counted = 0;
  for (let t = 1; t < characters.length; t++) {
    let share = 0;
    let marks = 0;
    for (let j = 0; j < t; j++) {
      if (!PUNCTUATION.test(characters[j])) continue;
      share += weights[t][j];
      marks += 1;
    }
    if (marks === 0) continue;
    sum += share;
    counted += 1;
  }
  return counted ? sum / counted : null;
}

/**
 * The mean weight a head puts on the first character of the current line, from the
 * characters after it in that line; null when there are none.
 */
export function lineStartScore(weights, characters) {
  const places = linePlaces(characters);
  let sum = 0;
  let counted = 0;
  for (let t = 1; t < characters.length; t++) {
    if (places[t].place === 0) continue;
    sum += weights[t][t - places[t].place];
    counted += 1;
  }
  return counted ? sum / counted : null;
}

/**
 * A character model's head read on a sentence of `characters` (strings): { kind, share,
 * keys, scores } with kind one of TEXT_HEAD_KINDS and scores every pattern's share
 * ({ previous, line, punctuation, lineStart, self }; null where the sentence has no place for
 * it), by the same rule as readHead: the pattern with the most weight, if at least
 * PATTERN_SHARE; else 'leans' toward it (TEXT_LEAN_SHARE, well above even weights); else
 * diffuse or mixed by spreadKeys.
 */
export function readTextHead(weights, characters) {
  return textHeadReader(characters)(weights);
}

/**
 * readTextHead for every head of a model on one sentence: (weights) => reading, with the
 * shares even weights give the sentence's patterns counted once.
 */
export function textHeadReader(characters) {
  const even = textScores(evenWeights(characters.length), characters);
  const patterns = TEXT_HEAD_KINDS.slice(0, 5);
  return (weights) =>
    pickKind(textScores(weights, characters), patterns, spreadKeys(weights), TEXT_LEAN_SHARE, even);
}

/** Every text pattern's share in `weights` [T][T] on `characters`. */
function textScores(weights, characters) {
  return {
    previous: previousTokenScore(weights),
    line: sameColumnScore(weights, characters),
    punctuation: punctuationScore(weights, characters),
    lineStart: lineStartScore(weights, characters),
    self: selfScore(weights),
  };
}

/** Causal weights [T][T] with every row spread evenly over the keys it sees. */
function evenWeights(T) {
  return Array.from({ length: T }, (_, i) =>
    Array.from({ length: T }, (_, j) => (j <= i ? 1 / (i + 1) : 0)),
  );
}
