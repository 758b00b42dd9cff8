// Everything the cross-engine tests know about the page's markup, in one place: when the page
// is restructured, this is the file to adapt. The tests themselves go by what a user sees and
// what links keep: the URL hash (#step=…, web/url-state.mjs), visible text, ARIA roles and
// accessible names, and keyboard keys.
//
// Each function below named `in…` or `find…` runs INSIDE the page (the engines serialise
// its source), so it must not use anything from this module's scope.

/** 'loading', 'ready' (the module loaded and the first step drawn) or 'error: <what it says>'. */
export function inPageLoadState() {
  const state = document.documentElement.dataset.appState;
  if (state === 'ready') return 'ready';
  if (state === 'error') return `error: ${document.body.innerText.slice(0, 300)}`;
  return 'loading';
}

/** The step in the URL hash: "#step=sum-1&causal=1" -> "sum-1". */
export function inPageStep() {
  return new URLSearchParams(location.hash.slice(1)).get('step');
}

/** Goes to another step the way an edited link does: the hash changes, settings stay. */
export function inPageSetStep(step) {
  const params = location.hash
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('step='));
  location.hash = [`step=${step}`, ...params].join('&');
}

/**
 * What the walkthrough shows now: the heading of the scene and the numbers of every visible
 * table row in it (the matrices are tables: one row per token, query or key), as text.
 * The scene is the region of the main landmark that its heading names.
 */
export function inPageScene() {
  const main = document.querySelector('main, [role="main"]');
  const region = main?.querySelector('section[aria-labelledby], [role="region"]');
  if (!region) return null;
  const heading = document.getElementById(region.getAttribute('aria-labelledby'));
  const visible = (element) =>
    element.checkVisibility ? element.checkVisibility() : element.offsetParent !== null;
  const rows = [];
  for (const row of region.querySelectorAll('table tr')) {
    if (!visible(row)) continue;
    const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent.trim());
    if (cells.length > 0) rows.push(cells);
  }
  return { title: heading?.textContent.trim() ?? '', rows, text: region.innerText };
}

/**
 * The element a user would click or type into for a control of ARIA `role` whose accessible
 * name contains `name`: roles button, switch, radio, checkbox, textbox. The name is taken
 * from aria-label, aria-labelledby, a <label>, or the text. Where a form control is drawn by
 * its label (the input itself invisible), the label is returned: that is what a user clicks.
 * Throws unless exactly one control matches (or exactly one matches the name exactly).
 */
export function findControl({ role, name }) {
  const byRole = {
    button: 'button, [role="button"], input[type="button"], input[type="submit"]',
    switch: '[role="switch"]',
    radio: 'input[type="radio"]:not([role]), [role="radio"]',
    checkbox: 'input[type="checkbox"]:not([role]), [role="checkbox"]',
    textbox:
      'input:not([type]):not([role]), input[type="text"]:not([role]), ' +
      'input[type="number"]:not([role]), textarea, [role="textbox"]',
  }[role];
  if (!byRole) throw new Error(`findControl: unknown role ${role}`);
  const accessibleName = (element) => {
    const label = element.getAttribute('aria-label');
    if (label) return label.trim();
    const ids = element.getAttribute('aria-labelledby');
    if (ids)
      return ids
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent.trim() ?? '')
        .join(' ');
    if (element.labels?.length) return [...element.labels].map((l) => l.innerText.trim()).join(' ');
    return (element.innerText ?? element.textContent).trim();
  };
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const candidates = [...document.querySelectorAll(byRole)].filter((element) => {
    const target = element.labels?.[0] ?? element;
    return !element.closest('[hidden], [inert]') && (shown(element) || shown(target));
  });
  const matching = candidates.filter((element) => accessibleName(element).includes(name));
  const exact = matching.filter((element) => accessibleName(element) === name);
  const found = matching.length === 1 ? matching : exact;
  if (found.length !== 1)
    throw new Error(`findControl: ${matching.length} ${role}s named like “${name}”`);
  const element = found[0];
  // A control drawn by its label: the input is transparent, tiny or covered by the label.
  const box = element.getBoundingClientRect();
  const covered =
    box.width < 4 ||
    box.height < 4 ||
    Number(getComputedStyle(element).opacity) === 0 ||
    !element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  if (element.labels?.length && covered) {
    element.labels[0].scrollIntoView({ block: 'center' });
    return element.labels[0];
  }
  element.scrollIntoView({ block: 'center' });
  return element;
}

/** Whether the control of `role` named `name` is on (checked or pressed). */
export function inPageIsOn({ role, name }) {
  const selector = {
    button: 'button[aria-pressed]',
    switch: '[role="switch"]',
    radio: 'input[type="radio"], [role="radio"]',
  }[role];
  for (const element of document.querySelectorAll(selector)) {
    const text = element.getAttribute('aria-label') ?? element.labels?.[0]?.innerText ?? '';
    const label = text || element.textContent;
    if (!label.includes(name)) continue;
    if (element.getAttribute('aria-pressed') !== null)
      return element.getAttribute('aria-pressed') === 'true';
    return element.checked ?? element.getAttribute('aria-checked') === 'true';
  }
  throw new Error(`inPageIsOn: no ${role} named like “${name}”`);
}

/**
 * Chapter 3's training stage as a user sees it, or null when it is not on screen: its live
 * text ("step 120 · loss 2.301", or what it says before the first step), whether its worker
 * is ready, the step the sentence under the loss curve says the loss dropped at (or null),
 * and how many heads' heatmaps are drawn.
 */
export function inPageTraining() {
  const scene = document.querySelector('.scene-train');
  if (!scene) return null;
  const drop = scene.textContent.match(/The loss dropped at step (\d+)/);
  return {
    // The live text is the status region that counts steps (another announces a discarded model).
    live: scene.querySelector('.train-status[role="status"]')?.textContent.trim() ?? '',
    ready: scene.dataset.worker === 'ready',
    dropStep: drop ? Number(drop[1]) : null,
    heatmaps: scene.querySelectorAll('.train-head[data-filled="true"]').length,
  };
}

/** The page's language, as its root element declares it. */
export function inPageLanguage() {
  return document.documentElement.lang;
}

/** The accessible names of the page's inputs and weights editors, as the tests use them. */
export const EDITOR_CELL = (matrix, row, column) => `${matrix}, row ${row}, column ${column}`;

/** Visible words the tests look for, in the page's English and Chinese. */
export const WORDS = {
  chinese: '中文',
  english: 'English',
  articleRounding: 'Article’s rounding',
  exact: 'Exact',
  scaling: 'Scale scores by 1/√d_k',
  causal: 'Causal mask',
  inputs: 'inputs',
  valueWeights: 'value weights',
  train: 'Train',
  pause: 'Pause',
};
