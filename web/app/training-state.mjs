// Chapter 3's part of the state (`training`, the switches; `trained`, a trained model's link
// text) and the run (app/training.mjs) that follows it. The switches change through the state
// (the train stage's controls, a link, Back/Forward), and the run follows: a new model from
// the seed when anything but the speed changed. A model in a link is decoded, checked against
// the model its switches make, and only then loaded; a link that cannot be used says why in a
// notice and the run stays as it was.
import { decodeParametersLink, encodeParametersLink } from '../model/parameters-link.mjs';
import { modelConfig, trainedSteps } from '../model/training.mjs';
import { nextSettings, remakesModel } from './training.mjs';
import { urlOf } from './url.mjs';

/** The run's `onLoaded`: the loaded switches (and the link they came from) into the state. */
export function onParametersLoaded(app, settings, source) {
  app.trainedLoaded = source;
  app.change({ training: settings, trained: source }, 'training');
}

/** After every change of the state: the run follows its switches and trained model. */
export function followTraining(app, current, previous) {
  const { training, trained } = current;
  if (training === previous.training && trained === previous.trained) return;
  if (trained && trained !== app.trainedLoaded) {
    loadTrainedLink(app, trained);
    return;
  }
  // The state no longer names the loaded model (a link without it): a new model from the seed.
  const leftLoaded = !trained && app.trainedLoaded;
  app.trainedLoaded = trained;
  app.training.set(training, { restart: Boolean(leftLoaded) });
}

/** A link's model: decoded, checked by a model in this thread, then loaded into the run. */
async function loadTrainedLink(app, text) {
  try {
    const read = await decodeParametersLink(text);
    const check = app.attn.createTinyTransformer(modelConfig(read.settings));
    try {
      check.loadParameters(read.parameters); // refuses wrong names or dims, naming them
    } finally {
      check.free();
    }
    if (!(await app.training.load(read, text))) throw new Error(app.training.run.error);
  } catch (error) {
    app.widgets.notices.show({
      id: 'trained',
      kind: 'warning',
      text: (t) => t('url.badTrained', { reason: error.message }),
    });
    if (app.state.current.trained === text) app.change({ trained: app.trainedLoaded }, 'training');
  }
}

/** What the train stage's controls may do: change switches, reset, link the trained model. */
export function trainingActions(app) {
  return {
    /** Changes switches ({ positions, … }); false (nothing changed) when they break a rule. */
    setTraining(patch) {
      const { training, trained } = app.state.current;
      const next = nextSettings(training, patch);
      if (!next) return false;
      // Another model is no longer the linked one.
      const keep = trained && !remakesModel(training, next);
      app.change({ training: next, trained: keep ? trained : null }, 'training');
      return true;
    },
    /** Back to step 0 from the seed (and the linked model, if any, left). */
    resetTraining() {
      if (app.state.current.trained) app.change({ trained: null }, 'training');
      else app.training.reset();
    },
    /**
     * The address of this page with the trained model in it (an embedded explainer: its
     * hash); null before any training.
     */
    async trainedModelLink() {
      const { run } = app.training;
      const parameters = await app.training.parameters();
      if (!parameters) return null;
      const step = trainedSteps(run);
      const trained = await encodeParametersLink({ settings: run.settings, step, parameters });
      const hash = urlOf({ ...app.state.current, trained });
      return app.embed ? hash : `${location.href.replace(/#.*$/, '')}${hash}`;
    },
  };
}
