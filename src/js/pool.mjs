// createAttentionPool(): every core without cross-origin isolation. Each worker (a Web Worker
// in a browser, a worker_thread in Node) holds its own instance of the attention module; a
// call is split into slices (pool-split.mjs) that wait in one queue, and each idle worker
// takes the next. Data moves by postMessage: slices are fresh copies, transferred (not cloned)
// to the worker, and outputs are transferred back.
//
// A worker that dies or is terminated (close(), an aborted call) rejects the call it was
// running with an Error saying so, and a fresh worker takes its place.
import { planSlices, placeSlice, sliceCall, splittableShape } from './pool-split.mjs';

const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
const POOL_KEYS = new Set(['workers', 'relaxedSimd', 'workerUrl']);
const CALL_KEYS = new Set(['signal', 'transfer']);

// Node's built-ins by a name computed at run time, so browser bundlers leave them alone (a
// constant specifier gets folded into a static import by minifiers, and then resolved).
const importNodeBuiltin = (name) => import(/* webpackIgnore: true */ `node:${name}`);

async function defaultWorkers() {
  if (isNode) {
    const os = await importNodeBuiltin('os');
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency || 2;
}

// A worker behind one small interface, whichever kind it is.
async function spawn(url) {
  if (isNode) {
    const { Worker } = await importNodeBuiltin('worker_threads');
    // No Node flags: those about the main script (-e, --input-type) make a worker fail, and
    // the worker needs none. V8's flags (--experimental-wasm-relaxed-simd) are per process:
    // they hold in every worker anyway.
    const worker = new Worker(url, { execArgv: [] });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      onMessage: (listener) => worker.on('message', listener),
      onDeath: (listener) => {
        worker.on('error', (error) => listener(`it threw ${error?.message ?? error}`));
        worker.on('exit', (code) => listener(`it exited with code ${code}`));
      },
      busy: (busy) => (busy ? worker.ref() : worker.unref()), // idle workers keep Node alive no longer
      terminate: () => worker.terminate(),
    };
  }
  const worker = new Worker(url, { type: 'module' });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onDeath: (listener) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        listener(`it threw ${event.message || 'an error (its script may have failed to load)'}`);
      });
      worker.addEventListener('messageerror', () => listener('a message to it could not be read'));
    },
    busy: () => {},
    terminate: () => worker.terminate(),
  };
}

function rebuildError({ name, message }) {
  if (name === 'TypeError') return new TypeError(message);
  if (name === 'RangeError') return new RangeError(message);
  return new Error(message);
}

function checkCallOptions(callOptions, where) {
  if (callOptions === undefined) return {};
  if (callOptions === null || typeof callOptions !== 'object') {
    throw new TypeError(`${where}: call options must be an object { signal, transfer }`);
  }
  for (const key of Object.keys(callOptions)) {
    if (!CALL_KEYS.has(key)) {
      throw new TypeError(`${where}: unknown call option '${key}' (expected signal, transfer)`);
    }
  }
  if (callOptions.transfer !== undefined && typeof callOptions.transfer !== 'boolean') {
    throw new TypeError(`${where}: call option transfer must be a boolean`);
  }
  return callOptions;
}

/**
 * Starts `workers` workers, each with its own attention module, and resolves once all have
 * loaded it.
 * @param {{ workers?: number, relaxedSimd?: boolean, workerUrl?: string | URL }} [options]
 */
