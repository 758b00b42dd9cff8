// "This step's numbers" at the top of "Your numbers" on a chapter 3 step: a sentence saying
// what the step's numbers are (or, for the training, what the step shows instead) and a few
// of them, read-only (the positions, the weights' gradients, the MLP's weights), as the stage
// declares them (stages/learning/*.mjs `panels`). Hidden on the other chapters' steps, whose
// numbers are the editors below it.
import { h } from '../dom.mjs';

export function createStageNumbers() {
  const title = h('h3', { class: 'group-title' });
  const note = h('p', { class: 'panel-intro' });
  const views = h('div', { class: 'stage-numbers-views' });
  const element = h('section', { class: 'group stage-numbers' }, title, note, views);
  element.hidden = true;

  /**
   * @param panels the stage's `panels` ({ note, sidebar? }) or null
   * @param ctx { numbers, tr, training } what the views are drawn from
   */
  function update(panels, ctx) {
    element.hidden = !panels;
    if (!panels) {
      views.replaceChildren();
      return;
    }
    title.textContent = ctx.tr('ch3.panels.title');
    note.textContent = ctx.tr(panels.note);
    views.replaceChildren(...(panels.sidebar?.(ctx) ?? []).map((build) => build().element));
  }
  return { element, update };
}
