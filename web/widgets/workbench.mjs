// "Your numbers": the editable inputs and weights first (on a laptop they sit beside the
// scene they change), then the switches (rounding, scaling, causal mask), the shape (tokens,
// d_in, d_k, d_v), random numbers and reset, then chapter 2's layer (heads, kv heads, head
// size, tokens and its five matrices). It only reports what
// the reader asks for; the app recomputes and calls update().
import { h } from '../dom.mjs';
import { whenAtRest } from '../idle.mjs';
import { EDITABLE, LIMITS, dimsOf } from '../model/example.mjs';
import { symbolNode } from '../draw/matrices.mjs';
import { ROLES } from '../roles.mjs';
import { createMatrixEditor } from './matrix-editor.mjs';
import { createLayerEditor } from './layer-editor.mjs';
import { createStageNumbers } from './stage-numbers.mjs';

let switchCount = 0;

function toggle(onChange) {
  switchCount += 1;
  const id = `switch-${switchCount}`;
  const input = h('input', {
    type: 'checkbox',
    role: 'switch',
    id,
    class: 'switch-input',
    onchange: () => onChange(input.checked),
  });
  const text = h('span', { class: 'switch-text' });
  const element = h(
    'label',
    { class: 'switch', for: id },
    input,
    h('span', { class: 'switch-track', 'aria-hidden': 'true' }),
    text,
  );
  return { element, input, text };
}

function dimSelect(onChange) {
  const select = h(
    'select',
    { class: 'dim-select', onchange: () => onChange(Number(select.value)) },
    Array.from({ length: LIMITS.maxDim }, (_, k) =>
      h('option', { value: String(k + 1), text: String(k + 1) }),
    ),
  );
  const text = h('span', { class: 'field-text' });
  return { element: h('label', { class: 'field' }, text, select), select, text };
}

/** The switches: rounding, scaled scores, causal mask. */
function createSettingsGroup(onSettings) {
  const settingsTitle = h('h3', { class: 'group-title' });
  const roundingLegend = h('legend', { class: 'field-text' });
  const roundingRadio = (value) => {
    const input = h('input', {
      type: 'radio',
      name: 'rounding',
      value,
      onchange: () => input.checked && onSettings({ rounding: value }),
    });
    const text = h('span');
    return { input, text, element: h('label', { class: 'segment-option' }, input, text) };
  };
  const exact = roundingRadio('exact');
  const article = roundingRadio('article');
  const rounding = h(
    'fieldset',
    { class: 'segmented' },
    roundingLegend,
    h('div', { class: 'segment-options' }, exact.element, article.element),
  );
  const scaled = toggle((checked) => onSettings({ scaled: checked }));
  const causal = toggle((checked) => onSettings({ causal: checked }));

  const element = h(
    'section',
    { class: 'group' },
    settingsTitle,
    rounding,
    scaled.element,
    causal.element,
  );
  function update(settings, tr) {
    settingsTitle.textContent = tr('workbench.settings');
    roundingLegend.textContent = tr('workbench.rounding');
    exact.text.textContent = tr('workbench.roundingExact');
    article.text.textContent = tr('workbench.roundingArticle');
    exact.input.checked = settings.rounding === 'exact';
    article.input.checked = settings.rounding === 'article';
    scaled.text.textContent = tr('workbench.scaled');
    scaled.input.checked = settings.scaled;
    causal.text.textContent = tr('workbench.causal');
    causal.input.checked = settings.causal;
  }
  return { element, update };
}

