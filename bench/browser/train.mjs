// The training benchmark in Chromium: ours in a Worker (bench/browser/train-worker.mjs), as
// the page trains, against the same model in tfjs-backend-wasm in the page, the same batches
// and rounds as in Node (bench/common/train-bench.mjs), with the SIMD128 peak probe in the
// page in the same rounds. While the worker trains, the page only waits for its answer. Ours
// is timed on the page's own thread too (oursPage), in the same rounds: what the Worker costs.
import { createTfjsTransformer } from '../common/train-tfjs.mjs';
import {
  batchesFor,
  timeSteps,
  trainConfig,
  trainModels,
  trainRow,
} from '../common/train-bench.mjs';

/** The worker as a function: ask(type, fields) resolves to its answer's result. */
function openWorker(url) {
  const worker = new Worker(url, { type: 'module' });
  const pending = new Map();
  let nextId = 0;
  worker.onmessage = ({ data }) => {
    const { resolve, reject } = pending.get(data.id);
    pending.delete(data.id);
    if (data.ok) resolve(data.result);
    else reject(new Error(`train worker: ${data.error}`));
  };
  worker.onerror = (event) => {
    for (const { reject } of pending.values()) reject(new Error(`train worker: ${event.message}`));
    pending.clear();
  };
  const ask = (type, fields = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, type, ...fields });
    });
  return { ask, close: () => worker.terminate() };
}

/**
 * Every model's row, as bench/train-node.mjs writes them, with oursPage. tf: tfjs with
 * gradients registered and its wasm backend set; attn: our module in the page, or null for no
 * oursPage; probes: peakProbes() of the page's simd_peak.wasm; threads: the Worker's module,
 * the one-thread build (1) or the wasm threads build with that many threads.
 */
export async function runTrainBench({ tf, attn, probes, quick, log, workerUrl, threads = 1 }) {
  const worker = openWorker(workerUrl);
  const results = [];
  try {
    for (const model of trainModels({ quick })) {
      const theirs = createTfjsTransformer(tf, trainConfig(model));
      const inPage = attn?.createTinyTransformer(trainConfig(model));
      await worker.ask('create', { model, threads });
      const [theirBatches, pageBatches] = [batchesFor(model), batchesFor(model)];
      const contenders = {
        ours: (steps) => worker.ask('time', { steps }),
        tfjs: (steps) => timeSteps(theirs, theirBatches, steps),
      };
      if (inPage) contenders.oursPage = (steps) => timeSteps(inPage, pageBatches, steps);
      const row = await trainRow(
        { ...model, steps: { ...model.steps, oursPage: model.steps.ours } },
        contenders,
        probes,
      );
      await worker.ask('free');
      inPage?.free();
      theirs.dispose();
      const page = row.oursPage ? ` (in the page ${row.oursPage.ms.toFixed(2)})` : '';
      log(
        `${model.name}, ${threads} thread(s): ours ${row.ours.ms.toFixed(2)}${page}, tfjs ${row.tfjs.ms.toFixed(2)} ms/step; peak ${row.peak.toFixed(1)} GFLOP/s`,
      );
      results.push(row);
    }
  } finally {
    worker.close();
  }
  return { quick, results };
}
