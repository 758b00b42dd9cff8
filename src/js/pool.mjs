// createAttentionPool(): every core without cross-origin isolation. Each worker (a Web Worker
// in a browser, a worker_thread in Node) holds its own instance of the attention module; a
// call is split into slices (pool-split.mjs) that wait in one queue, and each idle worker
// takes the next. Data moves by postMessage: slices are fresh copies, transferred (not cloned)
// to the worker, and outputs are transferred back.
//
// A worker that dies or is terminated (close(), an aborted call) rejects the call it was
// running with an Error saying so, and a fresh worker takes its place.
//
// Arguments are read once, as attn.attention reads them (read-once.mjs): the call is read and
// validated up front (the same TypeError / RangeError as attn.attention), and only that
// snapshot is sliced and posted, never the caller's objects, whose getters could answer
// differently the second time.
import { readAttentionArgs } from './attention-args.mjs';
import { describe, isOptionBag } from './checks.mjs';
import { snapshotOnnxCall } from './onnx-attention.mjs';
import { planSlices, placeSlice, sliceCall } from './pool-split.mjs';
import { measuredBytes, readOwnOptions } from './read-once.mjs';
import { importNodeBuiltin, isNode, rebuildError, spawnWorker as spawn } from './workers.mjs';

const POOL_KEYS = new Set(['workers', 'relaxedSimd', 'workerUrl', 'initTimeout']);
const CALL_KEYS = new Set(['signal', 'transfer']);
/** How long a worker may take to load its module before createAttentionPool gives up. */
const INIT_TIMEOUT_MS = 30_000;
const Float32ArrayIntrinsic = Float32Array;
const Uint8ArrayIntrinsic = Uint8Array;
const objectTag = (value) => Object.prototype.toString.call(value);

