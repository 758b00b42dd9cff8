// The pool's worker (built into dist/attention-worker.mjs, next to attention.mjs, which it
// imports at run time): one instance of the attention module per Web Worker or Node
// worker_thread, answering the calls pool.mjs sends it.
//
// Messages in:  { type: 'init', options }            create the module (createAttention options)
//               { id, method, args }                 call attn[method](...args), or with
//                                                    method 'sharedAttention' run slices of
//                                                    a shared arena (pool-shared.mjs)
// Messages out: { type: 'ready', relaxedSimd }  or  { type: 'load-error', message }
//               { id, ok: true, result }             result's buffers transferred, not copied
//               { id, ok: false, error: { name, message } }
import createAttention from './attention.mjs';
import { runSharedSlices } from './pool-shared.mjs';
import { buffersOf, errorMessage, listenInWorker } from './workers.mjs';

let attn = null;

// V8 first runs a fresh instance's wasm in its baseline tier, and moves a hot function to the
// optimising tier only between calls, once it has run enough: a pool's first large call would
// run unoptimised from start to end, several times slower. Small calls at start-up get
// the kernel there first (8 were enough in Node 20; twice that for margin).
const WARM_UP_CALLS = 16;
function warmUp(instance) {
  const q = new Float32Array(256 * 64).fill(0.5); // 256 rows of 64
  for (let i = 0; i < WARM_UP_CALLS; i++) {
    instance.attention(q, q, q, { qNumHeads: 1, headSize: 64 });
  }
}

async function handle(message, post) {
  if (message.type === 'init') {
    try {
      attn = await createAttention(message.options);
      warmUp(attn);
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
        ? attn && ((arena) => runSharedSlices((...call) => attn.attention(...call), arena))
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

await listenInWorker(handle);
