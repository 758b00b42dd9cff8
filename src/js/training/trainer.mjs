// createTrainer(): trains a tiny transformer (attn.createTinyTransformer) on the induction task
// in a worker, off the page's main thread: a Web Worker in a browser, a worker_thread in Node,
// by the same code. This is the host's side of the protocol that train-session.mjs documents;
// the worker script is train-worker.mjs (dist/train-worker.mjs).
//
// Here: reading and checking the caller's options and arguments (each read once; a refused
// call throws at once and changes nothing). The messages themselves: trainer-channel.mjs.
import { checkIntegerIn, describe, finiteFloats, isOptionBag } from '../shared/checks.mjs';
import { INDUCTION_BATCH, MAX_BATCH } from '../tasks/induction-task.mjs';
import {
  measuredBytes,
  measureTypedArray,
  readArray,
  readArrayOfLength,
  readOwnOptions,
  setBytes,
} from '../shared/read-once.mjs';
// The model's config fields (the model validates their values; createTrainer their kinds).
import { CONFIG_KEYS } from './tiny-transformer.mjs';
import { openChannel, TrainerError } from './trainer-channel.mjs';
import { besideThisFile, wasmFilesForWorkers } from '../module/package-files.mjs';
import { threadsFiles } from '../module/threads-files.mjs';
import { fitConfigToTask, readTask } from './trainer-task.mjs';
import { readTrainerForward, readTrainerGenerate } from './decoding-options.mjs';
import { isNode, spawnWorker, startWebWorker } from '../shared/workers.mjs';
import { readThreads } from '../module/threads-option.mjs';

export { TrainerError };

const TRAINER_KEYS = new Set([
  'config',
  'task',
  'seed',
  'batch',
  'onProgress',
  'workerUrl',
  'initTimeout',
  'relaxedSimd',
  'threads',
  'workerType',
]);
const TRAIN_KEYS = new Set(['steps', 'progressEvery', 'attentionEvery']);
const RESET_KEYS = new Set(['config', 'seed']);
const EVALUATE_KEYS = new Set(['batch']);
/** How long the worker may take to load the module and build the model. */
const INIT_TIMEOUT_MS = 30_000;
/** The longest delay setTimeout honours (ms). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** The longest dims list a parameter may have (the model's tensors have at most 3). */
const MAX_DIMS = 8;
/** The most steps one train() call may ask for. */
export const MAX_STEPS = 1e7;

/** Reads an option bag once (own properties only); undefined reads as empty. */
function readBag(bag, keys, where, bagName) {
  if (bag === undefined) return { __proto__: null };
  if (!isOptionBag(bag)) {
    throw new TypeError(`${where}: ${bagName} must be an object, got ${describe(bag)}`);
  }
  return readOwnOptions(bag, keys, where, bagName);
}

/** The model's config as a plain snapshot, fitted to the task (trainer-task.mjs). */
function readConfig(config, where, task) {
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
  return fitConfigToTask(snapshot, task, where);
}

/** More floats than one parameter of any model that fits in wasm memory could hold. */
const MAX_PARAMETER_FLOATS = 2 ** 30;

/** A list of numbers read once, by index (a Proxy claiming 2^32 items is refused first). */
function readNumbers(value, name, limit) {
  const items = readArray(value, name, limit);
  if (items === null) return null;
  items.forEach((item, i) => {
    if (typeof item !== 'number') {
      throw new TypeError(`${name}[${i}] must be a number, got ${describe(item)}`);
    }
  });
  return items;
}

/**
 * One parameter's data, `count` numbers, as a Float32Array of our own: its items or its bytes,
 * read once, after its length was checked (a sparse array or a Proxy claiming 2^26 items is
 * refused before one is read: this runs on the caller's thread, often a page's).
 */
function snapshotData(data, name, count) {
  const items = readArrayOfLength(data, name, count, 'numbers');
  if (items !== null) return finiteFloats(items, name);
  // Measured by the intrinsic getters and copied by bytes: an own Symbol.iterator, length
  // or a Proxy cannot make the copy differ from the array.
  const measured = measureTypedArray(data, name);
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(
      `${name} must be a Float32Array or an array of numbers, got ${describe(data)}`,
    );
  }
  if (measured.length !== count) {
    throw new RangeError(`${name} must hold ${count} numbers, got ${measured.length}`);
  }
  const copy = new Float32Array(measured.length);
  setBytes(new Uint8Array(copy.buffer), measuredBytes(measured, measured.byteLength, name), 0);
  return copy;
}

