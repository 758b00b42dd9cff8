// The training benchmark's workload, one definition for Node (bench/train-node.mjs) and for
// Chromium (bench/browser/train.mjs, ours in bench/browser/train-worker.mjs): the two models,
// their batches, the FLOPs a step counts, and the round loop that times ours, tfjs and the
// SIMD128 peak probe in the same interleaved rounds. Two models:
//   induction  INDUCTION_MODEL with INDUCTION_BATCH rows (vocab 16, T 25, dModel 32, 2 layers,
//              4 heads, attention-only, batch 32), on the induction task (the tests' and the
//              page's model and workload)
//   larger     vocab 64, T 128, dModel 128, 4 layers, 4 heads, MLP 512, batch 16, on seeded
//              random tokens (every next token counted)
// Both learn with AdamW / Adam at INDUCTION_MODEL's learning rate and learned positions.
// FLOPs per step count the matrix products only (forward, and the backward's two products per
// forward one), each multiply and each add: per layer 4 projections 2·N·D·D, attention's
// q·kᵀ and p·v 2·B·H·T·T·d each (dense, as if nothing were masked), the MLP 2·2·N·D·M, and the
// unembedding 2·N·D·V; times 3 for forward + backward. tfjs's one-hot embedding product is not
// counted (it is its workaround, not the model's work).
import {
  createInductionTask,
  INDUCTION_BATCH,
  INDUCTION_MODEL,
} from '../../src/js/tasks/induction-task.mjs';
import { seededRandom } from '../../tests/js/seeded-random.mjs';
import { median } from './harness.mjs';

/** The two models with their rounds and steps per sample (each sample about 0.1-1 s). */
export function trainModels({ quick }) {
  return [
    {
      name: 'induction',
      config: INDUCTION_MODEL,
      batch: INDUCTION_BATCH,
      rounds: quick ? 5 : 15,
      steps: { ours: 50, tfjs: 3 },
    },
    {
      name: 'larger',
      // The same learning rate and positions as the induction model.
      config: {
        ...INDUCTION_MODEL,
        vocabSize: 64,
        context: 128,
        dModel: 128,
        layers: 4,
        heads: 4,
        mlpSize: 512,
      },
      batch: 16,
      rounds: quick ? 3 : 7,
      steps: { ours: 3, tfjs: 1 },
    },
  ];
}

/** createTinyTransformer's (and createTfjsTransformer's) config for a model. */
export const trainConfig = (model) => ({ ...model.config, seed: 1 });

/** Matrix-product FLOPs of one training step (forward + backward), as the header says. */
export function trainFlops({ vocabSize: V, dModel: D, layers, heads: H, mlpSize: M }, B, T) {
  const N = B * T;
  const d = D / H;
  const perLayer = 4 * 2 * N * D * D + 2 * 2 * B * H * T * T * d + 2 * 2 * N * D * M;
  return 3 * (layers * perLayer + 2 * N * D * V);
}

/**
 * The batches of a model, the same sequence for every call of batchesFor (so each contender,
 * with its own generator, trains on the same batches): the induction task, or seeded random
 * tokens with next-token targets.
 */
export function batchesFor(model) {
  const { config, batch } = model;
  if (model.name === 'induction') {
    const task = createInductionTask(1);
    return () => {
      const { tokens, targets } = task.batch(batch); // trainStep takes these three fields only
      return { tokens, targets, batch };
    };
  }
  const next = seededRandom(11);
  const T = config.context;
  return () => {
    const tokens = Int32Array.from({ length: batch * T }, () =>
      Math.floor(next() * config.vocabSize),
    );
    const targets = new Int32Array(batch * T);
    for (let i = 0; i < batch * T; i++) targets[i] = (i + 1) % T === 0 ? -1 : tokens[i + 1];
    return { tokens, targets, batch };
  };
}

/** ms per step of `steps` calls of trainStep on the next batches (batch making not timed). */
export function timeSteps(trainer, nextBatch, steps) {
  const batches = Array.from({ length: steps }, nextBatch);
  const start = performance.now();
  for (const b of batches) trainer.trainStep(b);
  return (performance.now() - start) / steps;
}

/** GFLOP/s of the best peak probe over a ~10 ms sample each. */
export function samplePeak(probes) {
  let best = 0;
  for (const probe of probes) {
    const iters = 200_000;
    const start = performance.now();
    probe.run(iters);
    const seconds = (performance.now() - start) / 1000;
    best = Math.max(best, (probe.flopsPerIter * iters) / seconds / 1e9);
  }
  return best;
}

/**
 * One model's row: warms up every contender, then times them in `model.rounds` interleaved
 * rounds (a rotating order: a slow spell of the shared machine falls on each in turn) with a
 * peak sample in each. contenders: { name: steps => ms per step (a number or a promise) }.
 */
export async function trainRow(model, contenders, probes) {
  const T = model.config.context;
  const flops = trainFlops(model.config, model.batch, T);
  // Warm-up: V8 tiers the wasm up between calls, tfjs allocates its kernels' buffers.
  for (const [name, time] of Object.entries(contenders)) {
    await time(Math.max(2, model.steps[name]));
  }
  const samples = { peak: [] };
  for (const name of Object.keys(contenders)) samples[name] = [];
  for (let round = 0; round < model.rounds; round++) {
    const order = Object.keys(contenders);
    if (round % 2) order.reverse();
    for (const name of order) samples[name].push(await contenders[name](model.steps[name]));
    samples.peak.push(samplePeak(probes));
  }
  const row = { model: model.name, config: trainConfig(model), batch: model.batch, T, flops };
  row.peak = median(samples.peak);
  for (const name of Object.keys(contenders)) {
    const ms = median(samples[name]);
    const gflops = flops / ms / 1e6;
    row[name] = { ms, gflops, share: gflops / row.peak };
  }
  if (row.ours && row.tfjs) row.ratio = row.tfjs.ms / row.ours.ms;
  return row;
}
