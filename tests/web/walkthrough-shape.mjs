// The walkthrough's shape for the page's own examples, read from the stage list the page is
// built from (web/stages/index.mjs), so that a test that counts steps or goes to the end
// follows a stage added anywhere instead of breaking on a literal.
import { articleExample, dimsOf } from '../../web/model/example.mjs';
import { layerDimsOf, layerExample } from '../../web/model/layer.mjs';
import { STAGES, buildSteps, chapterOf } from '../../web/stages/index.mjs';

/** Every step as the page opens (the article's example, chapter 2's layer). */
export const STEPS = buildSteps(dimsOf(articleExample()), layerDimsOf(layerExample()));
export const STEP_COUNT = STEPS.length;
export const STAGE_COUNT = STAGES.length;
/** Steps of the chapters after chapter 1 (their own examples: whatever chapter 1's dims). */
export const LATER_STEP_COUNT = STEPS.filter((step) => chapterOf(step.stage) > 1).length;
/** The ids of chapter `n`'s steps, in order. */
export const chapterSteps = (n) =>
  STEPS.filter((step) => chapterOf(step.stage) === n).map((step) => step.id);
/** Where End goes: the last step of the last chapter. */
export const LAST_STEP = STEPS.at(-1).id;

/** 1-based position of a step, as "Step k of N" shows it. */
export function stepNumber(id) {
  const k = STEPS.findIndex((step) => step.id === id);
  if (k === -1) throw new Error(`no step ${id}`);
  return k + 1;
}

/** The number of the stage whose title key is `titleKey` ('stage.softmax' -> 5). */
export function stageNumber(titleKey) {
  const stage = STAGES.find((s) => s.titleKey === titleKey);
  if (!stage) throw new Error(`no stage ${titleKey}`);
  return stage.number;
}
