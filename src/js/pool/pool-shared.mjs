// The pool's shared-memory path: where a SharedArrayBuffer can be posted to a worker (Node
// always; a browser page only when it is cross-origin isolated), a large call moves no data
// by message. The caller's q, k, v (and mask) are copied once into a shared "arena"; every
// worker reads its slices straight from it into its own wasm memory and writes its outputs
// straight into the arena's y, and the pool copies y out once. The arena is kept for the next
// call, so its pages are already mapped: fresh buffers per slice (the message path) cost more
// in page faults than in copying, the most at N = 256 where a call lasts a few milliseconds.
//
// Slices are shared out at run time: each worker takes the next slice number from a counter
// in the arena (Atomics.add) until none is left, so a worker on a slower or busier core simply
// runs fewer. A call is planned for SLICES_PER_WORKER slices per worker so there is something
// to share out.
//
// Arena layout (byte offsets, each region 16-byte aligned): [0, 16) the slice counter
// (Int32), then q, k, v, y as float32, then the mask's bytes when there is one.
import { isNode } from '../shared/workers.mjs';
import { placeSlice, planSlices, sliceViews } from './pool-split.mjs';

/** Slices per worker in a shared call: enough for a slower core to take fewer. */
export const SLICES_PER_WORKER = 4;
/** An arena larger than this is not kept between calls (the next call allocates afresh). */
export const MAX_KEPT_ARENA_BYTES = 64 * 1024 * 1024;
const CONTROL_BYTES = 16;
const ALIGN = 16;

/** True where workers can share memory with this thread (decided when a pool starts). */
export function sharedMemoryAvailable() {
  if (typeof globalThis.SharedArrayBuffer !== 'function') return false;
  return isNode || globalThis.crossOriginIsolated === true;
}

/** One kept arena per pool: take(bytes) a zeroed counter and room for `bytes`; give() back. */
export function createArenas() {
  let kept = null;
  return {
    take(bytes) {
      const buffer =
        kept !== null && kept.byteLength >= bytes ? kept : new SharedArrayBuffer(bytes);
      if (buffer === kept) kept = null;
      Atomics.store(new Int32Array(buffer, 0, 1), 0, 0);
      return buffer;
    },
    // Only an arena no worker can still write to (every task of its call answered).
    give(buffer) {
      if (buffer.byteLength > MAX_KEPT_ARENA_BYTES) return;
      if (kept === null || kept.byteLength < buffer.byteLength) kept = buffer;
    },
    clear() {
      kept = null;
    },
  };
}

// Byte offsets of q, k, v, y and the mask in an arena, and its size.
function layoutOf({ lengths, mask }) {
  let at = CONTROL_BYTES;
  const place = (bytes) => {
    const from = at;
    at += Math.ceil(bytes / ALIGN) * ALIGN;
    return from;
  };
  const layout = {
    q: place(lengths.q * 4),
    k: place(lengths.k * 4),
    v: place(lengths.v * 4),
    y: place(lengths.y * 4),
    mask: mask ? place(mask.bytes) : -1,
  };
  return { layout, bytes: at };
}

/**
 * Runs a validated call through the arena. `call` is readAttentionArgs' snapshot, `options`
 * the plain options for a worker (every dimension given; no attnMask), `inputs` { q, k, v,
 * mask } the checked views (mask: its checked bytes, or null), `workers` the live worker
 * count, `run(tasks)` the pool's queue (pool.mjs: resolves to the tasks' results),
 * `arenas` the pool's createArenas(). Resolves to y, a fresh Float32Array.
 */
export async function runShared({ call, options, inputs, workers, run, arenas }) {
  const slices = planSlices(call, workers > 1 ? workers * SLICES_PER_WORKER : 1);
  const { layout, bytes } = layoutOf(call);
  const buffer = arenas.take(bytes);
  const { lengths } = call;
  new Float32Array(buffer, layout.q, lengths.q).set(inputs.q);
  new Float32Array(buffer, layout.k, lengths.k).set(inputs.k);
  new Float32Array(buffer, layout.v, lengths.v).set(inputs.v);
  if (inputs.mask) new Uint8Array(buffer, layout.mask, call.mask.bytes).set(inputs.mask);
  const mask = call.mask
    ? { kind: call.mask.kind, bytes: call.mask.bytes, dims: call.mask.dims }
    : null;
  const arena = { buffer, layout, lengths, options, mask, slices };
  const task = {
    method: 'sharedAttention',
    args: [arena],
    transfer: [],
    expect: (done) => Number.isInteger(done) && done >= 0 && done <= slices.length,
    expected: `a count of at most ${slices.length} slices`,
  };
  // One task per worker, each queued on its own: the call is done once its slices are, and
  // a worker that wakes late (a busy core) finds none left and is not waited for. The arena
  // goes back to the pool only when every task has answered: no late worker can then write
  // to it, or take a slice of the next call that gets it.
  // At least one, even with no live worker: run() then rejects, saying why (pool closed...).
  const count = Math.max(1, Math.min(workers, slices.length));
  const tasks = Array.from({ length: count }, () => run([task]));
  try {
    await slicesDone(tasks, slices.length);
  } catch (error) {
    // Workers still running this call stop after their slice; the arena is never reused.
    Atomics.store(new Int32Array(buffer, 0, 1), 0, slices.length);
    throw error;
  }
  const y = new Float32Array(new Float32Array(buffer, layout.y, lengths.y));
  Promise.all(tasks).then(
    () => arenas.give(buffer),
    () => {}, // a task failed after the call was done: that arena is not kept
  );
  return y;
}

// Resolves once the tasks' answers (each [slices it ran]) add up to `total`; rejects at the
// first failure, or when every task has answered and they do not add up.
function slicesDone(tasks, total) {
  return new Promise((resolve, reject) => {
    let ran = 0;
    let answered = 0;
    for (const task of tasks) {
      task.then(([done]) => {
        ran += done;
        answered += 1;
        if (ran === total) resolve();
        else if (ran > total || answered === tasks.length) {
          reject(new Error(`attention pool: the workers ran ${ran} of the call's ${total} slices`));
        }
      }, reject);
    }
  });
}

/**
 * The worker's side: runs slices of the arena (runShared's) through `attention` (the worker
 * module's attn.attention) until the counter passes the last; returns how many it ran.
 */
export function runSharedSlices(attention, arena) {
  const { buffer, layout, lengths, slices } = arena;
  const shape = arena.options; // every dimension, given
  const floats = (name) => new Float32Array(buffer, layout[name], lengths[name]);
  const [q, k, v, y] = [floats('q'), floats('k'), floats('v'), floats('y')];
  const options = { ...arena.options };
  if (arena.mask) {
    const { kind, bytes, dims } = arena.mask;
    const data =
      kind === 'boolean'
        ? new Uint8Array(buffer, layout.mask, bytes)
        : new Float32Array(buffer, layout.mask, bytes / 4);
    options.attnMask = { data, shape: dims };
  }
  const counter = new Int32Array(buffer, 0, 1);
  let done = 0;
  for (let i = Atomics.add(counter, 0, 1); i < slices.length; i = Atomics.add(counter, 0, 1)) {
    const { args, out } = sliceViews(q, k, v, y, options, shape, slices[i]);
    if (out) attention(args[0], args[1], args[2], { ...args[3], out });
    else placeSlice(y, attention(...args), shape, slices[i]);
    done++;
  }
  return done;
}
