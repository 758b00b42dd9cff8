// Wires the page together. Data flows one way:
//   reader's example + settings -> computeFigures (wasm trace) -> steps -> the current
//   scene, built once per (step, figures, language) and drawn by render(t) from the clock.
// The URL hash mirrors step, settings and edited numbers; it is parsed defensively.
import { h } from './dom.mjs';
import { computeFigures } from './figures.mjs';
import { htmlLang, initialLanguage, rememberLanguage, translator } from './i18n/index.mjs';
import { whenIdle } from './idle.mjs';
import { installKeyboard } from './keyboard.mjs';
import { showLoadError } from './load-error.mjs';
import { articleExample, dimsOf, sameExample, withDims, withEntry } from './model.mjs';
import { randomExample } from './random.mjs';
import { SCENES } from './scenes/index.mjs';
import { stageTitle, stepTitle } from './step-text.mjs';
import { buildSteps, indexOfStep } from './steps.mjs';
import { Timeline } from './timeline.mjs';
import { parseHash, serializeHash } from './url-state.mjs';
import { createCellInspector } from './widgets/cell-inspector.mjs';
import { createLanguageSwitch } from './widgets/language-switch.mjs';
import { createNotices } from './widgets/notices.mjs';
import { createStageList } from './widgets/stage-list.mjs';
import { createTablesPanel } from './widgets/tables-panel.mjs';
import { createTransport } from './widgets/transport.mjs';
import { createWorkbench } from './widgets/workbench.mjs';

const DEFAULT_SETTINGS = Object.freeze({ scaled: false, causal: false, rounding: 'exact' });

/**
 * @param {{ root: HTMLElement, loadAttention: () => Promise<object> }} options
 *   loadAttention resolves to the API of createAttention() (served or inlined build)
 */
