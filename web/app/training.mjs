// Chapter 3's live training, one per explainer: the trainer (createTrainer, a Worker holding
// the module and the tiny model), the reader's switches, and everything the run has reported
// (every step's loss, the attention snapshots, the step where the loss dropped). It lives in
// the app, not in a scene: a scene is rebuilt on a language switch or when the reader comes
// back to the step, and draws whatever the run holds then. A reload starts from the seed
// again, so the same switches give the same run.
import {
  ATTENTION_EVERY,
  PROGRESS_EVERY,
  SPEED_CHUNKS,
  TRAINING_DEFAULTS,
  findDrop,
  modelConfig,
  trainingSettingsProblem,
  MAX_TRAINING_STEPS,
} from '../model/training.mjs';
import { createRunLoop } from './run-loop.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a run holds before its first step (the switches are kept apart: they outlive runs). */
const freshRun = () => ({
  status: 'idle', // 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'failed'
  error: '',
  step: 0,
  loss: NaN,
  losses: [],
  msPerStep: NaN,
  probe: null, // { tokens: Int32Array, attention } the row the snapshots show, at step 0
  snapshots: [], // { step, attention: { data, dims } }, every ATTENTION_EVERY steps
  dropStep: null,
  dropSeconds: null, // running time from pressing Train to the progress event with the drop
  runningMs: 0, // time spent running (pauses left out)
  loadedStep: null, // the steps a loaded parameters file had been trained for
});

/** A progress event into the run: the losses, the snapshot, the drop once it shows. */
function record(run, event, runningMs) {
  for (const loss of event.losses) run.losses.push(loss);
  run.step = event.step;
  run.loss = event.loss;
  run.msPerStep = event.msPerStep;
  if (event.attention) run.snapshots.push({ step: event.step, attention: event.attention });
  if (run.dropStep === null) {
    run.dropStep = findDrop(run.losses);
    if (run.dropStep !== null) run.dropSeconds = runningMs / 1000;
  }
}

/** Trains chunk after chunk (the speed's size and pause) while isCurrent() and steps remain. */
async function trainChunks(ready, run, isCurrent) {
  while (isCurrent() && run.step < MAX_TRAINING_STEPS) {
    const { steps, waitMs } = SPEED_CHUNKS[run.settings.speed];
    await ready.train({
      steps: Math.min(steps, MAX_TRAINING_STEPS - run.step),
      progressEvery: PROGRESS_EVERY,
      attentionEvery: ATTENTION_EVERY,
    });
    if (waitMs && isCurrent()) await sleep(waitMs);
  }
}

/**
 * The trained model in this thread (stage "what the heads learned"): `attn.createTinyTransformer`
 * with the worker's parameters, remade only when the run has moved on; null before any step.
 */
function createModelCopy() {
  let copy = null; // { step, loaded, model }
  return async (trainer, attn, run) => {
    const { step, loadedStep } = run;
    if (!trainer || (step === 0 && loadedStep === null)) return null;
    if (copy?.step === step && copy.loaded === loadedStep && !copy.model.freed) return copy.model;
    const parameters = await (await trainer).parameters();
    const model = attn.createTinyTransformer(modelConfig(run.settings));
    model.loadParameters(parameters);
    copy?.model.free();
    copy = { step, loaded: loadedStep, model };
    return model;
  };
}

/** The switches after `patch`, or null when they break a rule (model/training.mjs). */
export function nextSettings(settings, patch) {
  const next = { ...settings, ...patch };
  return trainingSettingsProblem(next) ? null : next;
}

/** True when going from switches `a` to `b` makes another model (anything but the speed). */
export const remakesModel = (a, b) => Object.keys(b).some((k) => k !== 'speed' && a[k] !== b[k]);

/** A parameters file's tensors into the worker's model; the run paused at the file's step. */
async function loadParameters(trainer, run, { step, parameters }) {
  await trainer.loadParameters(parameters);
  const { attention } = await trainer.evaluate({ batch: 1 });
  run.snapshots.push({ step: 0, attention });
  Object.assign(run, { loadedStep: step, status: 'paused' });
}

