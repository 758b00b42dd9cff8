// createTrainer(): trains a tiny transformer (attn.createTinyTransformer) on the induction task
// in a worker, off the page's main thread: a Web Worker in a browser, a worker_thread in Node,
// by the same code. This is the host's side of the protocol that train-session.mjs documents;
// the worker script is train-worker.mjs (dist/train-worker.mjs).
//
// Every request is one message with an id, answered once. The host never trusts the worker's
// messages: each is checked for its shape before use, and one that is not what the protocol
// sends (null, garbage) ends the trainer as a dead worker does. Every pending promise then
// rejects with a TrainerError saying why; nothing is left pending, nothing throws at the host.
import { describe, isOptionBag } from './checks.mjs';
import { INDUCTION_LENGTH, INDUCTION_VOCAB, MAX_BATCH } from './induction-task.mjs';
import { readOwnOptions } from './read-once.mjs';
import { rebuildError, spawnWorker } from './workers.mjs';

const TRAINER_KEYS = new Set([
  'config',
  'task',
  'seed',
  'batch',
  'onProgress',
  'workerUrl',
  'initTimeout',
  'relaxedSimd',
]);
// createTinyTransformer's options (the model validates their values; the host their kinds).
const CONFIG_KEYS = new Set([
  'vocabSize',
  'context',
  'dModel',
  'layers',
  'heads',
  'kvHeads',
  'positions',
  'mlpSize',
  'learningRate',
  'weightDecay',
  'seed',
]);
const TRAIN_KEYS = new Set(['steps', 'progressEvery', 'attentionEvery']);
const RESET_KEYS = new Set(['config', 'seed']);
const EVALUATE_KEYS = new Set(['batch']);
/** How long the worker may take to load the module and build the model. */
const INIT_TIMEOUT_MS = 30_000;
/** The most steps one train() call may ask for. */
export const MAX_STEPS = 1e7;

/** What a trainer's promises reject with when its worker is gone or misbehaves. */
export class TrainerError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TrainerError';
  }
}

function checkInteger(value, name, lo, hi) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer from ${lo} to ${hi}, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new RangeError(`${name} must be an integer from ${lo} to ${hi}, got ${value}`);
  }
  return value;
}

/** Reads an option bag once (own properties only); undefined reads as empty. */
function readBag(bag, keys, where, bagName) {
  if (bag === undefined) return { __proto__: null };
  if (!isOptionBag(bag)) {
    throw new TypeError(`${where}: ${bagName} must be an object, got ${describe(bag)}`);
  }
  return readOwnOptions(bag, keys, where, bagName);
}

/** The model's config as a plain snapshot; the induction task needs vocab >= 16, context >= 25. */
function readConfig(config, where) {
  if (!isOptionBag(config)) {
    throw new TypeError(`${where}: config must be an object, got ${describe(config)}`);
  }
  const read = readOwnOptions(config, CONFIG_KEYS, where, 'config');
  const snapshot = {};
  for (const key of Object.keys(read)) {
    const value = read[key];
    if (value !== undefined && typeof value !== 'number' && typeof value !== 'string') {
      throw new TypeError(
        `${where}: config.${key} must be a number or a string, got ${describe(value)}`,
      );
    }
    snapshot[key] = value;
  }
  for (const [key, least] of [
    ['vocabSize', INDUCTION_VOCAB],
    ['context', INDUCTION_LENGTH],
  ]) {
    if (typeof snapshot[key] === 'number' && snapshot[key] < least) {
      throw new RangeError(
        `${where}: config.${key} must be at least ${least} for the induction task, got ${snapshot[key]}`,
      );
    }
  }
  return snapshot;
}

const isInt = (value) => Number.isInteger(value) && value >= 0;
const isFloats = (value) => value instanceof Float32Array;
function isTensor(value, rank) {
  if (value === null || typeof value !== 'object' || !isFloats(value.data)) return false;
  const { dims } = value;
  if (!Array.isArray(dims) || dims.length !== rank || !dims.every(isInt)) return false;
  return dims.reduce((a, b) => a * b, 1) === value.data.length;
}

/** Why a progress event is not one, or '' when it is. */
function progressFault(message) {
  if (!isInt(message.step)) return 'its step is not a count';
  if (typeof message.loss !== 'number') return 'its loss is not a number';
  if (!isFloats(message.losses)) return 'its losses are not a Float32Array';
  if (typeof message.msPerStep !== 'number') return 'its msPerStep is not a number';
  if (message.attention !== undefined && !isTensor(message.attention, 5)) {
    return 'its attention is not { data, dims: [layers, 1, heads, T, T] }';
  }
  return '';
}

