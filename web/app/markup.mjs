// An <attention-explainer>'s state and its attributes, both ways: the hash its attributes
// stand for, and the markup of an element that shows a state (what an embedded explainer's
// "share" field offers a course page to paste). The example attribute is the page's URL
// encoding without the step (settings and numbers), e.g.
//   <attention-explainer lang="en" step="scores-1" example="scaled=1&x=1,0;0,2&…">
import { urlOf } from './url.mjs';
import { layerDimsOf, layerExample } from '../model/layer.mjs';
import { articleExample, dimsOf } from '../model/example.mjs';
import { buildSteps, chapterOf } from '../stages/index.mjs';
import { parseHash } from '../url-state.mjs';

const attribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function elementMarkup(state, language) {
  const [stepPart, ...rest] = urlOf(state).slice(1).split('&');
  const step = decodeURIComponent(stepPart.slice('step='.length));
  const example = rest.length ? ` example="${attribute(rest.join('&'))}"` : '';
  return `<attention-explainer lang="${language}" step="${attribute(step)}"${example}></attention-explainer>`;
}

/**
 * The state's hash from the attributes: the example's settings and numbers, then the step (a
 * chapter as its first step). A chapter that does not exist goes in as `chapter=`, which the
 * app refuses by name in its notice (it does not silently start at the first step).
 */
export function hashOf({ step, chapter, example }) {
  const parts = example ? [example.replace(/^#/, '')] : [];
  let start = step;
  if (!start && chapter) {
    const read = parseHash(parts.join('&'));
    const example = (read.ok && read.state.example) || articleExample();
    const layer = (read.ok && read.state.layer) || layerExample();
    const first = buildSteps(dimsOf(example), layerDimsOf(layer)).find(
      (s) => String(chapterOf(s.stage)) === chapter,
    );
    if (!first) parts.unshift(`chapter=${encodeURIComponent(chapter)}`);
    start = first?.id;
  }
  if (start) parts.unshift(`step=${encodeURIComponent(start)}`);
  return `#${parts.join('&')}`;
}
