// createAttentionPool(): every core, with or without cross-origin isolation. Each worker (a
// Web Worker in a browser, a worker_thread in Node) holds its own instance of the attention
// module; a call is split into slices (pool-split.mjs) run by the workers. Data moves one of
// two ways:
// - shared memory (pool-shared.mjs), where a SharedArrayBuffer can be posted to a worker (Node;
//   a cross-origin isolated page), for a large call without `transfer`: q, k, v are copied once
//   into the pool's shared arena, and each worker reads its slices from it and writes its
//   outputs into it; only the call's description goes by message;
// - messages otherwise (most pages are not isolated; small calls; `transfer`): slices wait in
//   one queue and each idle worker takes the next; slices are fresh copies, transferred (not
//   cloned) to the worker, and outputs are transferred back.
//
// A worker that dies or is terminated (close(), an aborted call), or that sends anything but
// the messages attention-worker.mjs sends (a result of the wrong kind included), rejects the
// call it was running with an Error saying so, and a fresh worker takes its place.
//
// With { transfer: true }, the buffers behind q, k and v are taken when the call is made
// (moved into buffers of the pool's own, detaching the caller's), or copied then when they
// cannot be moved (a WebAssembly.Memory's buffer): a queued call never sees a later write,
// and two calls never share a buffer.
//
// Arguments are read once, as attn.attention reads them (read-once.mjs): the call is read and
// validated up front (the same TypeError / RangeError as attn.attention), and only that
// snapshot is sliced and posted, never the caller's objects, whose getters could answer
// differently the second time.
import { readAttentionArgs, recordAsOptions } from '../attention/attention-args.mjs';
import { checkIntegerIn, describe, isOptionBag } from '../shared/checks.mjs';
import { snapshotOnnxCall } from '../onnx/onnx-attention.mjs';
import { createArenas, runShared, sharedMemoryAvailable } from './pool-shared.mjs';
import { callWork, planSlices, placeSlice, sliceCall, SPLIT_MIN_WORK } from './pool-split.mjs';
import { measuredBytes, readOwnOptions, typedArrayType } from '../shared/read-once.mjs';
import { besideThisFile, wasmFilesForWorkers } from '../module/package-files.mjs';
import {
  importNodeBuiltin,
  isNode,
  rebuildError,
  spawnWorker,
  startWebWorker,
} from '../shared/workers.mjs';

const POOL_KEYS = new Set(['workers', 'relaxedSimd', 'workerUrl', 'initTimeout']);
const CALL_KEYS = new Set(['signal', 'transfer']);
/** How long a worker may take to load its module before createAttentionPool gives up. */
const INIT_TIMEOUT_MS = 30_000;
/** The longest a timer can wait (setTimeout fires at once beyond it); Infinity = no timeout. */
const MAX_TIMEOUT_MS = 0x7fffffff;
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

/**
 * A signal that aborts when `signal` does, until release() is called; { signal: undefined }
 * without one. Aborted at once (with its reason) when `signal` already is.
 */
function followUntilSettled(signal) {
  if (signal === undefined) return { signal: undefined, release: () => {} };
  const follower = new AbortController();
  if (signal.aborted) {
    follower.abort(signal.reason);
    return { signal: follower.signal, release: () => {} };
  }
  const forward = () => follower.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  return { signal: follower.signal, release: () => signal.removeEventListener('abort', forward) };
}

// Exactly the floats of a measured Float32Array that validation accepted, as a view.
function checkedFloats(measured, count, name) {
  measuredBytes(measured, count * 4, name); // still exactly the bytes that were checked
  return new Float32ArrayIntrinsic(measured.buffer, measured.byteOffset, count);
}

// checkedFloats of a checked call's q, k and v: { q, k, v }.
function checkedQkv({ q, k, v, lengths }) {
  return {
    q: checkedFloats(q, lengths.q, 'q'),
    k: checkedFloats(k, lengths.k, 'k'),
    v: checkedFloats(v, lengths.v, 'v'),
  };
}

// A fresh copy of the checked mask bytes, as the kind of array the mask was.
function maskCopy(mask) {
  const bytes = new Uint8ArrayIntrinsic(measuredBytes(mask.data, mask.bytes, 'attnMask.data'));
  return mask.kind === 'boolean' ? bytes : new Float32ArrayIntrinsic(bytes.buffer);
}

/**
 * Starts one of the pool's workers: the script at the caller's workerUrl, else the package's
 * attention-worker.mjs, in a browser by a literal new Worker(new URL(…)) that app bundlers
 * bundle as a worker.
 */
function spawn(workerUrl) {
  if (workerUrl !== undefined) return spawnWorker(workerUrl);
  if (isNode) return spawnWorker(besideThisFile('./attention-worker.mjs'));
  const { worker, url } = startWebWorker(
    () => new Worker(new URL('./attention-worker.mjs', import.meta.url), { type: 'module' }),
  );
  return spawnWorker(url, 'module', worker);
}

