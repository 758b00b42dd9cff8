// Chapter 1, the article's walkthrough: its stages in order. Each stage file (NN-name.mjs)
// holds everything of one stage: its steps (ids for #step= links, durations, titles) and
// the scene that draws each step, build(ctx) -> { element, render(t), explanation,
// narration }; its sentences are keys in i18n/en.mjs and i18n/zh.mjs.
import inputs from './01-inputs.mjs';
import weights from './02-weights.mjs';
import projections from './03-projections.mjs';
import scores from './04-scores.mjs';
import softmax from './05-softmax.mjs';
import weighted from './06-weighted.mjs';
import sum from './07-sum.mjs';
import everyQuery from './08-every-query.mjs';

/** The stages of chapter 1, in the article's order. */
export const STAGES = [inputs, weights, projections, scores, softmax, weighted, sum, everyQuery];

/**
 * Every step of the walkthrough for these dims, in order.
 * @param dims { n, dIn, dK, dV }
 * @returns {{ id: string, family: string, stage: number, params: object, duration: number,
 *   title: (tr: Function, dims: object) => string, build: (ctx: object) => object }[]}
 */
export function buildSteps(dims) {
  return STAGES.flatMap((stage) => stage.steps(dims));
}

/** Index of the step with this id, or -1. */
export function indexOfStep(steps, id) {
  return steps.findIndex((step) => step.id === id);
}

/** The stage's name in the current language. */
export const stageTitle = (number, tr) => tr(STAGES[number - 1].titleKey);
