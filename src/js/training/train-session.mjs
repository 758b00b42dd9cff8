// The worker's side of the training protocol (trainer.mjs is the host's side): one model, its
// task's batches (the induction task or a text: train-tasks.mjs), and a training loop that yields between slices of steps so that
// pause, stop and every other request are answered while it runs. train-worker.mjs runs it
// with the real model (attn.createTinyTransformer); it knows nothing of where the model comes
// from, only the model's contract: trainStep, forward, parameters, loadParameters, free.
//
// Messages in (each with a numeric id, answered once by { id, ok, result | error }):
//   { type: 'init', config, seed, batch, task? }
//                                             create the model and the task (task: absent for
//                                             the induction task, { text } for the text task);
//                                             result { step: 0, tensors }: the model's
//                                             [name, dims] in order (the host checks
//                                             loadParameters' sizes by them)
//   { type: 'train', steps, progressEvery, attentionEvery }
//                                             train `steps` more steps; result { step, loss,
//                                             stopped } once done or stopped
//   { type: 'pause' } / { type: 'resume' }    result { step }; a paused run waits, unanswered
//   { type: 'stop' }                          ends the run (its train answers stopped: true)
//   { type: 'evaluate', batch }               result { step, loss, accuracy, tokens, targets,
//                                             attention } on held-out rows (their own seed,
//                                             the same rows at every call); for the text task
//                                             on the whole held-out tenth (batch unused), with
//                                             counted, and the first held-out window's tokens,
//                                             targets and attention
//   { type: 'forward', tokens, headMask? }    result { step, logits, attention }: the model
//                                             on one sequence (batch 1), heads masked
//   { type: 'generate', prompt, count, temperature, topK, seed, headMask?, bannedIds? }
//                                             result { step, tokens }: count new tokens
//   { type: 'parameters' }                    result: the model's parameters (transferred)
//   { type: 'loadParameters', parameters }    result { step }
//   { type: 'reset', config?, seed? }         a new model (and task) at step 0; ends a run;
//                                             result { step: 0, tensors }, as init's
// Messages out, besides the answers:
//   { type: 'progress', step, loss, losses: Float32Array, msPerStep, attention? }
//     every progressEvery steps of a run (losses: each step's loss since the last event;
//     msPerStep: the mean time of those trainStep calls alone); attention, the weights of
//     every head on one fixed row ({ data, dims: [layers, 1, heads, T, T] }), when a multiple
//     of attentionEvery was passed since the last event.
import { inductionTraining, textTraining } from './train-tasks.mjs';
import { buffersOf, errorMessage } from '../shared/workers.mjs';

/** The loop answers messages at least this often (ms) while it trains. */
const SLICE_MS = 15;

const now = () => performance.now();
const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Collects a run's steps between two progress events: add(loss, ms, attentionDue) returns how
 * many are waiting; flush(step) posts them as one event (with the attention weights when a
 * step since the last event asked for them) and starts over. Nothing waiting: nothing posted.
 */
function progressReporter(post, attentionNow) {
  let losses = [];
  let spent = 0;
  let attentionDue = false;
  return {
    add(loss, ms, due) {
      losses.push(loss);
      spent += ms;
      attentionDue ||= due;
      return losses.length;
    },
    flush(step) {
      if (losses.length === 0) return;
      const event = {
        type: 'progress',
        step,
        loss: losses.at(-1),
        msPerStep: spent / losses.length,
      };
      event.losses = Float32Array.from(losses);
      if (attentionDue) event.attention = attentionNow();
      post(event, [...buffersOf(event)]);
      losses = [];
      spent = 0;
      attentionDue = false;
    },
  };
}

/**
 * The session: handle(message) for each message from the host; post(message, transfer) sends
 * one back; createModel(config) makes a model (it throws TypeError / RangeError for a bad
 * config, which travel back by name).
 */
