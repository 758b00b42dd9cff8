// Chapter 3, "What the heads learned" (#step=heads-learned): the reader types a sequence
// ("A B C D A B C"); the model trained in the previous stage reads it (forward(), in this
// thread, on a copy of the worker's parameters). Which head does what is the run's reading
// (model/head-reading.mjs, on the held-out row), the train stage's: its previous-token head
// and its induction head are drawn on the reader's sequence as token lines (BertViz-style)
// and heatmaps, and so is every head, under its reading. The model's prediction for the next
// token follows, said only as far as the weights show it (a model without an induction head
// is said to have none); then the model decodes token by token with its KV cache (generate()),
// one new token revealed at a time by the clock.
import { INDUCTION_LENGTH } from 'attention-explained';
import { h } from '../../dom.mjs';
import { formatExact } from '../../format.mjs';
import {
  headHeatmap,
  kindName,
  readingShort,
  readingText,
  tokenLines,
  tokenStrip,
} from '../../draw/training-views.mjs';
import { heatmapFiles } from '../../tools/export/heatmaps.mjs';
import { trainingFileBase } from '../../tools/export/training.mjs';
import { itemAmount, progressOf } from '../../draw/timing.mjs';
import { inductionScore, previousTokenScore } from '../../model/head-reading.mjs';
import {
  attendedKeys,
  headWeights,
  parseLetters,
  predictedToken,
  runReading,
  tokenLabel,
  trainedSteps,
} from '../../model/training.mjs';
import { singleStep } from '../single-step.mjs';

/**
 * The position an induction head attends to from the last token: the one right after the
 * earlier copy of that token (-1 when it has none). Positions count from 0, BOS first.
 */
export function inductionTarget(tokens) {
  const last = tokens.length - 1;
  const earlier = tokens.lastIndexOf(tokens[last], last - 1);
  return earlier < 1 ? -1 : earlier + 1;
}

/** The sequence the stage opens with. */
export const DEFAULT_SEQUENCE = 'A B C D A B C';
/** New tokens decoded after the reader's sequence (fewer when the context is nearly full). */
const DECODE_COUNT = 6;
/** How long typing pauses before the sequence is read again. */
const TYPING_PAUSE_MS = 300;

/** Where a key stands against the last token: what a sentence may call it. */
function relationOf(tokens, key) {
  const last = tokens.length - 1;
  const earlier = tokens.lastIndexOf(tokens[last], last - 1);
  if (key === last) return 'self';
  if (earlier >= 1 && key === earlier + 1) return 'afterCopy';
  if (earlier >= 1 && key === earlier) return 'copy';
  if (key === last - 1) return 'previous';
  if (key === 0) return 'start';
  return 'other';
}

/**
 * One head drawn twice on the reader's sequence: token lines and its heatmap, under its name
 * and what it reads as (the held-out row's reading), with a sentence on what it does on this
 * sequence. The heatmap's caption gives the same share as the sentence (`share`, on this
 * sequence, printed alike; null: none, its kind alone), not the held-out row's.
 */
function featuredHead(tokens, head, { about, share }, tr) {
  const name = tr('ch3.train.headName', { layer: head.layer + 1, head: head.head + 1 });
  const weights = head.typed;
  const map = headHeatmap(name, `head-${head.head + 1}`, { tokens });
  map.update(weights);
  const caption =
    share === null ? kindName(head, tr) : readingText({ ...head, share }, tr, formatExact);
  map.read(caption, head.kind);
  return h(
    'section',
    { class: 'learned-head', dataset: { layer: head.layer, head: head.head, kind: head.kind } },
    h('h3', { text: `${name} · ${kindName(head, tr)}` }),
    h('p', { text: about }),
    h(
      'div',
      { class: 'learned-head-views' },
      tokenLines(tokens, weights, { label: name, headClass: `head-${head.head + 1}` }),
      map.element,
    ),
  );
}

/**
 * What the model predicts after `tokens`, said only as far as the weights show it: the
 * induction head (if the model has one) and where it looks from the last token.
 */
function predictionText(tokens, next, induction, tr) {
  const last = tokens.length - 1;
  const token = tokenLabel(next);
  const lastLabel = tokenLabel(tokens[last]);
  if (!induction) return tr('ch3.heads.noInductionHead', { token });
  if (inductionTarget(tokens) < 0) {
    return tr('ch3.heads.predictionNoCopy', { token, last: lastLabel });
  }
  // The key it weighs most from the last token: always one, even where no weight reaches
  // attendedKeys' threshold (25 tokens weighed evenly, 0.04 each) or none is a number.
  const [top = { key: 0, w: induction.typed[last][0] }] = attendedKeys(induction.typed, last, 0);
  const key = tokenLabel(tokens[top.key]);
  const looks = tr('ch3.heads.prediction', {
    token,
    layer: induction.layer + 1,
    head: induction.head + 1,
    key,
    position: top.key,
    weight: formatExact(top.w),
    what: tr(`ch3.heads.relation.${relationOf(tokens, top.key)}`, { last: lastLabel }),
  });
  const copied = tokens[top.key] === next;
  const then = tr(copied ? 'ch3.heads.copies' : 'ch3.heads.notCopied', {
    token,
    key,
    last: lastLabel,
  });
  return tr('sentences.two', { first: looks, second: then });
}