/**
 * `count` slots of workers running `url` (the caller's workerUrl, or undefined: the package's
 * worker), each loading its module with `moduleOptions`: the pool's state, shared by the
 * functions below.
 */
function poolState(url, moduleOptions, initTimeout) {
  // queue: tasks waiting for a worker { method, args, transfer, expect, call, resolve, reject }
  // arenas: the shared-memory path's buffers (pool-shared.mjs), null where memory cannot be
  // shared with workers (a page that is not cross-origin isolated): messages carry the data.
  const arenas = sharedMemoryAvailable() ? createArenas() : null;
  return {
    url,
    moduleOptions,
    initTimeout,
    queue: [],
    slots: [],
    closed: false,
    nextId: 1,
    arenas,
  };
}

/** True for a plain object (what every message of attention-worker.mjs is). */
const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// Starts a worker in slot `index`; resolves when its module is ready.
function start(state, index) {
  const slot = { index, worker: null, task: null, ready: false, dead: false, relaxedSimd: false };
  state.slots[index] = slot;
  return new Promise((resolve, reject) => {
    const started = { resolve, reject, timer: undefined };
    spawn(state.url).then(
      (worker) => {
        slot.worker = worker;
        worker.busy(true); // until its module is ready
        // A worker that never answers (a script that hangs, a wrong workerUrl that loads
        // something else) must not leave createAttentionPool pending for ever.
        if (state.initTimeout !== Infinity) {
          started.timer = setTimeout(() => {
            if (slot.dead || slot.ready) return;
            const ms = state.initTimeout;
            die(state, slot, `it did not load its module within ${ms} ms`);
            reject(
              new Error(
                `createAttentionPool: a worker did not report ready within ${ms} ms (initTimeout)`,
              ),
            );
          }, state.initTimeout);
        }
        worker.onMessage((message) => onMessage(state, slot, message, started));
        worker.onDeath((why) => {
          clearTimeout(started.timer);
          if (slot.dead) return;
          if (!slot.ready) {
            reject(
              new Error(
                `createAttentionPool: a worker failed to start: ${why}${state.url === undefined ? '; pass workerUrl to say where attention-worker.mjs is served' : ''}`,
              ),
            );
          }
          die(state, slot, why);
        });
        const files = wasmFilesForWorkers();
        worker.post({ type: 'init', options: state.moduleOptions, files });
      },
      (error) => {
        slot.dead = true;
        reject(error);
      },
    );
  });
}

// One message from a worker. Anything attention-worker.mjs would not send ends that worker.
function onMessage(state, slot, message, started) {
  if (slot.dead) return;
  const refuse = (why) => {
    clearTimeout(started.timer);
    if (!slot.ready) {
      started.reject(new Error(`createAttentionPool: a worker failed to start: ${why}`));
    }
    die(state, slot, why);
  };
  if (!isRecord(message)) {
    refuse(`it sent a message the pool does not understand (${describe(message)})`);
  } else if (message.type === 'ready') {
    clearTimeout(started.timer);
    slot.ready = true;
    slot.relaxedSimd = message.relaxedSimd === true;
    slot.worker.busy(false);
    started.resolve(slot);
    dispatch(state);
  } else if (message.type === 'load-error') {
    clearTimeout(started.timer);
    const why = String(message.message);
    die(state, slot, `its module did not load: ${why}`);
    started.reject(new Error(`createAttentionPool: a worker's module did not load: ${why}`));
  } else if (slot.task && message.id === slot.task.id) {
    const { task } = slot;
    if (message.ok === true && !task.expect(message.result)) {
      refuse(`it answered with ${describe(message.result)}, not ${task.expected}`);
      return;
    }
    slot.task = null;
    slot.worker.busy(false);
    if (message.ok === true) task.resolve(message.result);
    else task.reject(rebuildError(message.error));
    dispatch(state);
  }
}

// A worker is gone (or must go): fail its task, replace it unless the pool is closing.
function die(state, slot, why, replace = true) {
  if (slot.dead) return;
  slot.dead = true;
  slot.worker?.terminate();
  if (slot.task) {
    slot.task.reject(new Error(`attention pool: the worker running this call died (${why})`));
    slot.task = null;
  }
  if (state.closed || !replace || !slot.ready) return;
  start(state, slot.index).catch((error) => {
    // No replacement: with no worker left, nothing queued could ever run.
    if (state.slots.every((s) => s.dead)) {
      for (const task of state.queue.splice(0)) task.reject(error);
    }
  });
}

