// Chapter 1, "the article": self-attention on its three tokens, in the article's order (the
// inputs, the weights, keys/values/queries, then query 1's scores, softmax, weighted values
// and output, and every other query through the same scenes).
import inputs from './inputs.mjs';
import weights from './weights.mjs';
import projections from './projections.mjs';
import scores from './scores.mjs';
import softmax from './softmax.mjs';
import weighted from './weighted.mjs';
import sum from './sum.mjs';
import everyQuery from './every-query.mjs';

export default {
  titleKey: 'chapter.article',
  stages: [inputs, weights, projections, scores, softmax, weighted, sum, everyQuery],
};
