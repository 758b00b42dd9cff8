// Every matrix of the computation as a plain table, always up to date: the accessible,
// copyable twin of the animated scenes. Computed cells show their arithmetic on hover/focus.
// The panel starts closed, so its tables are not built while the page starts: they are built
// a few at a time when the page is idle, and all at once if the reader opens the panel first.
import { h } from '../dom.mjs';
import { formatExact } from '../format.mjs';
import { at } from '../model/matrix.mjs';
import { heatmap } from '../draw/heatmap.mjs';
import { fullMatrix, indexed } from '../draw/matrices.mjs';
import { headPair, layerInput, layerProjection } from '../draw/layer-views.mjs';
import { matrixView } from '../draw/matrix-view.mjs';
import { whenAtRest, whenIdle } from '../idle.mjs';
import { ROLES } from '../roles.mjs';

/** The views of the panel, each as a function that builds it. */
function viewBuilders(ctx) {
  const { numbers, tr } = ctx;
  const { n, dV } = numbers.dims;
  const builders = [
    () => fullMatrix(ctx, 'x'),
    () => fullMatrix(ctx, 'wKey'),
    () => fullMatrix(ctx, 'wQuery'),
    () => fullMatrix(ctx, 'wValue'),
    () => fullMatrix(ctx, 'keys'),
    () => fullMatrix(ctx, 'values'),
    () => fullMatrix(ctx, 'queries'),
    () => heatmap(ctx, 'scores'),
    () => heatmap(ctx, 'weights'),
  ];
  if (numbers.settings.rounding === 'article') {
    builders.push(() =>
      matrixView({
        matrix: 'weights-exact',
        role: ROLES.weights.role,
        symbol: 'A',
        name: tr('tables.exactWeights'),
        rows: n,
        cols: n,
        text: (i, j) => formatExact(at(numbers.weights, i, j)),
      }),
    );
  }
  for (let i = 0; i < n; i++) {
    builders.push(() =>
      matrixView({
        matrix: 'weighted',
        role: ROLES.weighted.role,
        symbol: indexed('a', `${i + 1},j`, h('span', {}, ' v', h('sub', { text: 'j' }))),
        symbolText: `a_${i + 1},j v_j`,
        name: tr('tables.weightedFor', { i: i + 1 }),
        rows: n,
        cols: dV,
        text: (j, c) => numbers.shown.format(numbers.shown.weighted(i, j, c)),
        dataset: { query: i },
        inspectable: true,
      }),
    );
  }
  builders.push(() => fullMatrix(ctx, 'outputs'));
  return [...builders, ...layerBuilders(ctx)];
}

/** Chapter 2's layer: its matrices, each head's scores and weights, the concatenation, Y. */
function layerBuilders(ctx) {
  const layer = ctx.numbers.layer;
  const { heads } = layer.dims;
  const builders = ['x', 'wQuery', 'wKey', 'wValue', 'wOut'].map(
    (name) => () => layerInput(ctx, name),
  );
  for (const field of ['queries', 'keys', 'values'])
    builders.push(() => layerProjection(ctx, field));
  for (let hd = 0; hd < heads; hd++) {
    builders.push(() => headPair(ctx, hd).scores);
    builders.push(() => headPair(ctx, hd).weights);
  }
  builders.push(() =>
    matrixView({
      matrix: 'concat',
      role: ROLES.weighted.role,
      symbol: 'C',
      name: ctx.tr('ch2.concat.name'),
      rows: layer.concat.rows,
      cols: layer.concat.cols,
      text: (i, j) => formatExact(at(layer.concat, i, j)),
      inspectable: true,
    }),
  );
  builders.push(() =>
    matrixView({
      matrix: 'layer-outputs',
      role: ROLES.outputs.role,
      symbol: 'Y',
      name: ctx.tr('ch2.output.name'),
      rows: layer.outputs.rows,
      cols: layer.outputs.cols,
      text: (i, j) => formatExact(at(layer.outputs, i, j)),
      inspectable: true,
    }),
  );
  return builders;
}

export function createTablesPanel() {
  const summary = h('summary', { class: 'tables-summary' });
  const intro = h('p', { class: 'panel-intro' });
  const grid = h('div', { class: 'tables-grid', dataset: { inspectRoot: '' } });
  const element = h('details', { class: 'tables-panel', id: 'tables' }, summary, intro, grid);

  // The views are listed when building starts, not at update(): the list reads chapter 2's
  // layer, whose numbers are computed when first read (app/flow.mjs), so not as the page opens.
  let listFor = null; // the latest update's context, its views not listed yet
  let builders = []; // the views still to build for the latest numbers
  let built = [];
  let scheduled = false;

  /** Builds what is left (all of it, or as much as the idle deadline allows), then shows it. */
  function build(deadline) {
    if (listFor) {
      builders = listFor.panels ? (listFor.panels.tables?.(listFor) ?? []) : viewBuilders(listFor);
      listFor = null;
      if (builders.length === 0) grid.replaceChildren();
    }
    while (builders.length > 0 && (!deadline || deadline.timeRemaining() > 2)) {
      built.push(builders.shift()().element);
    }
    if (builders.length === 0 && built.length > 0) {
      grid.replaceChildren(...built);
      built = [];
    }
  }

  /**
   * build() in the page's idle moments until every view is built. Listing the views reads
   * chapter 2's layer, computed at its first read (10-14 ms of the module's work): not in the
   * few milliseconds between two frames of playback or training, where it made a frame of
   * 18-24 ms, but once the page is at rest (whenAtRest), or when the reader opens the panel.
   */
  function buildWhenIdle() {
    if (scheduled) return;
    scheduled = true;
    const listing = listFor !== null;
    (listing ? whenAtRest : whenIdle)((deadline) => {
      scheduled = false;
      // An update came while this waited for a mere idle moment: its listing waits for rest.
      if (listFor && !listing) buildWhenIdle();
      else if (builders.length > 0 || listFor) {
        build(deadline);
        if (builders.length > 0) buildWhenIdle();
      }
    });
  }

  // Opened (by the reader or a script): the tables are there before anything else runs.
  new MutationObserver(() => {
    if (element.open) build();
  }).observe(element, { attributes: true, attributeFilter: ['open'] });

  /**
   * @param ctx { numbers, tr, language, panels, training }: panels, a chapter 3 stage's own
   *   (below), whose views may follow the training run
   */
  function update(ctx) {
    const { tr, panels } = ctx;
    summary.textContent = tr('tables.title');
    // A chapter 3 stage names its own numbers (stages/learning/*.mjs `panels`): its tables,
    // or none, and a sentence saying what they are or what the step shows instead.
    intro.textContent = tr(panels?.note ?? 'tables.intro');
    listFor = ctx;
    builders = [];
    built = [];
    if (element.open) build();
    else buildWhenIdle();
  }

  return { element, update, grid };
}
