// Chapter 3, "where the weights come from": one learning step, then a tiny model trained live
// and what its heads learned.
import train from './train.mjs';
import headsLearned from './heads-learned.mjs';

export default {
  titleKey: 'chapter.learning',
  stages: [train, headsLearned],
};
