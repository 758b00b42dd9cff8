// What a character model learns in a minute: trains a fresh model on each text for a budget of
// seconds of one core, then prints the held-out loss (nats per character) and, for verse, the
// share of generated lines with five or seven characters between punctuation marks.
//
// The model trains in this thread (no worker), so that the budget can be CPU time: on a busy
// machine wall time says little about one quiet core, and CPU time (process.cpuUsage around
// each trainStep) is what that core would spend, give or take cache sharing. `--clock wall`
// counts wall time instead. Steps per second are printed either way.
// The text task reads each text with TEXT_TASK (rare characters as one unknown id, input
// dropout); `--task '{"minCount":1,"inputDropout":0}'` reads it as it is.
//   node examples/node/text-minute.mjs [--texts poems,english] [--seconds 60] [--clock cpu]
//        [--seed 1] [--batch 8] [--config '{"dModel":96}'] [--task '{"inputDropout":0.3}']
//        [--temperature 0.8] [--top-k 10] [--sample 2000] [--checks 4]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

import createAttention, {
  TEXT_BATCH,
  TEXT_MODEL,
  TEXT_SAMPLING,
  TEXT_TASK,
  createTextTask,
} from 'attention-explained';
import { heldOutPrompt, sampleText, scoreTextModel, verseLineShare } from './text-scores.mjs';

/** The texts scripts/build writes (docs/text.md). */
export const TEXTS = {
  poems: new URL('../../dist/texts/tang300.txt', import.meta.url),
  english: new URL('../../dist/texts/kjv-genesis-deuteronomy.txt', import.meta.url),
};

// The scores live in text-scores.mjs (they run in a browser too); here for older importers.
export { heldOutLoss } from './text-scores.mjs';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Trains a fresh model on `text` for `seconds` of `clock` time (trainStep alone), measuring
 * at `checks` evenly spaced times, the task read with `taskOptions` (createTextTask's minCount,
 * inputDropout); resolves to { steps, msPerStep, wallMsPerStep, checks:
 * [{ seconds, step, loss, accuracy, verse, sample }] }. `print` receives each line.
 */
export function trainForAMinute({
  attn,
  text,
  config = TEXT_MODEL,
  taskOptions = TEXT_TASK,
  batch = TEXT_BATCH,
  seed = 1,
  seconds = 60,
  clock = 'cpu',
  checks = 4,
  sampling = TEXT_SAMPLING,
  sampleLength = 2000,
  verse = true,
  print = console.log,
}) {
  const task = createTextTask(text, { ...taskOptions, context: config.context, seed });
  const model = attn.createTinyTransformer({ ...config, vocabSize: task.vocabSize, seed });
  // The sample's prompt: the held-out tenth's first full line (never trained on).
  const prompt = heldOutPrompt(text, task.trainLength);
  const now = clock === 'cpu' ? cpuMs : () => performance.now();
  const results = [];
  let spent = 0;
  let wall = 0;
  let step = 0;
  try {
    for (let check = 1; check <= checks; check++) {
      const until = (seconds * 1000 * check) / checks;
      while (spent < until) {
        const { tokens, targets } = task.batch(batch);
        const [began, wallBegan] = [now(), performance.now()];
        model.trainStep({ tokens, targets, batch });
        spent += now() - began;
        wall += performance.now() - wallBegan;
        step++;
      }
      const scored = scoreTextModel(model, task, {
        prompt,
        verse,
        length: sampleLength,
        sampling: { ...sampling, seed: seed + check },
      });
      const { loss, accuracy, verse: lines, sample } = scored;
      results.push({ seconds: until / 1000, step, loss, accuracy, verse: lines, sample });
      print(
        `${(until / 1000).toFixed(0)} s (${clock}): step ${step} · held-out ${loss.toFixed(3)} nats/char, accuracy ${(100 * accuracy).toFixed(1)}%` +
          (lines
            ? ` · 5/7 lines ${lines.fiveOrSeven}/${lines.lines} = ${(100 * lines.share).toFixed(1)}%`
            : '') +
          ` · ${(spent / step).toFixed(1)} ms/step ${clock}, ${(wall / step).toFixed(1)} wall`,
      );
      print(`  ${sample.slice(0, 96).replaceAll('\n', ' / ')}`);
    }
    if (verse) {
      // The same model sampled at other temperatures and top-k, for choosing TEXT_SAMPLING.
      for (const temperature of [0.6, 0.8, 1]) {
        const shares = [0, 5, 10, 20].map((topK) => {
          const sample = sampleText(model, task.tokenizer, prompt, sampleLength, {
            temperature,
            topK,
            seed,
          });
          const { share } = verseLineShare(sample);
          return `topK ${topK}: ${(100 * share).toFixed(1)}%`;
        });
        print(`  5/7 lines at temperature ${temperature}: ${shares.join(', ')}`);
      }
    }
    return { steps: step, msPerStep: spent / step, wallMsPerStep: wall / step, checks: results };
  } finally {
    model.free();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      texts: { type: 'string', default: 'poems,english' },
      seconds: { type: 'string', default: '60' },
      clock: { type: 'string', default: 'cpu' },
      seed: { type: 'string', default: '1' },
      batch: { type: 'string', default: String(TEXT_BATCH) },
      config: { type: 'string', default: '{}' },
      task: { type: 'string', default: '{}' },
      temperature: { type: 'string', default: String(TEXT_SAMPLING.temperature) },
      'top-k': { type: 'string', default: String(TEXT_SAMPLING.topK) },
      sample: { type: 'string', default: '2000' },
      checks: { type: 'string', default: '4' },
    },
  });
  const attn = await createAttention();
  const config = { ...TEXT_MODEL, ...JSON.parse(values.config) };
  const taskOptions = { ...TEXT_TASK, ...JSON.parse(values.task) };
  const sampling = { temperature: Number(values.temperature), topK: Number(values['top-k']) };
  for (const name of values.texts.split(',')) {
    console.log(
      `${name}: ${JSON.stringify(config)} · task ${JSON.stringify(taskOptions)} · batch ${values.batch} · ${values.seconds} s of ${values.clock} time · sampling ${JSON.stringify(sampling)}`,
    );
    trainForAMinute({
      attn,
      text: readFileSync(TEXTS[name], 'utf8'),
      config,
      taskOptions,
      batch: Number(values.batch),
      seed: Number(values.seed),
      seconds: Number(values.seconds),
      clock: values.clock,
      checks: Number(values.checks),
      sampling,
      sampleLength: Number(values.sample),
      verse: name === 'poems',
    });
  }
}
