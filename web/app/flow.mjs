// How one explainer reacts: every change of the state (app/state.mjs) and every tick of the
// clock (timeline.mjs) lands here, and what changed decides what is derived again (numbers,
// steps) and which views (app/views.mjs) are redrawn.
import { translator, rememberLanguage } from '../i18n/index.mjs';
import { articleExample, sameExample } from '../model/example.mjs';
import {
  layerDimsOf,
  layerExample,
  sameLayer,
  withKvHeads,
  withLayerDims,
} from '../model/layer.mjs';
import { computeLayerNumbers } from '../model/layer-numbers.mjs';
import { computeLearningNumbers } from '../model/learning.mjs';
import { computeNumbers } from '../model/numbers.mjs';
import { STAGES, buildSteps, indexOfStep } from '../stages/index.mjs';
import { articleState } from './state.mjs';
import { followTraining } from './training-state.mjs';
import { stateFromUrl } from './url.mjs';
import {
  drawScene,
  flushUrl,
  narrate,
  refreshPanels,
  setDocumentLanguage,
  stagePanels,
  updateChrome,
  writeUrl,
} from './views.mjs';

/** Every change of the state lands here; what changed decides what is redrawn. */
export function onStateChange(app, current, previous, reason) {
  if (!app.attn) return; // the module is not there yet: the link is applied once it is
  followTraining(app, current, previous);
  // Back in the browser to the numbers practice kept: practice is over.
  const practised = app.practiceFrom;
  if (practised && reason === 'history' && sameExample(current.example, practised.example)) {
    app.practiceFrom = null;
    app.widgets.notices.hide('practice');
  }
  const { timeline } = app;
  const previousSteps = app.steps;
  const dataChanged =
    app.numbers === null ||
    current.example !== previous.example ||
    current.layer !== previous.layer ||
    current.settings !== previous.settings ||
    current.learning !== previous.learning;
  if (dataChanged && !recompute(app, current)) {
    // The module refused (it should not, the editors validate): back to the last good
    // state, or to the article's if there is none.
    const fallback = app.numbers ? previous : articleState();
    app.change({ ...fallback, step: current.step }, reason);
    return;
  }
  if (!dataChanged && stageNumbersRefused(app, current.step)) {
    // A later chapter's numbers, first read now, for numbers edited elsewhere: the article's.
    app.change({ ...articleState(), step: current.step }, reason);
    return;
  }
  const index = indexOfStep(app.steps, current.step);
  if (index === -1) {
    // The step showed a token that is gone: the same kind of step, for the last token.
    const k = sameFamilyIndex(app, previousSteps, previous.step);
    app.change({ step: app.steps[k].id }, reason);
    return;
  }
  // Learning steps asked for past one that would overflow are not taken: the state, and so
  // the link, says the steps taken (the numbers are the same for both: learning-step.mjs).
  const taken = learningStepsTaken(app, current);
  if (taken < current.learning.steps) {
    app.change({ learning: { ...current.learning, steps: taken } }, reason);
    return;
  }
  // New numbers (here, or in the change that led here) are not on screen yet.
  const unseen = app.version !== app.shownVersion;
  app.shownVersion = app.version;
  // A link, Back/Forward, or practice (a new example, or back from it): shown finished.
  if (reason === 'load' || reason === 'history' || reason === 'practice') {
    timeline.setSteps(app.steps, index, 1);
    timeline.goTo(index, { animate: false, reason });
  } else if (unseen) {
    timeline.setSteps(app.steps, index, timeline.t);
    drawScene(app);
  }
  // A chapter 3 stage has panels of its own: the panels follow the reader into and out of it.
  const panels = stagePanels(app);
  const panelsMoved = panels !== app.shownPanels;
  app.shownPanels = panels;
  if (unseen || reason === 'language' || panelsMoved) refreshPanels(app);
  if (unseen || reason === 'language' || current.step !== previous.step)
    app.widgets.tools.update({ keepQuestion: reason === 'language' });
  // Step changes come from the clock, which updates the controls itself.
  if (reason !== 'tick' && reason !== 'step' && reason !== 'scrub') updateChrome(app);
  if (current.step !== previous.step) pauseRunsLeft(app, app.steps[index].chapter);
  narrate(app);
  writeUrl(app, reason);
}

/**
 * Chapters 3 and 4's training runs pause when the reader leaves their chapter: unseen, a run
 * went on taking a core from chapter 1's playback, and the reader came back to find it had
 * moved on without them (back, they find it as Pause leaves it: chapter 4's status says
 * "paused at step N"). Between its own chapter's stages, which read the model as it trains,
 * a run goes on.
 */
function pauseRunsLeft(app, chapter) {
  if (chapter !== 3) app.training.pause();
  if (chapter !== 4) app.languageRun.pause();
}

/**
 * Runs trace() for the state's example and settings, and sets up chapter 2's layer (trace()
 * and onnxAttention's KV cache) and chapter 3's numbers to be computed when first read; false
 * (and a message) if refused.
 */
