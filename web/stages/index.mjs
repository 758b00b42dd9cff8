// The walkthrough: its chapters in order, each a folder whose index.mjs lists its stages in
// order (article/: the article, layer/: a real layer, learning/: where the weights come
// from, language/: a tiny language model). Each stage file holds everything of one stage:
// its steps (ids for #step= links, durations, titles) and the scene that draws each step,
// build(ctx) -> { element, render(t), explanation, narration }.
//
// A stage's sentences sit beside it: stages/<chapter>/<name>.text.mjs holds
// `export default { en: { 'key': '…', … }, zh: { 'key': '…', … } }` (its title, step titles,
// sentences, narration; the same keys in both languages), and the chapter's index.mjs
// imports it and attaches it to the stage's entry as `text` ({ ...stage, text: stageText }).
// i18n/index.mjs merges every stage's `text` with the page's own strings (i18n/en.mjs,
// zh.mjs) into the tables tr() reads; a key defined twice is an error.
//
// A stage's number is its place in this list (it runs on across chapters, so a number names
// one stage), stated nowhere else. A stage whose scenes, panels or questions read a later
// chapter's numbers (numbers.layer, numbers.learning, which are computed when first read:
// app/flow.mjs) names them in `reads`.
import article from './article/index.mjs';
import layer from './layer/index.mjs';
import learning from './learning/index.mjs';
import language from './language/index.mjs';

/** The chapters, by number (1, 2, …): their title keys and stages. */
export const CHAPTERS = [article, layer, learning, language].map((chapter, c) => ({
  ...chapter,
  number: c + 1,
}));

/**
 * Every stage in order, with its number (1, 2, …) and its chapter's number; `usesExample`:
 * it shows the reader's example of "Your numbers" (chapter 1, and chapter 3's order and
 * learning step; chapter 2 starts from the article's tokens with its own layer inputs, the
 * rest of chapter 3 and chapter 4 from models of their own).
 */
export const STAGES = CHAPTERS.flatMap((chapter) =>
  chapter.stages.map((stage) => ({
    ...stage,
    chapter: chapter.number,
    usesExample: Boolean(stage.usesExample ?? chapter.usesExample),
  })),
).map((stage, k) => ({ ...stage, number: k + 1 }));

/**
 * Every step of the walkthrough for these dims, in order, each with its stage's number and
 * its chapter's (so that what shows a step needs no look-up here).
 * @param dims { n, dIn, dK, dV } of chapter 1's example
 * @param layerDims { n, dModel, heads, kvHeads, dHead, group } of chapter 2's layer
 * @returns {{ id: string, family: string, stage: number, chapter: number, params: object,
 *   duration: number, title: (tr: Function, dims: object) => string,
 *   build: (ctx: object) => object }[]}
 */
export function buildSteps(dims, layerDims) {
  return STAGES.flatMap((stage) =>
    stage.steps(dims, layerDims).map((step) => ({
      ...step,
      stage: stage.number,
      chapter: stage.chapter,
    })),
  );
}

/** Index of the step with this id, or -1. */
export function indexOfStep(steps, id) {
  return steps.findIndex((step) => step.id === id);
}

/** The chapter (1, 2, …) a stage belongs to. */
export const chapterOf = (number) => STAGES[number - 1].chapter;

/** The stage's name in the current language. */
export const stageTitle = (number, tr) => tr(STAGES[number - 1].titleKey);
