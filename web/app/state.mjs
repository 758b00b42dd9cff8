// The page's one state, and the only way to change it. Everything on screen (the scene, the
// URL, the title, the narration, the panels) is a view of it:
//   example   the reader's inputs and weights (model/example.mjs)
//   layer     chapter 2's layer: heads, kv heads and its five matrices (model/layer.mjs)
//   settings  { scaled, causal, rounding: 'exact' | 'article' }
//   step      the current step's id ("scores-1")
//   status    what the last action in the workbench did, as an i18n key and its parameters
//             ({ key: 'workbench.randomised', params }) or null
//   modelSizes  the K/V sharing stage's cache calculator: { layers, heads, kvHeads, dHead, tokens, bytes }
//             of a real model, the reader's; kept across links and resets (not in the URL)
//   learning  chapter 3's shuffled order, target and steps taken (model/learning.mjs); kept
//             across resets and links that do not name them (in the URL)
//   training  chapter 3's training switches { positions, layers, heads, seed, speed }
//             (model/training.mjs); app/training.mjs's run follows them (in the URL)
//   trained   the link text of a trained model the run was loaded from, or null (in the URL;
//             model/parameters-link.mjs)
import { articleExample } from '../model/example.mjs';
import { MODEL_DEFAULTS, layerExample } from '../model/layer.mjs';
import { LEARNING_DEFAULTS } from '../model/learning.mjs';
import { TRAINING_DEFAULTS } from '../model/training.mjs';

export const DEFAULT_SETTINGS = Object.freeze({ scaled: false, causal: false, rounding: 'exact' });

/** The state a page opens with: the article's example, the calculator's model. */
export const initialState = () => ({
  ...articleState(),
  modelSizes: MODEL_DEFAULTS,
  learning: LEARNING_DEFAULTS,
  training: TRAINING_DEFAULTS,
  trained: null,
});

/**
 * The article's example at its first step, as the page opens without a link (what a link
 * decides: no model sizes).
 */
export function articleState() {
  return {
    example: articleExample(),
    layer: layerExample(),
    settings: DEFAULT_SETTINGS,
    step: 'inputs',
    status: null,
  };
}

/**
 * @param {object} initial  a complete state
 * @param {(state: object, previous: object, reason: string) => void} onChange  called after
 *   every change, with the reason ('edit', 'settings', 'step', 'tick', 'history', ...)
 */
export function createState(initial, onChange) {
  let state = Object.freeze({ ...initial });
  return {
    get current() {
      return state;
    },
    /** The one function that changes the state: a patch of some of its fields. */
    change(patch, reason) {
      const previous = state;
      state = Object.freeze({ ...state, ...patch });
      onChange(state, previous, reason);
    },
  };
}