/**
 * Everything the model says about `tokens`: the prediction, the previous-token head and the
 * induction head the run's reading names (model/head-reading.mjs, on the held-out row, as the
 * train stage names them), every head on this sequence, and the decoding.
 */
function analyse(model, tokens, reading, tr) {
  const { logits, attention } = model.forward({ tokens: Int32Array.from(tokens) });
  // Each head as the reading names it, with its weights on this sequence.
  const heads = reading.heads.map((x) => ({
    ...x,
    typed: headWeights(attention, x.layer, x.head),
    name: tr('ch3.train.headName', { layer: x.layer + 1, head: x.head + 1 }),
  }));
  const find = (x) => x && heads.find((y) => y.layer === x.layer && y.head === x.head);
  const prev = find(reading.previousHead);
  const ind = find(reading.inductionHead);
  const next = predictedToken(logits, tokens.length - 1);
  const count = Math.min(DECODE_COUNT, INDUCTION_LENGTH + 1 - tokens.length);
  const decoded = count > 0 ? Array.from(model.generate(tokens, count)) : [];
  const featured = [];
  if (prev) {
    const share = previousTokenScore(prev.typed);
    const about = tr('ch3.heads.previous', { score: formatExact(share) });
    featured.push(featuredHead(tokens, prev, { about, share }, tr));
  }
  if (ind) {
    const share = inductionScore(ind.typed, tokens);
    const about =
      share === null
        ? tr('ch3.heads.noRepeat')
        : tr('ch3.heads.induction', { score: formatExact(share) });
    featured.push(featuredHead(tokens, ind, { about, share }, tr));
  }
  return {
    prediction: predictionText(tokens, next, ind, tr),
    featured,
    next,
    decoded,
    heads: heads.map((x) => ({ ...x, weights: x.typed })),
  };
}

/** Every head's heatmap on the reader's sequence, each under its name and reading. */
function everyHead(tokens, heads, tr) {
  const layers = [...new Set(heads.map((x) => x.layer))];
  return h(
    'section',
    { class: 'learned-every' },
    h('h3', { text: tr('ch3.heads.every') }),
    layers.map((layer) =>
      h(
        'div',
        { class: 'train-layer' },
        heads
          .filter((x) => x.layer === layer)
          .map((x) => {
            const map = headHeatmap(x.name, `head-${x.head + 1}`, { tokens });
            map.update(x.weights);
            map.read(readingText(x, tr), x.kind);
            return map.element;
          }),
      ),
    ),
  );
}

let scenes = 0;

