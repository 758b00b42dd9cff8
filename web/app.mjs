// The explainer on one root element. Data flows one way:
//   state (example, settings, step, status; app/state.mjs, changed only through change())
//     -> numbers (numbers.mjs: the wasm trace() and the article's rounding)
//     -> steps (stages/: one file per stage) -> the step's scene, drawn by render(t)
//   and the URL, the window title, the narration and the panels are views of the same state.
// The timeline (timeline.mjs) is the clock: it owns t within a step and tells the state when
// the step changes. Nothing here is module-level: each createApp() is its own explainer.
import { articleExample, dimsOf, sameExample, withDims, withEntry } from './model/example.mjs';
import { computeNumbers } from './model/numbers.mjs';
import {
  MODEL_DEFAULTS,
  layerExample,
  sameLayer,
  withLayerDims,
  withLayerEntry,
} from './model/layer.mjs';
import { computeLayerNumbers } from './model/layer-numbers.mjs';
import { htmlLang, initialLanguage, rememberLanguage, translator } from './i18n/index.mjs';
import { installKeyboard } from './keyboard.mjs';
import { randomExample } from './model/random.mjs';
import { buildSteps, chapterOf, indexOfStep, stageTitle } from './stages/index.mjs';
import { Timeline } from './timeline.mjs';
import { showLoadError, startLoading } from './app/loader.mjs';
import { badges, narration, statusText, windowTitle } from './app/narration.mjs';
import { buildPage } from './app/page.mjs';
import { createSceneStage } from './app/scenes.mjs';
import { DEFAULT_SETTINGS, articleState, createState } from './app/state.mjs';
import { createUrlWriter, stateFromUrl, urlOf } from './app/url.mjs';
import { h } from './dom.mjs';
import { withGlossary } from './draw/glossary.mjs';
import { createCellInspector } from './widgets/cell-inspector.mjs';
import { createLanguageSwitch } from './widgets/language-switch.mjs';
import { createNotices } from './widgets/notices.mjs';
import { createStageList } from './widgets/stage-list.mjs';
import { createTablesPanel } from './widgets/tables-panel.mjs';
import { createTransport } from './widgets/transport.mjs';
import { createWorkbench } from './widgets/workbench.mjs';
import { createLearningTools } from './tools/index.mjs';
import { freshSeed, practiceExample } from './tools/practice.mjs';
import { elementMarkup } from './element/markup.mjs';

let instances = 0;

/**
 * @param {{ root: HTMLElement, loadAttention: () => Promise<object>, embed?: object }} options
 *   loadAttention resolves to the API of createAttention() (served or inlined build);
 *   embed, for an <attention-explainer> element: { language, hash, autoplay }, its state
 *   from its attributes instead of the page's URL, and the page's title, URL and keys left
 *   to the page
 */
