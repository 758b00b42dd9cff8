// The explainer on one root element. Data flows one way:
//   state (example, layer, settings, step, status, model sizes; app/state.mjs, changed only
//   through change())
//     -> numbers (model/numbers.mjs, model/layer-numbers.mjs: the wasm trace())
//     -> steps (stages/: one file per stage) -> the step's scene, drawn by render(t)
//   and the URL, the window title, the narration and the panels are views of the same state
//   (app/views.mjs). The timeline (timeline.mjs) is the clock: it owns t within a step and
//   tells the state when the step changes (app/flow.mjs). Nothing here is module-level: each
//   startApp() is its own explainer, `app` below holds everything of it.
import { initialLanguage, translator } from './i18n/index.mjs';
import { installKeyboard } from './keyboard.mjs';
import { Timeline } from './timeline.mjs';
import { onClock, onStateChange, openLink, setLayerDims } from './app/flow.mjs';
import { showLoadError, startLoading } from './app/loader.mjs';
import { buildPage } from './app/page.mjs';
import { createSceneStage } from './app/scenes.mjs';
import { createState, initialState } from './app/state.mjs';
import { createLanguageRun } from './app/language-run.mjs';
import { createTraining } from './app/training.mjs';
import { onParametersLoaded, trainingActions } from './app/training-state.mjs';
import { createUrlWriter } from './app/url.mjs';
import { setDocumentLanguage, showExplanation } from './app/views.mjs';
import { createWidgets } from './app/widgets.mjs';
import { createCellInspector } from './widgets/cell-inspector.mjs';

let instances = 0;

/**
 * @param {{ root: HTMLElement, loadAttention: () => Promise<object>,
 *   startTrainer: (options: object) => Promise<object>,
 *   loadText: (file: string) => Promise<string>,
 *   loadSnapshot?: (name: string) => Promise<{ manifest: object, bytes: ArrayBuffer }>,
 *   embed?: object }} options
 *   loadAttention resolves to the API of createAttention() (served or inlined build);
 *   startTrainer is createTrainer() with the worker this build can start (chapters 3 and 4);
 *   loadText reads a text of dist/texts/ that chapter 4's model learns (fetched, or embedded
 *   in the offline file); loadSnapshot reads the model trained offline on one of them
 *   (app/snapshot-files.mjs);
 *   embed, for an <attention-explainer> element: { language, hash, autoplay }, its state
 *   from its attributes instead of the page's URL, and the page's title, URL and keys left
 *   to the page
 */