async function defaultWorkers() {
  if (isNode) {
    const os = await importNodeBuiltin('os');
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency || 2;
}

// The call options { signal, transfer }, own properties read once.
function readCallOptions(callOptions, where) {
  if (callOptions === undefined) return { signal: undefined, transfer: false };
  if (!isOptionBag(callOptions)) {
    throw new TypeError(
      `${where}: call options must be an object { signal, transfer }, got ${describe(callOptions)}`,
    );
  }
  const { signal, transfer = false } = readOwnOptions(
    callOptions,
    CALL_KEYS,
    where,
    'the call options',
  );
  if (typeof transfer !== 'boolean') {
    throw new TypeError(
      `${where}: call option transfer must be a boolean, got ${describe(transfer)}`,
    );
  }
  if (signal !== undefined && objectTag(signal) !== '[object AbortSignal]') {
    throw new TypeError(
      `${where}: call option signal must be an AbortSignal, got ${describe(signal)}`,
    );
  }
  return { signal, transfer };
}

// Exactly the floats of a measured Float32Array that validation accepted, as a view.
function checkedFloats(measured, count, name) {
  measuredBytes(measured, count * 4, name); // still exactly the bytes that were checked
  return new Float32ArrayIntrinsic(measured.buffer, measured.byteOffset, count);
}

// A fresh copy of the checked mask bytes, as the kind of array the mask was.
function maskCopy(mask) {
  const bytes = new Uint8ArrayIntrinsic(measuredBytes(mask.data, mask.bytes, 'attnMask.data'));
  return mask.kind === 'boolean' ? bytes : new Float32ArrayIntrinsic(bytes.buffer);
}

/**
 * Starts `workers` workers, each with its own attention module, and resolves once all have
 * loaded it.
 * @param {{ workers?: number, relaxedSimd?: boolean, workerUrl?: string | URL,
 *   initTimeout?: number }} [options]
 */
export async function createAttentionPool(options = {}) {
  if (!isOptionBag(options)) {
    throw new TypeError(`createAttentionPool: options must be an object, got ${describe(options)}`);
  }
  const o = readOwnOptions(options, POOL_KEYS, 'createAttentionPool', 'options');
  const count = o.workers ?? (await defaultWorkers());
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
  const initTimeout = o.initTimeout ?? INIT_TIMEOUT_MS;
  if (typeof initTimeout !== 'number' || !(initTimeout > 0)) {
    throw new RangeError(
      `createAttentionPool: initTimeout must be a positive number of milliseconds, got ${describe(initTimeout)}`,
    );
  }
  const url = o.workerUrl ?? new URL('./attention-worker.mjs', import.meta.url);
  const relaxedSimd = o.relaxedSimd;
  if (relaxedSimd !== undefined && typeof relaxedSimd !== 'boolean') {
    throw new TypeError(
      `createAttentionPool: relaxedSimd must be a boolean, got ${describe(relaxedSimd)}`,
    );
  }
  const moduleOptions = relaxedSimd === undefined ? {} : { relaxedSimd };

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
          // A worker that never answers (a script that hangs, a wrong workerUrl that loads
          // something else) must not leave createAttentionPool pending for ever.
          const timer = setTimeout(() => {
            if (slot.dead || slot.ready) return;
            die(slot, `it did not load its module within ${initTimeout} ms`);
            reject(
              new Error(
                `createAttentionPool: a worker did not report ready within ${initTimeout} ms (initTimeout)`,
              ),
            );
          }, initTimeout);
          worker.onMessage((message) => {
            if (slot.dead) return;
            if (message.type === 'ready') {
              clearTimeout(timer);
              slot.ready = true;
              slot.relaxedSimd = message.relaxedSimd;
              worker.busy(false);
              resolve(slot);
              dispatch();
            } else if (message.type === 'load-error') {
              clearTimeout(timer);
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
            clearTimeout(timer);
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
    const { signal, transfer } = readCallOptions(callOptions, 'attention');
    // Read and validated once, exactly as attn.attention does; from here on only the snapshot
    // is used (its errors reject this call with the same type and message).
    const call = readAttentionArgs(q, k, v, attentionOptions);
    if (call.out !== null) {
      // A worker's result arrives as an array of its own, by message: writing it into `out`
      // would add a copy, not save one. The option is for attn.attention's synchronous calls.
      throw new TypeError(
        'attention pool: the option out is not supported (results arrive from a worker in an array of their own); leave it out, or call attn.attention with out',
      );
    }
    const { lengths } = call;
    const qs = checkedFloats(call.q, lengths.q, 'q');
    const ks = checkedFloats(call.k, lengths.k, 'k');
    const vs = checkedFloats(call.v, lengths.v, 'v');
    const options = {
      batch: call.batch,
      qNumHeads: call.qNumHeads,
      kvNumHeads: call.kvNumHeads,
      qSeqLen: call.qSeqLen,
      kvSeqLen: call.kvSeqLen,
      headSize: call.headSize,
      vHeadSize: call.vHeadSize,
      scale: call.scale,
      isCausal: call.isCausal,
      softcap: call.softcap,
    };
    if (call.mask) options.attnMask = { data: maskCopy(call.mask), shape: call.mask.dims };
    const live = slots.filter((slot) => !slot.dead).length;
    const slices = planSlices(call, live);
    if (slices[0].b === -1) {
      // Whole: q, k, v moved when the caller opts in; else copied into one fresh buffer,
      // moved (one copy, where cloning each makes two).
      let args;
      const buffers = options.attnMask ? [options.attnMask.data.buffer] : [];
      if (transfer) {
        args = [qs, ks, vs, options];
        for (const m of [call.q, call.k, call.v]) {
          if (objectTag(m.buffer) === '[object ArrayBuffer]') buffers.push(m.buffer);
        }
      } else {
        const packed = new Float32ArrayIntrinsic(lengths.q + lengths.k + lengths.v);
        packed.set(qs);
        packed.set(ks, lengths.q);
        packed.set(vs, lengths.q + lengths.k);
        const ends = [0, lengths.q, lengths.q + lengths.k, packed.length];
        args = [0, 1, 2].map((i) => packed.subarray(ends[i], ends[i + 1]));
        args.push(options);
        buffers.push(packed.buffer);
      }
      const task = { method: 'attention', args, transfer: [...new Set(buffers)] };
      const [y] = await run('attention', [task], signal);
      return y;
    }
    const tasks = slices.map((slice) => ({
      method: 'attention',
      ...sliceCall(qs, ks, vs, options, call, slice),
    }));
    const parts = await run('attention', tasks, signal);
    const y = new Float32ArrayIntrinsic(lengths.y);
    slices.forEach((slice, i) => placeSlice(y, parts[i], call, slice));
    return y;
  }

  // Forwarded whole to one worker, as a snapshot: read and validated once here (the same
  // errors as attn.onnxAttention), each tensor copied, so the worker never sees a getter (an
  // onnxruntime-web Tensor keeps its data behind one, which postMessage would not copy).
  async function onnxAttention(inputs, attributes, outputs, callOptions) {
    const { signal } = readCallOptions(callOptions, 'onnxAttention');
    const { args, transfer } = snapshotOnnxCall(inputs, attributes, outputs);
    const [result] = await run(
      'onnxAttention',
      [{ method: 'onnxAttention', args, transfer }],
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
