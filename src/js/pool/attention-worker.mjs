// The pool's worker (built into dist/attention-worker.mjs, a script that imports nothing: the
// one-thread module is bundled in, so that the script works wherever it is copied or bundled):
// one instance of the attention module per Web Worker or Node worker_thread, answering the
// calls pool.mjs sends it. pool.mjs starts it by a literal new Worker(new URL(…)), which
// app bundlers bundle as a worker; no top-level await (Vite's default worker build refuses it).
//
// Messages in:  { type: 'init', options, files }     create the module (createAttention's
//                                                    options; files: the host's .wasm URLs)
//               { id, method, args }                 call attn[method](...args), or with
//                                                    method 'sharedAttention' run slices of
//                                                    a shared arena (pool-shared.mjs)
// Messages out: { type: 'ready', relaxedSimd }  or  { type: 'load-error', message }
//               { id, ok: true, result }             result's buffers transferred, not copied
//               { id, ok: false, error: { name, message } }
import { loadOneThread } from '../module/load-module.mjs';
import { wasmFiles } from '../module/package-files.mjs';
import { runSharedSlices } from './pool-shared.mjs';
import { warmUp } from '../module/warm-up.mjs';
import { buffersOf, errorMessage, listenInWorker } from '../shared/workers.mjs';

let attn = null;

// createAttention's one warm-up call (warm-up.mjs) starts V8's optimising compile of the
// kernel, but a pool's first call follows "ready" at once, before that compile is done: its
// first N = 1024, 8-head call ran 25-35% slower than the next (Node 20, one core) with that
// call alone, 7-20% with these further calls, which give the compile time to finish.
const WARM_UP_CALLS = 16;

async function handle(message, post) {
  if (message.type === 'init') {
    try {
      attn = await loadOneThread(message.options ?? {}, message.files ?? wasmFiles());
      warmUp(attn.attention, WARM_UP_CALLS);
      post({ type: 'ready', relaxedSimd: attn.relaxedSimd });
    } catch (error) {
      post({ type: 'load-error', message: String(error?.message ?? error) });
    }
    return;
  }
  const { id, method, args } = message;
  try {
    const run =
      method === 'sharedAttention'
        ? attn && ((arena) => runSharedSlices(attn.attention, arena))
        : attn?.[method]?.bind(attn);
    if (typeof run !== 'function') {
      throw new TypeError(`${method} is not provided by this build of the attention module`);
    }
    const result = run(...args);
    post({ id, ok: true, result }, [...buffersOf(result)]);
  } catch (error) {
    post({ id, ok: false, error: errorMessage(error) });
  }
}

listenInWorker(handle);