function recompute(app, { example, layer, settings, learning, step }) {
  const isArticle = sameExample(example, articleExample());
  let computed;
  let next;
  try {
    computed = computeNumbers(app.attn, example, settings, isArticle);
    const isLayerExample = sameLayer(layer, layerExample());
    whenRead(computed, 'layer', () =>
      computeLayerNumbers(app.attn, layer, settings, isLayerExample),
    );
    whenRead(computed, 'learning', () =>
      computeLearningNumbers(app.attn, example, learning, computed.layer),
    );
    next = buildSteps(computed.dims, layerDimsOf(layer));
    readStageNumbers(computed, next, step);
  } catch (error) {
    app.traceError = error.message;
    return false;
  }
  app.numbers = computed;
  app.traceError = null;
  app.version += 1;
  const { steps } = app;
  const same = next.length === steps.length && next.every((s, k) => s.id === steps[k].id);
  if (!same) app.steps = next;
  return true;
}

/**
 * `numbers[name]`, computed the first time something reads it: a step of its chapter, its
 * panels, its questions, a cell inspected. Chapter 1's steps read neither chapter 2's layer
 * nor chapter 3's numbers, and computing them as the page opens cost about half of the
 * module's time before the first step was on screen.
 */
function whenRead(numbers, name, compute) {
  let value = null;
  Object.defineProperty(numbers, name, {
    enumerable: true,
    get: () => (value ??= compute()),
  });
}

/**
 * Computes the later chapters' numbers the step `id` reads (its stage's `reads`) now, as it
 * is about to be drawn, so that a refusal is met here and not while its scene is built.
 * Throws what the module threw.
 */
function readStageNumbers(numbers, steps, id) {
  const step = steps.find((s) => s.id === id);
  for (const name of (step && STAGES[step.stage - 1].reads) ?? []) void numbers[name];
}

/** The learning steps taken, where the step on screen reads them; else Infinity. */
function learningStepsTaken(app, { step }) {
  const shown = app.steps.find((s) => s.id === step);
  const reads = (shown && STAGES[shown.stage - 1].reads) ?? [];
  return reads.includes('learning') ? app.numbers.learning.step.steps : Infinity;
}

/** The numbers the step reads, first read now, were refused (the message is kept). */
function stageNumbersRefused(app, id) {
  try {
    readStageNumbers(app.numbers, app.steps, id);
    return false;
  } catch (error) {
    app.traceError = error.message;
    return true;
  }
}

/** In the new steps: the last step of the family `previousId` had in the old steps. */
function sameFamilyIndex(app, previousSteps, previousId) {
  const family = previousSteps.find((step) => step.id === previousId)?.family;
  let found = -1;
  app.steps.forEach((step, k) => {
    if (step.family === family) found = k;
  });
  return found === -1 ? Math.min(app.timeline.index, app.steps.length - 1) : found;
}

/** The clock moved (a frame, a step, a scrub): the scene, the state's step, the controls. */
export function onClock(app, { stepChanged, reason }) {
  if (!app.numbers) return;
  const { timeline, marks } = app;
  drawScene(app);
  const step = app.steps[timeline.index];
  // Playback starting or moving on: the window title (a message to the browser process,
  // which can take the CPU from this frame) waits until the frame is drawn.
  const playing = reason === 'tick' || reason === 'play';
  if (step.id !== app.state.current.step) {
    app.change({ step: step.id }, playing ? 'tick' : reason === 'step' ? 'step' : 'scrub');
  }
  const playStateChanged = timeline.playing !== app.wasPlaying;
  app.wasPlaying = timeline.playing;
  if (!timeline.playing) flushUrl(app);
  if (stepChanged || !playing || playStateChanged) updateChrome(app, { playing });
  else app.widgets.transport.syncPosition();
  const settled = String(!timeline.animating && timeline.t >= 1);
  if (marks.dataset.settled !== settled) marks.dataset.settled = settled;
}

/** A link (on load, or Back/Forward): its whole state, shown finished, no animation. */
export function openLink(app, hash, reason) {
  const { state: linked, problem, trainedProblem } = stateFromUrl(hash);
  if (problem) {
    app.widgets.notices.show({
      id: 'url',
      kind: 'warning',
      text: (t) => t('url.fallback', { reason: t(problem.key, problem.params) }),
    });
  } else {
    // A link that works: an earlier link's warning no longer says what the page shows.
    app.widgets.notices.hide('url');
  }
  if (trainedProblem) {
    // The same notice as a model link that does not decode (app/training-state.mjs).
    app.widgets.notices.show({
      id: 'trained',
      kind: 'warning',
      text: (t) => t('url.badTrained', { reason: t(trainedProblem.key, trainedProblem.params) }),
    });
  }
  app.change(linked, reason);
}

/**
 * Chapter 2's head counts, head size or tokens (the workbench, or the scene's switch). A
 * change of the K/V heads alone can be undone: the layer before sharing is kept
 * (app.kvRemembered), and switching back to more K/V heads restores their own weights.
 */
export function setLayerDims(app, changes) {
  const { layer } = app.state.current;
  const kvOnly = Object.keys(changes).every((name) => name === 'kvHeads');
  let next;
  if (kvOnly && changes.kvHeads !== undefined) {
    const switched = withKvHeads(layer, changes.kvHeads, app.kvRemembered);
    app.kvRemembered = switched.remembered;
    next = switched.layer;
  } else next = withLayerDims(layer, changes);
  app.change({ layer: next, status: null }, 'edit');
}

export function setLanguage(app, next) {
  app.language = next;
  app.tr = translator(next);
  rememberLanguage(next);
  setDocumentLanguage(app);
  app.widgets.notices.setTranslator(app.tr);
  drawScene(app);
  app.change({}, 'language');
}