export async function startApp(options) {
  const { root, loadAttention, startTrainer, loadText, loadSnapshot, embed = null } = options;
  // The module first: it downloads and compiles while the page is built.
  const attention = startLoading(loadAttention);
  instances += 1;
  const prefix = instances === 1 ? '' : `explainer-${instances}-`;
  const language = embed?.language ?? initialLanguage(navigator.languages ?? [navigator.language]);
  const app = {
    root,
    embed,
    id: (name) => `${prefix}${name}`,
    // Where the current step and whether it is drawn finished are marked (data-step,
    // data-settled) for scripts and tests: <body> for the page's first explainer, its root
    // for any other.
    marks: instances === 1 && !embed ? document.body : root,
    language,
    tr: translator(language),
    attn: null,
    numbers: null, // computeNumbers() of the state's example and settings (+ .layer)
    version: 0, // bumped with every new numbers: scenes built from older ones are stale
    shownVersion: 0, // the version the timeline, scene and panels show
    shownPanels: null, // the chapter 3 stage's panels the panels show (views.mjs stagePanels)
    steps: [],
    traceError: null,
    wasPlaying: false,
    pendingAfterFrame: new Set(),
    pendingUrl: null, // playback's URL write, waiting (app/views.mjs writeUrl)
    shownExplanation: null, // the step's text showExplanation made last (views.mjs), which
    // playback puts on the page a frame after its scene (views.mjs showLatest)
    pendingList: null, // the stage list's latest update (views.mjs updateChrome), which
    // playback also makes a frame after its scene (showLatest)
    inspector: null,
    held: false, // Predict holds the step on screen (app/widgets.mjs)
    url: null,
    training: createTraining({
      startTrainer,
      onLoaded: (settings, source) => onParametersLoaded(app, settings, source),
      // A new model refused: the switches (and the link) go back to the one still loaded.
      onRefused: (settings) => app.change({ training: settings }, 'training'),
    }),
    // Chapter 4's character model: its text, training, sentence and switched-off heads.
    languageRun: createLanguageRun({ startTrainer, loadText, loadSnapshot }),
    trainedLoaded: null, // the link text of the model the run was loaded from (training-state)
    kvRemembered: null, // chapter 2's layer before its K/V heads were shared (flow.mjs)
    practiceFrom: null, // the reader's { example, step } while practising (app/widgets.mjs)
    change: (patch, reason) => app.state.change(patch, reason),
    // What a scene may ask for: chapter 2's MHA/GQA/MQA switch changes the kv heads; its
    // cache calculator keeps the reader's model sizes.
    actions: {
      setLayerDims: (changes) => setLayerDims(app, changes),
      setModelSizes: (changes) =>
        app.change({ modelSizes: { ...app.state.current.modelSizes, ...changes } }, 'sizes'),
      // Chapter 3: the shuffled order, the target and the steps taken (model/learning.mjs);
      // with replay, the step plays again from its start (the new order sliding into place).
      setLearning: (changes, { replay = false } = {}) => {
        app.change({ learning: { ...app.state.current.learning, ...changes } }, 'learning');
        if (replay) app.timeline.goTo(app.timeline.index, { animate: true });
      },
      // Chapter 4's writing: the step plays again from its start, the new text appearing.
      replayStep: () => app.timeline.goTo(app.timeline.index, { animate: true }),
    },
  };
  // Chapter 3's training switches, Reset and the trained model's link (training-state.mjs).
  Object.assign(app.actions, trainingActions(app));
  setDocumentLanguage(app);
  const loading = root.querySelector('[data-loading]');
  if (loading) loading.textContent = app.tr('app.loading');

  // --- the page's parts (built, not yet shown) ------------------------------------------
  app.timeline = new Timeline({ onChange: (event) => onClock(app, event) });
  app.widgets = createWidgets(app);
  app.page = buildPage(app.widgets, app.id);
  app.scenes = createSceneStage({
    host: app.page.sceneHost,
    cue: app.page.scrollCue,
    onShow: (scene, step) => showExplanation(app, scene, step),
  });
  // The state starts as the article's example and is replaced by the link's state once the
  // module is there.
  app.state = createState(initialState(), (current, previous, reason) =>
    onStateChange(app, current, previous, reason),
  );

  try {
    app.attn = await attention;
  } catch (error) {
    showLoadError(root, error, app.tr);
    return null;
  }
  root.replaceChildren(...app.page.parts);
  root.dataset.explainer = '';
  connect(app);
  openLink(app, embed ? embed.hash : location.hash, 'load');
  (embed ? root : document.documentElement).dataset.appState = 'ready';
  if (embed?.autoplay) app.timeline.play();
  return {
    state: app.state,
    timeline: app.timeline,
    /** Stops what runs on its own: playback and chapters 3 and 4's training workers. */
    stop() {
      if (app.timeline.playing) app.timeline.pause();
      app.training.close();
      app.languageRun.close();
    },
  };
}

/** Once the page is on screen: the cell inspector, keys, reduced motion and the URL. */
function connect(app) {
  const { root, embed, timeline } = app;
  app.inspector = createCellInspector({
    numbers: () => app.numbers,
    tr: () => app.tr,
    id: app.id,
    container: embed ? root : document.body,
  });
  app.inspector.attach(app.page.sceneHost);
  app.inspector.attach(app.widgets.tables.grid);
  installKeyboard(timeline, root, { global: !embed });
  const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
  timeline.setReducedMotion(motion.matches);
  motion.addEventListener('change', () => timeline.setReducedMotion(motion.matches));
  if (embed) return; // an embedded explainer neither reads nor writes the page's URL
  const url = createUrlWriter();
  app.url = url;
  const followUrl = () => {
    if (!url.isOwn(location.hash)) openLink(app, location.hash, 'history');
  };
  window.addEventListener('popstate', followUrl);
  window.addEventListener('hashchange', followUrl);
}
