// Scene registry: step.scene -> the module that builds and draws it. Every scene exports
// build(ctx) returning { element, render(t) for t in [0, 1], explanation, narration }.
import * as inputs from './inputs.mjs';
import * as weights from './weights.mjs';
import * as projectionRow from './projection-row.mjs';
import * as projectionMatrix from './projection-matrix.mjs';
import * as scores from './scores.mjs';
import * as softmax from './softmax.mjs';
import * as weighted from './weighted.mjs';
import * as sum from './sum.mjs';
import * as result from './result.mjs';

export const SCENES = {
  inputs,
  weights,
  'projection-row': projectionRow,
  'projection-matrix': projectionMatrix,
  scores,
  softmax,
  weighted,
  sum,
  result,
};