export async function startApp({ root, loadAttention, embed = null }) {
  // The module first: it downloads and compiles while the page is built.
  const attention = startLoading(loadAttention);
  instances += 1;
  const prefix = instances === 1 ? '' : `explainer-${instances}-`;
  const id = (name) => `${prefix}${name}`;
  // Where the current step and whether it is drawn finished are marked (data-step,
  // data-settled) for scripts and tests: <body> for the page's first explainer, its root for
  // any other.
  const marks = instances === 1 && !embed ? document.body : root;

  let language = embed?.language ?? initialLanguage(navigator.languages ?? [navigator.language]);
  let tr = translator(language);
  setDocumentLanguage(language, tr);
  const loading = root.querySelector('[data-loading]');
  if (loading) loading.textContent = tr('app.loading');

  // --- what is derived from the state -----------------------------------------------------
  let attn = null;
  let numbers = null; // computeNumbers() of the state's example and settings
  let version = 0; // bumped with every new numbers: scenes built from older ones are stale
  let shownVersion = 0; // the version the timeline, scene and panels show
  let steps = [];
  let traceError = null;
  let wasPlaying = false;
  const pendingAfterFrame = new Set();
  // Chapter 2's model-size calculator: the reader's sizes, kept across its scene's rebuilds.
  const modelSizes = { ...MODEL_DEFAULTS };

  // --- the page's parts (built, not yet shown) ------------------------------------------
  const timeline = new Timeline({ onChange: onClock });
  const languageSwitch = createLanguageSwitch({ onChange: setLanguage });
  const notices = createNotices(tr);
  const stageList = createStageList({ onJump: (index) => timeline.goTo(index) });
  const transport = createTransport({ timeline });
  const workbench = createWorkbench({
    onSettings: (changes) =>
      change({ settings: { ...state.current.settings, ...changes } }, 'settings'),
    onDims: (changes) =>
      change({ example: withDims(state.current.example, changes), status: null }, 'edit'),
    onEntry: (name, row, col, value) =>
      change(
        { example: withEntry(state.current.example, name, row, col, value), status: null },
        'edit',
      ),
    onRandomise: (scheme, seed) => {
      workbench.clearEditorMessages();
      change(
        {
          example: randomExample(dimsOf(state.current.example), scheme, seed),
          status: { key: 'workbench.randomised', params: { scheme, seed } },
        },
        'edit',
      );
    },
    onLayerDims: (changes) => setLayerDims(changes),
    onLayerEntry: (name, row, col, value) =>
      change(
        {
          layer: withLayerEntry(state.current.layer, name, row, col, value),
          status: null,
        },
        'edit',
      ),
    onReset: () => {
      workbench.clearEditorMessages();
      change(
        {
          example: articleExample(),
          layer: layerExample(),
          settings: DEFAULT_SETTINGS,
          status: { key: 'workbench.wasResetTo', params: {} },
        },
        'edit',
      );
    },
  });
  const tables = createTablesPanel();
  const sceneHost = h('div', { class: 'scene-host', dataset: { inspectRoot: '' } });
  const tools = createLearningTools({
    id,
    sceneHost,
    embedded: Boolean(embed),
    // Predict holds the step at its start (nothing computed yet) until the answer is in.
    scene: {
      hold: () => {
        if (timeline.t > 0 || timeline.animating)
          queueMicrotask(() => timeline.scrubTo(timeline.index));
      },
      // A held step plays on; a step already drawn stays as it is.
      reveal: () => {
        if (timeline.t < 1 && !timeline.animating) timeline.goTo(timeline.index);
      },
    },
    context: toolsContext,
    onPractice: practise,
  });
  const page = buildPage(
    { stageList, transport, tables, workbench, languageSwitch, notices, tools, sceneHost },
    id,
  );
  const scenes = createSceneStage({ host: page.sceneHost, onShow: showExplanation });

  // What a scene may ask for: chapter 2's MHA/GQA/MQA switch changes the kv heads, and the
  // rebuilt scene gets the focus back on the same choice.
  const sceneActions = {
    setLayerDims(changes) {
      setLayerDims(changes);
      if (changes.kvHeads !== undefined)
        page.sceneHost.querySelector(`input[data-kv="${changes.kvHeads}"]`)?.focus();
    },
  };

  // The state, changed only through change(); it starts as the article's example and is
  // replaced by the link's state once the module is there.
  const state = createState(articleState(), onStateChange);

  try {
    attn = await attention;
  } catch (error) {
    showLoadError(root, error, tr);
    return null;
  }
  root.replaceChildren(...page.parts);
  root.dataset.explainer = '';
  const inspector = createCellInspector({
    numbers: () => numbers,
    tr: () => tr,
    id,
    container: embed ? root : document.body,
  });
  inspector.attach(page.sceneHost);
  inspector.attach(tables.grid);
  installKeyboard(timeline, root, { global: !embed });
  const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
  timeline.setReducedMotion(motion.matches);
  motion.addEventListener('change', () => timeline.setReducedMotion(motion.matches));
  const url = embed ? null : createUrlWriter();
  const followUrl = () => {
    if (!url.isOwn(location.hash)) openLink(location.hash, 'history');
  };
  if (url) {
    window.addEventListener('popstate', followUrl);
    window.addEventListener('hashchange', followUrl);
  }

  openLink(embed ? embed.hash : location.hash, 'load');
  (embed ? root : document.documentElement).dataset.appState = 'ready';
  if (embed?.autoplay) timeline.play();
  return { state, timeline };

  // --- the one way to change the state ----------------------------------------------------

  function change(patch, reason) {
    state.change(patch, reason);
  }

  /** Chapter 2's head counts, head size or tokens (the workbench, or the scene's switch). */
  function setLayerDims(changes) {
    change({ layer: withLayerDims(state.current.layer, changes), status: null }, 'edit');
  }

  /** A link (on load, or Back/Forward): its whole state, shown finished, no animation. */
  function openLink(hash, reason) {
    const { state: linked, problem } = stateFromUrl(hash);
    if (problem) {
      notices.show({
        id: 'url',
        kind: 'warning',
        text: (t) => t('url.fallback', { reason: t(problem.key, problem.params) }),
      });
    }
    change(linked, reason);
  }

  /** Every change of the state lands here; what changed decides what is redrawn. */
  function onStateChange(current, previous, reason) {
    if (!attn) return; // the module is not there yet: the link is applied once it is
    const previousSteps = steps;
    const dataChanged =
      numbers === null ||
      current.example !== previous.example ||
      current.layer !== previous.layer ||
      current.settings !== previous.settings;
    if (dataChanged && !recompute(current)) {
      // The module refused (it should not, the editors validate): back to the last good
      // state, or to the article's if there is none.
      const fallback = numbers ? previous : articleState();
      state.change({ ...fallback, step: current.step }, reason);
      return;
    }
    let index = indexOfStep(steps, current.step);
    if (index === -1) {
      // The step showed a token that is gone: the same kind of step, for the last token.
      state.change({ step: steps[sameFamilyIndex(previousSteps, previous.step)].id }, reason);
      return;
    }
    // New numbers (here, or in the change that led here) are not on screen yet.
    const unseen = version !== shownVersion;
    shownVersion = version;
    if (reason === 'load' || reason === 'history') {
      timeline.setSteps(steps, index, 1);
      timeline.goTo(index, { animate: false, reason });
    } else if (unseen) {
      timeline.setSteps(steps, index, timeline.t);
      drawScene();
    }
    if (unseen || reason === 'language') refreshPanels();
    if (unseen || reason === 'language' || current.step !== previous.step)
      tools.update({ keepQuestion: reason === 'language' });
    // Step changes come from the clock, which updates the controls itself.
    if (reason !== 'tick' && reason !== 'step' && reason !== 'scrub') updateChrome();
    narrate();
    writeUrl(reason);
  }

  /**
   * Runs trace() for the state's example and settings, and chapter 2's layer (trace() and
   * onnxAttention's KV cache); false (and a message) if refused.
   */
  function recompute({ example, layer, settings }) {
    const isArticle = sameExample(example, articleExample());
    try {
      const computed = computeNumbers(attn, example, settings, isArticle);
      computed.layer = computeLayerNumbers(attn, layer, settings, sameLayer(layer, layerExample()));
      numbers = computed;
      traceError = null;
    } catch (error) {
      traceError = error.message;
      return false;
    }
    version += 1;
    const next = buildSteps(numbers.dims, numbers.layer.dims);
    const same = next.length === steps.length && next.every((step, k) => step.id === steps[k].id);
    if (!same) steps = next;
    return true;
  }

  /** In the new steps: the last step of the family `previousId` had in the old steps. */
  function sameFamilyIndex(previousSteps, previousId) {
    const family = previousSteps.find((step) => step.id === previousId)?.family;
    let found = -1;
    steps.forEach((step, k) => {
      if (step.family === family) found = k;
    });
    return found === -1 ? Math.min(timeline.index, steps.length - 1) : found;
  }

  // --- the clock ------------------------------------------------------------------------

  function onClock({ stepChanged, reason }) {
    if (!numbers) return;
    drawScene();
    const step = steps[timeline.index];
    if (step.id !== state.current.step) {
      const playing = reason === 'tick' || reason === 'play';
      change({ step: step.id }, playing ? 'tick' : reason === 'step' ? 'step' : 'scrub');
    }
    const playStateChanged = timeline.playing !== wasPlaying;
    wasPlaying = timeline.playing;
    // Playback starting or moving on: the window title (a message to the browser process,
    // which can take the CPU from this frame) waits until the frame is drawn.
    const playing = reason === 'tick' || reason === 'play';
    if (stepChanged || !playing || playStateChanged) updateChrome({ deferTitle: playing });
    else transport.syncPosition();
    const settled = String(!timeline.animating && timeline.t >= 1);
    if (marks.dataset.settled !== settled) marks.dataset.settled = settled;
  }

  // --- views of the state -----------------------------------------------------------------

  function sceneContext() {
    return { numbers, tr, language, version, modelSizes, actions: sceneActions };
  }

  function drawScene() {
    const step = steps[timeline.index];
    if (!scenes.show(step, sceneContext(), timeline.t)) return;
    // A new scene on screen: build the one after it in an idle moment.
    scenes.prepare(() => {
      const upcoming = steps[timeline.index + 1];
      return upcoming ? { step: upcoming, ctx: sceneContext() } : null;
    });
  }

  /** A newly shown scene: its explanation, titles and badges. */
  function showExplanation(scene, step) {
    inspector?.hide();
    const { sentences, formula, notes = [] } = scene.explanation;
    const glossarySeen = new Set();
    page.explanation.replaceChildren(
      h(
        'div',
        { class: 'explanation-text' },
        sentences.map((text) => h('p', {}, withGlossary(text, tr, glossarySeen, id))),
      ),
      h('div', { class: 'formula' }, formula),
    );
    page.notes.replaceChildren(
      ...notes.map((note) =>
        note.element
          ? note.element
          : h(
              'p',
              { class: `note note-${note.kind}` },
              withGlossary(note.text, tr, glossarySeen, id),
            ),
      ),
    );
    page.stageLabel.textContent = `${tr('stage.number', { stage: step.stage })} · ${stageTitle(step.stage, tr)}`;
    page.sceneTitle.textContent = step.title(tr, numbers.dims);
    page.badges.replaceChildren(
      ...badges(numbers.settings, numbers.isArticleExample, tr).map(({ kind, text }) =>
        h('span', { class: `badge badge-${kind}`, text }),
      ),
    );
    marks.dataset.step = step.id;
    tools.sceneShown();
    // In chapter 2, "Your numbers" opens with the layer's editors.
    workbench.element.classList.toggle('is-chapter-2', chapterOf(step.stage) === 2);
  }

  function narrate() {
    page.narration.textContent = narration({
      step: steps[timeline.index],
      index: timeline.index,
      total: steps.length,
      scene: scenes.current,
      tr,
      dims: numbers.dims,
    });
  }

  function updateChrome({ deferTitle = false } = {}) {
    const step = steps[timeline.index];
    stageList.update({ steps, index: timeline.index, tr, dims: numbers.dims });
    transport.update({
      tr,
      steps,
      title: step.title(tr, numbers.dims),
      stageTitle: (number) => stageTitle(number, tr),
    });
    if (deferTitle) afterFrame(updateTitle);
    else updateTitle();
  }

  function updateTitle() {
    if (embed) return; // the host page's title is the host page's
    const title = windowTitle(steps[timeline.index], tr, numbers.dims);
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
    const { example, layer, settings, status } = state.current;
    tables.update({ numbers, tr, language });
    workbench.update({
      example,
      layer,
      settings,
      tr,
      statusText: statusText(status, tr),
      error: traceError,
      isArticleExample: numbers.isArticleExample,
    });
    const seen = new Set();
    page.title.textContent = tr('app.title');
    page.subtitle.replaceChildren(...withGlossary(tr('app.subtitle'), tr, seen, id));
    page.source.textContent = tr('app.source');
    page.skip.textContent = tr('app.skip');
    page.keysHint.textContent = tr('app.keysHint');
    page.footer.replaceChildren(...withGlossary(tr('app.footer'), tr, seen, id));
    languageSwitch.update(language, tr);
  }

  /** The URL: pushed when the reader moved to another step, replaced otherwise. */
  function writeUrl(reason) {
    if (!url) return; // an embedded explainer keeps its state to itself
    const write = () => url.write(urlOf(state.current), reason === 'step' ? 'push' : 'replace');
    // During playback the URL (a message to the browser process) waits for the frame.
    if (reason === 'tick') afterFrame(write);
    else write();
  }

  function setLanguage(next) {
    language = next;
    tr = translator(language);
    rememberLanguage(language);
    setDocumentLanguage(language, tr);
    notices.setTranslator(tr);
    drawScene();
    change({}, 'language');
  }

  function setDocumentLanguage(next, translate) {
    if (embed) {
      root.lang = htmlLang(next);
      return;
    }
    document.documentElement.lang = htmlLang(next);
    document.title = translate('app.title');
  }

  // --- learning tools ---------------------------------------------------------------------

  function toolsContext() {
    const current = state.current;
    const hash = urlOf(current);
    return {
      numbers,
      tr,
      language,
      steps,
      step: steps[timeline.index],
      hash,
      // Progress is kept per example: its numbers and settings, whatever the step.
      exampleKey: urlOf({ ...current, step: 'any' }),
      link: embed ? elementMarkup(current, language) : `${location.href.split('#')[0]}${hash}`,
      sceneElement: scenes.current?.element ?? null,
      buildScene: (step) => step.build({ ...sceneContext(), step }),
    };
  }

  /** Practice: a new example of small whole numbers, at the first step that asks questions. */
  function practise() {
    workbench.clearEditorMessages();
    const example = practiceExample(freshSeed());
    const first = buildSteps(dimsOf(example), numbers.layer.dims).find((step) => step.questions);
    change(
      {
        example,
        step: first.id,
        status: { key: 'tools.practice.status', params: {} },
      },
      'history',
    );
  }
}
