// Chapter 1, "the article": self-attention on its three tokens, in the article's order (the
// inputs, the weights, keys/values/queries, then query 1's scores, softmax, weighted values
// and output, and every other query through the same scenes).
import inputs from './inputs.mjs';
import inputsText from './inputs.text.mjs';
import weights from './weights.mjs';
import weightsText from './weights.text.mjs';
import projections from './projections.mjs';
import projectionsText from './projections.text.mjs';
import scores from './scores.mjs';
import scoresText from './scores.text.mjs';
import softmax from './softmax.mjs';
import softmaxText from './softmax.text.mjs';
import weighted from './weighted.mjs';
import weightedText from './weighted.text.mjs';
import sum from './sum.mjs';
import sumText from './sum.text.mjs';
import everyQuery from './every-query.mjs';
import everyQueryText from './every-query.text.mjs';

export default {
  titleKey: 'chapter.article',
  // Its stages show the reader's example ("Your numbers"): the badge says when it is edited.
  usesExample: true,
  stages: [
    { ...inputs, text: inputsText },
    { ...weights, text: weightsText },
    { ...projections, text: projectionsText },
    { ...scores, text: scoresText },
    { ...softmax, text: softmaxText },
    { ...weighted, text: weightedText },
    { ...sum, text: sumText },
    { ...everyQuery, text: everyQueryText },
  ],
};