/**
 * The trainer's model replaced by a new one from `settings`, at step 0, once the run it was
 * on has stopped. Until stop's answer the worker may still send that run's last progress: it
 * belongs to the old model, so onProgress drops it while gate.replacing is above 0.
 */
async function replaceModel(current, settings, gate) {
  gate.replacing += 1;
  let ready;
  try {
    ready = await current;
    await ready.stop();
  } finally {
    gate.replacing -= 1;
  }
  await ready.reset({ config: modelConfig(settings), seed: settings.seed });
}

/**
 * The heads at the run's own step when it stops between two snapshots (a pause): whatever
 * reads the heads then (model/training.mjs runReading) reads the model as it is.
 */
async function snapshotNow(ready, run, isCurrent) {
  const { step, snapshots } = run;
  if (step === 0 || snapshots.at(-1)?.step === step) return;
  const { attention } = await ready.evaluate({ batch: 1 });
  // A reset in between made a new run (and model): this snapshot is not of it.
  if (isCurrent() && run.snapshots === snapshots) snapshots.push({ step, attention });
}

/** Ends a trainer's worker (a trainer that failed to start has none). */
const endTrainer = (trainer) => trainer.then((ready) => ready.close(), () => {}); // prettier-ignore

/**
 * The trainer (a promise, made at the first need) and the switches of the model it holds:
 * { current(), held(), hold(settings), ensure(settings) }. A trainer that fails to start is
 * forgotten: the next need tries again.
 */
function trainerHolder(startTrainer, onProgress) {
  let trainer = null;
  let held = null;
  return {
    current: () => trainer,
    held: () => held,
    /** Lets go of the trainer and its switches; returns the trainer that was held. */
    forget() {
      const was = trainer;
      [trainer, held] = [null, null];
      return was;
    },
    hold: (settings) => (held = settings),
    ensure(settings) {
      if (!trainer) {
        const made = { ...settings };
        const started = startTrainer({ config: modelConfig(made), seed: made.seed, onProgress });
        trainer = started;
        // A trainer let go of (forget) in the meantime changes nothing when it settles.
        started.then(
          () => trainer === started && (held = made),
          () => trainer === started && (trainer = null),
        );
      }
      return trainer;
    },
  };
}

/**
 * A new model at step 0 from the run's switches (the worker's, once there is one), the run's
 * history cleared; then `then(trainer)` if given (a loaded file's parameters). True when
 * done; false when refused: the run says why (fail), and the run and its switches go back to
 * the model the trainer still holds, trained as far as it was (onRefused is told them), so
 * that nothing names a model that is not there. `end`: the worker ends instead of taking the
 * new model.
 */
async function restartRun(context, then, end) {
  const { run, trainers, gate, notify, fail, ensureTrainer, onRefused } = context;
  const current = end ? trainers.forget() : trainers.current();
  const settings = { ...run.settings };
  const previous = { ...run };
  Object.assign(run, freshRun(), then ? { status: 'starting' } : {});
  notify();
  try {
    if (current && end) endTrainer(current);
    else if (current) {
      await replaceModel(current, settings, gate);
      trainers.hold(settings);
    }
    if (then) await then(await ensureTrainer());
    // Reset or a new switch: the new model's heads at step 0, as the stage opened shows them.
    else if (current && !end) await ensureTrainer().then(notify);
    return true;
  } catch (error) {
    const held = trainers.held();
    if (held && remakesModel(held, run.settings)) {
      Object.assign(run, previous, { settings: { ...held, speed: run.settings.speed } });
      onRefused(run.settings);
    }
    fail(error);
    return false;
  }
}