/** Why an answer to `type` is not one, or '' when it is. */
function answerFault(message, type) {
  if (message.ok === false) {
    const { error } = message;
    const fine = error !== null && typeof error === 'object' && typeof error.message === 'string';
    return fine && typeof error.name === 'string' ? '' : 'its error is not { name, message }';
  }
  if (message.ok !== true) return 'ok is neither true nor false';
  const { result } = message;
  if (type === 'parameters') {
    const fine = result !== null && typeof result === 'object';
    return fine && Object.values(result).every((p) => isTensor(p, p?.dims?.length))
      ? ''
      : 'bad parameters';
  }
  if (result === null || typeof result !== 'object' || !isInt(result.step)) {
    return 'its result has no step';
  }
  if (
    type === 'train' &&
    (typeof result.loss !== 'number' || typeof result.stopped !== 'boolean')
  ) {
    return 'its result is not { step, loss, stopped }';
  }
  if (type === 'evaluate') {
    const { loss, accuracy, tokens, targets, attention } = result;
    if (typeof loss !== 'number' || typeof accuracy !== 'number') return 'no loss or accuracy';
    if (!(tokens instanceof Int32Array) || !(targets instanceof Int32Array)) return 'no rows';
    if (!isTensor(attention, 5)) return 'its attention is not [layers, batch, heads, T, T]';
  }
  return '';
}

/** A plain copy of parameters { name: { data, dims } }, each read once, floats copied. */
function snapshotParameters(parameters) {
  if (!isOptionBag(parameters)) {
    throw new TypeError(
      `loadParameters: parameters must be an object { name: { data, dims } }, got ${describe(parameters)}`,
    );
  }
  const copy = {};
  for (const name of Object.keys(parameters)) {
    const entry = parameters[name];
    if (entry === null || typeof entry !== 'object') {
      throw new TypeError(
        `loadParameters: parameters['${name}'] must be { data, dims }, got ${describe(entry)}`,
      );
    }
    const { data, dims } = entry;
    if (!isFloats(data) && !Array.isArray(data)) {
      throw new TypeError(
        `loadParameters: parameters['${name}'].data must be a Float32Array or an array of numbers, got ${describe(data)}`,
      );
    }
    if (!Array.isArray(dims)) {
      throw new TypeError(
        `loadParameters: parameters['${name}'].dims must be an array, got ${describe(dims)}`,
      );
    }
    copy[name] = { data: Float32Array.from(data), dims: [...dims] };
  }
  return copy;
}

/**
 * Starts a worker, loads the module there and builds the model; resolves to the trainer once
 * the model is ready. See attention.d.ts for every option and method.
 */
