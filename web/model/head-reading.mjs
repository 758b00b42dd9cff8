// Chapter 3's one reader of "which head does what": every head's attention weights on one
// row of tokens, read as what most of its weight goes to. The train stage's heatmaps, the
// tables, what the heads did at the drop, the heads-learned stage and the heatmaps' files all
// take their words from here, on the same row (the run's held-out row), so they name the same
// heads. No DOM.
//
// Names: T tokens of the row, weights [T][T] (rows are queries, columns keys; a query sees
// itself and the keys before it). Row 0 (⟨s⟩, which can only look at itself) is left out of
// every mean.

/**
 * What a head can read as, in the order a tie is settled: the token just before, the token
 * after the earlier copy of the current one (an induction head), the earlier copy itself, one
 * fixed token wherever it stands (⟨s⟩, or one letter), the current token itself; else spread
 * over many tokens (diffuse), or focused with no one of these patterns (mixed).
 */
export const HEAD_KINDS = Object.freeze([
  'previous',
  'induction',
  'copy',
  'fixed',
  'self',
  'diffuse',
  'mixed',
]);
/** A head reads as a pattern when at least this share of its weight, on average, goes there. */
export const PATTERN_SHARE = 0.5;
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
 * One head's reading: { kind, share, token?, keys, scores } where kind is one of HEAD_KINDS,
 * share the mean weight on that pattern (for diffuse and mixed: none, 0), token the fixed
 * token's id (kind 'fixed'), keys the mean number of keys a query spreads over, and scores
 * every pattern's share ({ previous, induction, copy, fixed, self }; induction and copy null
 * when no token repeats).
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
  const keys = spreadKeys(weights);
  let kind = null;
  for (const name of HEAD_KINDS.slice(0, 5)) {
    const share = scores[name] ?? 0;
    if (share >= PATTERN_SHARE && share > (kind ? scores[kind] : 0)) kind = name;
  }
  if (kind === null)
    return { kind: keys >= DIFFUSE_KEYS ? 'diffuse' : 'mixed', share: 0, keys, scores };
  return {
    kind,
    share: scores[kind],
    ...(kind === 'fixed' ? { token: fixed.token } : {}),
    keys,
    scores,
  };
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
