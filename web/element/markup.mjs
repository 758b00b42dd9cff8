// The markup of an <attention-explainer> that shows a state: what an embedded explainer's
// "share" field offers a course page to paste. Its example attribute is the page's URL
// encoding without the step (settings and numbers), e.g.
//   <attention-explainer lang="en" step="scores-1" example="scaled=1&x=1,0;0,2&…">
import { urlOf } from '../app/url.mjs';

const attribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function elementMarkup(state, language) {
  const [stepPart, ...rest] = urlOf(state).slice(1).split('&');
  const step = decodeURIComponent(stepPart.slice('step='.length));
  const example = rest.length ? ` example="${attribute(rest.join('&'))}"` : '';
  return `<attention-explainer lang="${language}" step="${attribute(step)}"${example}></attention-explainer>`;
}
