// Training a tiny transformer to do induction ("... A B ... A -> B"), off the main thread.
//
// The model (vocab 16, context 25, dModel 32, 4 heads, attention-only, AdamW lr 6e-3, batch
// 32) learns the induction task: rows of noise, a segment of distinct tokens, the same segment
// again, more noise. Inside the second copy each next token is predictable, but only by finding
// where the current token occurred before and copying what came after it. Two layers do it (a
// head that looks at the previous token, then an induction head reading it); the loss sits on a
// plateau, then drops suddenly. One layer cannot.
//
// It trains through createTrainer: the model lives in a worker_thread (a Web Worker in a page),
// and the loss arrives as progress events.
//   node examples/node/train.mjs [--seed 1] [--positions learned|rope|none] [--layers 2]
//        [--heads 4] [--steps 2000] [--until-accuracy 0.99]
// Prints, every 100 steps, the loss, the accuracy on the counted targets of held-out rows and
// the best induction score of the last layer's heads (inductionScores below); at the end the
// step at which the loss first fell below 0.1, the accuracy, how much of its weight the last
// layer's best head puts on the token after the earlier occurrence, and ms per training step.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

import { INDUCTION_BATCH, INDUCTION_MODEL, createTrainer } from 'attention-explained';

/** The loss below which the model has found the trick. */
export const DROP_LOSS = 0.1;

/**
 * For each head of the last layer: the mean weight that counted positions (inside the second
 * copy) put on the token right after the earlier occurrence of their own token, which is where
 * an induction head looks. `evaluation` is a trainer's evaluate() result.
 */
export function inductionScores({ tokens, targets, attention }) {
  const [layers, batch, heads, T] = attention.dims;
  const last = layers - 1;
  const scores = new Array(heads).fill(0);
  let counted = 0;
  for (let b = 0; b < batch; b++) {
    for (let t = 0; t < T; t++) {
      if (targets[b * T + t] < 0) continue;
      // The segment's symbols are distinct and the noise never uses them: the earlier
      // occurrence of this token is the only one.
      let earlier = -1;
      for (let s = 0; s < t; s++) if (tokens[b * T + s] === tokens[b * T + t]) earlier = s;
      counted++;
      for (let h = 0; h < heads; h++) {
        const row = (((last * batch + b) * heads + h) * T + t) * T;
        scores[h] += attention.data[row + earlier + 1];
      }
    }
  }
  return scores.map((sum) => sum / counted);
}

/**
 * Trains one model; resolves to { dropStep (null if the loss never fell below 0.1), steps,
 * loss, accuracy, scores (inductionScores), msPerStep }. `print` receives each line of output.
 */
export async function trainInduction({
  seed = 1,
  positions = INDUCTION_MODEL.positions,
  layers = INDUCTION_MODEL.layers,
  heads = INDUCTION_MODEL.heads,
  steps = 2000,
  batch = INDUCTION_BATCH,
  untilAccuracy = Infinity, // stop early once a check's accuracy reaches it (and the loss fell)
  until = () => false, // or once until({ accuracy, scores, step }) says so
  checkEvery = 100,
  print = console.log,
} = {}) {
  let dropStep = null;
  let timed = 0; // steps and milliseconds of trainStep, from the progress events
  let spent = 0;
  const trainer = await createTrainer({
    config: { ...INDUCTION_MODEL, layers, heads, positions },
    seed,
    batch,
    onProgress({ step, losses, msPerStep }) {
      const first = step - losses.length + 1;
      const below = losses.findIndex((loss) => loss < DROP_LOSS);
      if (dropStep === null && below >= 0) dropStep = first + below;
      timed += losses.length;
      spent += msPerStep * losses.length;
    },
  });
  let evaluation;
  let done = 0;
  try {
    while (done < steps) {
      const result = await trainer.train({ steps: Math.min(checkEvery, steps - done) });
      done = result.step;
      evaluation = await trainer.evaluate({ batch: 256 });
      const scores = inductionScores(evaluation);
      print(
        `step ${done} · loss ${result.loss.toFixed(3)} · accuracy ${(100 * evaluation.accuracy).toFixed(1)}% · induction ${Math.max(...scores).toFixed(2)}`,
      );
      const { accuracy } = evaluation;
      if (accuracy >= untilAccuracy && dropStep !== null) break;
      if (until({ accuracy, scores, step: done })) break;
    }
  } finally {
    trainer.close();
  }
  const scores = inductionScores(evaluation);
  const summary = {
    dropStep,
    steps: done,
    loss: evaluation.loss,
    accuracy: evaluation.accuracy,
    scores,
    msPerStep: spent / timed,
  };
  const best = scores.indexOf(Math.max(...scores));
  print(`loss below ${DROP_LOSS}: ${dropStep === null ? 'never' : `at step ${dropStep}`}`);
  print(
    `accuracy on counted targets: ${(100 * summary.accuracy).toFixed(2)}% (256 held-out rows, loss ${summary.loss.toFixed(4)})`,
  );
  print(
    `layer ${layers}'s head ${best} puts ${scores[best].toFixed(3)} of its weight on the token after the earlier occurrence`,
  );
  print(`${summary.msPerStep.toFixed(3)} ms/step (trainStep alone, batch ${batch})`);
  return summary;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      positions: { type: 'string', default: INDUCTION_MODEL.positions },
      layers: { type: 'string', default: String(INDUCTION_MODEL.layers) },
      heads: { type: 'string', default: String(INDUCTION_MODEL.heads) },
      steps: { type: 'string', default: '2000' },
      'until-accuracy': { type: 'string', default: 'Infinity' },
    },
  });
  await trainInduction({
    seed: Number(values.seed),
    positions: values.positions,
    layers: Number(values.layers),
    heads: Number(values.heads),
    steps: Number(values.steps),
    untilAccuracy: Number(values['until-accuracy']),
  });
}
