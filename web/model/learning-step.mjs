// Chapter 3, stage "One learning step": the loss L = ½‖o₁ − t‖² of output 1 against the
// reader's target t, its gradient through every stage of chapter 1 backwards (trace() with
// gradOutputs: row 1 is o₁ − t, the other rows 0), the step W ← W − η·∂L/∂W, and the forward
// pass again. "Take 10 more steps" repeats the same step; the loss after each is kept for the
// plot, and the weights and the forward pass after the last are what the scene then shows. Unscaled and without a mask, as chapter 1 by default.
import { fromRows, rowOf } from './matrix.mjs';

/** η: small enough that the article's first step lowers its loss (12.39 to 4.60). */
export const LEARNING_RATE = 0.01;
/** The most steps the page takes (the "10 more" button stops there). */
export const MAX_STEPS = 200;

const WEIGHTS = ['wQuery', 'wKey', 'wValue'];

/**
 * The page's suggestion for output 1's target: the value of the token query 1 attends to
 * least (value 1 in the article), so the step has to move attention as well as values.
 */
export function suggestedTarget(trace) {
  const weights = rowOf(trace.weights, 0);
  // One token: output 1 is its own value already; ask for 1 more in every entry instead.
  if (weights.length === 1) return rowOf(trace.values, 0).map((value) => value + 1);
  const least = weights.indexOf(Math.min(...weights));
  return rowOf(trace.values, least);
}

/** ½‖o₁ − t‖² and its gradient with respect to the outputs (row 1 is o₁ − t). */
function lossOf(outputs, target) {
  const o1 = rowOf(outputs, 0);
  const diff = o1.map((value, c) => value - target[c]);
  const gradOutputs = Array.from({ length: outputs.rows }, (_, i) =>
    i === 0 ? diff : diff.map(() => 0),
  );
  return { loss: diff.reduce((sum, d) => sum + d * d, 0) / 2, gradOutputs };
}

/**
 * @param attn the API from createAttention()
 * @param example the reader's { x, wKey, wQuery, wValue }
 * @param {number[] | null} target output 1's target (null, or the wrong length: suggested)
 * @param {number} steps how many steps the reader has taken (1 … MAX_STEPS)
 * @returns {{ target: number[], suggested: number[], eta: number, loss: number, steps: number,
 *   asked: number, diverged: object | null, before: object, after: object,
 *   weightsBefore: object, weightsOneStep: object, weightsAfter: object, losses: number[] }}
 *   before: trace() with its grad; steps: how many were taken (asked: how many were asked
 *   for; fewer when the next would overflow); diverged: null, or { step, gradient, length,
 *   weights, overflow }: the first step whose loss rose, ‖∂L/∂W‖ there, the step's length
 *   η·‖∂L/∂W‖ and ‖W‖ before it, and whether the steps stopped at an overflow; after and weightsAfter: the
 *   trace() and W_Q, W_K, W_V after all of them (what the scene and the export show);
 *   weightsOneStep: after the first (W − η·∂L/∂W, the arithmetic a cell explains);
 *   losses[k] the loss after k steps (losses[0] = loss)
 */
export function computeLearningStep(attn, example, target, steps) {
  const { x } = example;
  const run = (weights, gradOutputs) =>
    attn.trace({ x, ...weights, scale: 1, isCausal: false, gradOutputs });
  const start = Object.fromEntries(WEIGHTS.map((name) => [name, example[name]]));
  const first = run(start);
  const suggested = suggestedTarget(first);
  const goal = Array.isArray(target) && target.length === suggested.length ? target : suggested;
  const step = (weights, trace) => {
    const { gradOutputs } = lossOf(trace.outputs, goal);
    const withGrad = run(weights, gradOutputs);
    const next = Object.fromEntries(
      WEIGHTS.map((name) => [
        name,
        weights[name].map((row, i) =>
          row.map(
            (value, j) => value - LEARNING_RATE * withGrad.grad[name].data[i * row.length + j],
          ),
        ),
      ]),
    );
    return { withGrad, next };
  };
  const losses = [lossOf(first.outputs, goal).loss];
  let weights = start;
  let trace = first;
  let before = null; // the first step's trace, with its gradients
  let weightsOneStep = null;
  let rose = null; // the first step whose loss rose, with its sizes
  let overflow = false;
  const asked = Math.min(MAX_STEPS, Math.max(1, Math.floor(steps)));
  let count = 0;
  // One step past the last asked for is looked at, not taken: whether it would overflow is
  // the same whether 200 steps were asked for or the 37 taken before it (a link says 37).
  for (;;) {
    const taken = step(weights, trace);
    const next = run(taken.next);
    const loss = lossOf(next.outputs, goal).loss;
    const sizes = stepSizes(weights, taken.withGrad.grad);
    // A step into numbers a float cannot hold is not taken: the page stops before it.
    if (!Number.isFinite(loss) || !finiteWeights(taken.next)) {
      overflow = true;
      rose ??= { step: count + 1, ...sizes };
      break;
    }
    if (count === asked) break;
    if (count === 0) [before, weightsOneStep] = [taken.withGrad, taken.next];
    if (loss > losses[count]) rose ??= { step: count + 1, ...sizes };
    weights = taken.next;
    trace = next;
    losses.push(loss);
    count += 1;
  }
  const matrices = (rows) =>
    Object.fromEntries(WEIGHTS.map((name) => [name, fromRows(rows[name])]));
  // Diverged: the steps made the loss larger than it started, or the next one overflows.
  const diverged = overflow || losses[count] > losses[0] ? { ...rose, overflow } : null;
  return {
    target: goal,
    suggested,
    eta: LEARNING_RATE,
    loss: losses[0],
    steps: count,
    asked,
    diverged,
    before: before ?? first,
    after: trace,
    weightsBefore: matrices(start),
    weightsOneStep: matrices(weightsOneStep ?? start),
    weightsAfter: matrices(weights),
    losses,
  };
}

/** Every weight a finite number. */
const finiteWeights = (weights) =>
  WEIGHTS.every((name) => weights[name].every((row) => row.every(Number.isFinite)));

/**
 * How big a step is against the weights it moves: ‖∂L/∂W‖ (the gradient of W_Q, W_K and W_V
 * together), the step's length η·‖∂L/∂W‖, and ‖W‖ before it.
 */
function stepSizes(weights, grad) {
  const norm = (values) => Math.sqrt(values.reduce((sum, v) => sum + v * v, 0));
  const gradient = norm(WEIGHTS.flatMap((name) => Array.from(grad[name].data)));
  return {
    gradient,
    length: LEARNING_RATE * gradient,
    weights: norm(WEIGHTS.flatMap((name) => weights[name].flat())),
  };
}
