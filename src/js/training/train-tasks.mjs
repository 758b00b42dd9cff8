// The tasks a train session (train-session.mjs) trains on, each as the session uses it:
//   batch(rows)            the next training rows { tokens, targets } ([rows, T] each)
//   probe                  the one held-out row whose attention progress events show
//   evaluate(model, rows)  { loss, accuracy, tokens, targets, attention } on held-out rows
// The induction task (induction-task.mjs) and the text task (text-task.mjs).
import { createInductionTask, inductionAccuracy } from '../tasks/induction-task.mjs';
import { createTextTask } from '../tasks/text-task.mjs';

// Evaluation rows come from their own sequence, never from the training batches.
const EVALUATION_SEED_OFFSET = 0x9e3779b9;

/** Mean cross-entropy over counted targets from logits { data, dims: [batch, T, vocab] }. */
function meanCrossEntropy({ data, dims }, targets) {
  const vocab = dims[2];
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < targets.length; i++) {
    if (targets[i] < 0) continue;
    const row = data.subarray(i * vocab, (i + 1) * vocab);
    let max = -Infinity;
    for (const x of row) max = Math.max(max, x);
    let total = 0;
    for (const x of row) total += Math.exp(x - max);
    sum += Math.log(total) + max - row[targets[i]];
    counted++;
  }
  return sum / counted;
}

/**
 * The induction task as the session uses it: batch(rows) for training, probe (the one row whose
 * attention progress events show: held-out row 0) and evaluate(model, rows).
 */
export function inductionTraining(seed) {
  const task = createInductionTask(seed);
  const heldOut = (rows) => createInductionTask((seed + EVALUATION_SEED_OFFSET) >>> 0).batch(rows);
  return {
    batch: (rows) => task.batch(rows),
    probe: heldOut(1),
    evaluate(model, rows) {
      // The same held-out rows at every call (for a seed and a batch size): evaluations over
      // a run are comparable, and the probe row is their first.
      const held = heldOut(rows);
      const { logits, attention } = model.forward({ tokens: held.tokens, batch: held.batch });
      const { accuracy } = inductionAccuracy(logits, held.targets);
      const loss = meanCrossEntropy(logits, held.targets);
      return { loss, accuracy, tokens: held.tokens, targets: held.targets, attention };
    },
  };
}

/** Held-out windows per forward call when the text task evaluates (bounds the memory). */
const TEXT_EVALUATION_ROWS = 16;

/**
 * The text task (text-task.mjs) as the session uses it: windows of config.context characters
 * of the first nine tenths; evaluate scores every character of the held-out tenth.
 */
export function textTraining({ text, minCount, inputDropout }, { context, vocabSize }, seed) {
  const task = createTextTask(text, { context, seed, minCount, inputDropout });
  if (vocabSize < task.vocabSize) {
    throw new RangeError(
      `config.vocabSize must be at least the text's ${task.vocabSize} characters (its vocabulary), got ${vocabSize}`,
    );
  }
  const held = task.heldOut();
  const probe = {
    tokens: held.tokens.subarray(0, context),
    targets: held.targets.subarray(0, context),
    batch: 1,
  };
  return {
    batch: (rows) => task.batch(rows),
    probe,
    evaluate(model) {
      let lossSum = 0;
      let correct = 0;
      let attention = null;
      for (let b = 0; b < held.batch; b += TEXT_EVALUATION_ROWS) {
        const rows = Math.min(TEXT_EVALUATION_ROWS, held.batch - b);
        const targets = held.targets.subarray(b * context, (b + rows) * context);
        const out = model.forward({
          tokens: held.tokens.subarray(b * context, (b + rows) * context),
          batch: rows,
        });
        const scored = inductionAccuracy(out.logits, targets);
        lossSum += meanCrossEntropy(out.logits, targets) * scored.counted;
        correct += scored.correct;
        if (b === 0) attention = firstRowAttention(out.attention, rows);
      }
      return {
        loss: lossSum / held.counted,
        accuracy: correct / held.counted,
        counted: held.counted,
        tokens: probe.tokens.slice(),
        targets: probe.targets.slice(),
        attention,
      };
    },
  };
}

/** Row 0's part of attention { data, dims: [L, B, H, T, T] }, as [L, 1, H, T, T]. */
function firstRowAttention({ data, dims }, rows) {
  const [layers, , heads, t] = dims;
  const perRow = heads * t * t;
  const out = new Float32Array(layers * perRow);
  for (let l = 0; l < layers; l++) {
    out.set(data.subarray(l * rows * perRow, l * rows * perRow + perRow), l * perRow);
  }
  return { data: out, dims: [layers, 1, heads, t, t] };
}
