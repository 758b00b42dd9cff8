// Chapter 3's training run (web/app/training.mjs) and its switches in Node: the page offers
// only heads that build a model (issue: 3 heads of dModel 32 was offered and could not be
// made), and a new model the trainer refuses leaves the run, its switches and the state on
// the model still loaded, instead of naming one that is not there. The trainer here is a
// stand-in that follows createTrainer's contract (its reset refuses like the worker's).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { INDUCTION_LENGTH } from '../../src/js/tasks/induction-task.mjs';
import { createTraining } from '../../web/app/training.mjs';
import {
  HEAD_CHOICES,
  POSITIONS,
  TRAINING_DEFAULTS,
  modelConfig,
} from '../../web/model/training.mjs';
import { parseHash } from '../../web/url-state.mjs';
import { distDir } from './helpers.mjs';

test('every heads choice the page offers builds a model, with every kind of positions', async () => {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  assert.ok(HEAD_CHOICES.length >= 3, `offered: ${HEAD_CHOICES}`);
  for (const heads of HEAD_CHOICES) {
    for (const positions of POSITIONS) {
      const settings = { ...TRAINING_DEFAULTS, heads, positions };
      const model = attn.createTinyTransformer(modelConfig(settings)); // throws if it cannot
      model.free();
    }
  }
  // The one that could not be made is no choice, and a link naming it is refused.
  assert.ok(!HEAD_CHOICES.includes(3));
  assert.ok(parseHash('#step=train&theads=3').problem, 'theads=3 in a link');
});

/** A trainer as createTrainer makes it, whose reset refuses what `refuses(config)` says. */
function standInTrainer(refuses) {
  const T = INDUCTION_LENGTH;
  let config = null;
  const attention = () => ({
    data: new Float32Array(config.layers * config.heads * T * T),
    dims: [config.layers, 1, config.heads, T, T],
  });
  return async (options) => {
    config = options.config;
    let step = 0;
    return {
      evaluate: async () => ({ tokens: new Int32Array(T), attention: attention() }),
      train: async ({ steps }) => {
        step += steps;
        options.onProgress({ step, loss: 1, losses: new Float32Array(steps).fill(1) });
        return { step };
      },
      stop: async () => ({ step }),
      reset: async (next) => {
        const problem = refuses(next.config);
        if (problem) throw new RangeError(problem);
        config = next.config;
        step = 0;
        return { step };
      },
      parameters: async () => ({}),
      loadParameters: async () => ({ step }),
    };
  };
}

test('a model the trainer refuses: the run, its switches and the state stay on the model loaded', async () => {
  const refused = [];
  const training = createTraining({
    startTrainer: standInTrainer((config) =>
      config.heads === 2 ? 'config.heads: this trainer makes no 2-head model' : null,
    ),
    onRefused: (settings) => refused.push(settings),
  });
  training.prepare();
  await new Promise((resolve) => setTimeout(resolve, 10));
  // Trained a little, paused: a 4-head model at a step of its own.
  await training.start();
  const trainedTo = training.run.step;
  assert.ok(trainedTo > 0);
  assert.equal(training.set({ heads: 2 }), true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const { run } = training;
  assert.equal(run.status, 'failed');
  assert.match(run.error, /no 2-head model/);
  // What is loaded is still the 4-head model, trained as far as it was.
  assert.equal(run.settings.heads, 4, 'the switch says what is loaded');
  assert.equal(run.step, trainedTo);
  assert.deepEqual(
    refused.map((s) => s.heads),
    [4],
    'the state (the switch and the link) is told',
  );
});
