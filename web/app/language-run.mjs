// Chapter 4's character model, one per explainer: the text it learns (the Tang poems, the
// English classic or the learner's own), the trainer (createTrainer with the text task, a
// Worker holding the module and the model), everything its training has reported (every
// step's loss, the samples, the held-out loss), the learner's sentence and the heads they
// switched off. The model shown first is the text's snapshot, trained offline
// (scripts/train-snapshots.mjs): the chapter opens with a model that already writes; the
// learner can keep training it, or start from scratch and watch one learn, and go back. It
// lives in the app, not in a scene: the six stages of the chapter read the same model, and a
// scene rebuilt on a language switch draws whatever the run holds then.
import {
  CHUNK_STEPS,
  LANGUAGE_MODEL,
  MAX_LANGUAGE_STEPS,
  PROGRESS_EVERY,
  SAMPLE_EVERY,
  SAMPLE_SAMPLING,
  SAMPLE_LENGTH,
  TEXTS,
  allHeadsOn,
  defaultSentence,
  describeText,
  heldOutEvery,
} from '../model/language.mjs';
import { TEXT_BATCH, decodeSnapshot } from 'attention-explained';
import { createRunLoop } from './run-loop.mjs';

/** What a run holds before its first step. */
const freshTraining = () => ({
  status: 'idle', // 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'failed'
  error: '',
  step: 0, // steps trained here (a snapshot's offline steps are loadedStep)
  loss: NaN,
  losses: [],
  msPerStep: NaN,
  runningMs: 0,
  samples: [], // { step, seconds, text } every SAMPLE_EVERY steps, and at step 0
  heldOut: [], // { step, loss, accuracy }: evaluate() on the text's last tenth
  scoring: false, // true while evaluate() scores it (seconds for a long text; training waits)
  loadedStep: null, // the steps the snapshot shown was trained offline; null for a new model
  model: 0, // bumped whenever the model's weights change: forward results are of one model
});

/** A text without a snapshot (the learner's own, or a build that has none). */
const NO_SNAPSHOT = Object.freeze({ status: 'none', error: '', manifest: null, bytes: null });

/**
 * Why a snapshot cannot be the model of this text, or '' when it can: it must be of the
 * page's model (LANGUAGE_MODEL: every stage's sizes are its) and of this very text (its
 * characters, counted, and its vocabulary).
 */
export function snapshotMismatch(manifest, info) {
  const { config } = manifest;
  const differs = Object.keys(LANGUAGE_MODEL).find((key) => config?.[key] !== LANGUAGE_MODEL[key]);
  if (differs)
    return `its ${differs} is ${config?.[differs]}, the page's model has ${LANGUAGE_MODEL[differs]}`;
  if (manifest.vocabSize !== info.tokenizer.vocabSize || manifest.textCharacters !== info.length)
    return `it was trained on ${manifest.textCharacters} characters (${manifest.vocabSize} different), this text has ${info.length} (${info.tokenizer.vocabSize})`;
  return '';
}

/**
 * Reads the chosen text (or takes the learner's own) into run.text: its characters and
 * baselines (describeText), and the sentence its stages start with; and its snapshot, if it
 * has one, into run.snapshot (a snapshot that cannot be read or does not fit says why there,
 * and the run shows a new model instead). isCurrent() false once another text was chosen.
 */
function readText(run, files, isCurrent, notify) {
  run.text = { status: 'loading', error: '', info: null };
  run.snapshot = NO_SNAPSHOT;
  notify();
  const { loadText, loadSnapshot } = files;
  const named = TEXTS[run.choice]?.snapshot;
  const source = run.choice === 'own' ? Promise.resolve(run.own) : loadText(TEXTS[run.choice].file);
  const snapshot =
    named && loadSnapshot
      ? loadSnapshot(named).then(
          ({ manifest, bytes }) => ({ status: 'ready', error: '', manifest, bytes }),
          (error) => ({ ...NO_SNAPSHOT, status: 'failed', error: String(error?.message ?? error) }),
        )
      : Promise.resolve(NO_SNAPSHOT);
  Promise.all([source, snapshot])
    .then(([text, read]) => {
      if (!isCurrent()) return;
      const info = describeText(text);
      run.text = { status: 'ready', error: '', info: { ...info, text } };
      const mismatch = read.manifest ? snapshotMismatch(read.manifest, info) : '';
      run.snapshot = mismatch ? { ...NO_SNAPSHOT, status: 'failed', error: mismatch } : read;
      if (run.snapshot.status !== 'ready') run.source = 'scratch';
      if (!run.sentence) run.sentence = defaultSentence(run.choice, info.tokenizer, text);
      notify();
    })
    .catch((error) => {
      if (!isCurrent()) return;
      run.text = { status: 'failed', error: String(error?.message ?? error), info: null };
      notify();
    });
}

