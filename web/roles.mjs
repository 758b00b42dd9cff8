// The one table of the computation's matrices and their roles: what every scene, widget, the
// cell arithmetic and the stage files look up. One row per matrix name (the name the numbers,
// the data-matrix attributes and the URL use):
//   role       the colour role: the CSS variable --<role> (tokens.css) and .role-<role>
//   symbol     "K", or ['W', 'K'] for W with a subscript
//   letter     the lower-case letter of one row or entry (k₁, k₁,₂)
//   nameKey    i18n key of the matrix's name ("keys")
//   rowKey     i18n key naming one row ("key {i}"); rowSymbol is its short label (k₁)
//   shape      (dims) -> [rows, cols]
//   computed   true for what trace() computes (its cells show their arithmetic)
//   weight     for keys, queries and values: the weight matrix that makes them

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
});

/** Keys, then values, then queries: the order in which the article derives them. */
export const PROJECTIONS = ['keys', 'values', 'queries'];

/** "W_K" as plain text, for sentences; the weight's symbol [W, K] joined. */
export const symbolText = (symbol) =>
  Array.isArray(symbol) ? `${symbol[0]}_${symbol[1]}` : symbol;
