// "Your numbers" on a chapter 4 step: what the learner can change there, instead of chapter
// 1's matrices (which chapter 4's model never reads): the text the model learns (or their own,
// pasted), their sentence, and the temperature and top-k it writes with. The same controls as
// the stages' (draw/language-views.mjs), on the same run: a change here is seen there.
import { h } from '../dom.mjs';
import { ownText, samplingControls, sentenceField, textPicker } from '../draw/language-views.mjs';

export function createLanguageNumbers(languageRun) {
  const element = h('section', { class: 'group language-numbers' });
  element.hidden = true;
  let shownTr = null;
  let controls = null;
  const redraw = () => {
    if (!controls || element.hidden) return;
    controls.picker.update();
    controls.field.update(languageRun.run);
    controls.sampling.update(languageRun.run);
  };
  languageRun.subscribe(redraw);

  /** The controls in the page's language (built again when it changes). */
  function build(tr) {
    const picker = textPicker(languageRun, tr);
    const field = sentenceField(languageRun, tr);
    const sampling = samplingControls(languageRun, tr);
    element.replaceChildren(
      h('h3', { class: 'group-title', text: tr('ch4.panel.title') }),
      h('p', { class: 'panel-intro', text: tr('ch4.panel.intro') }),
      picker.element,
      ownText(languageRun, tr),
      field.element,
      h('div', { class: 'language-sampling' }, sampling.elements),
    );
    return { picker, field, sampling };
  }

  /** Shown on a chapter 4 step (`shown`), hidden elsewhere. */
  function update({ tr, shown }) {
    element.hidden = !shown;
    if (!shown) return;
    if (tr !== shownTr) {
      shownTr = tr;
      controls = build(tr);
    }
    languageRun.prepare(); // the text read, for the sentence's check
    redraw();
  }
  return { element, update };
}
