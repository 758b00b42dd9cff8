// createTrainer's `task` option, read on the host before any worker starts: 'induction' (the
// default) or { text } (the text task, text-task.mjs), and what each task asks of the model's
// config. A refused task or config throws at once, naming the field.
import { describe, isOptionBag } from '../shared/checks.mjs';
import { createCharTokenizer } from '../tasks/char-tokenizer.mjs';
import { INDUCTION_LENGTH, INDUCTION_VOCAB } from '../tasks/induction-task.mjs';
import { readOwnOptions } from '../shared/read-once.mjs';
import { checkInputDropout, checkTextLength } from '../tasks/text-task.mjs';

const TEXT_TASK_KEYS = new Set(['text', 'minCount', 'inputDropout']);

/**
 * The task: null for the induction task, or { text, tokenizer, length, inputDropout } for the
 * text task ({ text, minCount?, inputDropout? }: text read once; length in characters;
 * minCount the tokenizer's; inputDropout the text task's, checked here).
 */
export function readTask(task, where) {
  if (task === undefined || task === 'induction') return null;
  if (!isOptionBag(task)) {
    const Kind = typeof task === 'string' ? RangeError : TypeError;
    throw new Kind(
      `${where}: task must be 'induction' or { text, minCount?, inputDropout? }, got ${describe(task)}`,
    );
  }
  const { text, minCount, inputDropout } = readOwnOptions(task, TEXT_TASK_KEYS, where, 'task');
  if (typeof text !== 'string') {
    throw new TypeError(`${where}: task.text must be a string, got ${describe(text)}`);
  }
  if (text.length === 0) {
    throw new RangeError(`${where}: task.text must hold some text, got ""`);
  }
  // The tokenizer checks minCount (a RangeError or TypeError naming it).
  const tokenizer = createCharTokenizer(text, minCount === undefined ? undefined : { minCount });
  const dropout = checkInputDropout(inputDropout, tokenizer, `${where}: task.inputDropout`);
  let length = 0;
  for (const _ of text) length++; // eslint-disable-line no-unused-vars
  return { text, tokenizer, length, inputDropout: dropout };
}

/**
 * Checks a config snapshot against the task and fills what the task decides: the induction
 * task needs vocabSize >= 16 and context >= 25; the text task takes vocabSize from the text
 * when it is absent (at least the text's distinct characters when given) and needs a text
 * long enough for one window of context.
 */
export function fitConfigToTask(config, task, where) {
  if (task === null) {
    for (const [key, least] of [
      ['vocabSize', INDUCTION_VOCAB],
      ['context', INDUCTION_LENGTH],
    ]) {
      if (typeof config[key] === 'number' && config[key] < least) {
        throw new RangeError(
          `${where}: config.${key} must be at least ${least} for the induction task, got ${config[key]}`,
        );
      }
    }
    return config;
  }
  const { vocabSize } = task.tokenizer;
  if (config.vocabSize === undefined) config.vocabSize = vocabSize;
  else if (typeof config.vocabSize === 'number' && config.vocabSize < vocabSize) {
    throw new RangeError(
      `${where}: config.vocabSize must be at least the text's ${vocabSize} characters (its vocabulary; or left out, to be taken from the text), got ${config.vocabSize}`,
    );
  }
  if (Number.isInteger(config.context) && config.context > 0) {
    checkTextLength(task.length, config.context, `${where}: task.text`);
  }
  return config;
}