function dispatch(state) {
  for (const slot of state.slots) {
    if (state.queue.length === 0) return;
    if (!slot.ready || slot.dead || slot.task) continue;
    const task = state.queue.shift();
    task.id = state.nextId++;
    try {
      slot.worker.post({ id: task.id, method: task.method, args: task.args }, task.transfer);
    } catch (error) {
      // Nothing was sent (a buffer that cannot be moved, say): the call fails, the worker
      // stays free for the next.
      task.reject(error);
      continue;
    }
    slot.task = task;
    slot.worker.busy(true);
  }
}

// Queues a call's tasks; resolves with their results in order, rejects at the first failure
// (dropping its other queued tasks) or when `signal` aborts (terminating its running ones).
function run(state, where, tasks, signal) {
  if (state.closed) return Promise.reject(new Error(`${where}: the pool is closed`));
  if (state.slots.every((slot) => slot.dead)) {
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
      const { queue } = state;
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].call === call) queue.splice(i, 1);
      reject(error);
    };
    const onAbort = () => {
      fail(signal.reason);
      for (const slot of state.slots) {
        if (slot.task?.call === call) die(state, slot, 'the call was aborted');
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    tasks.forEach((task, i) => {
      state.queue.push({
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
    dispatch(state);
  });
}

/** The pool's options, read once and checked: { count, url, moduleOptions, initTimeout }. */
async function readPoolOptions(options) {
  if (!isOptionBag(options)) {
    throw new TypeError(`createAttentionPool: options must be an object, got ${describe(options)}`);
  }
  const o = readOwnOptions(options, POOL_KEYS, 'createAttentionPool', 'options');
  const count = checkIntegerIn(
    o.workers ?? (await defaultWorkers()),
    'createAttentionPool: workers',
    1,
    256,
  );
  const initTimeout = o.initTimeout ?? INIT_TIMEOUT_MS;
  if (typeof initTimeout !== 'number' || !(initTimeout > 0)) {
    throw new RangeError(
      `createAttentionPool: initTimeout must be a positive number of milliseconds, got ${describe(initTimeout)}`,
    );
  }
  if (initTimeout !== Infinity && initTimeout > MAX_TIMEOUT_MS) {
    throw new RangeError(
      `createAttentionPool: initTimeout must be at most 2^31 - 1 ms (about 24.8 days, the longest a timer waits), or Infinity for no timeout; got ${initTimeout}`,
    );
  }
  const url = o.workerUrl;
  if (url !== undefined && typeof url !== 'string' && !(url instanceof URL)) {
    throw new TypeError(
      `createAttentionPool: workerUrl must be a string or a URL, got ${describe(url)}`,
    );
  }
  const relaxedSimd = o.relaxedSimd;
  if (relaxedSimd !== undefined && typeof relaxedSimd !== 'boolean') {
    throw new TypeError(
      `createAttentionPool: relaxedSimd must be a boolean, got ${describe(relaxedSimd)}`,
    );
  }
  const moduleOptions = relaxedSimd === undefined ? {} : { relaxedSimd };
  return { count, url, moduleOptions, initTimeout };
}

/**
 * q, k, v of a checked call as arrays the pool owns, taken now: with `transfer`, each
 * buffer is moved (detaching the caller's) or, when it cannot be, its checked bytes copied;
 * without, the three are copied into one fresh buffer (one copy; cloning each makes two).
 * Returns { arrays: [q, k, v], buffers: the buffers to transfer to the worker }.
 */
function takeInputs(call, transfer) {
  const { lengths } = call;
  const inputs = [
    [call.q, lengths.q, 'q'],
    [call.k, lengths.k, 'k'],
    [call.v, lengths.v, 'v'],
  ];
  if (!transfer) {
    const packed = new Float32ArrayIntrinsic(lengths.q + lengths.k + lengths.v);
    let at = 0;
    const arrays = inputs.map(([measured, count, name]) => {
      packed.set(checkedFloats(measured, count, name), at);
      at += count;
      return packed.subarray(at - count, at);
    });
    return { arrays, buffers: [packed.buffer] };
  }
  // Every byte count asserted first: moving a buffer detaches each view of it.
  const checked = inputs.map(([measured, count, name]) => checkedFloats(measured, count, name));
  const moved = new Map(); // the caller's buffer -> ours, or null when it cannot be moved
  const arrays = inputs.map(([measured, count], i) => {
    const { buffer } = measured;
    if (!moved.has(buffer) && objectTag(buffer) === '[object ArrayBuffer]') {
      try {
        // Ours now; Node copies a WebAssembly.Memory's buffer here instead (the whole of it).
        moved.set(buffer, structuredClone(buffer, { transfer: [buffer] }));
      } catch {
        moved.set(buffer, null); // not detachable (Chromium, a WebAssembly.Memory's)
      }
    }
    const own = moved.get(buffer);
    if (own) return new Float32ArrayIntrinsic(own, measured.byteOffset, count);
    return new Float32ArrayIntrinsic(checked[i]); // copied now
  });
  return { arrays, buffers: [...new Set(arrays.map((a) => a.buffer))] };
}

/** A task's check of a worker's answer: a Float32Array of `length` numbers. */
function floatsOf(length) {
  return {
    expect: (result) => typedArrayType(result) === 'Float32Array' && result.length === length,
    expected: `a Float32Array of ${length} numbers`,
  };
}

/** A task's check of an onnxAttention answer: an object of { type, data, dims } tensors. */
const ONNX_RESULT = {
  expect: (result) =>
    isRecord(result) &&
    Object.values(result).every(
      (t) => isRecord(t) && typedArrayType(t.data) !== undefined && Array.isArray(t.dims),
    ),
  expected: 'an object of tensors { type, data, dims }',
};

/**
 * Starts `workers` workers, each with its own attention module, and resolves once all have
 * loaded it.
 * @param {{ workers?: number, relaxedSimd?: boolean, workerUrl?: string | URL,
 *   initTimeout?: number }} [options]
 */
export async function createAttentionPool(options = {}) {
  const { count, url, moduleOptions, initTimeout } = await readPoolOptions(options);
  const state = poolState(url, moduleOptions, initTimeout);
  try {
    await Promise.all(Array.from({ length: count }, (_, i) => start(state, i)));
  } catch (error) {
    state.closed = true;
    for (const slot of state.slots) die(state, slot, 'the pool failed to start');
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
    const options = {
      batch: call.batch,
      qNumHeads: call.qNumHeads,
      kvNumHeads: call.kvNumHeads,
      qSeqLen: call.qSeqLen,
      kvSeqLen: call.kvSeqLen,
      headSize: call.headSize,
      vHeadSize: call.vHeadSize,
      ...recordAsOptions(call.options),
    };
    const live = state.slots.filter((slot) => !slot.dead).length;
    if (state.arenas && !transfer && callWork(call) >= SPLIT_MIN_WORK) {
      // Shared memory: the checked bytes are copied into the pool's arena now (runShared
      // copies before it first waits), so later writes by the caller change nothing.
      const inputs = {
        ...checkedQkv(call),
        mask: call.mask ? measuredBytes(call.mask.data, call.mask.bytes, 'attnMask.data') : null,
      };
      // The caller's abort reaches this call's tasks only until the call settles: a task
      // still out after it (a worker that woke too late to find a slice) must not be stopped,
      // and its worker restarted, by an abort that comes later, meant for nothing here.
      const { signal: callSignal, release } = followUntilSettled(signal);
      const tasks = (list) => run(state, 'attention', list, callSignal);
      const y = runShared({
        call,
        options,
        inputs,
        workers: live,
        run: tasks,
        arenas: state.arenas,
      });
      y.then(release, release);
      return y;
    }
    if (call.mask) options.attnMask = { data: maskCopy(call.mask), shape: call.mask.dims };
    const slices = planSlices(call, live);
    if (slices[0].b === -1) {
      // Whole: everything taken now, before this function first waits (takeInputs).
      const { arrays, buffers } = takeInputs(call, transfer);
      if (options.attnMask) buffers.push(options.attnMask.data.buffer);
      const task = { method: 'attention', args: [...arrays, options], transfer: buffers };
      const [y] = await run(state, 'attention', [{ ...task, ...floatsOf(lengths.y) }], signal);
      return y;
    }
    // Sliced: each slice a fresh copy, made now.
    const { q: qs, k: ks, v: vs } = checkedQkv(call);
    const tasks = slices.map((slice) => {
      const sliced = sliceCall(qs, ks, vs, options, call, slice);
      const rows = slice.s1 - slice.s0;
      const length = (slice.h1 - slice.h0) * rows * call.vHeadSize;
      return { method: 'attention', ...sliced, ...floatsOf(length) };
    });
    const parts = await run(state, 'attention', tasks, signal);
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
    const task = { method: 'onnxAttention', args, transfer, ...ONNX_RESULT };
    const [result] = await run(state, 'onnxAttention', [task], signal);
    return result;
  }

  function close() {
    if (state.closed) return;
    state.closed = true;
    for (const task of state.queue.splice(0))
      task.reject(new Error('attention pool: closed before the call ran'));
    for (const slot of state.slots) die(state, slot, 'the pool was closed', false);
    state.arenas?.clear();
  }

  return Object.freeze({
    attention,
    onnxAttention,
    close,
    get workers() {
      return state.slots.filter((slot) => !slot.dead).length;
    },
    relaxedSimd: state.slots.every((slot) => slot.relaxedSimd),
  });
}