/**
 * The training of the run's model, chunk after chunk, with a sample and the held-out loss every
 * SAMPLE_EVERY steps: { start, pause, end, fail, record, sample } (start, pause, end and fail
 * are the shared loop's, app/run-loop.mjs). trainers.current() is the trainer's promise (null:
 * none yet), trainers.ensure() starts one.
 */
function createTrainingLoop(run, notify, trainers) {
  function record(event) {
    for (const loss of event.losses) run.losses.push(loss);
    run.step = event.step;
    run.loss = event.loss;
    run.msPerStep = event.msPerStep;
    run.model += 1;
    notify();
  }

  /**
   * A sample of the model as it is now, and its held-out loss (at every heldOutEvery steps, or
   * when `score`), into the run.
   */
  async function sample(started, step, { score = false } = {}) {
    const ready = await started;
    const { tokenizer } = run.text.info;
    const start = tokenizer.characters.includes('\n') ? '\n' : tokenizer.characters[0];
    const prompt = tokenizer.encode(start);
    const time = loop.seconds();
    const written = await ready.generate({
      prompt,
      count: SAMPLE_LENGTH - 1,
      ...SAMPLE_SAMPLING,
      seed: step + 1,
    });
    const scoreNow = score || step % heldOutEvery(run.text.info.length) === 0;
    let scored = null;
    if (scoreNow) {
      run.scoring = true;
      notify();
      try {
        scored = await ready.evaluate();
      } finally {
        run.scoring = false;
      }
    }
    if (trainers.current() !== started || run.samples.some((s) => s.step === step)) return;
    run.samples.push({ step, seconds: time, text: tokenizer.decode(written) });
    if (scored) run.heldOut.push({ step, loss: scored.loss, accuracy: scored.accuracy });
    run.samples.sort((a, b) => a.step - b.step);
    run.heldOut.sort((a, b) => a.step - b.step);
    notify();
  }

  async function trainChunks(ready, isCurrent) {
    while (isCurrent() && run.step < MAX_LANGUAGE_STEPS) {
      const before = run.step;
      await ready.train({
        steps: Math.min(CHUNK_STEPS, MAX_LANGUAGE_STEPS - run.step),
        progressEvery: PROGRESS_EVERY,
      });
      const crossed = Math.floor(run.step / SAMPLE_EVERY) > Math.floor(before / SAMPLE_EVERY);
      if (crossed && isCurrent()) await sample(trainers.current(), run.step);
    }
  }

  const loop = createRunLoop(run, {
    notify,
    ensure: trainers.ensure,
    current: trainers.current,
    // A new model, or the snapshot (keepTraining: its weights go on learning here).
    canStart: () =>
      run.text.status === 'ready' &&
      (run.source === 'scratch' || run.snapshot.status === 'ready') &&
      run.step < MAX_LANGUAGE_STEPS,
    trainChunks,
  });
  return { ...loop, record, sample };
}

/**
 * The trainer of the model to show: a new one from the seed, or (run.source 'snapshot') the
 * text's snapshot loaded into it, its offline steps in run.loadedStep once there. Resolves
 * once the model is ready; a snapshot refused ends the worker and rejects.
 */
async function startModel(run, startTrainer, onProgress, isCurrent) {
  const { manifest, bytes } = run.source === 'snapshot' ? run.snapshot : NO_SNAPSHOT;
  const ready = await startTrainer({
    config: { ...LANGUAGE_MODEL },
    task: { text: run.text.info.text, ...run.text.info.task },
    batch: TEXT_BATCH,
    seed: manifest?.seed ?? 1,
    onProgress,
  });
  if (!manifest) return ready;
  try {
    await ready.loadParameters(decodeSnapshot(manifest, bytes));
  } catch (error) {
    ready.close();
    throw error;
  }
  if (isCurrent()) {
    run.loadedStep = manifest.steps;
    run.model += 1;
  }
  return ready;
}

/**
 * @param {{ startTrainer: (options: object) => Promise<object>,
 *   loadText: (file: string) => Promise<string>,
 *   loadSnapshot?: (name: string) => Promise<{ manifest: object, bytes: ArrayBuffer }> }} options
 *   startTrainer is createTrainer with the page's worker; loadText reads one of dist/texts/
 *   (served: fetched; the offline file: embedded in it); loadSnapshot reads a text's trained
 *   model (TEXTS' snapshot names; web/snapshots/, text-snapshot.mjs), if the build has any
 */