export async function createTrainer(options) {
  const where = 'createTrainer';
  if (!isOptionBag(options)) {
    throw new TypeError(
      `${where}: options must be an object { config, ... }, got ${describe(options)}`,
    );
  }
  const o = readOwnOptions(options, TRAINER_KEYS, where, 'options');
  const config = readConfig(o.config, where);
  const task = o.task ?? 'induction';
  if (task !== 'induction') {
    throw new RangeError(
      `${where}: task must be 'induction' (the only task), got ${describe(task)}`,
    );
  }
  const seed = checkInteger(o.seed ?? 1, `${where}: seed`, 0, 0xffffffff);
  const batch = checkInteger(o.batch ?? 32, `${where}: batch`, 1, MAX_BATCH);
  const initTimeout = o.initTimeout ?? INIT_TIMEOUT_MS;
  if (typeof initTimeout !== 'number' || !(initTimeout > 0)) {
    throw new RangeError(
      `${where}: initTimeout must be a positive number of milliseconds, got ${describe(initTimeout)}`,
    );
  }
  const { onProgress } = o;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${where}: onProgress must be a function, got ${describe(onProgress)}`);
  }
  if (o.relaxedSimd !== undefined && typeof o.relaxedSimd !== 'boolean') {
    throw new TypeError(`${where}: relaxedSimd must be a boolean, got ${describe(o.relaxedSimd)}`);
  }
  const moduleOptions = o.relaxedSimd === undefined ? {} : { relaxedSimd: o.relaxedSimd };
  const url = o.workerUrl ?? new URL('./train-worker.mjs', import.meta.url);

  const worker = await spawnWorker(url);
  const pending = new Map(); // id -> { type, resolve, reject }
  let nextId = 1;
  let failure = null; // the TrainerError every call gets once the trainer is over
  let step = 0;
  let running = null; // the id of the train() call in progress
  const abandoned = new Set(); // ids whose answers no one waits for any more

  function fail(error) {
    if (failure) return;
    failure = error;
    worker.terminate();
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  }

  function request(type, fields = {}, transfer = []) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { type, resolve, reject });
      worker.busy(true);
      worker.post({ ...fields, type, id }, transfer);
    });
  }

  function settle(message) {
    const call = pending.get(message.id);
    const fault = answerFault(message, call.type);
    if (fault)
      return fail(
        new TrainerError(`the trainer's worker sent an invalid answer to ${call.type} (${fault})`),
      );
    pending.delete(message.id);
    if (pending.size === 0) worker.busy(false); // an idle trainer keeps Node alive no longer
    if (message.id === running) running = null;
    if (!message.ok) return call.reject(rebuildError(message.error));
    if (call.type !== 'parameters') step = message.result.step;
    call.resolve(message.result);
  }

  worker.onMessage((message) => {
    if (failure) return;
    if (message === null || typeof message !== 'object') {
      return fail(
        new TrainerError(
          `the trainer's worker sent ${describe(message)}, not a message of its protocol`,
        ),
      );
    }
    if (message.type === 'progress') {
      const fault = progressFault(message);
      if (fault)
        return fail(new TrainerError(`the trainer's worker sent a bad progress event (${fault})`));
      step = message.step;
      if (!onProgress) return;
      const { loss, losses, msPerStep, attention } = message;
      try {
        onProgress({ step, loss, losses, msPerStep, ...(attention && { attention }) });
      } catch (error) {
        // The caller's listener threw: its run ends, and its train() call rejects with that.
        const call = pending.get(running);
        if (call) {
          pending.delete(running);
          abandoned.add(running);
          abandoned.add(nextId);
          worker.post({ type: 'stop', id: nextId++ });
          running = null;
          call.reject(error);
        }
      }
      return;
    }
    if (abandoned.delete(message.id)) return; // the answer to a call that already ended
    if (!pending.has(message.id)) {
      return fail(
        new TrainerError(
          `the trainer's worker answered a request it was not sent (id ${describe(message.id)})`,
        ),
      );
    }
    settle(message);
  });
  worker.onDeath((why) => fail(new TrainerError(`the trainer's worker stopped: ${why}`)));

  const timer = setTimeout(
    () =>
      fail(
        new TrainerError(
          `${where}: the worker did not build the model within ${initTimeout} ms (initTimeout)`,
        ),
      ),
    initTimeout,
  );
  try {
    await request('init', { options: moduleOptions, config, seed, batch });
  } catch (error) {
    fail(new TrainerError(`${where}: refused, so its worker was ended`));
    throw error;
  } finally {
    clearTimeout(timer);
  }

  return Object.freeze({
    /** Trains `steps` more steps; resolves { step, loss, stopped } when they are done or stopped. */
    train(trainOptions) {
      const t = readBag(trainOptions, TRAIN_KEYS, 'train', 'options');
      const steps = checkInteger(t.steps, 'train: steps', 1, MAX_STEPS);
      const progressEvery = checkInteger(
        t.progressEvery ?? 10,
        'train: progressEvery',
        1,
        MAX_STEPS,
      );
      const attentionEvery = checkInteger(
        t.attentionEvery ?? 0,
        'train: attentionEvery',
        0,
        MAX_STEPS,
      );
      if (running !== null && !failure) {
        return Promise.reject(new Error('train: a run is already going (stop() it, or await it)'));
      }
      const promise = request('train', { steps, progressEvery, attentionEvery });
      if (!failure) running = nextId - 1;
      return promise;
    },
    pause: () => request('pause'),
    resume: () => request('resume'),
    stop: () => request('stop'),
    /** Loss, accuracy and every head's attention on `batch` held-out rows (default 64; the same rows at every call until a reset with another seed). */
    evaluate(evaluateOptions) {
      const e = readBag(evaluateOptions, EVALUATE_KEYS, 'evaluate', 'options');
      const rows = checkInteger(e.batch ?? 64, 'evaluate: batch', 1, MAX_BATCH);
      return request('evaluate', { batch: rows });
    },
    parameters: () => request('parameters'),
    loadParameters(parameters) {
      const copy = snapshotParameters(parameters);
      return request(
        'loadParameters',
        { parameters: copy },
        Object.values(copy).map((p) => p.data.buffer),
      );
    },
    /** A new model at step 0 (a new config and/or seed; the current ones by default). */
    reset(resetOptions) {
      const r = readBag(resetOptions, RESET_KEYS, 'reset', 'options');
      const fields = {};
      if (r.config !== undefined) fields.config = readConfig(r.config, 'reset');
      if (r.seed !== undefined) fields.seed = checkInteger(r.seed, 'reset: seed', 0, 0xffffffff);
      return request('reset', fields);
    },
    /** Ends the worker; pending and later calls reject with a TrainerError. */
    close() {
      fail(new TrainerError('the trainer was closed'));
    },
    /** The last step the worker reported. */
    get step() {
      return step;
    },
    get closed() {
      return failure !== null;
    },
  });
}
