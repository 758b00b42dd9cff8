// Chapter 3, "where the weights come from": what attention does with order (and positions),
// one gradient step on the article's numbers, the rest of a Transformer block, then a tiny
// model trained live and what its heads learned.
import order from './order.mjs';
import learn from './learn.mjs';
import block from './block.mjs';

export default {
  titleKey: 'chapter.learning',
  stages: [order, learn, block],
};
