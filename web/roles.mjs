// The one registry of the page's matrices and their roles, for every chapter: what every scene,
// widget, the cell arithmetic and the stage files look up.
//
// COLOUR_ROLES: the colour roles, each one CSS variable --c-<role> (styles/tokens.css, worn
// through the class .role-<role>) and one label, the i18n key role.<role> (en and zh).
//
// ROLES: one row per matrix name (the name the numbers, the data-matrix attributes and the URL
// use), chapter 1's first, then what chapter 2 (W_O) and chapter 3 (the block) add:
//   role       its colour role, one of COLOUR_ROLES
//   symbol     "K", or ['W', 'K'] for W with a subscript
//   letter     the lower-case letter of one row or entry (k₁, k₁,₂)
//   nameKey    i18n key of the matrix's name ("keys")
//   rowKey     i18n key naming one row ("key {i}"); rowSymbol is its short label (k₁)
//   shape      (dims) -> [rows, cols], for chapter 1's matrices
//   computed   true for what trace() computes (its cells show their arithmetic)
//   weight     for keys, queries and values: the weight matrix that makes them

/** The colour roles, in the order the computation meets them. */
export const COLOUR_ROLES = Object.freeze([
  'input',
  'key',
  'query',
  'value',
  'score',
  'weighted',
  'output',
]);

/** A colour role's CSS variable (tokens.css) and the i18n key of its label. */
export const roleColour = (role) => ({ cssVar: `--c-${role}`, labelKey: `role.${role}` });

export const ROLES = Object.freeze({
  x: {
    role: 'input',
    symbol: 'X',
    letter: 'x',
    nameKey: 'matrix.x',
    rowKey: 'label.input',
    rowSymbol: 'x',
    shape: ({ n, dIn }) => [n, dIn],
  },
  wKey: { role: 'key', symbol: ['W', 'K'], nameKey: 'matrix.wKey', shape: (d) => [d.dIn, d.dK] },
  wQuery: {
    role: 'query',
    symbol: ['W', 'Q'],
    nameKey: 'matrix.wQuery',
    shape: (d) => [d.dIn, d.dK],
  },
  wValue: {
    role: 'value',
    symbol: ['W', 'V'],
    nameKey: 'matrix.wValue',
    shape: (d) => [d.dIn, d.dV],
  },
  keys: {
    role: 'key',
    symbol: 'K',
    letter: 'k',
    nameKey: 'matrix.keys',
    rowKey: 'label.key',
    rowSymbol: 'k',
    shape: ({ n, dK }) => [n, dK],
    computed: true,
    weight: 'wKey',
  },
  queries: {
    role: 'query',
    symbol: 'Q',
    letter: 'q',
    nameKey: 'matrix.queries',
    rowKey: 'label.query',
    rowSymbol: 'q',
    shape: ({ n, dK }) => [n, dK],
    computed: true,
    weight: 'wQuery',
  },
  values: {
    role: 'value',
    symbol: 'V',
    letter: 'v',
    nameKey: 'matrix.values',
    rowKey: 'label.value',
    rowSymbol: 'v',
    shape: ({ n, dV }) => [n, dV],
    computed: true,
    weight: 'wValue',
  },
  // Scores, exponentials and weights have one row per query.
  scores: {
    role: 'score',
    symbol: 'S',
    letter: 's',
    nameKey: 'matrix.scores',
    rowKey: 'label.query',
    rowSymbol: 'q',
    shape: ({ n }) => [n, n],
    computed: true,
  },
  exponentials: {
    role: 'score',
    symbol: 'E',
    letter: 'e',
    nameKey: 'matrix.exponentials',
    rowKey: 'label.query',
    rowSymbol: 'q',
    shape: ({ n }) => [n, n],
    computed: true,
  },
  weights: {
    role: 'score',
    symbol: 'A',
    letter: 'a',
    nameKey: 'matrix.weights',
    rowKey: 'label.query',
    rowSymbol: 'q',
    shape: ({ n }) => [n, n],
    computed: true,
  },
  weighted: {
    role: 'weighted',
    symbol: 'AV',
    letter: 'a',
    nameKey: 'matrix.weighted',
    rowKey: 'label.value',
    rowSymbol: 'v',
    shape: ({ n, dV }) => [n, dV],
    computed: true,
  },
  outputs: {
    role: 'output',
    symbol: 'O',
    letter: 'o',
    nameKey: 'matrix.outputs',
    rowKey: 'label.output',
    rowSymbol: 'o',
    shape: ({ n, dV }) => [n, dV],
    computed: true,
  },
  // Chapter 2's layer puts the heads' outputs side by side (C) and maps them back to d_model.
  concat: { role: 'weighted', symbol: 'C', letter: 'c', nameKey: 'ch2.concat.name' },
  wOut: { role: 'output', symbol: ['W', 'O'], nameKey: 'ch2.matrix.wOut' },
  // Chapter 3's position vectors (one row per place), added to X, and its block: attention's output, the residual sum, LayerNorm, the MLP (W₁, ReLU, W₂).
  positions: { role: 'input', symbol: 'P', letter: 'p', nameKey: 'ch3.order.positions' },
  y: { role: 'output', symbol: 'Y', letter: 'y', nameKey: 'ch3.block.name.y' },
  residual: { role: 'input', symbol: 'R', letter: 'r', nameKey: 'ch3.block.name.residual' },
  normed: { role: 'input', symbol: 'N', letter: 'n', nameKey: 'ch3.block.name.normed' },
  hidden: { role: 'weighted', symbol: 'H', letter: 'h', nameKey: 'ch3.block.name.hidden' },
  mlp: { role: 'weighted', symbol: 'M', letter: 'm', nameKey: 'ch3.block.name.mlp' },
  output: { role: 'output', symbol: 'Z', letter: 'z', nameKey: 'ch3.block.name.output' },
  loss: { role: 'output', symbol: 'L', nameKey: 'ch3.tables.loss' },
  w1: { role: 'value', symbol: ['W', '1'], nameKey: 'ch3.block.name.w1' },
  w2: { role: 'value', symbol: ['W', '2'], nameKey: 'ch3.block.name.w2' },
});

/** Keys, then values, then queries: the order in which the article derives them. */
export const PROJECTIONS = ['keys', 'values', 'queries'];

/** "W_K" as plain text, for sentences; the weight's symbol [W, K] joined. */
export const symbolText = (symbol) =>
  Array.isArray(symbol) ? `${symbol[0]}_${symbol[1]}` : symbol;
