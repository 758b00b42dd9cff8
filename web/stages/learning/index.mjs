// Chapter 3, "where the weights come from": what attention does with order (and positions),
// one gradient step on the article's numbers, the rest of a Transformer block, then a tiny
// model trained live and what its heads learned.
import order from './order.mjs';
import orderText from './order.text.mjs';
import learn from './learn.mjs';
import learnText from './learn.text.mjs';
import block from './block.mjs';
import blockText from './block.text.mjs';
import train from './train.mjs';
import trainText from './train.text.mjs';
import headsLearned from './heads-learned.mjs';
import headsLearnedText from './heads-learned.text.mjs';

export default {
  titleKey: 'chapter.learning',
  stages: [
    { ...order, text: orderText },
    { ...learn, text: learnText },
    { ...block, text: blockText },
    { ...train, text: trainText },
    { ...headsLearned, text: headsLearnedText },
  ],
};
