// Chapter 3, "What the heads learned" (#step=heads-learned): the reader types a sequence
// ("A B C D A B C"); the model trained in the previous stage reads it (forward(), in this
// thread, on a copy of the worker's parameters). Layer 1's previous-token head and the last
// layer's induction head are drawn as token lines (BertViz-style) and heatmaps; the model's
// prediction for the next token and the head that explains it follow; then the model decodes
// token by token with its KV cache (generate()), one new token revealed at a time by the clock.
import { INDUCTION_LENGTH } from '../../../src/js/induction-task.mjs';
import { h } from '../../dom.mjs';
import { formatExact } from '../../format.mjs';
import { headHeatmap, tokenLines, tokenStrip } from '../../draw/training-views.mjs';
import { heatmapFiles } from '../../tools/export/heatmaps.mjs';
import { trainingFileBase } from '../../tools/export/training.mjs';
import { itemAmount, progressOf } from '../../draw/timing.mjs';
import {
  attendedKeys,
  headRoles,
  parseLetters,
  predictedToken,
  tokenLabel,
  trainedSteps,
} from '../../model/training.mjs';

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

/** One head drawn twice: token lines and its heatmap, with a sentence saying what it does. */
function headView(tokens, role, about, tr) {
  const name = tr('ch3.train.headName', { layer: role.layer + 1, head: role.head + 1 });
  const map = headHeatmap(name, `head-${role.head + 1}`, { tokens });
  map.update(role.weights);
  return h(
    'section',
    { class: 'learned-head', dataset: { layer: role.layer, head: role.head } },
    h('h3', { text: name }),
    h('p', { text: about }),
    h(
      'div',
      { class: 'learned-head-views' },
      tokenLines(tokens, role.weights, { label: name, headClass: `head-${role.head + 1}` }),
      map.element,
    ),
  );
}

/** Everything the model says about `tokens`: the two heads, the prediction, the decoding. */
function analyse(model, tokens, tr) {
  const { logits, attention } = model.forward({ tokens: Int32Array.from(tokens) });
  const roles = headRoles(attention, tokens);
  const last = tokens.length - 1;
  const next = predictedToken(logits, last);
  const { inductionHead: ind, previousHead: prev } = roles;
  // The key it weighs most from the last token: always one, even where no weight reaches
  // attendedKeys' threshold (25 tokens weighed evenly, 0.04 each) or none is a number.
  const [top = { key: 0, w: ind.weights[last][0] }] = attendedKeys(ind.weights, last, 0);
  const count = Math.min(DECODE_COUNT, INDUCTION_LENGTH + 1 - tokens.length);
  const decoded = count > 0 ? Array.from(model.generate(tokens, count)) : [];
  return {
    prev: headView(
      tokens,
      prev,
      tr('ch3.heads.previous', { score: formatExact(prev.previous) }),
      tr,
    ),
    ind: headView(
      tokens,
      ind,
      ind.induction === null
        ? tr('ch3.heads.noRepeat')
        : tr('ch3.heads.induction', { score: formatExact(ind.induction) }),
      tr,
    ),
    // Only a last token seen before has a copy whose successor a head can point at.
    prediction:
      inductionTarget(tokens) < 0
        ? tr('ch3.heads.predictionNoCopy', {
            token: tokenLabel(next),
            last: tokenLabel(tokens[last]),
          })
        : tr('ch3.heads.prediction', {
            token: tokenLabel(next),
            layer: ind.layer + 1,
            head: ind.head + 1,
            key: tokenLabel(tokens[top.key]),
            position: top.key,
            weight: formatExact(top.w),
          }),
    next,
    attendedKey: top.key,
    decoded,
    heads: roles.heads.map((x) => ({
      ...x,
      name: tr('ch3.train.headName', { layer: x.layer + 1, head: x.head + 1 }),
    })),
  };
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
    if (!model) {
      // A model on its way from a link (or a file) is said to be; else, train one first.
      const loading = training.run.status === 'starting';
      const text = tr(loading ? 'ch3.heads.loading' : 'ch3.heads.untrained');
      showNothing('untrained', h('p', { class: 'heads-untrained', text }));
      return;
    }
    const found = analyse(model, parsed.tokens, tr);
    result.replaceChildren(
      h('p', { class: 'heads-prediction', dataset: { next: found.next }, text: found.prediction }),
      h('div', { class: 'learned-heads' }, found.prev, found.ind),
    );
    decodedCells = found.decoded.map((id) => h('li', { class: 'token token-new' }, tokenLabel(id)));
    decodedRow.replaceChildren(
      h('p', { text: tr('ch3.heads.decoding', { step: trainedSteps(training.run) }) }),
      h('ol', { class: 'token-strip' }, [...tokenStrip(parsed.tokens).children], decodedCells),
    );
    heatFiles.update({
      title: tr('ch3.title.heads'),
      caption: `${tr('ch3.files.heatmaps.after', { step: training.run.step })} · ${tr('app.title')}`,
      tokens: parsed.tokens,
      heads: found.heads,
    });
    element.dataset.ready = 'true';
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
  {
    id: 'heads-learned',
    family: 'heads-learned',
    params: {},
    duration: 4,
    title: (tr) => tr('ch3.title.heads'),
    build,
    // Predict (tools/exercises.mjs): where an induction head looks from the last token of
    // the stage's sequence: the position right after the earlier copy of that token.
    questions: () => [
      {
        id: 'induction-next',
        prompt: (tr) => tr('ch3.ask.inductionNext', { sequence: DEFAULT_SEQUENCE }),
        answer: () => inductionTarget(parseLetters(DEFAULT_SEQUENCE).tokens),
        hint: (tr) => [tr('ch3.hint.inductionTitle'), tr('ch3.hint.inductionNext')],
        whole: true,
        // Asked once a trained model's heads are on screen: an untrained one has no answer.
        wait: (scene) =>
          scene?.dataset.ready === 'true' ? null : (tr) => tr('ch3.ask.waitTrained'),
      },
    ],
  },
];

// No table for the trained heads: the tables and "Your numbers" say where they are.
export default { titleKey: 'stage.heads-learned', steps, panels: { note: 'ch3.panels.heads' } };
