// The text benchmark's workload, the same in Node (bench/text-node.mjs) and in Chromium
// (bench/browser/text.mjs); bench/report/text.mjs makes its section. What TEXT_MODEL learns on
// real text, read as TEXT_TASK says, in a fixed budget of one core's time, against the snapshot
// the page opens with, and how fast its step is against the same model in tfjs-wasm:
//   curve      a fresh model per text, trained for `seconds` (Node: CPU time in this thread;
//              Chromium: wall time, through createTrainer in its Worker as the page trains),
//              with the held-out loss (nats per character; bits = nats / ln 2) at evenly
//              spaced checks, and for the poems the share of generated lines with five or
//              seven characters: each check is checkPoint() below
//   snapshot   web/snapshots/<text>.{json,f16}, loaded and measured the same way
//   steps      ms per trainStep of ours and of tfjs-backend-wasm on the same model and batches
//              (the text task's windows), in interleaved rounds. tfjs has learned positions
//              only (bench/common/train-tfjs.mjs), so both run TEXT_MODEL with learned
//              positions here; ours with RoPE (TEXT_MODEL as it is) is timed in the same rounds.
// Nothing here reads a file or imports the module: `lib` is the module's namespace (dist/
// attention.mjs as imported), `attn` an instance of it, texts and snapshots are passed in.
import { heldOutPrompt, scoreTextModel } from '../../examples/node/text-scores.mjs';
import { median } from './harness.mjs';
import { createTfjsTransformer } from './train-tfjs.mjs';

/** The texts: their file in dist/texts/ (scripts/build), their snapshot's name, whether verse. */
export const TEXT_BENCH_TEXTS = [
  { name: 'poems', file: 'tang300.txt', verse: true },
  { name: 'english', file: 'kjv-genesis-deuteronomy.txt', verse: false },
];
/** Characters generated for a 5/7 share (about 270 lines of verse), with TEXT_SAMPLING. */
export const SAMPLE_CHARACTERS = 2000;
/** Characters of each check's sample kept in the JSON (a look at what the model writes). */
export const SAMPLE_KEPT = 160;

/** A minute of training, checked every 10 s; --quick: 20 s, checked every 5 s. */
export const textBudget = (quick) =>
  quick ? { seconds: 20, checks: 4 } : { seconds: 60, checks: 6 };
/** The step timing's interleaved rounds, and steps per round. */
export const textRounds = (quick) => (quick ? { rounds: 3, steps: 5 } : { rounds: 7, steps: 10 });

/** The model's seed, the batches' and the text task's. */
const SEED = 1;

/** A text's task as the curve's trainer reads it (TEXT_TASK, TEXT_MODEL's context, SEED). */
export const textTaskOf = (lib, text) =>
  lib.createTextTask(text, { ...lib.TEXT_TASK, context: lib.TEXT_MODEL.context, seed: SEED });

/**
 * One check of a curve: `model` (the model being trained, or a copy of its parameters) after
 * `seconds` of training and `step` steps, scored on `task`; the check's number seeds its sample.
 * { seconds, step, loss, accuracy, verse, sample }.
 */
export function checkPoint(lib, model, task, { text, verse, seconds, step, check }) {
  const scored = scoreTextModel(model, task, {
    prompt: heldOutPrompt(text, task.trainLength),
    verse,
    length: SAMPLE_CHARACTERS,
    sampling: { ...lib.TEXT_SAMPLING, seed: SEED + check },
  });
  return { seconds, step, ...scored, sample: scored.sample.slice(0, SAMPLE_KEPT) };
}

/**
 * A text's committed snapshot (its manifest and float16 bytes), measured as the curve's points
 * are: { steps, bytes, loss, accuracy, verse } (verse: the 5/7 lines of SAMPLE_CHARACTERS
 * generated with TEXT_SAMPLING after the held-out tenth's first line, seed 1).
 */
export function snapshotPoint(lib, attn, { text, verse, manifest, bytes }) {
  const task = lib.createTextTask(text, { ...manifest.task, context: manifest.config.context });
  const model = attn.createTinyTransformer(manifest.config);
  try {
    model.loadParameters(lib.decodeSnapshot(manifest, bytes));
    const {
      loss,
      accuracy,
      verse: lines,
    } = scoreTextModel(model, task, {
      prompt: heldOutPrompt(text, task.trainLength),
      verse,
      length: SAMPLE_CHARACTERS,
      sampling: { ...lib.TEXT_SAMPLING, seed: 1 },
    });
    return { steps: manifest.steps, bytes: bytes.length, loss, accuracy, verse: lines };
  } finally {
    model.free();
  }
}

/**
 * ms per trainStep on one text's windows, median of `rounds` interleaved rounds of `steps`
 * steps each: { ours (learned positions), tfjs (learned), oursRope (TEXT_MODEL) }, and the
 * config. All in this thread: `attn` our module's instance, `tf` tfjs with gradients
 * registered and its wasm backend set (one thread).
 */
export async function stepTimes({ lib, attn, tf }, text, { rounds, steps }) {
  const { TEXT_BATCH, TEXT_MODEL } = lib;
  const makers = {
    ours: (config) => attn.createTinyTransformer(config),
    oursRope: (config) => attn.createTinyTransformer(config),
    tfjs: (config) => {
      const model = createTfjsTransformer(tf, config);
      return { trainStep: (batch) => model.trainStep(batch), free: () => model.dispose() };
    },
  };
  const task = textTaskOf(lib, text);
  const base = { ...TEXT_MODEL, vocabSize: task.vocabSize, seed: SEED };
  const configs = {
    ours: { ...base, positions: 'learned' },
    tfjs: { ...base, positions: 'learned' },
    oursRope: base,
  };
  const models = Object.fromEntries(
    Object.entries(makers).map(([name, make]) => [name, make(configs[name])]),
  );
  // The same batches for every contender (batch making is not timed).
  const batches = Array.from({ length: steps }, () => {
    const { tokens, targets } = task.batch(TEXT_BATCH);
    return { tokens, targets, batch: TEXT_BATCH };
  });
  const time = async (model) => {
    const start = performance.now();
    for (const b of batches) await model.trainStep(b);
    return (performance.now() - start) / steps;
  };
  const samples = Object.fromEntries(Object.keys(models).map((name) => [name, []]));
  try {
    for (const model of Object.values(models)) await time(model); // warm-up
    for (let round = 0; round < rounds; round++) {
      const order = Object.keys(models);
      if (round % 2) order.reverse();
      for (const name of order) samples[name].push(await time(models[name]));
    }
  } finally {
    for (const model of Object.values(models)) model.free();
  }
  const ms = Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, median(s)]));
  return { config: configs.ours, batch: TEXT_BATCH, ms };
}
