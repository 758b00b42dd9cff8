// Every matrix of the computation as a plain table, always up to date: the accessible,
// copyable twin of the animated scenes. Computed cells show their arithmetic on hover/focus.
import { h } from '../dom.mjs';
import { formatExact, subscript } from '../format.mjs';
import { at } from '../figures.mjs';
import { fullMatrix } from '../scenes/parts.mjs';
import { heatmap } from './heatmap.mjs';
import { matrixView } from './matrix-view.mjs';

export function createTablesPanel() {
  const summary = h('summary', { class: 'tables-summary' });
  const intro = h('p', { class: 'panel-intro' });
  const grid = h('div', { class: 'tables-grid', dataset: { inspectRoot: '' } });
  const element = h('details', { class: 'tables-panel', id: 'tables' }, summary, intro, grid);

  function update(ctx) {
    const { figures, tr } = ctx;
    const { n, dV } = figures.dims;
    summary.textContent = tr('tables.title');
    intro.textContent = tr('tables.intro');
    const views = [
      fullMatrix(ctx, 'x'),
      fullMatrix(ctx, 'wKey'),
      fullMatrix(ctx, 'wQuery'),
      fullMatrix(ctx, 'wValue'),
      fullMatrix(ctx, 'keys'),
      fullMatrix(ctx, 'values'),
      fullMatrix(ctx, 'queries'),
      heatmap(ctx, 'scores'),
      heatmap(ctx, 'weights'),
    ];
    if (figures.settings.rounding === 'article') {
      views.push(
        matrixView({
          matrix: 'weights-exact',
          role: 'score',
          symbol: 'A',
          name: tr('tables.exactWeights'),
          rows: n,
          cols: n,
          text: (i, j) => formatExact(at(figures.weights, i, j)),
        }),
      );
    }
    for (let i = 0; i < n; i++) {
      views.push(
        matrixView({
          matrix: 'weighted',
          role: 'weighted',
          symbol: `a${subscript(i + 1)},ⱼ vⱼ`,
          name: tr('tables.weightedFor', { i: i + 1 }),
          rows: n,
          cols: dV,
          text: (j, c) => figures.shown.format(figures.shown.weighted(i, j, c)),
          dataset: { query: i },
          inspectable: true,
        }),
      );
    }
    views.push(fullMatrix(ctx, 'outputs'));
    grid.replaceChildren(...views.map((view) => view.element));
  }

  return { element, update, grid };
}
