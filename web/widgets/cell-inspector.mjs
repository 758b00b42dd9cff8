// Hover or focus a computed cell (anywhere: scene or tables) to see the arithmetic behind it
// in a popover, with the cells it was computed from highlighted in the same view.
import { explainCell } from '../model/arithmetic.mjs';
import { h } from '../dom.mjs';
import { placeBeside } from '../popup-place.mjs';

/**
 * @param {{ numbers: () => object, tr: () => Function, id: (name: string) => string,
 *   container?: HTMLElement }} sources
 *   numbers and tr are getters, so edits and
 *   language switches are picked up without re-attaching; container holds the pop-up (the
 *   page's body, or an embedded explainer's own root, inside its shadow root)
 */
export function createCellInspector({ numbers, tr, id, container = document.body }) {
  const POPOVER_ID = id('cell-popover');
  const title = h('p', { class: 'cell-popover-title' });
  const expression = h('p', { class: 'cell-popover-expression', dir: 'ltr' });
  const popover = h(
    'div',
    { id: POPOVER_ID, class: 'cell-popover', role: 'tooltip', hidden: true },
    title,
    expression,
  );
  container.append(popover);
  let current = null;
  let highlighted = [];

  function clearHighlights() {
    for (const element of highlighted) element.classList.remove('is-source', 'is-inspected');
    highlighted = [];
  }

  function hide() {
    popover.hidden = true;
    if (current) current.removeAttribute('aria-describedby');
    current = null;
    clearHighlights();
  }

  function show(cell) {
    if (cell === current) return;
    hide();
    const data = cell.dataset;
    const ref = {
      matrix: data.matrix,
      row: Number(data.row),
      col: Number(data.col),
      query: data.query === undefined ? undefined : Number(data.query),
      head: data.head === undefined ? undefined : Number(data.head),
    };
    const explanation = explainCell(numbers(), ref, tr());
    if (!explanation) return;
    current = cell;
    title.textContent = explanation.title;
    expression.textContent = explanation.expression;
    popover.hidden = false;
    cell.setAttribute('aria-describedby', POPOVER_ID);
    cell.classList.add('is-inspected');
    highlighted.push(cell);
    const root = cell.closest('[data-inspect-root]') ?? document;
    for (const source of explanation.sources) {
      const selector =
        `[data-matrix="${source.matrix}"][data-row="${source.row}"][data-col="${source.col}"]` +
        (source.query === undefined ? '' : `[data-query="${source.query}"]`) +
        (source.head === undefined ? '' : `[data-head="${source.head}"]`);
      for (const element of root.querySelectorAll(selector)) {
        element.classList.add('is-source');
        highlighted.push(element);
      }
    }
    place(cell);
  }

  const place = (cell) => placeBeside(popover, cell);

  const inspectableCell = (target) =>
    target instanceof Element ? target.closest('.is-inspectable td.cell') : null;

  function attach(root) {
    root.addEventListener('pointerover', (event) => {
      const cell = inspectableCell(event.target);
      if (cell) show(cell);
    });
    root.addEventListener('pointerout', (event) => {
      const cell = inspectableCell(event.target);
      if (
        cell &&
        cell === current &&
        !cell.contains(event.relatedTarget) &&
        cell.getRootNode().activeElement !== cell
      )
        hide();
    });
    root.addEventListener('focusin', (event) => {
      const cell = inspectableCell(event.target);
      if (cell) show(cell);
    });
    root.addEventListener('focusout', (event) => {
      if (inspectableCell(event.target) === current) hide();
    });
  }

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && current) hide();
  });
  // A tap elsewhere (Next, say, on a phone, where a tapped cell keeps the pop-up) closes it.
  document.addEventListener('pointerdown', (event) => {
    if (current && !current.contains(event.target)) hide();
  });
  window.addEventListener('scroll', () => current && place(current), { passive: true });

  return { attach, hide, element: popover };
}
