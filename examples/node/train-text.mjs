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
  trainEndOf,
} from 'attention-explained';
import { heldOutPrompt, sampleText, verseLineShare } from './text-scores.mjs';

// The scores live in text-scores.mjs (they run in a browser too); here for older importers.
export { VERSE_BREAKS, sampleText, verseLineShare } from './text-scores.mjs';

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
  const prompt = heldOutPrompt(text, trainEndOf([...text].length));
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
