// What chapter 3's scenes should show, from the module run in Node (as tests/web/
// chapter3-learn.test.mjs computes them): the page's learning numbers for the article's
// example, and for each of the chapter's steps with numbers, the rows of numbers its scene
// must show (compared to the 3 decimals the page prints, by scene.mjs's waitForScene).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { distDir } from '../web/helpers.mjs';
import { chapterSteps } from '../web/walkthrough-shape.mjs';
import { articleExample } from '../../web/model/example.mjs';
import { layerExample } from '../../web/model/layer.mjs';
import { computeLayerNumbers } from '../../web/model/layer-numbers.mjs';
import { LEARNING_DEFAULTS, computeLearningNumbers } from '../../web/model/learning.mjs';

/** Chapter 3's steps with numbers, in the walkthrough's order (the stages after them, train
 * and heads-learned, show a training run instead). */
export const CHAPTER_3_STEPS = chapterSteps(3).filter(
  (id) => id !== 'train' && id !== 'heads-learned',
);

/** The page's chapter 3 numbers (the article's example, the page's defaults), in Node. */
export async function nodeLearningNumbers() {
  const { default: createAttention } = await import(
    pathToFileURL(join(distDir, 'attention.mjs')).href
  );
  const attn = await createAttention();
  const settings = { scaled: false, causal: false, rounding: 'exact' };
  const layer = computeLayerNumbers(attn, layerExample(), settings, true);
  return computeLearningNumbers(attn, articleExample(), LEARNING_DEFAULTS, layer);
}

/** A row-major { rows, cols, data } (the module's) or number[][] as rows of numbers. */
const rows = (matrix) =>
  Array.isArray(matrix)
    ? matrix
    : Array.from({ length: matrix.rows }, (_, i) =>
        Array.from(matrix.data.slice(i * matrix.cols, (i + 1) * matrix.cols)),
      );

/** The rows of numbers step `id` of chapter 3 must show. */
export function chapter3Rows(numbers, id) {
  const { order, rope, step, block } = numbers;
  const { before } = step;
  const after = step.weightsAfter;
  const shown = {
    'order-shuffle': [order.plain.outputs, order.shuffled.outputs],
    'order-positions': [order.positions, order.placed.outputs, order.placedShuffled.outputs],
    'order-rope': [rope.qTurned, rope.kTurned],
    'order-distance': [rope.scores],
    'learn-target': [rows(before.outputs).slice(0, 1)],
    'learn-outputs': [before.grad.outputs],
    'learn-attention': [before.values, before.grad.weights],
    'learn-scores': [before.weights, before.grad.scores],
    'learn-qkv': [before.grad.queries, before.grad.keys, before.grad.values],
    'learn-weights': [before.grad.wQuery, before.grad.wKey, before.grad.wValue],
    'learn-update': [after.wQuery, after.wKey, after.wValue, rows(step.after.outputs).slice(0, 1)],
    'block-residual': [block.residual],
    'block-norm': [block.normed],
    'block-mlp': [block.hidden, block.mlp, block.output],
  }[id];
  if (!shown) throw new Error(`no expected numbers for chapter 3 step ${id}`);
  return shown.flatMap(rows);
}