export async function startApp({ root, loadAttention }) {
  // The module first: it downloads and compiles while the page's language is looked up.
  let attention;
  try {
    attention = loadAttention();
  } catch (error) {
    attention = Promise.reject(error);
  }
  let language = initialLanguage(navigator.languages ?? [navigator.language]);
  let tr = translator(language);
  setDocumentLanguage(language, tr);
  const loading = root.querySelector('[data-loading]');
  if (loading) loading.textContent = tr('app.loading');

  // --- state ---------------------------------------------------------------------------
  let example = articleExample();
  let settings = { ...DEFAULT_SETTINGS };
  let figures = null;
  let steps = [];
  let figuresVersion = 0;
  let traceError = null;
  let statusText = '';
  let scene = null;
  let builtSceneKey = '';
  let nextScene = null; // { key, scene }: the next step's, built ahead in idle time
  let nextSceneScheduled = false;
  let lastWrittenHash = null;
  let wasPlaying = false;
  const pendingAfterFrame = new Set();

  // --- the page's parts (built, not yet shown) ------------------------------------------
  const timeline = new Timeline({ onChange: onTimelineChange });
  const languageSwitch = createLanguageSwitch({ onChange: setLanguage });
  const notices = createNotices(tr);
  const stageList = createStageList({ onJump: (index) => timeline.goTo(index) });
  const transport = createTransport({ timeline });
  const workbench = createWorkbench({
    onSettings: (changes) => changeData({ settings: { ...settings, ...changes } }),
    // Hand edits and new shapes make the last "randomised…" / "reset" status stale.
    onDims: (changes) => {
      statusText = '';
      changeData({ example: withDims(example, changes) });
    },
    onEntry: (name, row, col, value) => {
      statusText = '';
      changeData({ example: withEntry(example, name, row, col, value) });
    },
    onRandomise: (scheme, seed) => {
      workbench.clearEditorMessages();
      statusText = () => tr('workbench.randomised', { scheme: tr(`workbench.${scheme}`), seed });
      changeData({ example: randomExample(dimsOf(example), scheme, seed) });
    },
    onReset: () => {
      workbench.clearEditorMessages();
      statusText = () => tr('workbench.wasResetTo');
      changeData({ example: articleExample() });
    },
  });
  const tables = createTablesPanel();

  const title = h('h1', { class: 'app-title' });
  const subtitle = h('p', { class: 'app-subtitle' });
  const source = h('p', { class: 'app-source' });
  const skip = h('a', { class: 'skip-link', href: '#scene-title' });
  const stageLabel = h('p', { class: 'scene-stage' });
  const sceneTitle = h('h2', { class: 'scene-title', id: 'scene-title', tabindex: '-1' });
  const badges = h('div', { class: 'badges' });
  const sceneHost = h('div', { class: 'scene-host', dataset: { inspectRoot: '' } });
  const explanation = h('div', { class: 'explanation' });
  const keysHint = h('p', { class: 'keys-hint' });
  const footer = h('p', { class: 'footer-text' });
  const narration = h('p', { class: 'visually-hidden', 'aria-live': 'polite', id: 'narration' });

  const parts = [
    skip,
    h(
      'header',
      { class: 'masthead' },
      h('div', { class: 'masthead-text' }, title, subtitle, source),
      languageSwitch.element,
    ),
    notices.element,
    h(
      'div',
      { class: 'layout' },
      stageList.element,
      h(
        'main',
        { class: 'walkthrough', id: 'walkthrough' },
        h(
          'section',
          { class: 'scene-panel', 'aria-labelledby': 'scene-title' },
          h('header', { class: 'scene-header' }, h('div', {}, stageLabel, sceneTitle), badges),
          transport.element,
          sceneHost,
          explanation,
        ),
        keysHint,
        tables.element,
      ),
      workbench.element,
    ),
    h('footer', { class: 'page-footer' }, footer),
    narration,
  ];

  // Everything above is built while the module downloads and compiles; from here on the
  // page needs its numbers.
  let attn;
  try {
    attn = await attention;
  } catch (error) {
    showLoadError(root, error, tr);
    return;
  }
  root.replaceChildren(...parts);
  const inspector = createCellInspector({ figures: () => figures, tr: () => tr });
  inspector.attach(sceneHost);
  inspector.attach(tables.grid);
  installKeyboard(timeline);
  const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
  timeline.setReducedMotion(motion.matches);
  motion.addEventListener('change', () => timeline.setReducedMotion(motion.matches));
  window.addEventListener('popstate', () => followUrl());
  window.addEventListener('hashchange', () => followUrl());

  // --- start from the URL ----------------------------------------------------------------
  const initial = stateFromUrl(location.hash);
  applyState(initial, 'load');
  writeUrl('replace');
  document.documentElement.dataset.appState = 'ready';

  // --- functions -------------------------------------------------------------------------

  /** Decodes the hash into { example, settings, index }, or the article's example + notice. */
  function stateFromUrl(hash) {
    const parsed = parseHash(hash);
    const fallback = (problem) => {
      notices.show({
        id: 'url',
        kind: 'warning',
        text: (t) => t('url.fallback', { reason: t(problem.key, problem.params) }),
      });
      return { example: articleExample(), settings: { ...DEFAULT_SETTINGS }, index: 0 };
    };
    if (!parsed.ok) return fallback(parsed.problem);
    const { state } = parsed;
    const next = {
      example: state.example ?? articleExample(),
      settings: {
        scaled: state.scaled ?? DEFAULT_SETTINGS.scaled,
        causal: state.causal ?? DEFAULT_SETTINGS.causal,
        rounding: state.rounding ?? DEFAULT_SETTINGS.rounding,
      },
      index: 0,
    };
    if (state.step !== undefined) {
      const candidateSteps = buildSteps(dimsOf(next.example));
      const index = /^\d+$/.test(state.step)
        ? Number(state.step) - 1
        : indexOfStep(candidateSteps, state.step);
      if (!(index >= 0 && index < candidateSteps.length)) {
        return fallback({ key: 'url.unknownStep', params: { value: state.step } });
      }
      next.index = index;
    }
    return next;
  }

  /** Shows a complete state (from the URL): finished picture of its step, no animation. */
  function applyState(next, reason) {
    example = next.example;
    settings = next.settings;
    if (!recompute()) {
      example = articleExample();
      settings = { ...DEFAULT_SETTINGS };
      recompute();
    }
    timeline.setSteps(steps, next.index, 1);
    timeline.goTo(next.index, { animate: false, reason });
    refreshPanels();
    if (reason === 'history') narrate();
  }

  function followUrl() {
    if (location.hash === lastWrittenHash) return;
    applyState(stateFromUrl(location.hash), 'history');
    writeUrl('replace');
  }

  /** Runs trace() for the current example and settings; false (and a message) if refused. */
  function recompute() {
    try {
      figures = computeFigures(attn, example, settings);
      traceError = null;
    } catch (error) {
      traceError = error.message;
      return false;
    }
    figuresVersion += 1;
    const nextSteps = buildSteps(figures.dims);
    const sameSteps =
      nextSteps.length === steps.length && nextSteps.every((step, k) => step.id === steps[k].id);
    if (!sameSteps) {
      const currentId = steps[timeline.index]?.id;
      let index = currentId === undefined ? 0 : indexOfStep(nextSteps, currentId);
      if (index === -1) {
        // The step showed a token that is gone: show the same kind of step for the last one.
        const sameKind = currentId.replace(/\d+$/, String(figures.dims.n));
        index = indexOfStep(nextSteps, sameKind);
      }
      if (index === -1) index = Math.min(timeline.index, nextSteps.length - 1);
      steps = nextSteps;
      timeline.setSteps(steps, index, timeline.t);
    } else {
      steps = nextSteps;
      timeline.setSteps(steps);
    }
    return true;
  }

  /** An edit, a switch, a new shape, random numbers or reset: recompute and redraw in place. */
  function changeData(changes) {
    const previous = { example, settings };
    if (changes.example) example = changes.example;
    if (changes.settings) settings = changes.settings;
    if (!recompute()) {
      // The module refused (it should not, the editors validate): keep the last good state.
      ({ example, settings } = previous);
      recompute();
    }
    syncScene();
    refreshPanels();
    updateChrome();
    writeUrl('replace');
  }

  function setLanguage(next) {
    language = next;
    tr = translator(language);
    rememberLanguage(language);
    setDocumentLanguage(language, tr);
    notices.setTranslator(tr);
    syncScene();
    refreshPanels();
    updateChrome();
  }

  function onTimelineChange({ stepChanged, reason }) {
    syncScene();
    const playStateChanged = timeline.playing !== wasPlaying;
    wasPlaying = timeline.playing;
    // Playback starting or moving on: the window title and the URL (both messages to the
    // browser process, which can take the CPU from this frame) wait until the frame is drawn.
    const ticking = reason === 'tick';
    const playing = ticking || reason === 'play';
    if (stepChanged || !ticking || playStateChanged) updateChrome({ deferTitle: playing });
    else transport.syncPosition();
    if (stepChanged) {
      narrate();
      if (playing) afterFrame(replaceUrl);
      else writeUrl(reason === 'step' ? 'push' : 'replace');
    }
    const settled = String(!timeline.animating && timeline.t >= 1);
    if (document.body.dataset.settled !== settled) document.body.dataset.settled = settled;
  }

  /** What a step's scene is built from: the step, the numbers and the language. */
  function sceneKey(step) {
    return `${step.id}|${figuresVersion}|${language}`;
  }

  /** Builds the current step's scene if anything it depends on changed, then draws it at t. */
  function syncScene() {
    const step = steps[timeline.index];
    const key = sceneKey(step);
    if (key !== builtSceneKey) {
      builtSceneKey = key;
      inspector.hide();
      scene =
        nextScene?.key === key
          ? nextScene.scene
          : SCENES[step.scene].build({ step, figures, tr, language });
      nextScene = null;
      sceneHost.replaceChildren(scene.element);
      sceneHost.dataset.scene = step.scene;
      renderExplanation(step);
      document.body.dataset.step = step.id;
      prepareNextScene();
    }
    scene.render(timeline.t);
  }

  /**
   * Builds the next step's scene (the same build(), not yet shown) when the page is idle, so
   * the frame that moves on to it (playback, Next, →) only has to show it.
   */
  function prepareNextScene(since = performance.now()) {
    if (nextSceneScheduled) return;
    nextSceneScheduled = true;
    whenIdle((deadline) => {
      nextSceneScheduled = false;
      // Between two frames of playback: wait for a longer idle moment, two seconds at most.
      if (deadline.timeRemaining() < 8 && performance.now() - since < 2000) {
        prepareNextScene(since);
        return;
      }
      const step = steps[timeline.index + 1];
      if (!step) return;
      const key = sceneKey(step);
      if (nextScene?.key !== key)
        nextScene = { key, scene: SCENES[step.scene].build({ step, figures, tr, language }) };
    });
  }

  function renderExplanation(step) {
    const { sentences, formula, notes = [] } = scene.explanation;
    explanation.replaceChildren(
      h(
        'div',
        { class: 'explanation-text' },
        sentences.map((text) => h('p', { text })),
      ),
      h('div', { class: 'formula' }, formula),
      ...notes.map((note) => h('p', { class: `note note-${note.kind}`, text: note.text })),
    );
    stageLabel.textContent = `${tr('stage.number', { stage: step.stage })} · ${stageTitle(step.stage, tr)}`;
    sceneTitle.textContent = stepTitle(step, tr, figures.dims);
    const active = [
      settings.rounding === 'article' && tr('workbench.roundingArticle'),
      settings.scaled && '÷ √d_k',
      settings.causal && tr('workbench.causal').split(/[(（]/)[0].trim(),
    ].filter(Boolean);
    badges.replaceChildren(...active.map((text) => h('span', { class: 'badge', text })));
  }

  function narrate() {
    const step = steps[timeline.index];
    const position = tr('narrate.step', {
      k: timeline.index + 1,
      total: steps.length,
      title: stepTitle(step, tr, figures.dims),
    });
    narration.textContent = `${position} ${scene.narration}`;
  }

  function updateChrome({ deferTitle = false } = {}) {
    const step = steps[timeline.index];
    const titleText = stepTitle(step, tr, figures.dims);
    stageList.update({ steps, index: timeline.index, tr, dims: figures.dims });
    transport.update({ tr, steps, title: titleText });
    if (deferTitle) afterFrame(updateTitle);
    else updateTitle();
  }

  function updateTitle() {
    const title = `${stepTitle(steps[timeline.index], tr, figures.dims)} · ${tr('app.title')}`;
    if (document.title !== title) document.title = title;
  }

  /** Runs `task` once, after the current frame is drawn (later calls in the frame share it). */
  function afterFrame(task) {
    if (pendingAfterFrame.size === 0) {
      setTimeout(() => {
        const tasks = [...pendingAfterFrame];
        pendingAfterFrame.clear();
        for (const pending of tasks) pending();
      });
    }
    pendingAfterFrame.add(task);
  }

  function refreshPanels() {
    const ctx = { figures, tr, language };
    tables.update(ctx);
    workbench.update({
      example,
      settings,
      tr,
      statusText: typeof statusText === 'function' ? statusText() : statusText,
      error: traceError,
    });
    title.textContent = tr('app.title');
    subtitle.textContent = tr('app.subtitle');
    source.textContent = tr('app.source');
    skip.textContent = tr('app.skip');
    keysHint.textContent = tr('app.keysHint');
    footer.textContent = tr('app.footer');
    languageSwitch.update(language, tr);
  }

  function replaceUrl() {
    writeUrl('replace');
  }

  function writeUrl(mode) {
    const hash = serializeHash({
      step: steps[timeline.index].id,
      ...settings,
      example,
      isArticleExample: sameExample(example, articleExample()),
    });
    lastWrittenHash = hash;
    if (hash === location.hash) return;
    try {
      if (mode === 'push') history.pushState(null, '', hash);
      else history.replaceState(null, '', hash);
    } catch {
      // Some file:// setups refuse the History API; the page works without the URL in sync.
    }
  }
}

function setDocumentLanguage(language, tr) {
  document.documentElement.lang = htmlLang(language);
  document.title = tr('app.title');
}
