// Ours in the training benchmark's Chromium half: a module Worker, as the page trains
// (chapter 3's trainer runs its model in one too), holding one tiny transformer of the SIMD128
// build at a time. bench/browser/train.mjs drives it; every message { id, type, ... } is
// answered { id, ok, result | error }:
//   { type: 'create', model, threads }   a fresh model of the benchmark's model
//                               (train-bench.mjs) on the one-thread build (threads 1) or the
//                               wasm threads build with `threads` threads (an isolated page)
//   { type: 'time', steps }     ms per step of `steps` trainStep calls on its next batches
//   { type: 'free' }            the model freed
// scripts/bench bundles it into build/bench/train-worker.js (the batches' code).
import { batchesFor, timeSteps, trainConfig } from '../common/train-bench.mjs';

// Our module exactly as shipped (a variable: esbuild leaves the import to the browser), one
// instance per thread count asked for.
const oursUrl = '/dist/attention.mjs';
const modules = new Map();
const attnFor = (threads = 1) => {
  if (!modules.has(threads)) {
    modules.set(
      threads,
      import(oursUrl).then((m) => m.default({ relaxedSimd: false, threads })),
    );
  }
  return modules.get(threads);
};
let current = null; // { model, nextBatch }

const handlers = {
  async create({ model, threads }) {
    const attn = await attnFor(threads);
    current?.model.free();
    current = {
      model: attn.createTinyTransformer(trainConfig(model)),
      nextBatch: batchesFor(model),
    };
    return { simd: attn.simd };
  },
  time: ({ steps }) => timeSteps(current.model, current.nextBatch, steps),
  free() {
    current?.model.free();
    current = null;
  },
};

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, ok: true, result: await handlers[data.type](data) });
  } catch (error) {
    self.postMessage({ id: data.id, ok: false, error: String(error?.stack ?? error) });
  }
};
