// Before and after a switch: the same row of numbers with the switch off and on, side by
// side, so the reader sees what √d_k scaling or the causal mask changes. Both rows come from
// trace() (numbers.without holds the trace with the switch off).
import { h } from '../dom.mjs';
import { formatList, subscript } from '../format.mjs';
import { at } from '../model/matrix.mjs';

const ROWS = {
  scores: (numbers, i) =>
    Array.from({ length: numbers.dims.n }, (_, j) => at(numbers.scores, i, j)),
  weights: (numbers, i) =>
    Array.from({ length: numbers.dims.n }, (_, j) => numbers.shown.weight(i, j)),
  outputs: (numbers, i) =>
    Array.from({ length: numbers.dims.dV }, (_, c) => numbers.shown.output(i, c)),
};

/**
 * Notes for query i's `field` ('scores', 'weights' or 'outputs'): one table per switch that
 * is on, plus why that switch exists. Empty when no switch is on.
 */
export function beforeAfter({ numbers, tr }, i, field) {
  const notes = [];
  for (const setting of ['scaled', 'causal']) {
    const without = numbers.without?.[setting];
    if (!without) continue;
    const format = field === 'scores' ? undefined : numbers.shown.format;
    const columns =
      field === 'outputs'
        ? // Output i's entries, named as the scenes name them ("o₁,₂"), not a bare "₂".
          Array.from(
            { length: numbers.dims.dV },
            (_, c) => `o${subscript(i + 1)},${subscript(c + 1)}`,
          )
        : Array.from({ length: numbers.dims.n }, (_, j) => `k${subscript(j + 1)}`);
    const row = (label, values) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row', text: label }),
        formatList(values, format).map((text) => h('td', { class: 'cell', text })),
      );
    const dK = numbers.dims.dK;
    const name = tr(`compare.${field}`, { i: i + 1 });
    const title = `${tr('compare.title', { i: i + 1 })}: ${name} · ${tr(`badge.${setting}`)}`;
    const table = h(
      'table',
      { class: 'compare-table', dataset: { compare: setting }, 'aria-label': title },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('td'),
          columns.map((text) => h('th', { scope: 'col', text })),
        ),
      ),
      h(
        'tbody',
        {},
        row(tr(`compare.without.${setting}`, { dK }), ROWS[field](without, i)),
        row(tr(`compare.with.${setting}`, { dK }), ROWS[field](numbers, i)),
      ),
    );
    const why = tr(setting === 'scaled' ? 'why.scaling' : 'why.masking', { i: i + 1 });
    notes.push({
      kind: 'compare',
      element: h(
        'div',
        { class: 'note note-compare' },
        h('p', { class: 'compare-title', text: title }),
        table,
        h('p', { text: why }),
      ),
    });
  }
  return notes;
}