export async function createAttentionPool(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createAttentionPool: options must be an object, got ${options}`);
  }
  for (const key of Object.keys(options)) {
    if (!POOL_KEYS.has(key)) {
      throw new TypeError(
        `createAttentionPool: unknown option '${key}' (expected one of ${[...POOL_KEYS].join(', ')})`,
      );
    }
  }
  const count = options.workers ?? (await defaultWorkers());
  if (typeof count !== 'number') {
    throw new TypeError(
      `createAttentionPool: workers must be a positive integer, got ${typeof count}`,
    );
  }
  if (!Number.isInteger(count) || count < 1 || count > 256) {
    throw new RangeError(
      `createAttentionPool: workers must be an integer from 1 to 256, got ${count}`,
    );
  }
  const url = options.workerUrl ?? new URL('./attention-worker.mjs', import.meta.url);
  const moduleOptions =
    options.relaxedSimd === undefined ? {} : { relaxedSimd: options.relaxedSimd };

  const queue = []; // tasks waiting for a worker: { method, args, transfer, call, resolve, reject }
  const slots = [];
  let closed = false;
  let nextId = 1;

  // Starts a worker in slot `index`; resolves when its module is ready.
  function start(index) {
    const slot = { index, worker: null, task: null, ready: false, dead: false };
    slots[index] = slot;
    return new Promise((resolve, reject) => {
      spawn(url).then(
        (worker) => {
          slot.worker = worker;
          worker.busy(true); // until its module is ready
          worker.onMessage((message) => {
            if (slot.dead) return;
            if (message.type === 'ready') {
              slot.ready = true;
              slot.relaxedSimd = message.relaxedSimd;
              worker.busy(false);
              resolve(slot);
              dispatch();
            } else if (message.type === 'load-error') {
              die(slot, `its module did not load: ${message.message}`);
              reject(
                new Error(
                  `createAttentionPool: a worker's module did not load: ${message.message}`,
                ),
              );
            } else if (slot.task && message.id === slot.task.id) {
              const { task } = slot;
              slot.task = null;
              worker.busy(false);
              if (message.ok) task.resolve(message.result);
              else task.reject(rebuildError(message.error));
              dispatch();
            }
          });
          worker.onDeath((why) => {
            if (slot.dead) return;
            if (!slot.ready)
              reject(new Error(`createAttentionPool: a worker failed to start: ${why}`));
            die(slot, why);
          });
          worker.post({ type: 'init', options: moduleOptions });
        },
        (error) => {
          slot.dead = true;
          reject(error);
        },
      );
    });
  }

  // A worker is gone (or must go): fail its task, replace it unless the pool is closing.
  function die(slot, why, { replace = true } = {}) {
    if (slot.dead) return;
    slot.dead = true;
    slot.worker?.terminate();
    if (slot.task) {
      slot.task.reject(new Error(`attention pool: the worker running this call died (${why})`));
      slot.task = null;
    }
    if (closed || !replace || !slot.ready) return;
    start(slot.index).catch((error) => {
      // No replacement: with no worker left, nothing queued could ever run.
      if (slots.every((s) => s.dead)) {
        for (const task of queue.splice(0)) task.reject(error);
      }
    });
  }

  function dispatch() {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.dead || slot.task) continue;
      const task = queue.shift();
      task.id = nextId++;
      slot.task = task;
      slot.worker.busy(true);
      slot.worker.post({ id: task.id, method: task.method, args: task.args }, task.transfer);
    }
  }

  // Queues a call's tasks; resolves with their results in order, rejects at the first failure
  // (dropping its other queued tasks) or when `signal` aborts (terminating its running ones).
  function run(where, tasks, signal) {
    if (closed) return Promise.reject(new Error(`${where}: the pool is closed`));
    if (slots.every((slot) => slot.dead)) {
      return Promise.reject(new Error(`${where}: no worker left (none could be restarted)`));
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const call = { settled: false };
      const results = new Array(tasks.length);
      let left = tasks.length;
      const fail = (error) => {
        if (call.settled) return;
        call.settled = true;
        signal?.removeEventListener('abort', onAbort);
        for (let i = queue.length - 1; i >= 0; i--) if (queue[i].call === call) queue.splice(i, 1);
        reject(error);
      };
      const onAbort = () => {
        fail(signal.reason);
        for (const slot of slots) {
          if (slot.task?.call === call) die(slot, 'the call was aborted');
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      tasks.forEach((task, i) => {
        queue.push({
          ...task,
          call,
          resolve: (result) => {
            if (call.settled) return;
            results[i] = result;
            if (--left === 0) {
              call.settled = true;
              signal?.removeEventListener('abort', onAbort);
              resolve(results);
            }
          },
          reject: fail,
        });
      });
      dispatch();
    });
  }

  try {
    await Promise.all(Array.from({ length: count }, (_, i) => start(i)));
  } catch (error) {
    closed = true;
    for (const slot of slots) die(slot, 'the pool failed to start');
    throw error;
  }

  async function attention(q, k, v, attentionOptions, callOptions) {
    const { signal, transfer = false } = checkCallOptions(callOptions, 'attention');
    const shape = splittableShape(q, k, v, attentionOptions);
    const live = slots.filter((slot) => !slot.dead).length;
    const slices = shape ? planSlices(shape, attentionOptions, live) : [{ b: -1 }];
    if (slices[0].b === -1) {
      // Whole, validated by the worker: moved when the caller opts in; else well-formed
      // arrays go as one fresh buffer, moved (one copy, where cloning each makes two).
      let args = [q, k, v, attentionOptions];
      let buffers = [];
      if (transfer) buffers = [q, k, v].filter((a) => ArrayBuffer.isView(a)).map((a) => a.buffer);
      else if (shape) {
        const packed = new Float32Array(q.length + k.length + v.length);
        packed.set(q);
        packed.set(k, q.length);
        packed.set(v, q.length + k.length);
        const ends = [0, q.length, q.length + k.length, packed.length];
        args = [0, 1, 2].map((i) => packed.subarray(ends[i], ends[i + 1]));
        args.push(attentionOptions);
        buffers = [packed.buffer];
      }
      const task = { method: 'attention', args, transfer: [...new Set(buffers)] };
      const [y] = await run('attention', [task], signal);
      return y;
    }
    const tasks = slices.map((slice) => ({
      method: 'attention',
      ...sliceCall(q, k, v, attentionOptions, shape, slice),
    }));
    const parts = await run('attention', tasks, signal);
    const y = new Float32Array(shape.batch * shape.qNumHeads * shape.qSeqLen * shape.vHeadSize);
    slices.forEach((slice, i) => placeSlice(y, parts[i], shape, slice));
    return y;
  }

  // Forwarded whole to one worker. ort.Tensor keeps its data behind getters, which
  // postMessage does not copy: send each tensor as a plain { type, data, dims }.
  async function onnxAttention(inputs, attributes, outputs, callOptions) {
    const { signal } = checkCallOptions(callOptions, 'onnxAttention');
    let plainInputs = inputs;
    if (inputs !== null && typeof inputs === 'object') {
      plainInputs = {};
      for (const [name, tensor] of Object.entries(inputs)) {
        plainInputs[name] =
          tensor !== null && typeof tensor === 'object' && !ArrayBuffer.isView(tensor)
            ? { type: tensor.type, data: tensor.data, dims: tensor.dims }
            : tensor;
      }
    }
    const args = [plainInputs, attributes, outputs];
    const [result] = await run(
      'onnxAttention',
      [{ method: 'onnxAttention', args, transfer: [] }],
      signal,
    );
    return result;
  }

  function close() {
    if (closed) return;
    closed = true;
    for (const task of queue.splice(0))
      task.reject(new Error('attention pool: closed before the call ran'));
    for (const slot of slots) die(slot, 'the pool was closed', { replace: false });
  }

  return Object.freeze({
    attention,
    onnxAttention,
    close,
    get workers() {
      return slots.filter((slot) => !slot.dead).length;
    },
    relaxedSimd: slots.every((slot) => slot.relaxedSimd),
  });
}
