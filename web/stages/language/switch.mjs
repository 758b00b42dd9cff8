// Chapter 4, "Switch off a head" (#step=ch4-switch): a switch per head; the model runs on the
// learner's sentence with every head on and with the chosen heads off (their outputs zeroed:
// the head mask of the worker's forward pass), and the page says by how much the sentence's
// loss and the last prediction changed. The heads switched off stay off for the writing stage.
import { h, setText } from '../../dom.mjs';
import {
  followRun,
  forwardFollower,
  probabilityBars,
  sentenceAndStatus,
  showId,
  textReading,
} from '../../draw/language-views.mjs';
import { itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import {
  LANGUAGE_MODEL,
  allHeadsOn,
  headsOff,
  readSentenceHeads,
  sentenceScores,
  showCharacter,
} from '../../model/language.mjs';
import { formatNats, formatProbability } from '../../format.mjs';
import { singleStep } from '../single-step.mjs';

const { layers: L, heads: H } = LANGUAGE_MODEL;

/** One switch per head, layer by layer; a change sets the run's head mask. */
function headSwitches(languageRun, tr) {
  const boxes = [];
  const readings = [];
  const rows = Array.from({ length: L }, (_, l) =>
    h(
      'div',
      { class: 'ch4-switch-layer' },
      Array.from({ length: H }, (_, hd) => {
        const k = l * H + hd;
        const box = h('input', {
          type: 'checkbox',
          checked: true,
          dataset: { head: k },
          onchange: () => {
            const mask = [...languageRun.run.headMask];
            mask[k] = box.checked ? 1 : 0;
            languageRun.setHeadMask(mask);
          },
        });
        const reading = h('span', { class: 'head-reading' });
        boxes.push(box);
        readings.push(reading);
        return h(
          'label',
          { class: `ch4-switch head-${hd + 1}` },
          box,
          h('span', {
            class: 'head-name',
            text: tr('ch4.headName', { layer: l + 1, head: hd + 1 }),
          }),
          reading,
        );
      }),
    ),
  );
  const all = h('button', {
    type: 'button',
    text: tr('ch4.switch.allOn'),
    onclick: () => languageRun.setHeadMask(allHeadsOn(L, H)),
  });
  const element = h('div', { class: 'ch4-switches', 'data-export': 'skip' }, rows, all);
  const update = (mask) =>
    boxes.forEach((box, k) => {
      if (box.checked !== Boolean(mask[k])) box.checked = Boolean(mask[k]);
    });
  const read = (heads) => heads.forEach((x, k) => setText(readings[k], textReading(x, tr)));
  return { element, update, read, rows };
}

function build(ctx) {
  const { tr, languageRun } = ctx;
  const sentence = sentenceAndStatus(languageRun, tr);
  const switches = headSwitches(languageRun, tr);
  const verdict = h('p', { class: 'ch4-verdict', 'aria-live': 'polite' });
  const before = h('div', { class: 'ch4-stagepart' });
  const after = h('div', { class: 'ch4-stagepart' });
  const caption = h('p', { class: 'ch4-note' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-switch' },
    sentence.field.element,
    sentence.status,
    // Above the heads, which run down a phone's screen: a tap far down brings it into view
    // once the model has run again (tell()).
    verdict,
    switches.element,
    caption,
    h('div', { class: 'ch4-compare' }, before, after),
  );
  // A head switched by the learner: show the verdict once it has the new numbers, scrolled
  // into view if it is off screen (on a phone the heads are taller than the screen).
  let switched = false;
  switches.element.addEventListener('change', () => (switched = true));
  switches.element.addEventListener('click', (event) => {
    if (event.target.closest('button')) switched = true;
  });
  function showVerdict() {
    if (!switched || !verdict.isConnected) return;
    switched = false;
    const { top, bottom } = verdict.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) verdict.scrollIntoView({ block: 'nearest' });
  }
  let whole = null; // { scores, key } with every head on
  let masked = null; // { scores, key, mask } with the run's mask

  function bars(target, title, scores) {
    const { tokenizer } = languageRun.run.text.info;
    target.replaceChildren(
      h('h3', { text: title }),
      h(
        'figure',
        { class: 'prob-figure' },
        probabilityBars(scores.last.top, scores.last.truth, tokenizer, tr),
      ),
    );
  }

  function tell() {
    if (!whole || !masked || whole.key !== masked.key) return;
    const { tokenizer } = languageRun.run.text.info;
    const name = (id) => showId(tokenizer, id, tr);
    const off = headsOff(masked.mask, H);
    const a = whole.scores;
    const b = masked.scores;
    bars(before, tr('ch4.switch.before'), a);
    bars(after, tr('ch4.switch.after', { n: off.length }), b);
    const truth = a.last.truth;
    // The bars are the prediction made at the last character but one, of the last.
    const characters = [...languageRun.run.sentence];
    setText(
      caption,
      tr('ch4.switch.barsCaption', {
        before: showCharacter(characters.at(-2) ?? ''),
        truth: name(truth),
      }),
    );
    element.dataset.lossOn = String(a.loss);
    element.dataset.lossOff = String(b.loss);
    element.dataset.off = String(off.length);
    if (off.length === 0) {
      verdict.textContent = tr('ch4.switch.none', { loss: formatNats(a.loss) });
      showVerdict();
      return;
    }
    const change = b.loss - a.loss;
    const sign = (x) => (x >= 0 ? '+' : '−');
    const guessFrom = name(a.last.top[0].id);
    const guessTo = name(b.last.top[0].id);
    verdict.textContent = tr('ch4.switch.changed', {
      heads: off
        .map((x) => tr('ch4.headName', { layer: x.layer + 1, head: x.head + 1 }))
        .join(tr('ch4.list.separator')),
      from: formatNats(a.loss),
      to: formatNats(b.loss),
      change: `${sign(change)}${formatNats(Math.abs(change))}`,
      percent: `${sign(change)}${Math.abs((100 * change) / a.loss).toFixed(1)}`,
      truth: name(truth),
      pFrom: formatProbability(a.last.p[truth]),
      pTo: formatProbability(b.last.p[truth]),
      guess:
        guessFrom === guessTo
          ? tr('ch4.switch.guessStays', { guess: guessFrom })
          : tr('ch4.switch.guessChanged', { guessFrom, guessTo }),
    });
    showVerdict();
  }

  const followWhole = forwardFollower(
    languageRun,
    ({ logits, attention }, request) => {
      const { tokenizer } = languageRun.run.text.info;
      const ids = Array.from(request.tokens);
      whole = { key: request.key, scores: sentenceScores(logits, ids) };
      switches.read(
        readSentenceHeads(
          attention,
          ids.map((id) => tokenizer.characters[id]),
        ),
      );
      tell();
    },
    sentence.failed,
  );
  const followMasked = forwardFollower(
    languageRun,
    ({ logits }, request) => {
      masked = {
        key: request.key,
        mask: request.headMask,
        scores: sentenceScores(logits, Array.from(request.tokens)),
      };
      tell();
    },
    sentence.failed,
  );
  function draw(run) {
    const read = sentence.update(run);
    switches.update(run.headMask);
    if (!read) return;
    followWhole({ ...read, headMask: allHeadsOn(L, H) });
    followMasked({ ...read, headMask: [...run.headMask] });
  }
  const followed = followRun(languageRun, element, draw);
  const render = (t) => {
    followed();
    const p = progressOf(t);
    switches.rows.forEach((row, k) => reveal(row, itemAmount(p, switches.rows.length, k)));
  };
  const explanation = {
    sentences: [tr('ch4.switch.explain'), tr('ch4.switch.how')],
    formula: null,
  };
  return { element, render, explanation, narration: tr('ch4.narrate.switch') };
}

const steps = () => [
  singleStep({ id: 'lm-switch', titleKey: 'ch4.title.switch', duration: 3, build }),
];

export default { titleKey: 'ch4.stage.switch', steps };