/**
 * What a trainer's generate bans when its caller does not say: a text task's unknown id (it
 * decodes to U+FFFD, which is no character to write), as an Int32Array; null otherwise.
 */
const unknownIdOf = (task) =>
  task !== null && task.tokenizer.unknownId >= 0 ? Int32Array.of(task.tokenizer.unknownId) : null;

/** A head mask as a message's field: none when null (every head on). */
const masked = (headMask) => (headMask === null ? {} : { headMask });

/** The model's tensors as its worker reported them: name -> { dims, count }, in its order. */
const shapesOf = (tensors) =>
  new Map(tensors.map(([name, dims]) => [name, { dims, count: dims.reduce((a, b) => a * b, 1) }]));

/** A tensor's count from its own dims, for when the model's sizes are not known yet. */
function countOf(dims, where) {
  const count = dims.reduce((a, b) => a * b, 1);
  if (!(Number.isInteger(count) && count >= 0 && count <= MAX_PARAMETER_FLOATS)) {
    throw new RangeError(
      `${where}.dims must be sizes of at most ${MAX_PARAMETER_FLOATS} numbers in all, got [${dims.join(', ')}]`,
    );
  }
  return count;
}

/**
 * A plain copy of parameters { name: { data, dims } }: every own string key, each entry's
 * fields read once, floats copied. `shapes` (shapesOf) are the model's tensors: names and dims
 * are checked against them before any data is read, and each data's length before its items.
 * While a reset is making a new model (shapes null) each data's length is checked against its
 * own dims, and the model in the worker checks names and dims.
 */
function snapshotParameters(parameters, shapes) {
  if (!isOptionBag(parameters)) {
    throw new TypeError(
      `loadParameters: parameters must be an object { name: { data, dims } }, got ${describe(parameters)}`,
    );
  }
  // Index loops: a replaced Array iterator cannot make an own key go unread. Symbols cannot
  // name a parameter; an own '__proto__' can, to be refused by name.
  const keys = Reflect.ownKeys(parameters);
  const names = [];
  for (let i = 0; i < keys.length; i++) {
    if (typeof keys[i] === 'string') names[names.length] = keys[i];
  }
  if (shapes) {
    const unknown = names.find((name) => !shapes.has(name));
    if (unknown !== undefined) {
      throw new TypeError(
        `loadParameters: unknown parameter '${unknown}' (expected one of ${[...shapes.keys()].join(', ')})`,
      );
    }
    const missing = [...shapes.keys()].find((name) => !names.includes(name));
    if (missing !== undefined) throw new TypeError(`loadParameters: '${missing}' is missing`);
  }
  const copy = { __proto__: null };
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const entry = parameters[name];
    const where = `loadParameters: parameters['${name}']`;
    if (entry === null || typeof entry !== 'object') {
      throw new TypeError(`${where} must be { data, dims }, got ${describe(entry)}`);
    }
    const { data, dims } = entry;
    const dimsRead = readNumbers(dims, `${where}.dims`, MAX_DIMS);
    if (dimsRead === null) {
      throw new TypeError(`${where}.dims must be an array, got ${describe(dims)}`);
    }
    const shape = shapes?.get(name);
    if (
      shape &&
      (dimsRead.length !== shape.dims.length || dimsRead.some((n, j) => n !== shape.dims[j]))
    ) {
      throw new RangeError(
        `${where}.dims must be [${shape.dims.join(', ')}], got [${dimsRead.join(', ')}]`,
      );
    }
    const count = shape ? shape.count : countOf(dimsRead, where);
    copy[name] = { data: snapshotData(data, `${where}.data`, count), dims: dimsRead };
  }
  return copy;
}

/**
 * Starts the trainer's worker: the script at the caller's workerUrl, else the package's
 * train-worker.mjs, in a browser by a literal new Worker(new URL(…)) that app bundlers bundle
 * as a worker.
 */
