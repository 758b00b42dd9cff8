// The walkthrough as a list of steps, in the article's order. A step names the scene that
// draws it and that scene's parameters; its id is what `#step=` links use.

/** The article's stages; every step belongs to one. */
export const STAGES = [1, 2, 3, 4, 5, 6, 7, 8];

/** Keys, then values, then queries: the order in which the article derives them. */
export const PROJECTIONS = [
  { role: 'keys', weight: 'wKey', symbol: 'K', colour: 'key' },
  { role: 'values', weight: 'wValue', symbol: 'V', colour: 'value' },
  { role: 'queries', weight: 'wQuery', symbol: 'Q', colour: 'query' },
];

export const projectionOf = (role) => PROJECTIONS.find((p) => p.role === role);

/**
 * Seconds a step takes at 1× speed: a base plus a beat per item the scene animates one after
 * another (a column, a key, a value row...).
 */
function duration(items, perItem = 1.1) {
  return 1.4 + items * perItem;
}

/**
 * @param dims { n, dIn, dK, dV }
 * @returns steps: { id, stage, scene, params, duration }
 */
export function buildSteps({ n, dK, dV }) {
  const steps = [];
  const add = (id, stage, scene, params, seconds) =>
    steps.push({ id, stage, scene, params, duration: seconds });

  add('inputs', 1, 'inputs', {}, duration(n, 0.5));
  add('weights', 2, 'weights', {}, duration(3, 0.7));
  for (const projection of PROJECTIONS) {
    const cols = projection.role === 'values' ? dV : dK;
    for (let i = 0; i < n; i++) {
      add(
        `${projection.role}-row-${i + 1}`,
        3,
        'projection-row',
        { ...projection, row: i },
        duration(cols),
      );
    }
    add(`${projection.role}-matrix`, 3, 'projection-matrix', projection, duration(n * cols, 0.25));
  }
  for (let i = 0; i < n; i++) {
    // Query 1 walks stages 4 to 7; every other query repeats them inside stage 8.
    const stage = (first) => (i === 0 ? first : 8);
    add(`scores-${i + 1}`, stage(4), 'scores', { query: i }, duration(n));
    add(`softmax-${i + 1}`, stage(5), 'softmax', { query: i }, duration(3));
    add(`weighted-${i + 1}`, stage(6), 'weighted', { query: i }, duration(n, 0.9));
    add(`sum-${i + 1}`, stage(7), 'sum', { query: i }, duration(dV));
  }
  add('result', 8, 'result', {}, duration(6, 0.6));
  return steps;
}

/** Index of the step with this id, or -1. */
export function indexOfStep(steps, id) {
  return steps.findIndex((step) => step.id === id);
}
