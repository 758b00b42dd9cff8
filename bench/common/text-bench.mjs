// The text benchmark's workload (bench/text-node.mjs runs it; bench/report/text.mjs makes its
// section): what TEXT_MODEL learns on real text, read as TEXT_TASK says, in a fixed budget of
// one core's time, against the snapshot the page opens with, and how fast its step is against
// the same model in tfjs-wasm.
//   curve      a fresh model per text, trained for `seconds` of the clock (CPU time in Node:
//              process.cpuUsage around each trainStep, what one quiet core would spend), with
//              the held-out loss (nats per character; bits = nats / ln 2) at evenly spaced
//              checks, and for the poems the share of generated lines with five or seven
//              characters (examples/node/text-minute.mjs's trainForAMinute does the training)
//   snapshot   web/snapshots/<text>.{json,f16}, loaded and measured the same way
//   steps      ms per trainStep of ours and of tfjs-backend-wasm on the same model and batches
//              (the text task's windows), in interleaved rounds. tfjs has learned positions
//              only (bench/common/train-tfjs.mjs), so both run TEXT_MODEL with learned
//              positions here; ours with RoPE (TEXT_MODEL as it is) is timed in the same rounds.
import { readFileSync } from 'node:fs';

import {
  TEXT_BATCH,
  TEXT_MODEL,
  TEXT_SAMPLING,
  TEXT_TASK,
  createTextTask,
} from '../../dist/attention.mjs';
import { decodeSnapshot } from '../../src/js/tasks/text-snapshot.mjs';
import { TEXTS, heldOutLoss, trainForAMinute } from '../../examples/node/text-minute.mjs';
import { sampleText, verseLineShare } from '../../examples/node/train-text.mjs';
import { median } from './harness.mjs';

/** The texts: the file scripts/build writes, its snapshot's name, whether it is verse. */
export const TEXT_BENCH_TEXTS = [
  { name: 'poems', file: TEXTS.poems, verse: true },
  { name: 'english', file: TEXTS.english, verse: false },
];
/** Characters generated for a 5/7 share (about 270 lines of verse), with TEXT_SAMPLING. */
export const SAMPLE_CHARACTERS = 2000;

const readText = (file) => readFileSync(file, 'utf8');

/**
 * One text's loss against time: { steps, msPerStep, wallMsPerStep, points: [{ seconds, step,
 * loss, accuracy, verse }] } after `seconds` of `clock` time measured at `checks` times.
 */
export function textCurve(attn, { file, verse }, { seconds, checks, clock = 'cpu' }) {
  const run = trainForAMinute({
    attn,
    text: readText(file),
    seconds,
    checks,
    clock,
    verse,
    sampleLength: SAMPLE_CHARACTERS,
    print: () => {},
  });
  const points = run.checks.map(({ seconds: s, step, loss, accuracy, verse: lines }) => ({
    seconds: s,
    step,
    loss,
    accuracy,
    verse: lines,
  }));
  return { steps: run.steps, msPerStep: run.msPerStep, wallMsPerStep: run.wallMsPerStep, points };
}

/**
 * The committed snapshot of a text, measured as the curve's points are: { steps, bytes, loss,
 * accuracy, verse } (verse: the 5/7 lines of SAMPLE_CHARACTERS generated with TEXT_SAMPLING
 * after the held-out tenth's first line, seed 1).
 */
export function snapshotPoint(attn, { name, file, verse }) {
  const url = new URL(`../../web/snapshots/${name}`, import.meta.url);
  const manifest = JSON.parse(readFileSync(`${url.pathname}.json`, 'utf8'));
  const bytes = readFileSync(`${url.pathname}.f16`);
  const text = readText(file);
  const task = createTextTask(text, { ...manifest.task, context: manifest.config.context });
  const model = attn.createTinyTransformer(manifest.config);
  try {
    model.loadParameters(decodeSnapshot(manifest, bytes));
    const { loss, accuracy } = heldOutLoss(model, task);
    const heldOut = [...text].slice(task.trainLength).join('');
    const prompt = heldOut.slice(heldOut.indexOf('\n') + 1).split('\n')[0];
    const sample = sampleText(model, task.tokenizer, prompt, SAMPLE_CHARACTERS, {
      ...TEXT_SAMPLING,
      seed: 1,
    });
    return {
      steps: manifest.steps,
      bytes: bytes.length,
      loss,
      accuracy,
      verse: verse ? verseLineShare(sample) : null,
    };
  } finally {
    model.free();
  }
}

/**
 * ms per trainStep on one text's windows, median of `rounds` interleaved rounds of `steps`
 * steps each: { ours (learned positions), tfjs (learned), oursRope (TEXT_MODEL) }, and the
 * config. contenders: { name: (config) => { trainStep, free } } makes each model.
 */
export async function stepTimes({ file }, makers, { rounds, steps }) {
  const task = createTextTask(readText(file), { ...TEXT_TASK, context: TEXT_MODEL.context });
  const base = { ...TEXT_MODEL, vocabSize: task.vocabSize, seed: 1 };
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