function spawnTrainWorker(workerUrl, workerType) {
  if (workerUrl !== undefined) return spawnWorker(workerUrl, workerType);
  if (isNode) return spawnWorker(besideThisFile('./train-worker.mjs'));
  const { worker, url } = startWebWorker(
    () => new Worker(new URL('./train-worker.mjs', import.meta.url), { type: 'module' }),
  );
  return spawnWorker(url, 'module', worker);
}

/**
 * createTrainer's options, read once and checked: { task, config, seed, batch, initTimeout,
 * onProgress, moduleOptions, url, workerType, threads } (threads as given: createTrainer
 * resolves it, 'auto' asynchronously).
 */
function readTrainerOptions(options, where) {
  const o = readOwnOptions(options, TRAINER_KEYS, where, 'options');
  const task = readTask(o.task, where);
  const config = readConfig(o.config, where, task);
  const seed = checkIntegerIn(o.seed ?? 1, `${where}: seed`, 0, 0xffffffff);
  const batch = checkIntegerIn(o.batch ?? INDUCTION_BATCH, `${where}: batch`, 1, MAX_BATCH);
  const initTimeout = o.initTimeout ?? INIT_TIMEOUT_MS;
  // setTimeout fires at once for a delay past 2^31 - 1 ms (Infinity too), so those are refused.
  if (typeof initTimeout !== 'number' || !(initTimeout > 0 && initTimeout <= MAX_TIMEOUT_MS)) {
    throw new RangeError(
      `${where}: initTimeout must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${describe(initTimeout)}`,
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
  const url = o.workerUrl;
  if (url !== undefined && typeof url !== 'string' && !(url instanceof URL)) {
    throw new TypeError(`${where}: workerUrl must be a string or a URL, got ${describe(url)}`);
  }
  const workerType = o.workerType ?? 'module';
  if (workerType !== 'module' && workerType !== 'classic') {
    const Kind = typeof workerType === 'string' ? RangeError : TypeError;
    throw new Kind(
      `${where}: workerType must be 'module' or 'classic', got ${describe(workerType)}`,
    );
  }
  return {
    task, config, seed, batch, initTimeout, onProgress, moduleOptions, url, workerType,
    threads: o.threads,
  }; // prettier-ignore
}

/**
 * What the worker is told of the package's files, as this host sees them (beside it, or where
 * an app's bundler put them; wasmFilesForWorkers): the one-thread module's .wasm, and with
 * threads above 1 the threads build's files (threads-files.mjs), which a worker script bundled
 * or copied on its own could not find itself. Undefined in Node and in a classic script.
 */
function filesForWorker(threads) {
  const files = wasmFilesForWorkers();
  if (files === undefined || threads === 1) return files;
  return { ...files, threads: threadsFiles() };
}

/**
 * Asks the new worker to load the module and build the model (and the text task's tokenizer);
 * resolves to its answer. A worker that does not answer within initTimeout, or refuses, is
 * ended (the channel fails), and the error is thrown.
 */
async function initTrainWorker(channel, where, init) {
  const { task, config, seed, batch, initTimeout, moduleOptions } = init;
  const { request, fail } = channel;
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
    const taskField =
      task === null
        ? {}
        : {
            task: {
              text: task.text,
              minCount: task.tokenizer.minCount,
              inputDropout: task.inputDropout,
            },
          };
    return await request('init', {
      options: moduleOptions,
      files: filesForWorker(moduleOptions.threads ?? 1),
      config,
      seed,
      batch,
      ...taskField,
    });
  } catch (error) {
    fail(new TrainerError(`${where}: refused, so its worker was ended`));
    throw error;
  } finally {
    clearTimeout(timer);
  }
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
  const { task, config, seed, batch, initTimeout, onProgress, url, workerType, ...rest } =
    readTrainerOptions(options, where);
  // The worker loads the wasm threads build when threads > 1: its training steps share their
  // work among them (the same bits as one thread). Its load gets most of initTimeout, so that
  // a file that does not load is named by the worker's error before this side's timeout.
  const threads = await readThreads(rest.threads, where);
  const moduleOptions =
    threads > 1
      ? { ...rest.moduleOptions, threads, initTimeout: Math.ceil(initTimeout * 0.9) }
      : rest.moduleOptions;

  const channel = openChannel(await spawnTrainWorker(url, workerType), onProgress);
  const { request, fail } = channel;
  const ready = await initTrainWorker(channel, where, {
    task,
    config,
    seed,
    batch,
    initTimeout,
    moduleOptions,
  });

  // The model's tensors, for loadParameters' checks: those of the model the worker holds
  // (`confirmed`, as init and each reset answered), or null while a reset is under way.
  let confirmed = shapesOf(ready.tensors);
  let shapes = confirmed;
  let resetting = 0;
  const resetSettled = () => {
    resetting -= 1;
    if (resetting === 0) shapes = confirmed;
  };

  return Object.freeze({
    /** Trains `steps` more steps; resolves { step, loss, stopped } when they are done or stopped. */
    train(trainOptions) {
      const t = readBag(trainOptions, TRAIN_KEYS, 'train', 'options');
      const steps = checkIntegerIn(t.steps, 'train: steps', 1, MAX_STEPS);
      const progressEvery = checkIntegerIn(
        t.progressEvery ?? 10,
        'train: progressEvery',
        1,
        MAX_STEPS,
      );
      const attentionEvery = checkIntegerIn(
        t.attentionEvery ?? 0,
        'train: attentionEvery',
        0,
        MAX_STEPS,
      );
      return channel.train({ steps, progressEvery, attentionEvery });
    },
    pause: () => request('pause'),
    resume: () => request('resume'),
    stop: () => request('stop'),
    /** Loss, accuracy and every head's attention on `batch` held-out rows (default 64; the same rows at every call until a reset with another seed); for a text, on its whole held-out tenth. */
    evaluate(evaluateOptions) {
      const e = readBag(evaluateOptions, EVALUATE_KEYS, 'evaluate', 'options');
      if (task !== null && e.batch !== undefined) {
        throw new TypeError(
          `evaluate: batch is for the induction task; a text trainer scores its whole held-out tenth, got batch ${describe(e.batch)}`,
        );
      }
      const rows = checkIntegerIn(e.batch ?? 64, 'evaluate: batch', 1, MAX_BATCH);
      return request('evaluate', { batch: rows });
    },
    /** The model on one sequence (a text trainer's may be a string), some heads switched off by headMask. */
    forward(args) {
      const { tokens, headMask } = readTrainerForward(args, task?.tokenizer ?? null);
      return request('forward', { tokens, ...masked(headMask) }, [tokens.buffer]).then(
        ({ logits, attention }) => ({ logits, attention }),
      );
    },
    /**
     * count new tokens after prompt: greedy, or sampled with temperature and topK from seed;
     * never one of bannedIds (a text trainer's default: its tokenizer's unknown id, if any).
     */
    generate(args) {
      const { headMask, bannedIds, ...read } = readTrainerGenerate(args, task?.tokenizer ?? null);
      const banned = bannedIds ?? unknownIdOf(task);
      const transfer = banned ? [read.prompt.buffer, banned.buffer] : [read.prompt.buffer];
      return request(
        'generate',
        { ...read, ...masked(headMask), ...(banned ? { bannedIds: banned } : {}) },
        transfer,
      ).then((result) => result.tokens);
    },
    parameters: () => request('parameters'),
    loadParameters(parameters) {
      const copy = snapshotParameters(parameters, shapes);
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
      if (r.config !== undefined) fields.config = readConfig(r.config, 'reset', task);
      if (r.seed !== undefined) fields.seed = checkIntegerIn(r.seed, 'reset: seed', 0, 0xffffffff);
      resetting += 1;
      shapes = null;
      return request('reset', fields).then(
        (result) => {
          confirmed = shapesOf(result.tensors);
          resetSettled();
          return { step: result.step };
        },
        (error) => {
          resetSettled();
          throw error;
        },
      );
    },
    /** Ends the worker; pending and later calls reject with a TrainerError. */
    close() {
      fail(new TrainerError('the trainer was closed'));
    },
    /** The text task's tokenizer (createCharTokenizer of its text); null for induction. */
    tokenizer: task?.tokenizer ?? null,
    /** The threads each training step runs on (options.threads, 'auto' resolved). */
    threads,
    /** The last step the worker reported. */
    get step() {
      return channel.step;
    },
    get closed() {
      return channel.failure !== null;
    },
  });
}
