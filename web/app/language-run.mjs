// Chapter 4's character model, one per explainer: the text it learns (the Tang poems, the
// English classic or the learner's own), the trainer (createTrainer with the text task, a
// Worker holding the module and the model), everything its training has reported (every
// step's loss, the samples, the held-out loss), the learner's sentence and the heads they
// switched off. It lives in the app, not in a scene: the six stages of the chapter read the
// same model, and a scene rebuilt on a language switch draws whatever the run holds then.
import {
  CHUNK_STEPS,
  LANGUAGE_MODEL,
  MAX_LANGUAGE_STEPS,
  PROGRESS_EVERY,
  SAMPLE_EVERY,
  SAMPLE_LENGTH,
  TEXTS,
  allHeadsOn,
  defaultSentence,
  describeText,
} from '../model/language.mjs';
import { TEXT_BATCH } from '../../src/js/tasks/text-task.mjs';

/** The temperature of the samples written while the model trains. */
export const SAMPLE_TEMPERATURE = 0.8;

/**
 * Steps between two held-out losses: every sample's step for a text whose held-out tenth is
 * at most HELD_OUT_CHARS characters, less often for a longer one (the English classic's
 * 81,510 held-out characters take seconds to score: every 1,800 steps), so that scoring
 * never takes much of the training's time.
 */
const HELD_OUT_CHARS = 10_000;
export const heldOutEvery = (length) =>
  SAMPLE_EVERY * Math.max(1, Math.ceil(length / 10 / HELD_OUT_CHARS));

/** What a run holds before its first step. */
const freshTraining = () => ({
  status: 'idle', // 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'failed'
  error: '',
  step: 0,
  loss: NaN,
  losses: [],
  msPerStep: NaN,
  runningMs: 0,
  samples: [], // { step, seconds, text } every SAMPLE_EVERY steps, and at step 0
  heldOut: [], // { step, loss, accuracy }: evaluate() on the text's last tenth
  model: 0, // bumped whenever the model's weights change: forward results are of one model
});

/**
 * Reads the chosen text (or takes the learner's own) into run.text: its characters and
 * baselines (describeText), and the sentence its stages start with; isCurrent() false once
 * another text was chosen meanwhile.
 */
function readText(run, loadText, isCurrent, notify) {
  run.text = { status: 'loading', error: '', info: null };
  notify();
  const source = run.choice === 'own' ? Promise.resolve(run.own) : loadText(TEXTS[run.choice].file);
  source
    .then((text) => {
      if (!isCurrent()) return;
      const info = describeText(text);
      run.text = { status: 'ready', error: '', info: { ...info, text } };
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
 * SAMPLE_EVERY steps: { start, pause, end, fail, record, sample }. trainers.current() is the
 * trainer's promise (null: none yet), trainers.ensure() starts one.
 */
function createTrainingLoop(run, notify, trainers) {
  let loopId = 0; // the run loop that may go on; a pause or a reset ends the others
  let resumedAt = 0;

  function fail(error) {
    run.status = 'failed';
    run.error = String(error?.message ?? error);
    loopId += 1;
    notify();
  }

  function record(event) {
    for (const loss of event.losses) run.losses.push(loss);
    run.step = event.step;
    run.loss = event.loss;
    run.msPerStep = event.msPerStep;
    run.model += 1;
    notify();
  }

  const seconds = () =>
    (run.runningMs + (run.status === 'running' ? performance.now() - resumedAt : 0)) / 1000;

  /** A sample of the model as it is now, and its held-out loss, into the run. */
  async function sample(started, step) {
    const ready = await started;
    const { tokenizer } = run.text.info;
    const start = tokenizer.characters.includes('\n') ? '\n' : tokenizer.characters[0];
    const prompt = tokenizer.encode(start);
    const time = seconds();
    const written = await ready.generate({
      prompt,
      count: SAMPLE_LENGTH - 1,
      temperature: SAMPLE_TEMPERATURE,
      topK: 0,
      seed: step + 1,
    });
    const scored = step % heldOutEvery(run.text.info.length) === 0 ? await ready.evaluate() : null;
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

  function settle(status) {
    if (run.status === 'running') run.runningMs += performance.now() - resumedAt;
    run.status = status;
  }

  async function start() {
    if (run.status === 'running' || run.status === 'starting') return;
    if (run.step >= MAX_LANGUAGE_STEPS || run.text.status !== 'ready') return;
    run.status = 'starting';
    run.error = '';
    const id = ++loopId;
    notify();
    try {
      const ready = await trainers.ensure();
      if (id !== loopId) return;
      resumedAt = performance.now();
      run.status = 'running';
      notify();
      await trainChunks(ready, () => id === loopId);
      if (id === loopId) {
        settle('done');
        notify();
      }
    } catch (error) {
      if (id === loopId) fail(error);
    }
  }

  async function pause() {
    if (run.status !== 'running' && run.status !== 'starting') return;
    loopId += 1;
    try {
      await (await trainers.current())?.stop();
    } catch (error) {
      return fail(error);
    }
    settle('paused');
    notify();
  }

  return {
    start,
    pause,
    fail,
    record,
    sample,
    /** Ends the loop that runs (a reset or a new text follows). */
    end: () => (loopId += 1),
  };
}

/**
 * @param {{ startTrainer: (options: object) => Promise<object>,
 *   loadText: (file: string) => Promise<string> }} options
 *   startTrainer is createTrainer with the page's worker; loadText reads one of dist/texts/
 *   (served: fetched; the offline file: embedded in it)
 */
export function createLanguageRun({ startTrainer, loadText }) {
  const listeners = new Set();
  const run = {
    choice: 'tang', // a key of TEXTS, or 'own'
    own: '', // the learner's own text, once given
    text: { status: 'idle', error: '', info: null }, // info: describeText()
    sentence: '', // the learner's sentence ('' until the text is read: its default then)
    headMask: allHeadsOn(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads),
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
    readText(run, loadText, () => id === textId, notify);
  }

  /** The trainer for the current text, started at the first need (its text must be read). */
  function ensureTrainer() {
    if (trainer) return trainer;
    const info = run.text.info;
    if (!info) return Promise.reject(new Error('the text is not read yet'));
    const id = modelId;
    const started = startTrainer({
      config: { ...LANGUAGE_MODEL },
      task: { text: info.text },
      batch: TEXT_BATCH,
      seed: 1,
      onProgress: (event) => id === modelId && loop.record(event),
    });
    trainer = started;
    // What the untrained model writes: the first sample (a failure shows at the next need).
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
    Object.assign(run, freshTraining());
    run.headMask = allHeadsOn(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads);
    notify();
  }

  /** Another text (a key of TEXTS, or 'own' with the learner's text): a new model on it. */
  function setText(choice, own = run.own) {
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
