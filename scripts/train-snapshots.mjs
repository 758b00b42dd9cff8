// Trains the snapshot of each text that the page's chapter 4 opens with: TEXT_MODEL on the
// text read as TEXTS below says (TEXT_TASK: rare characters as one unknown id, input dropout;
// for the poems, a stronger dropout), by createTrainer (the package's own trainer, in its worker), from a fixed seed for a fixed
// number of steps (far more than a minute's: a snapshot is what a longer training gives), then
// stores its parameters as float16 (src/js/tasks/text-snapshot.mjs) in
// web/snapshots/<text>.f16 beside web/snapshots/<text>.json, the manifest with what was
// measured: the held-out loss of the stored (float16) weights and, for the poems, the share of
// generated lines with five or seven characters. The manifest's `task` is the text task's
// options: a reader builds the tokenizer with createCharTokenizer(text, { minCount }).
//
// Every --every steps the files are written again (so a run stopped early leaves the snapshot
// of its last multiple). Reproducible: the same seed, steps and build give the same bytes (the SIMD128 build is used,
// not Relaxed SIMD, whose last bits may differ by machine). Run scripts/build first (it writes
// dist/ and dist/texts/).
//   node scripts/train-snapshots.mjs [--texts poems,english] [--steps-poems 2500]
//        [--steps-english 8000] [--seed 1] [--out web/snapshots]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import createAttention, {
  TEXT_BATCH,
  TEXT_MODEL,
  TEXT_SAMPLING,
  TEXT_TASK,
  createTextTask,
  createTrainer,
} from '../dist/attention.mjs';
import { heldOutLoss } from '../examples/node/text-minute.mjs';
import { SNAPSHOT_FORMAT, decodeSnapshot, encodeSnapshot } from '../src/js/tasks/text-snapshot.mjs';
import { heldOutPrompt } from '../examples/node/text-scores.mjs';
import { sampleText, verseLineShare } from '../examples/node/train-text.mjs';

/**
 * The texts, and how each snapshot reads its text (`task`, the manifest's). The poems' is
 * TEXT_TASK with a stronger input dropout: TEXT_TASK's 0.3 is for a minute of training, and
 * over the thousands of steps of a snapshot it lets the model memorise the poems' 22,500
 * training characters (the held-out loss climbs while the lines come right); 0.5 keeps the
 * held-out loss low while the lines are learnt (docs/text.md). The tokenizer is the same
 * (minCount), so the page trains the snapshot on with TEXT_TASK.
 */
const TEXTS = {
  poems: { file: 'tang300.txt', verse: true, task: { ...TEXT_TASK, inputDropout: 0.5 } },
  english: { file: 'kjv-genesis-deuteronomy.txt', verse: false, task: TEXT_TASK },
};

/** The manifest and bytes of the trainer's model now, measured on its float16 weights. */
async function snapshotNow({ trainer, attn, name, text, seed, step }) {
  const { file, verse, task: taskOptions } = TEXTS[name];
  const { tensors, bytes } = encodeSnapshot(await trainer.parameters());
  const config = { ...TEXT_MODEL, vocabSize: trainer.tokenizer.vocabSize, seed };
  const manifest = {
    format: SNAPSHOT_FORMAT,
    text: `dist/texts/${file}`,
    textCharacters: [...text].length,
    textSha256: createHash('sha256').update(text).digest('hex'),
    vocabSize: trainer.tokenizer.vocabSize,
    task: taskOptions,
    config,
    seed,
    batch: TEXT_BATCH,
    steps: step,
    build: 'attention.wasm (SIMD128)',
    tensors,
    bytes: bytes.length,
    bytesSha256: createHash('sha256').update(bytes).digest('hex'),
  };
  // The stored weights, measured: float16 into a model of this thread (the trainer keeps its
  // float32 weights and AdamW state, and trains on), on the held-out tenth.
  const model = attn.createTinyTransformer(config);
  try {
    model.loadParameters(decodeSnapshot(manifest, bytes));
    const task = createTextTask(text, { ...taskOptions, context: config.context, seed });
    const { loss, accuracy } = heldOutLoss(model, task);
    const prompt = heldOutPrompt(text, task.trainLength);
    const sample = sampleText(model, trainer.tokenizer, prompt, 2000, { ...TEXT_SAMPLING, seed });
    Object.assign(manifest, { heldOutLoss: loss, heldOutAccuracy: accuracy });
    manifest.sampling = { ...TEXT_SAMPLING, seed, prompt };
    manifest.sample = sample.slice(0, 240);
    if (verse) manifest.verseLines = verseLineShare(sample);
  } finally {
    model.free();
  }
  return { manifest, bytes };
}

/**
 * Trains `steps` steps, writing the snapshot every `every` steps (each one is what a run of
 * that many steps from the same seed writes: the trainer's own state is never touched).
 */
async function trainSnapshot(name, { steps, every, seed, out }) {
  const text = readFileSync(new URL(`../dist/texts/${TEXTS[name].file}`, import.meta.url), 'utf8');
  const started = performance.now();
  const attn = await createAttention({ relaxedSimd: false });
  const trainer = await createTrainer({
    config: TEXT_MODEL,
    task: { text, ...TEXTS[name].task },
    seed,
    batch: TEXT_BATCH,
    relaxedSimd: false,
  });
  try {
    let step = 0;
    while (step < steps) {
      step = (await trainer.train({ steps: Math.min(every, steps - step) })).step;
      const { manifest, bytes } = await snapshotNow({ trainer, attn, name, text, seed, step });
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, `${name}.f16`), bytes);
      writeFileSync(join(out, `${name}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
      const lines = manifest.verseLines;
      console.log(
        `${name}: step ${step} (${((performance.now() - started) / 1000).toFixed(0)} s) · held-out ${manifest.heldOutLoss.toFixed(4)} nats/char · ${bytes.length} bytes` +
          (lines ? ` · 5/7 lines ${lines.fiveOrSeven}/${lines.lines}` : ''),
      );
      console.log(`  ${manifest.sample.slice(0, 120).replaceAll('\n', ' / ')}`);
    }
  } finally {
    trainer.close();
  }
}

const { values } = parseArgs({
  options: {
    texts: { type: 'string', default: 'poems,english' },
    'steps-poems': { type: 'string', default: '2500' },
    'steps-english': { type: 'string', default: '8000' },
    every: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'web/snapshots' },
  },
});
for (const name of values.texts.split(',')) {
  await trainSnapshot(name, {
    steps: Number(values[`steps-${name}`]),
    every: Number(values.every),
    seed: Number(values.seed),
    out: values.out,
  });
}