export function createLanguageRun({ startTrainer, loadText, loadSnapshot = null }) {
  const listeners = new Set();
  const run = {
    choice: 'tang', // a key of TEXTS, or 'own'
    own: '', // the learner's own text, once given
    text: { status: 'idle', error: '', info: null }, // info: describeText()
    sentence: '', // the learner's sentence ('' until the text is read: its default then)
    headMask: allHeadsOn(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads),
    // How the writing stage draws each character: as the samples are drawn, until changed.
    sampling: { ...SAMPLE_SAMPLING },
    // The model shown: the text's snapshot (trained offline), or one trained here from scratch.
    source: 'snapshot',
    snapshot: NO_SNAPSHOT, // the text's snapshot as read: { status, error, manifest, bytes }
    ...freshTraining(),
  };
  let trainer = null; // a promise of the trainer for the current text
  let textId = 0; // the text being read; a new choice ends the reads of the others
  let modelId = 0; // the model the trainer holds; a reset or a new text ends the others
  const notify = () => listeners.forEach((listener) => listener(run));
  const loop = createTrainingLoop(run, notify, {
    current: () => trainer,
    ensure: () => ensureTrainer(),
  });

  /** The text's characters and baselines, read once per text choice. */
  function ensureText() {
    if (run.text.status !== 'idle') return;
    const id = textId;
    readText(run, { loadText, loadSnapshot }, () => id === textId, notify);
  }

  /** The trainer for the current text, started at the first need (its text must be read). */
  function ensureTrainer() {
    if (trainer) return trainer;
    const info = run.text.info;
    if (!info) return Promise.reject(new Error('the text is not read yet'));
    const id = modelId;
    const isCurrent = () => id === modelId;
    const onProgress = (event) => isCurrent() && loop.record(event);
    const started = startModel(run, startTrainer, onProgress, isCurrent);
    trainer = started;
    // What the model writes before any step here: the first sample (a failure shows at the
    // next need).
    started.then(
      () => id === modelId && loop.sample(started, 0).catch(() => {}),
      () => trainer === started && (trainer = null),
    );
    return started;
  }

  /** A new model from the seed, on the same text (the worker ends; the next need starts one). */
  function reset() {
    loop.end();
    const was = trainer;
    trainer = null;
    modelId += 1;
    was?.then((ready) => ready.close(), () => {}); // prettier-ignore
    // run.model goes on counting: a result kept for an earlier model is never taken as this one's.
    Object.assign(run, freshTraining(), { model: run.model + 1 });
    run.headMask = allHeadsOn(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads);
    notify();
  }

  /**
   * Another text (a key of TEXTS, or 'own' with the learner's text): its snapshot if it has
   * one, else a new model on it.
   */
  function setText(choice, own = run.own) {
    run.source = 'snapshot';
    reset();
    textId += 1;
    run.choice = choice;
    run.own = own;
    run.sentence = '';
    run.text = { status: 'idle', error: '', info: null };
    ensureText();
  }

  /** Runs `call(trainer)` on the current model, or null when there is none yet. */
  async function withModel(call) {
    if (run.text.status !== 'ready') return null;
    return call(await ensureTrainer());
  }

  return {
    run,
    start: loop.start,
    pause: loop.pause,
    reset,
    setText,
    /**
     * Trains the snapshot further: its weights, loaded into the worker, learn on from where
     * the offline training left them (AdamW starts again), step after step as a new model's.
     */
    keepTraining() {
      if (run.source !== 'snapshot') return undefined;
      return loop.start();
    },
    /** A new model from the seed instead of the snapshot, and its training started. */
    fromScratch() {
      run.source = 'scratch';
      reset();
      return loop.start();
    },
    /** The text's snapshot again, as stored (what was trained here is left). */
    toSnapshot() {
      if (run.snapshot.status !== 'ready') return;
      run.source = 'snapshot';
      reset();
    },
    /**
     * Reads the text, and once it is read starts the worker ahead (a chapter 4 stage is on
     * screen: its model is wanted soon). Called at every redraw of such a stage.
     */
    prepare() {
      ensureText();
      if (run.text.status === 'ready' && !trainer && run.status !== 'failed')
        ensureTrainer().then(notify, loop.fail);
    },
    setSentence(sentence) {
      run.sentence = sentence;
      notify();
    },
    /** The writing's temperature and/or top-k ({ temperature, topK }). */
    setSampling(patch) {
      run.sampling = { ...run.sampling, ...patch };
      notify();
    },
    setHeadMask(mask) {
      run.headMask = [...mask];
      notify();
    },
    /** The model's logits [1, T, V] and attention [L, 1, H, T, T] on `tokens`, heads masked. */
    forward: (tokens, headMask = run.headMask) =>
      withModel((ready) => ready.forward({ tokens, headMask })),
    /** New characters' ids after `prompt` (temperature, top-k; a seed makes it repeatable). */
    generate: (options) => withModel((ready) => ready.generate(options)),
    /** The model's parameters { name: { data, dims } } (a fresh copy), or null. */
    parameters: () => withModel((ready) => ready.parameters()),
    /** Calls listener(run) after every change; returns the function that removes it. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Ends the worker (an explainer taken out of the page). */
    close: () => reset(),
  };
}
