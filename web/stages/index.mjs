// The walkthrough's two chapters, their stages in order. Chapter 1 is the article (stage files
// NN-name.mjs, stages 1–8); chapter 2 grows its example into a real layer (files
// 2-NN-name.mjs, stages 9–13: heads, each head's attention, concatenation and W_O, shared K/V
// heads, decoding with a KV cache). Each stage file holds everything of one stage: its steps
// (ids for #step= links, durations, titles) and the scene that draws each step,
// build(ctx) -> { element, render(t), explanation, narration }; its sentences are keys in
// i18n/en.mjs and i18n/zh.mjs. Stage numbers run on across chapters, so a number names one
// stage.
import inputs from './01-inputs.mjs';
import weights from './02-weights.mjs';
import projections from './03-projections.mjs';
import scores from './04-scores.mjs';
import softmax from './05-softmax.mjs';
import weighted from './06-weighted.mjs';
import sum from './07-sum.mjs';
import everyQuery from './08-every-query.mjs';
import heads from './2-09-heads.mjs';
import headAttention from './2-10-head-attention.mjs';
import output from './2-11-output.mjs';
import kvSharing from './2-12-kv-sharing.mjs';
import decoding from './2-13-decoding.mjs';

/** Chapter 1's stages in the article's order, then chapter 2's. */
export const STAGES = [
  ...[inputs, weights, projections, scores, softmax, weighted, sum, everyQuery].map((stage) => ({
    chapter: 1,
    ...stage,
  })),
  heads,
  headAttention,
  output,
  kvSharing,
  decoding,
];

/** The chapters, by number: their title keys (the stage list heads its stages with them). */
export const CHAPTERS = [
  { number: 1, titleKey: 'ch2.chapter.1' },
  { number: 2, titleKey: 'ch2.chapter.2' },
];

/**
 * Every step of the walkthrough for these dims, in order.
 * @param dims { n, dIn, dK, dV } of chapter 1's example
 * @param layerDims { n, dModel, heads, kvHeads, dHead, group } of chapter 2's layer
 * @returns {{ id: string, family: string, stage: number, params: object, duration: number,
 *   title: (tr: Function, dims: object) => string, build: (ctx: object) => object }[]}
 */
export function buildSteps(dims, layerDims) {
  return STAGES.flatMap((stage) => stage.steps(dims, layerDims));
}

/** Index of the step with this id, or -1. */
export function indexOfStep(steps, id) {
  return steps.findIndex((step) => step.id === id);
}

/** The chapter (1 or 2) a stage belongs to. */
export const chapterOf = (number) => STAGES[number - 1].chapter;

/** The stage's name in the current language. */
export const stageTitle = (number, tr) => tr(STAGES[number - 1].titleKey);
