// Training a character model on a text, off the main thread, and sampling verse from it.
//
// createTrainer({ config: TEXT_MODEL, task: { text, ...TEXT_TASK } }) trains a tiny transformer to predict
// each next character of the text's first nine tenths, in a worker_thread (a Web Worker in a
// page); evaluate() scores the held-out last tenth in nats per character. Every check prints
// the held-out loss and accuracy and a sample drawn at a temperature from a copy of the model
// in this thread; for verse, the share of its lines with five or seven characters between
// punctuation marks.
//   node examples/node/train-text.mjs [--text dist/texts/tang300.txt] [--steps 1000]
//        [--check-every 250] [--seed 1] [--batch 16] [--config '{"dModel":96}']
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

import createAttention, {
  TEXT_BATCH,
  TEXT_MODEL,
  TEXT_TASK,
  createTrainer,
} from 'attention-explained';

/** Marks that end a line of verse: Chinese and ASCII punctuation, and the line break. */
export const VERSE_BREAKS = /[，。？！；：、,.?!;:\n]/u;

/**
 * `count` characters after `prompt`, drawn by the model's own generate() through its key/value
 * cache (greedy at temperature 0, else from softmax(logits / temperature) over the topK
 * likeliest), never the tokenizer's unknown id (U+FFFD is no character to write). A sample
 * longer than the context is made in pieces: each piece is prompted with the last half-context
 * of characters so far and runs to the end of the context. The same seed gives the same text.
 * Returns the new text only.
 */
export function sampleText(
  model,
  tokenizer,
  prompt,
  count,
  { temperature = 0.8, topK = 0, seed = 1 } = {},
) {
  const { context } = model.config;
  const keep = Math.max(1, Math.floor(context / 2));
  const ids = [...tokenizer.encode(prompt)];
  const bannedIds = tokenizer.unknownId >= 0 ? [tokenizer.unknownId] : [];
  const made = [];
  for (let piece = 0; made.length < count; piece++) {
    const window = ids.slice(-keep);
    const n = Math.min(context - window.length + 1, count - made.length);
    const options = { temperature, topK, seed: (seed + piece) >>> 0, bannedIds };
    const next = model.generate(window, n, options);
    ids.push(...next);
    made.push(...next);
  }
  return tokenizer.decode(made);
}

/**
 * The lines of generated verse between punctuation marks, leaving out the first (it may
 * continue the prompt's) and the last (it may be unfinished) and empty ones (two marks in a
 * row, as "。\n"): { lines, fiveOrSeven, share }.
 */
export function verseLineShare(text) {
  const lines = text
    .split(VERSE_BREAKS)
    .slice(1, -1)
    .filter((line) => line !== '');
  const fiveOrSeven = lines.filter((line) => [...line].length === 5 || [...line].length === 7);
  return {
    lines: lines.length,
    fiveOrSeven: fiveOrSeven.length,
    share: lines.length === 0 ? NaN : fiveOrSeven.length / lines.length,
  };
}

/**
 * Trains on `text`; resolves to { steps, checks: [{ step, trainLoss, loss, accuracy, sample,
 * verse }], msPerStep }. `print` receives each line of output.
 */
export async function trainText({
  text,
  config = TEXT_MODEL,
  seed = 1,
  batch = TEXT_BATCH,
  steps = 1000,
  checkEvery = 250,
  sampleLength = 300,
  print = console.log,
}) {
  let timed = 0; // steps and milliseconds of trainStep, from the progress events
  let spent = 0;
  const trainer = await createTrainer({
    config,
    task: { text, ...TEXT_TASK },
    seed,
    batch,
    onProgress({ losses, msPerStep }) {
      timed += losses.length;
      spent += msPerStep * losses.length;
    },
  });
  const attn = await createAttention();
  const { tokenizer } = trainer; // the text's characters, read as TEXT_TASK says
  const model = attn.createTinyTransformer({ ...config, vocabSize: tokenizer.vocabSize });
  // The sample's prompt: the held-out tenth's first line (the model never trained on it).
  const heldOut = [...text].slice(Math.floor(([...text].length * 9) / 10)).join('');
  const prompt = heldOut.slice(heldOut.indexOf('\n') + 1).split('\n')[0];
  const checks = [];
  let done = 0;
  try {
    while (done < steps) {
      const result = await trainer.train({ steps: Math.min(checkEvery, steps - done) });
      done = result.step;
      const { loss, accuracy } = await trainer.evaluate();
      model.loadParameters(await trainer.parameters());
      const sample = sampleText(model, tokenizer, prompt, sampleLength, { seed: done });
      const verse = verseLineShare(sample);
      checks.push({ step: done, trainLoss: result.loss, loss, accuracy, sample, verse });
      print(
        `step ${done} · train loss ${result.loss.toFixed(3)} · held-out ${loss.toFixed(3)} nats/char, accuracy ${(100 * accuracy).toFixed(1)}% · 5/7 lines ${verse.fiveOrSeven}/${verse.lines} · ${(spent / timed).toFixed(1)} ms/step`,
      );
      print(`  ${sample.slice(0, 120).replaceAll('\n', ' / ')}`);
    }
  } finally {
    trainer.close();
    model.free();
  }
  return { steps: done, checks, msPerStep: spent / timed };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      text: { type: 'string', default: 'dist/texts/tang300.txt' },
      steps: { type: 'string', default: '1000' },
      'check-every': { type: 'string', default: '250' },
      seed: { type: 'string', default: '1' },
      batch: { type: 'string', default: String(TEXT_BATCH) },
      config: { type: 'string', default: '{}' },
    },
  });
  const config = { ...TEXT_MODEL, ...JSON.parse(values.config) };
  console.log(`config ${JSON.stringify(config)} · batch ${values.batch}`);
  await trainText({
    text: readFileSync(values.text, 'utf8'),
    config,
    seed: Number(values.seed),
    batch: Number(values.batch),
    steps: Number(values.steps),
    checkEvery: Number(values['check-every']),
  });
}