function build(ctx) {
  const { tr, training, attn } = ctx;
  // An id of its own per built scene: unique on the page, even with several explainers on it.
  scenes += 1;
  const helpId = `ch3-heads-help-${scenes}`;
  const input = h('input', {
    type: 'text',
    class: 'heads-input',
    value: training.sequence ?? DEFAULT_SEQUENCE,
    spellcheck: 'false',
    dataset: { focusKey: 'sequence', control: 'sequence' },
    'aria-describedby': helpId,
  });
  const problem = h('p', { class: 'heads-problem', role: 'alert' });
  const result = h('div', { class: 'heads-result', 'aria-live': 'polite' });
  const decodedRow = h('div', { class: 'heads-decoded' });
  let decodedCells = [];
  let request = 0;
  const heatFiles = heatmapFiles({
    tr,
    language: ctx.language,
    fileBase: () => `${trainingFileBase(training.run.settings)}-sequence`,
    hideEmpty: true,
  });

  async function look() {
    const id = ++request;
    training.sequence = input.value; // kept for the next build (a language switch, Back)
    const parsed = parseLetters(input.value, INDUCTION_LENGTH);
    problem.textContent = parsed.error ? tr(parsed.error.key, parsed.error.params) : '';
    if (parsed.error) {
      // Nothing of the last good sequence stays under the message, as if it were this one's.
      showNothing('invalid');
      return;
    }
    const model = await training.trainedModel(attn).catch(() => null);
    if (id !== request) return;
    const reading = runReading(training.run);
    if (!model || !reading) {
      // A model on its way from a link (or a file) is said to be; else, train one first.
      const loading = training.run.status === 'starting';
      const text = tr(loading ? 'ch3.heads.loading' : 'ch3.heads.untrained');
      showNothing('untrained', h('p', { class: 'heads-untrained', text }));
      return;
    }
    const found = analyse(model, parsed.tokens, reading, tr);
    result.replaceChildren(
      h('p', { class: 'heads-prediction', dataset: { next: found.next }, text: found.prediction }),
      h('div', { class: 'learned-heads' }, found.featured),
      everyHead(parsed.tokens, found.heads, tr),
    );
    decodedCells = found.decoded.map((id) => h('li', { class: 'token token-new' }, tokenLabel(id)));
    decodedRow.replaceChildren(
      h('p', { text: tr('ch3.heads.decoding', { step: trainedSteps(training.run) }) }),
      h('ol', { class: 'token-strip' }, [...tokenStrip(parsed.tokens).children], decodedCells),
    );
    heatFiles.update({
      title: tr('ch3.title.heads'),
      // Each head under its name and what it reads as, in short.
      caption: `${tr('ch3.files.heatmaps.after', { step: training.run.step })} · ${tr('app.title')}`,
      tokens: parsed.tokens,
      heads: found.heads.map((x) => ({ ...x, reading: readingShort(x, tr) })),
    });
    element.dataset.ready = 'true';
    // Which heads the weights show, for Predict's question (the steps' `questions`).
    element.dataset.heads = reading.inductionHead
      ? 'induction'
      : reading.previousHead
        ? 'previous'
        : 'none';
    element.dataset.decoded = found.decoded.map(tokenLabel).join(' ');
    paint();
    told();
  }

  // No result on screen, only `message` if given; `why` ('untrained', 'invalid') goes to
  // data-ready.
  function showNothing(why, message = null) {
    result.replaceChildren(...(message ? [message] : []));
    decodedRow.replaceChildren();
    decodedCells = [];
    heatFiles.update(null);
    element.dataset.ready = why;
    delete element.dataset.heads;
    told();
  }

  // Predict's question waits for a trained model (tools/exercises.mjs `wait`): told of each change.
  const told = () => element.dispatchEvent(new Event('scene-ready', { bubbles: true }));
  let lastT = 1;
  const paint = () => {
    const p = progressOf(lastT);
    decodedCells.forEach((cell, k) => {
      cell.hidden = itemAmount(p, decodedCells.length, k) <= 0;
    });
  };
  // As the reader types (a moment after the last key), and at once on Enter or leaving.
  let typing = 0;
  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(look, TYPING_PAUSE_MS);
  });
  input.addEventListener('change', () => {
    clearTimeout(typing);
    look();
  });
  const element = h(
    'div',
    { class: 'scene scene-heads-learned' },
    h(
      'label',
      { class: 'heads-field', 'data-export': 'skip' },
      h('span', { text: tr('ch3.heads.inputLabel') }),
      input,
    ),
    h('p', { class: 'heads-help', id: helpId, text: tr('ch3.heads.help') }),
    problem,
    result,
    heatFiles.element,
    decodedRow,
  );
  // The run's status changing (a link's model loaded, a run paused) shows the model it has now.
  let seenStatus = '';
  let unsubscribe = null;
  const follow = (run) => {
    if (!element.isConnected) {
      unsubscribe?.();
      unsubscribe = null;
      return;
    }
    const key = `${run.status}|${run.loadedStep}`;
    if (key === seenStatus) return;
    seenStatus = key;
    look();
  };
  const render = (t) => {
    lastT = t;
    if (!unsubscribe) {
      unsubscribe = training.subscribe(follow);
      seenStatus = `${training.run.status}|${training.run.loadedStep}`;
      look();
    }
    paint();
  };
  const explanation = { sentences: [tr('ch3.heads.explain')], formula: null };
  return { element, render, explanation, narration: tr('ch3.narrate.heads') };
}

const steps = () => [
  singleStep({
    id: 'heads-learned',
    titleKey: 'ch3.title.heads',
    duration: 4,
    build,
    // Predict (tools/exercises.mjs): where a head looks from the last token of the stage's
    // sequence, asked only as far as the weights show it (the scene's data-heads): where the
    // model's induction head looks; without one, where its previous-token head looks; with
    // neither, where an induction head would look, saying the model has none.
    questions: () => {
      const tokens = parseLetters(DEFAULT_SEQUENCE).tokens;
      const asked = (heads) => (scene) => (scene?.dataset.heads ?? 'induction') === heads;
      // Asked once a trained model's heads are on screen: an untrained one has no answer.
      const wait = (scene) =>
        scene?.dataset.ready === 'true' ? null : (tr) => tr('ch3.ask.waitTrained');
      const question = (id, heads, { ask, hint }, answer) => ({
        id,
        applies: asked(heads),
        prompt: (tr) => tr(ask, { sequence: DEFAULT_SEQUENCE }),
        answer: () => answer,
        hint: (tr) => hint.map((key) => tr(key)),
        whole: true,
        wait,
      });
      const induction = ['ch3.hint.inductionTitle', 'ch3.hint.inductionNext'];
      return [
        question(
          'induction-next',
          'induction',
          { ask: 'ch3.ask.inductionNext', hint: induction },
          inductionTarget(tokens),
        ),
        question(
          'previous-next',
          'previous',
          {
            ask: 'ch3.ask.previousNext',
            hint: ['ch3.hint.previousTitle', 'ch3.hint.previousNext'],
          },
          tokens.length - 2,
        ),
        question(
          'induction-none',
          'none',
          { ask: 'ch3.ask.inductionNone', hint: induction },
          inductionTarget(tokens),
        ),
      ];
    },
  }),
];

// No table for the trained heads: the tables and "Your numbers" say where they are.
export default { titleKey: 'stage.heads-learned', steps, panels: { note: 'ch3.panels.heads' } };
