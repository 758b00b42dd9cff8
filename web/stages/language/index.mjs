// Chapter 4, "a tiny language model": a character model trained live on real text (Tang
// poems, an English classic, or the learner's own), from characters to rows of X, from the
// last row's output to the next character's probability and loss, training against two
// baselines, what its heads attend to on the learner's sentence, switching heads off, and
// writing. Each stage's sentences are in its sibling <stage>.text.mjs (keys `ch4.…`), attached
// to its entry as `text`.
import characters from './characters.mjs';
import charactersText from './characters.text.mjs';
import next from './next.mjs';
import nextText from './next.text.mjs';
import train from './train.mjs';
import trainText from './train.text.mjs';
import heads from './heads.mjs';
import headsText from './heads.text.mjs';
import switchHeads from './switch.mjs';
import switchText from './switch.text.mjs';
import writing from './writing.mjs';
import writingText from './writing.text.mjs';

export default {
  titleKey: 'chapter.language',
  stages: [
    { ...characters, text: charactersText },
    { ...next, text: nextText },
    { ...train, text: trainText },
    { ...heads, text: headsText },
    { ...switchHeads, text: switchText },
    { ...writing, text: writingText },
  ],
};