/** The shape: tokens (− / +), d_in, d_k, d_v. */
function createShapeGroup(onDims) {
  const shapeTitle = h('h3', { class: 'group-title' });
  const tokensText = h('span', { class: 'field-text', id: 'tokens-label' });
  const tokensValue = h('output', { class: 'tokens-value', 'aria-labelledby': 'tokens-label' });
  let currentDims = null;
  const removeToken = h('button', {
    type: 'button',
    class: 'small-button',
    text: '−',
    onclick: () => onDims({ n: currentDims.n - 1 }),
  });
  const addToken = h('button', {
    type: 'button',
    class: 'small-button',
    text: '+',
    onclick: () => onDims({ n: currentDims.n + 1 }),
  });
  const tokens = h(
    'div',
    { class: 'field tokens' },
    tokensText,
    h('span', { class: 'stepper' }, removeToken, tokensValue, addToken),
  );
  const dIn = dimSelect((value) => onDims({ dIn: value }));
  const dK = dimSelect((value) => onDims({ dK: value }));
  const dV = dimSelect((value) => onDims({ dV: value }));
  const dkNote = h('p', { class: 'note note-slip' });

  const element = h(
    'section',
    { class: 'group' },
    shapeTitle,
    tokens,
    h('div', { class: 'dims' }, dIn.element, dK.element, dV.element),
    dkNote,
  );
  function update(dims, tr) {
    currentDims = dims;
    shapeTitle.textContent = tr('workbench.shape');
    tokensText.textContent = tr('workbench.tokens');
    tokensValue.textContent = String(currentDims.n);
    removeToken.setAttribute('aria-label', tr('workbench.removeToken'));
    addToken.setAttribute('aria-label', tr('workbench.addToken'));
    removeToken.disabled = currentDims.n <= LIMITS.minTokens;
    addToken.disabled = currentDims.n >= LIMITS.maxTokens;
    for (const [field, key, value] of [
      [dIn, 'workbench.dIn', currentDims.dIn],
      [dK, 'workbench.dK', currentDims.dK],
      [dV, 'workbench.dV', currentDims.dV],
    ]) {
      field.text.textContent = tr(key);
      field.select.value = String(value);
    }
    dkNote.textContent = tr('workbench.dkNote');
  }
  return { element, update };
}

/** Random numbers (scheme and seed), reset, and the status line saying what they did. */
function createRandomGroup(onRandomise, onReset) {
  const randomTitle = h('h3', { class: 'group-title' });
  const schemeText = h('span', { class: 'field-text' });
  const gaussianOption = h('option', { value: 'gaussian' });
  const xavierOption = h('option', { value: 'xavier' });
  const scheme = h('select', { class: 'scheme' }, gaussianOption, xavierOption);
  const seedText = h('span', { class: 'field-text' });
  const seed = h('input', {
    type: 'number',
    class: 'seed',
    min: '0',
    max: '2147483647',
    step: '1',
    value: '1',
    inputmode: 'numeric',
  });
  const randomise = h('button', {
    type: 'button',
    class: 'action-button',
    onclick: () => {
      const value = Math.min(2147483647, Math.max(0, Math.trunc(Number(seed.value)) || 0));
      onRandomise(scheme.value, value);
      seed.value = String(value + 1); // the next click gives new numbers; the status names this seed
    },
  });
  const reset = h('button', {
    type: 'button',
    class: 'action-button is-secondary',
    onclick: () => onReset(),
  });
  const status = h('p', { class: 'workbench-status', role: 'status' });
  const element = h(
    'section',
    { class: 'group' },
    randomTitle,
    h(
      'div',
      { class: 'random-fields' },
      h('label', { class: 'field' }, schemeText, scheme),
      h('label', { class: 'field' }, seedText, seed),
    ),
    h('div', { class: 'actions' }, randomise, reset),
    status,
  );
  function update(tr, statusText) {
    randomTitle.textContent = tr('workbench.random');
    schemeText.textContent = tr('workbench.scheme');
    gaussianOption.textContent = tr('workbench.gaussian');
    xavierOption.textContent = tr('workbench.xavier');
    seedText.textContent = tr('workbench.seed');
    randomise.textContent = tr('workbench.randomise');
    reset.textContent = tr('workbench.reset');
    status.textContent = statusText ?? '';
  }
  return { element, update };
}

