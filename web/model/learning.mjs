// Chapter 3's numbers ("where the weights come from"), from the reader's example and the
// chapter's own part of the state:
//   learning = { order, target, steps }
//     order   the shuffled order stage "Order" shows (null: the tokens reversed)
//     target  what the reader wants output 1 to be (null: the page's suggestion)
//     steps   how many gradient steps stage "One learning step" has taken (1, then +10 …)
// Every number comes from the module: trace() (with gradOutputs for the gradients) and
// onnxRotaryEmbedding / onnxAttention for RoPE; the rest of the block (block.mjs) starts from
// chapter 2's layer.
import { computeBlockNumbers } from './block.mjs';
import { computeLearningStep } from './learning-step.mjs';
import { computeOrderNumbers, firstOrder } from './order-numbers.mjs';
import { computeRopeNumbers } from './rope-numbers.mjs';

/** The chapter's part of the state as a page opens (in the URL when it differs: url-state.mjs). */
export const LEARNING_DEFAULTS = Object.freeze({ order: null, target: null, steps: 1 });

/** The state's order if it still fits n tokens, else the first shuffled order. */
export function orderFor(learning, n) {
  const { order } = learning;
  const fits =
    Array.isArray(order) && order.length === n && [...order].sort().every((k, i) => k === i);
  return fits ? order : firstOrder(n);
}

/**
 * @param attn the API from createAttention()
 * @param example the reader's { x, wKey, wQuery, wValue }
 * @param learning the state's { order, target, steps }
 * @param layer chapter 2's numbers (computeLayerNumbers()), for the rest of the block
 */
export function computeLearningNumbers(attn, example, learning, layer) {
  const n = example.x.length;
  const order = computeOrderNumbers(attn, example, orderFor(learning, n));
  return {
    x: example.x,
    order,
    rope: computeRopeNumbers(attn, order.plain.queries, order.plain.keys),
    step: computeLearningStep(attn, example, learning.target, learning.steps),
    block: computeBlockNumbers(layer.x, layer.outputs),
  };
}
