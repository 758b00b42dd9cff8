// The URL as a view of the state: the hash is written from the state after every change
// (pushed for a step the reader chose, so Back returns to it; replaced otherwise), and read
// back into a complete state on load and on Back/Forward. url-state.mjs is the codec.
import { dimsOf, sameExample, articleExample } from '../model/example.mjs';
import { layerDimsOf, layerExample, sameLayer } from '../model/layer.mjs';
import { CHAPTERS, buildSteps, chapterOf, indexOfStep } from '../stages/index.mjs';
import { excerpt, parseHash, serializeHash } from '../url-state.mjs';
import { LEARNING_DEFAULTS } from '../model/learning.mjs';
import { TRAINING_DEFAULTS } from '../model/training.mjs';
import { DEFAULT_SETTINGS, articleState } from './state.mjs';

/**
 * The step a link opens: its step (a name or a number), else the first step of its chapter,
 * else the first step; or a problem naming the step or chapter that does not exist.
 */
function linkedStep(steps, read) {
  if (read.step !== undefined) {
    const index = /^\d+$/.test(read.step) ? Number(read.step) - 1 : indexOfStep(steps, read.step);
    if (!(index >= 0 && index < steps.length))
      return { problem: { key: 'url.unknownStep', params: { value: read.step } } };
    return { step: steps[index].id };
  }
  if (read.chapter !== undefined) {
    // Only the number as it is written (no 03, 3.0, 3e0 or " 3").
    const number = /^[1-9][0-9]{0,2}$/.test(read.chapter) ? Number(read.chapter) : NaN;
    const first = steps.find((s) => chapterOf(s.stage) === number);
    if (!first) {
      const params = { value: excerpt(read.chapter, 12), count: CHAPTERS.length };
      return { problem: { key: 'url.unknownChapter', params } };
    }
    return { step: first.id };
  }
  return { step: steps[0].id };
}

/**
 * Decodes a hash into a complete state.
 * @returns {{ state: object, problem: { key: string, params: object } | null,
 *   trainedProblem: { key: string, params: object } | null }} the article's example (and the
 *   problem) when the link cannot be used. Chapter 3's training (switches and trained model)
 *   is in `state` only when the link names some of it: a link without it (one written before
 *   the switches changed, which Back returns to) leaves the run as it is; chapter 3's order,
 *   target and steps likewise. trainedProblem: why the link's trained model was left out
 *   (the model stays as it was; the rest of the link applies).
 */
export function stateFromUrl(hash) {
  const parsed = parseHash(hash);
  const fallback = (problem) => ({ state: articleState(), problem, trainedProblem: null });
  if (!parsed.ok) return fallback(parsed.problem);
  const { state: read, trainedProblem = null } = parsed;
  const example = read.example ?? articleExample();
  const layer = read.layer ?? layerExample();
  const steps = buildSteps(dimsOf(example), layerDimsOf(layer));
  const { step, problem } = linkedStep(steps, read);
  if (problem) return fallback(problem);
  const settings = {
    scaled: read.scaled ?? DEFAULT_SETTINGS.scaled,
    causal: read.causal ?? DEFAULT_SETTINGS.causal,
    rounding: read.rounding ?? DEFAULT_SETTINGS.rounding,
  };
  const training =
    read.training || read.trained
      ? { training: read.training ?? TRAINING_DEFAULTS, trained: read.trained ?? null }
      : {};
  // Chapter 3's order, target and steps, as training: those the link names, the defaults for
  // the rest; none named (a link from before the reader's steps, which Back returns to) keeps
  // them as they are.
  const learning = read.learning ? { learning: { ...LEARNING_DEFAULTS, ...read.learning } } : {};
  return {
    state: { example, layer, settings, step, status: null, ...training, ...learning },
    problem: null,
    trainedProblem,
  };
}

/** The hash for a state: "#step=softmax-1", plus settings and numbers that differ. */
export function urlOf(state) {
  return serializeHash({
    step: state.step,
    ...state.settings,
    example: state.example,
    isArticleExample: sameExample(state.example, articleExample()),
    layer: state.layer,
    isLayerExample: sameLayer(state.layer, layerExample()),
    training: state.training,
    trained: state.trained,
    learning: state.learning,
  });
}

/** Writes hashes into the address bar and tells the page's own writes from the reader's. */
export function createUrlWriter() {
  let lastWritten = null;
  return {
    /** True when `hash` is the one this page wrote last (its own hashchange echo). */
    isOwn: (hash) => hash === lastWritten,
    write(hash, mode) {
      lastWritten = hash;
      if (hash === location.hash) return;
      try {
        if (mode === 'push') history.pushState(null, '', hash);
        else history.replaceState(null, '', hash);
      } catch {
        // Some file:// setups refuse the History API; the page works without the URL in sync.
      }
    },
  };
}