/**
 * @param {{ startTrainer: (options: object) => Promise<object>,
 *   onLoaded?: (settings: object, source: string | null) => void,
 *   onRefused?: (settings: object) => void }} options
 *   startTrainer is createTrainer with the page's worker (served: dist/train-worker.mjs; the
 *   offline file: a classic worker from a blob: URL); onLoaded is told the switches of
 *   parameters being loaded, and where they came from (a link's text, null for a file);
 *   onRefused is told the switches of the model still loaded when a new one was refused
 */
export function createTraining({ startTrainer, onLoaded = () => {}, onRefused = () => {} }) {
  const listeners = new Set();
  const trainers = trainerHolder(startTrainer, (event) => onProgress(event));
  const gate = { replacing: 0 }; // replaceModel's: progress of a model being replaced is dropped
  const modelCopy = createModelCopy();
  const run = { settings: { ...TRAINING_DEFAULTS }, ...freshRun() };
  const notify = () => listeners.forEach((listener) => listener(run));

  function onProgress(event) {
    if (gate.replacing > 0) return;
    record(run, event, 1000 * loop.seconds());
    notify();
  }

  async function ensureTrainer() {
    const { settings } = run;
    const ready = await trainers.ensure(settings);
    if (!run.probe) {
      const { tokens, attention } = await ready.evaluate({ batch: 1 });
      // Not if a newer model's switches came meanwhile: this row is of the model before.
      if (!run.probe && run.settings === settings) run.probe = { tokens, attention };
    }
    return ready;
  }

  const loop = createRunLoop(run, {
    notify,
    ensure: ensureTrainer,
    current: () => trainers.current(),
    canStart: () => run.step < MAX_TRAINING_STEPS,
    trainChunks: (ready, isCurrent) => trainChunks(ready, run, isCurrent),
    // The heads at the step where the run stopped (runReading reads the model as it is).
    afterStop: (ready, isCurrent) => snapshotNow(ready, run, isCurrent),
  });
  const { fail } = loop;

  /**
   * A new model (restartRun), once the run that was going has been told to end. `end`: the
   * worker ends instead (an explainer taken out of the page); the next Train starts one.
   */
  function restart(then, end = false) {
    loop.end();
    const context = { run, trainers, gate, notify, fail, ensureTrainer, onRefused };
    return restartRun(context, then, end);
  }
  /** Back to step 0 with the current switches (a new model from the seed). */
  const reset = () => restart();

  /**
   * Changes switches ({ positions, layers, heads, seed, speed }); a change of any but the
   * speed (or `restart`) starts a new model from the seed. False when they break a rule.
   */
  function set(patch, { restart: again = false } = {}) {
    const next = nextSettings(run.settings, patch);
    if (!next) return false;
    const remade = again || remakesModel(run.settings, next);
    run.settings = next;
    if (remade) reset();
    else notify();
    return true;
  }

  return {
    run,
    start: loop.start,
    pause: loop.pause,
    reset,
    set,
    close: () => restart(null, true), // back to step 0, the worker ended
    /** Starts the worker ahead, as the train stage shows (Train then waits less; it reports failures). */
    prepare() {
      if (!trainers.current() && run.status === 'idle') ensureTrainer().then(notify, () => {});
    },
    /** Calls listener(run) after every change; returns the function that removes it. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The trained parameters (a fresh copy from the worker), or null before the first Train. */
    async parameters() {
      const trainer = trainers.current();
      return trainer ? (await trainer).parameters() : null;
    },
    /** The model as trained so far, in this thread, for reading its heads (or null). */
    trainedModel: (attn) => modelCopy(trainers.current(), attn, run),
    /**
     * A parameters file or link read back (model/training-export.mjs, parameters-link.mjs):
     * its switches, then its parameters into a fresh model; the run starts from there (its
     * loss history is not in the file). Refused parameters: the run fails with the model's
     * message, naming the tensor. Resolves true once loaded, false when refused.
     */
    load({ settings, step, parameters }, source = null) {
      run.settings = { ...run.settings, ...settings };
      onLoaded(run.settings, source);
      return restart((ready) => loadParameters(ready, run, { step, parameters }).then(notify));
    },
  };
}
