// Chapter 3's matrices for the JSON and CSV exports, by name: the shuffled order's outputs
// (without and with positions), RoPE's scores by distance, the learning step's gradients,
// the weights after it and the loss after each step taken, and the rest of the block.
import { fromRows } from '../../model/matrix.mjs';

const GRADIENTS = [
  'outputs',
  'weights',
  'scores',
  'queries',
  'keys',
  'values',
  'wQuery',
  'wKey',
  'wValue',
];
const BLOCK = ['residual', 'normed', 'hidden', 'mlp', 'output'];

/** [name, { rows, cols, data }] pairs, or none when the page has no chapter 3 numbers. */
export function learningMatrices(learning) {
  if (!learning) return [];
  const { order, rope, step, block } = learning;
  const named = [
    ['ch3-order', fromRows([order.order.map((k) => k + 1)])],
    ['ch3-outputs', order.plain.outputs],
    ['ch3-shuffled-outputs', order.shuffled.outputs],
    ['ch3-positions', fromRows(order.positions)],
    ['ch3-placed-outputs', order.placed.outputs],
    ['ch3-placed-shuffled-outputs', order.placedShuffled.outputs],
  ];
  if (rope) named.push(['ch3-rope-scores', fromRows(rope.scores)]);
  named.push(['ch3-target', fromRows([step.target])]);
  for (const name of GRADIENTS) named.push([`ch3-grad-${name}`, step.before.grad[name]]);
  for (const name of ['wQuery', 'wKey', 'wValue'])
    named.push([`ch3-${name}-after-step`, step.weightsAfter[name]]);
  named.push(['ch3-losses', fromRows([step.losses])]);
  if (block) for (const name of BLOCK) named.push([`ch3-block-${name}`, block[name]]);
  return named;
}
