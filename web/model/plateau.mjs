// Chapter 3's failing models, told as failing: with one layer, or without positions, the
// model cannot learn the induction task the way the train stage's default does (no sudden
// drop of the loss as an induction head forms). Once such a run has trained well past the
// point where the two-layer model with positions drops, and its loss has not dropped, the
// page says so and why. No DOM.
//
// Measured in Node (seed 1, the page's model; mean loss of 20 steps at step 1,500): two
// layers with RoPE drop at step 364 and are at 0.00; one layer stays at 2.24 (RoPE), 1.72
// (learned positions) or 2.54 (none), with no drop; two layers without positions creep down
// with no sudden drop, to 0.73 (seeds 2 and 3: 0.71 and 0.46), learning position from the
// causal mask slowly and in part. The texts say exactly that.
import { SMOOTHING } from './training.mjs';

/**
 * The step from which a failing run is told it failed. The page's 2-layer model with RoPE or
 * learned positions drops long before it (steps 364 and 579 for seed 1; tests/web/
 * chapter3-failing.test.mjs trains them in Node and keeps that promise), so no drop by here
 * is not a slow start.
 */
export const VERDICT_AFTER = 1500;

/**
 * Why a model with these switches cannot learn the task ('oneLayer' or 'none'), or null for
 * one that can. One layer is named first: it fails with or without positions.
 * @param {{ layers: number, positions: string }} settings
 */
export function failureReason({ layers, positions }) {
  if (layers === 1) return 'oneLayer';
  if (positions === 'none') return 'none';
  return null;
}

/** While a run goes on, the verdict's step moves on in steps of this many (a live region reads every change). */
export const VERDICT_EVERY = 500;

/**
 * What the page says about a run: null while there is nothing to say (a model that can
 * learn, fewer than VERDICT_AFTER steps, or a loss that has dropped after all), else the
 * i18n key and its parameters: "after N steps no drop, the loss is X; why". N is the run's
 * step once it has stopped (paused, done), so the text names the step the status shows;
 * while it runs, the last multiple of VERDICT_EVERY from VERDICT_AFTER on, so the text
 * changes only every VERDICT_EVERY steps. X is the mean loss of the SMOOTHING steps up to
 * step N (one step's loss is noisy).
 * @param {{ settings, losses: ArrayLike<number>, dropStep: number | null, status?: string }} run
 */
export function plateauVerdict({ settings, losses, dropStep, status }) {
  const reason = failureReason(settings);
  if (reason === null || losses.length < VERDICT_AFTER || dropStep !== null) return null;
  const running = status === 'running' || status === 'starting';
  const step = running
    ? VERDICT_AFTER + Math.floor((losses.length - VERDICT_AFTER) / VERDICT_EVERY) * VERDICT_EVERY
    : losses.length;
  let sum = 0;
  for (let s = step - SMOOTHING; s < step; s++) sum += losses[s];
  return {
    key: `ch3.fail.${reason}`,
    params: { step, loss: (sum / SMOOTHING).toFixed(3), smoothing: SMOOTHING },
  };
}