export function createTrainSession({ createModel, post }) {
  let model = null;
  let config = null;
  let taskSpec = null; // the init message's task: undefined (induction) or { text, minCount, inputDropout }
  let task = null; // inductionTraining or textTraining: batch, probe, evaluate
  let seed = 1;
  let batch = 0;
  let step = 0;
  let run = null; // { id, until, progressEvery, attentionEvery, paused, lastLoss, wake, progress }

  const answer = (id, result) => post({ id, ok: true, result }, [...buffersOf(result)]);
  /** The model's tensors as [name, dims] pairs, in the model's order. */
  const tensors = () => Object.entries(model.parameters()).map(([name, { dims }]) => [name, dims]);

  function start(nextConfig, nextSeed) {
    // The task first: a text too short for the context is refused before the model changes.
    const nextTask =
      taskSpec === undefined
        ? inductionTraining(nextSeed)
        : textTraining(taskSpec, nextConfig, nextSeed);
    const made = createModel({ seed: nextSeed, ...nextConfig });
    model?.free();
    model = made;
    config = nextConfig;
    seed = nextSeed;
    task = nextTask;
    step = 0;
  }

  function attentionNow() {
    return model.forward({ tokens: task.probe.tokens, batch: 1 }).attention;
  }

  // Ends the run now (its loop sees it is no longer the run and returns): the steps waiting
  // for a progress event are posted unless `flush` is false (a reset: the old model's steps),
  // then train() is answered.
  function endRun(stopped, flush = true) {
    const ended = run;
    run = null;
    ended.wake();
    if (flush) ended.progress.flush(step);
    answer(ended.id, { step, loss: ended.lastLoss, stopped });
  }

  async function loop(current) {
    const { progress } = current;
    while (run === current && step < current.until) {
      const sliceEnd = now() + SLICE_MS;
      while (run === current && !current.paused && step < current.until && now() < sliceEnd) {
        const { tokens, targets } = task.batch(batch);
        const began = now();
        current.lastLoss = model.trainStep({ tokens, targets, batch });
        const spent = now() - began;
        step++;
        const attentionDue = current.attentionEvery > 0 && step % current.attentionEvery === 0;
        if (progress.add(current.lastLoss, spent, attentionDue) >= current.progressEvery) {
          progress.flush(step);
        }
      }
      if (current.paused) {
        progress.flush(step);
        // Asleep until resume, stop or reset wakes it: a paused trainer costs no CPU.
        await new Promise((resolve) => (current.wake = resolve));
      } else {
        await yieldToMessages();
      }
    }
    if (run === current) endRun(false); // else stop, reset or a failure ended it already
  }

  const requests = {
    init(message) {
      batch = message.batch;
      taskSpec = message.task;
      start(message.config, message.seed);
      return { step, tensors: tensors() };
    },
    train({ id, steps, progressEvery, attentionEvery }) {
      if (run) throw new Error('train: a run is already going (stop it, or wait for it to end)');
      run = {
        id,
        until: step + steps,
        progressEvery,
        attentionEvery,
        paused: false,
      };
      run.lastLoss = NaN;
      run.wake = () => {};
      run.progress = progressReporter(post, () => attentionNow());
      const current = run;
      loop(current).catch((error) => {
        if (run !== current) return;
        run = null;
        post({ id, ok: false, error: errorMessage(error) });
      });
      return undefined; // answered when the run ends
    },
    pause() {
      if (run) run.paused = true;
      return { step };
    },
    resume() {
      if (run) run.paused = false;
      run?.wake();
      return { step };
    },
    stop() {
      if (run) endRun(true);
      return { step };
    },
    evaluate(message) {
      return { step, ...task.evaluate(model, message.batch) };
    },
    forward({ tokens, headMask }) {
      const { logits, attention } = model.forward({ tokens, batch: 1, headMask });
      return { step, logits, attention };
    },
    generate({ prompt, count, temperature, topK, seed, headMask, bannedIds }) {
      const options = { temperature, topK, seed, headMask, bannedIds };
      return { step, tokens: model.generate(prompt, count, options) };
    },
    parameters() {
      return model.parameters();
    },
    loadParameters(message) {
      model.loadParameters(message.parameters);
      return { step };
    },
    reset(message) {
      start(message.config ?? config, message.seed ?? seed);
      if (run) {
        endRun(true, false);
      }
      return { step, tensors: tensors() };
    },
  };

  return function handle(message) {
    const { id, type } = message;
    try {
      if (!Object.hasOwn(requests, type)) throw new TypeError(`unknown request type ${type}`);
      if (type !== 'init' && model === null) throw new Error(`${type}: the model is not ready`);
      const result = requests[type](message);
      if (result !== undefined) answer(id, result);
    } catch (error) {
      post({ id, ok: false, error: errorMessage(error) });
    }
  };
}
