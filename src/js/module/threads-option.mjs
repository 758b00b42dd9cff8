// The `threads` option of createAttention and createTrainer, read one way for both: a count
// from 1 to MAX_THREADS, or 'auto' (the machine's cores up to AUTO_MAX_THREADS where wasm
// threads can run, else 1). A file of its own, importing no glue: the trainer (and so the
// offline page's bundle) reads the option without loading the threads build.
import { describe } from '../shared/checks.mjs';
import { importNodeBuiltin, isNode } from '../shared/workers.mjs';

// The most threads createAttention({ threads }) starts; the core refuses more than this too
// (attention_call::set_threads). Checked before the build and its Workers load.
export const MAX_THREADS = 64;
// threads: 'auto' takes the machine's cores up to this: past it a call's fixed cost (waking
// every helper) outweighs what more threads share.
const AUTO_MAX_THREADS = 8;

/** True where the threads build can run: Node, or a cross-origin isolated page or Worker. */
export const threadsAvailable = () => isNode || globalThis.crossOriginIsolated === true;

/** The RangeError of threads asked for where memory cannot be shared. */
export function notIsolatedError(where = 'createAttention') {
  return new RangeError(
    `${where}: options.threads above 1 needs wasm threads, which a page and its Workers have only when cross-origin isolated (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp); this one is not. Pass threads: 'auto' to use them where they are, one thread elsewhere`,
  );
}

async function machineThreads() {
  if (isNode) {
    const os = await importNodeBuiltin('os');
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency || 2;
}

/** options.threads of `where` (a function's name), checked: a count, or 'auto' resolved to one. */
export async function readThreads(value, where) {
  if (value === undefined) return 1;
  if (value === 'auto') {
    if (!threadsAvailable()) return 1;
    return Math.max(1, Math.min(AUTO_MAX_THREADS, await machineThreads()));
  }
  if (typeof value !== 'number') {
    throw new TypeError(
      `${where}: options.threads must be an integer from 1 to ${MAX_THREADS} or 'auto', got ${describe(value)}`,
    );
  }
  if (!Number.isInteger(value) || value < 1 || value > MAX_THREADS) {
    throw new RangeError(
      `${where}: options.threads must be an integer from 1 to ${MAX_THREADS} or 'auto', got ${value}`,
    );
  }
  if (value > 1 && !threadsAvailable()) throw notIsolatedError(where);
  return value;
}
