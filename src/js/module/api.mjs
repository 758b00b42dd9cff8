// The friendly JS API over the Embind bindings: validates every argument (TypeError /
// RangeError naming it), copies inputs into wasm memory once, calls the core, copies results
// out into fresh typed arrays the caller owns, and always frees what it allocated.
// Every entry point reads its arguments exactly once, in the four phases of read-once.mjs:
// read, measure, validate, copy. Used by attention.mjs (the package entry) and by the offline
// page (single-file build).
//
// Each entry point lives in a file of its own, as a factory taking the one context of
// wasm-context.mjs; installing one is one line in wrapModule's result.
import { createAttentionBackward } from '../attention/attention-backward.mjs';
import { createAttentionRun } from '../attention/attention-run.mjs';
import { createKvCacheFactory } from '../attention/kv-cache.mjs';
import { createOnnxAttention } from '../onnx/onnx-attention.mjs';
import { createRotaryEmbedding } from '../onnx/onnx-rotary.mjs';
import { createTinyTransformerFactory } from '../training/tiny-transformer.mjs';
import { createTrace } from '../attention/trace.mjs';
import { ownOr } from '../shared/read-once.mjs';
import { createWasmContext } from './wasm-context.mjs';
import { warmUp } from './warm-up.mjs';
import { keepFreedResultsWarm } from './warm-results.mjs';

/** The package version; tests check it against package.json. */
export const VERSION = '0.1.0';

/**
 * Wraps an instantiated Emscripten module (from attention-glue.mjs or the single-file build)
 * in the public API described in attention.d.ts. `warmUp` false skips the warm-up call
 * (warm-up.mjs): for an app whose calls are all small, like the explainer's page, where it
 * only delays the start (about 15 ms of a page's load in Chromium). `threads` above 1 starts
 * the wasm threads build's team.
 */
export function wrapModule(Module, wrap = {}) {
  // Own properties only: a polluted Object.prototype.threads must not start threads.
  const warm = ownOr(wrap, 'warmUp', undefined) ?? true;
  const threads = ownOr(wrap, 'threads', undefined) ?? 1;
  if (threads !== 1) startThreads(Module, threads);
  Module.markLoaded(); // every Embind registration has run: what is allocated now stays
  // { Module, memoryLimit, withAllocations, copyOut, coreCall, checkFits }
  const context = createWasmContext(Module);
  const simdArch = Module.simdArch();
  const methods = {
    trace: createTrace(context),
    attention: createAttentionRun(context),
    attentionBackward: createAttentionBackward(context),
    onnxAttention: createOnnxAttention(context),
    ...createRotaryEmbedding(context),
    createKvCache: createKvCacheFactory(context),
    createTinyTransformer: createTinyTransformerFactory(context),
    memoryStats: () => ({
      wasmMemoryBytes: Module.HEAPU8.length,
      allocatedBytes: Module.heapBytesInUse(),
    }),
  };
  const lifetime = moduleLifetime(Module, threads, methods);
  const api = Object.freeze({
    ...lifetime.methods,
    simd: simdArch === 'wasm',
    // Asked of the module itself, so it is right for a caller's own wasmBinary / wasmUrl too.
    relaxedSimd: Module.relaxedSimd(),
    // The threads attention() computes on: the caller's and the wasm threads build's helpers.
    threads,
    version: VERSION,
    close: lifetime.close,
    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]: lifetime.close,
    get closed() {
      return lifetime.closed();
    },
  });
  if (threads !== 1) lifetime.releaseWhenUnreachable(api);
  if (warm) warmUp(api.attention);
  return api;
}

/**
 * Starts the wasm threads build's team: `threads` - 1 helpers that share every attention()
 * call with the caller. Their Workers were made as the module loaded (attentionHelpers).
 */
function startThreads(Module, threads) {
  const message = Module._attention_call_set_threads(threads);
  if (message !== 0) {
    throw new Error(
      `createAttention: could not start ${threads} threads: ${Module.UTF8ToString(message)}`,
    );
  }
  // Node's glue only: the helpers' Workers must not keep the process alive.
  Module.unrefHelperWorkers?.();
}

/**
 * Ends a threads build's team: the helpers stop and are joined (set_threads(1): a cache or a
 * model made from the module runs on the calling thread from then on), then their Workers are
 * terminated.
 */
function endThreads(Module) {
  Module._attention_call_set_threads(1);
  Module.PThread.terminateAllThreads();
}

const { apply } = Reflect;

// A threads build whose API became unreachable without close(): its helpers end (their
// Workers would otherwise hold the module, and their threads, for ever).
const unreachable =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(endThreads) : null;

/**
 * close() and what it ends: `methods` forwarded while open, each refusing once closed; close()
 * ends the threads build's helpers and drops every reference the API holds to the module, so
 * that its memory is freed once nothing made from it (a KV cache, a model) is left.
 */
function moduleLifetime(Module, threads, methods) {
  let live = methods; // null once closed
  let module = Module;
  const token = {};
  const forwarded = {};
  for (const name of Object.keys(methods)) {
    forwarded[name] = (...args) => {
      if (live === null) {
        throw new Error(
          `${name}: this module was closed (close()); create another with createAttention()`,
        );
      }
      // Reflect.apply, not a spread: a replaced Array iterator must not lose the arguments.
      return apply(live[name], undefined, args);
    };
  }
  return {
    methods: forwarded,
    close() {
      if (live === null) return;
      live = null;
      if (threads !== 1) {
        unreachable?.unregister(token);
        endThreads(module);
      }
      module = null;
    },
    closed: () => live === null,
    releaseWhenUnreachable: (api) => unreachable?.register(api, module, token),
  };
}

/**
 * The glue's failure without its own wrapping: it reports a module that would not compile as
 * "Aborted(CompileError: …). Build with -s ASSERTIONS=1 for more info.", advice for whoever
 * builds the glue, not for the caller.
 */
const gluesReason = (message) =>
  message.replace(/^Aborted\(([\s\S]*)\)(\. Build with -s ASSERTIONS=1 for more info\.)?$/, '$1');

/**
 * Instantiates an Emscripten factory with `moduleOptions` and wraps the result (`wrap`:
 * wrapModule's options).
 */
export async function createAttentionWith(factory, moduleOptions = {}, wrap = {}) {
  let Module;
  try {
    Module = await factory(moduleOptions);
  } catch (error) {
    const reason = gluesReason(error && error.message ? error.message : String(error));
    throw new Error(`createAttention: could not load the WebAssembly module: ${reason}`, {
      cause: error,
    });
  }
  keepFreedResultsWarm();
  return wrapModule(Module, wrap);
}