export function createWorkbench({
  onSettings,
  onDims,
  onEntry,
  onRandomise,
  onReset,
  onLayerDims,
  onLayerEntry,
}) {
  const title = h('h2', { class: 'panel-title', id: 'workbench-title' });
  const intro = h('p', { class: 'panel-intro' });
  // Shown once the numbers are no longer the article's.
  const own = h('p', { class: 'workbench-own', role: 'status' });
  const stageNumbers = createStageNumbers(); // a chapter 3 step's own numbers

  // --- editors ---
  const matricesTitle = h('h3', { class: 'group-title' });
  const editors = Object.fromEntries(
    EDITABLE.map((name) => [
      name,
      createMatrixEditor({
        name,
        role: ROLES[name].role,
        symbol: symbolNode(ROLES[name].symbol),
        onCommit: (row, col, value) => onEntry(name, row, col, value),
      }),
    ]),
  );
  const traceError = h('p', { class: 'trace-error', role: 'alert' });
  const settingsGroup = createSettingsGroup(onSettings);
  const shape = createShapeGroup(onDims);
  const random = createRandomGroup(onRandomise, onReset);

  const layerEditor = createLayerEditor({ onDims: onLayerDims, onEntry: onLayerEntry });
  // Chapter 2's layer editor (its shape and 144 entries) is filled at once on a chapter 2 step,
  // and elsewhere once the page rests: below chapter 1's editors, nobody reads it as the page
  // opens, and filling it took 4–8 ms of the page's start (13 on the train stage); in an idle
  // moment of playback, its style, layout and paint made a frame of 24–27 ms.
  let layerPending = null; // [layer, tr] not yet in the editor
  const fillLayerEditor = () => {
    if (!layerPending) return;
    const [layer, tr] = layerPending;
    layerPending = null;
    layerEditor.update(layer, tr);
  };
  // Or as soon as the reader scrolls near it, the page resting or not.
  const nearView = (entries) => entries.some((e) => e.isIntersecting) && fillLayerEditor();
  new IntersectionObserver(nearView, { rootMargin: '300px' }).observe(layerEditor.element);

  const element = h(
    'aside',
    { class: 'workbench', 'aria-labelledby': 'workbench-title' },
    title,
    intro,
    own,
    stageNumbers.element,
    h(
      'section',
      { class: 'group editors' },
      matricesTitle,
      EDITABLE.map((name) => editors[name].element),
      traceError,
    ),
    settingsGroup.element,
    shape.element,
    random.element,
    layerEditor.element,
  );

  /**
   * @param {{ example, layer, settings, tr, statusText?, error?, isArticleExample, numbers,
   *   panels, training }} state  panels: a chapter 3 stage's own numbers (stage-numbers.mjs),
   *   or null; training: chapter 3's run, which they may show
   */
  function update({
    example,
    layer,
    settings,
    tr,
    matrixName,
    statusText,
    error,
    isArticleExample,
    practising = false,
    numbers,
    panels,
    training,
  }) {
    title.textContent = tr('workbench.title');
    intro.textContent = tr('workbench.intro');
    // Not the article's numbers: the reader's own, or a practice example (tools/practice.mjs).
    const whose = practising ? 'workbench.practiceNumbers' : 'workbench.ownNumbers';
    own.textContent = isArticleExample ? '' : tr(whose);
    own.hidden = isArticleExample;
    settingsGroup.update(settings, tr);
    shape.update(dimsOf(example), tr);
    matricesTitle.textContent = tr('workbench.matrices');
    for (const name of EDITABLE) editors[name].update(example[name], tr, matrixName(name));
    traceError.textContent = error ? tr('workbench.traceError', { message: error }) : '';
    random.update(tr, statusText);
    const waiting = layerPending !== null;
    layerPending = [layer, tr];
    if (element.classList.contains('is-chapter-2')) fillLayerEditor();
    else if (!waiting) whenAtRest(fillLayerEditor);
    stageNumbers.update(panels, { numbers, tr, training });
  }

  const clearEditorMessages = () => {
    EDITABLE.forEach((name) => editors[name].clearMessages());
    layerEditor.clearMessages();
  };

  /**
   * The chapter of the step on screen: in chapter 2 the layer's editors come first (and are
   * filled now); in chapter 4 the panel holds only that chapter's part (views.mjs).
   */
  function showChapter(chapter) {
    element.classList.toggle('is-chapter-2', chapter === 2);
    element.classList.toggle('is-chapter-4', chapter === 4);
    if (chapter === 2) fillLayerEditor();
  }

  return { element, update, showChapter, clearEditorMessages };
}
