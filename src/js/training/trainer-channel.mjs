// The host's end of the trainer's protocol over one worker (trainer.mjs builds the public API
// on it; train-session.mjs is the worker's end and documents the messages). Requests carry an
// id and are answered once. Every message from the worker is checked for its shape before it
// is used: one that is not what the protocol sends (null, garbage, an answer to nothing) ends
// the channel as a dead worker does, and every pending request then rejects with a
// TrainerError saying why. Nothing is left pending; nothing throws at the host.
import { describe } from '../shared/checks.mjs';
import { rebuildError } from '../shared/workers.mjs';

/** What a trainer's promises reject with when its worker is gone or misbehaves. */
export class TrainerError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TrainerError';
  }
}

// A message's fields are read as its own properties only: a polluted Object.prototype (say
// Object.prototype.type = 'progress') cannot turn an answer into something else.
const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);
const isInt = (value) => Number.isInteger(value) && value >= 0;
const isFloats = (value) => value instanceof Float32Array;
function isTensor(value, rank) {
  if (value === null || typeof value !== 'object' || !isFloats(own(value, 'data'))) return false;
  const dims = own(value, 'dims');
  if (!Array.isArray(dims) || dims.length !== rank || !dims.every(isInt)) return false;
  return dims.reduce((a, b) => a * b, 1) === value.data.length;
}

/** True for the model's tensors as init and reset give them: [name, dims] pairs. */
const isTensorList = (value) =>
  Array.isArray(value) &&
  value.every(
    (pair) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      typeof pair[0] === 'string' &&
      Array.isArray(pair[1]) &&
      pair[1].every(isInt),
  );

/** Why a progress event is not one, or '' when it is. */
function progressFault(message) {
  if (!isInt(own(message, 'step'))) return 'its step is not a count';
  if (typeof own(message, 'loss') !== 'number') return 'its loss is not a number';
  if (!isFloats(own(message, 'losses'))) return 'its losses are not a Float32Array';
  if (typeof own(message, 'msPerStep') !== 'number') return 'its msPerStep is not a number';
  if (own(message, 'attention') !== undefined && !isTensor(own(message, 'attention'), 5)) {
    return 'its attention is not { data, dims: [layers, 1, heads, T, T] }';
  }
  return '';
}

/** Why an answer to `type` is not one, or '' when it is. */
function answerFault(message, type) {
  if (own(message, 'ok') === false) {
    const error = own(message, 'error');
    const fine = error !== null && typeof error === 'object';
    return fine &&
      typeof own(error, 'message') === 'string' &&
      typeof own(error, 'name') === 'string'
      ? ''
      : 'its error is not { name, message }';
  }
  if (own(message, 'ok') !== true) return 'ok is neither true nor false';
  const result = own(message, 'result');
  if (type === 'parameters') {
    const fine = result !== null && typeof result === 'object';
    return fine &&
      Object.values(result).every((p) =>
        isTensor(p, p !== null && typeof p === 'object' ? own(p, 'dims')?.length : 0),
      )
      ? ''
      : 'bad parameters';
  }
  if (result === null || typeof result !== 'object' || !isInt(own(result, 'step'))) {
    return 'its result has no step';
  }
  if ((type === 'init' || type === 'reset') && !isTensorList(own(result, 'tensors'))) {
    return 'its result has no list of tensors [name, dims]';
  }
  if (
    type === 'train' &&
    (typeof own(result, 'loss') !== 'number' || typeof own(result, 'stopped') !== 'boolean')
  ) {
    return 'its result is not { step, loss, stopped }';
  }
  if (type === 'forward') {
    if (!isTensor(own(result, 'logits'), 3)) return 'its logits are not [1, T, V]';
    if (!isTensor(own(result, 'attention'), 5))
      return 'its attention is not [layers, 1, heads, T, T]';
  }
  if (type === 'generate' && !(own(result, 'tokens') instanceof Int32Array)) {
    return 'its tokens are not an Int32Array';
  }
  if (type === 'evaluate') {
    const [loss, accuracy, tokens, targets, attention] = [
      'loss',
      'accuracy',
      'tokens',
      'targets',
      'attention',
    ].map((key) => own(result, key));
    if (typeof loss !== 'number' || typeof accuracy !== 'number') return 'no loss or accuracy';
    if (!(tokens instanceof Int32Array) || !(targets instanceof Int32Array)) return 'no rows';
    if (!isTensor(attention, 5)) return 'its attention is not [layers, batch, heads, T, T]';
  }
  return '';
}

/**
 * Opens the channel over `worker` (spawnWorker's interface). onProgress(event), if given,
 * receives each progress event; if it throws, the run in progress stops and its train()
 * promise rejects with what it threw. Returns { request, train, fail, step, failure }.
 */
export function openChannel(worker, onProgress) {
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
      try {
        worker.post({ ...fields, type, id }, transfer);
      } catch (error) {
        // Not sent (a value that cannot be cloned): nothing waits for an answer.
        pending.delete(id);
        if (pending.size === 0 && abandoned.size === 0) worker.busy(false);
        reject(error);
      }
    });
  }

  function settle(message) {
    const call = pending.get(own(message, 'id'));
    const fault = answerFault(message, call.type);
    if (fault)
      return fail(
        new TrainerError(`the trainer's worker sent an invalid answer to ${call.type} (${fault})`),
      );
    pending.delete(message.id);
    // An idle trainer keeps Node alive no longer.
    if (pending.size === 0 && abandoned.size === 0) worker.busy(false);
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
    if (own(message, 'type') === 'progress') {
      const fault = progressFault(message);
      if (fault)
        return fail(new TrainerError(`the trainer's worker sent a bad progress event (${fault})`));
      step = own(message, 'step');
      if (!onProgress) return;
      const [loss, losses, msPerStep, attention] = ['loss', 'losses', 'msPerStep', 'attention'].map(
        (key) => own(message, key),
      );
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
    if (abandoned.delete(own(message, 'id'))) {
      // The answer to a call that already ended; idle once nothing else is waiting.
      if (pending.size === 0 && abandoned.size === 0) worker.busy(false);
      return;
    }
    if (!pending.has(own(message, 'id'))) {
      return fail(
        new TrainerError(
          `the trainer's worker answered a request it was not sent (id ${describe(own(message, 'id'))})`,
        ),
      );
    }
    settle(message);
  });
  worker.onDeath((why) => fail(new TrainerError(`the trainer's worker stopped: ${why}`)));

  /** Starts a run: one at a time (a second is refused while one runs). */
  function train(fields) {
    if (running !== null && !failure) {
      return Promise.reject(new Error('train: a run is already going (stop() it, or await it)'));
    }
    const promise = request('train', fields);
    if (!failure) running = nextId - 1;
    return promise;
  }

  return {
    request,
    train,
    fail,
    get step() {
      return step;
    },
    get failure() {
      return failure;
    },
  };
}
