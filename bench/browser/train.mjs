// The training benchmark in Chromium: ours in a Worker (bench/browser/train-worker.mjs), as
// the page trains, against the same model in tfjs-backend-wasm in the page, the same batches
// and rounds as in Node (bench/common/train-bench.mjs), with the SIMD128 peak probe in the
// page in the same rounds. While the worker trains, the page only waits for its answer.
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
 * Every model's row, as bench/train-node.mjs writes them. tf: tfjs with gradients registered
 * and its wasm backend set; probes: peakProbes() of the page's simd_peak.wasm.
 */
export async function runTrainBench({ tf, probes, quick, log, workerUrl }) {
  const worker = openWorker(workerUrl);
  const results = [];
  try {
    for (const model of trainModels({ quick })) {
      const theirs = createTfjsTransformer(tf, trainConfig(model));
      await worker.ask('create', { model });
      const nextBatch = batchesFor(model);
      const row = await trainRow(
        model,
        {
          ours: (steps) => worker.ask('time', { steps }),
          tfjs: (steps) => timeSteps(theirs, nextBatch, steps),
        },
        probes,
      );
      await worker.ask('free');
      theirs.dispose();
      log(
        `${model.name}: ours ${row.ours.ms.toFixed(2)}, tfjs ${row.tfjs.ms.toFixed(2)} ms/step; peak ${row.peak.toFixed(1)} GFLOP/s`,
      );
      results.push(row);
    }
  } finally {
    worker.close();
  }
  return { quick, results };
}
