// Chapter 4, "Training live" (#step=ch4-train): the character model learns the chosen text in
// its worker (app/language-run.mjs). The loss curve is drawn against two models without
// attention (unigram: how often each character occurs; bigram: the character before decides),
// computed from the text here; the held-out loss at each sample is a dot; every SAMPLE_EVERY
// steps the model writes a sample. Train/Pause, Reset, the text (Tang poems, the English
// classic, or the learner's own, pasted). Nothing moves with the clock: the run draws itself
// as it reports.
import { h, setText } from '../../dom.mjs';
import {
  followRun,
  languageLossCurve,
  runStatus,
  textPicker,
  textSentence,
} from '../../draw/language-views.mjs';
import {
  LANGUAGE_MODEL,
  MAX_LANGUAGE_STEPS,
  MIN_OWN_TEXT,
  SAMPLE_EVERY,
  characterCount,
  describeText,
  verseShare,
} from '../../model/language.mjs';
import { TEXT_BATCH } from '../../../src/js/tasks/text-task.mjs';
import { SAMPLE_TEMPERATURE, heldOutEvery } from '../../app/language-run.mjs';

/** The learner's own text: a box to paste it in and a button that trains on it. */
function ownText(languageRun, tr) {
  const problem = h('p', { class: 'ch4-problem', role: 'status' });
  const box = h('textarea', {
    rows: 3,
    spellcheck: 'false',
    placeholder: tr('ch4.own.placeholder', { least: MIN_OWN_TEXT }),
    'aria-label': tr('ch4.own.label'),
    dataset: { control: 'ch4-own' },
  });
  const use = h('button', {
    type: 'button',
    dataset: { control: 'ch4-own-train' },
    text: tr('ch4.own.use'),
    onclick: () => {
      try {
        describeText(box.value);
      } catch (error) {
        problem.textContent = tr('ch4.own.short', {
          least: MIN_OWN_TEXT,
          n: characterCount(box.value),
        });
        return error;
      }
      problem.textContent = '';
      languageRun.setText('own', box.value);
    },
  });
  return h(
    'details',
    { class: 'ch4-own' },
    h('summary', { text: tr('ch4.own.summary') }),
    box,
    use,
    problem,
  );
}

/** The samples, newest first: the step, the seconds of training, the text (and its verse). */
function sampleList(run, tr) {
  return [...run.samples].reverse().map((s) => {
    const share = run.choice === 'tang' ? verseShare(s.text) : null;
    return h(
      'li',
      { class: 'ch4-sample', dataset: { step: s.step } },
      h('span', {
        class: 'ch4-sample-when',
        text: tr('ch4.train.sampleAt', { step: s.step, seconds: s.seconds.toFixed(0) }),
      }),
      h('pre', { class: 'ch4-sample-text', text: s.text }),
      share === null
        ? null
        : h('span', {
            class: 'ch4-note',
            text: tr('ch4.train.verse', { share: Math.round(100 * share) }),
          }),
    );
  });
}

/** The curve's x axis ends at the first of these past the run's step: the first minute is not squeezed. */
const AXIS_ENDS = [500, 1000, 2000, 4000, MAX_LANGUAGE_STEPS];
const axisEnd = (step) => AXIS_ENDS.find((end) => end >= step) ?? MAX_LANGUAGE_STEPS;

/** What the run is doing, in one line. */
function statusText(run, tr) {
  if (run.status === 'failed') return tr('ch4.train.failed', { reason: run.error });
  if (run.step > 0) {
    const perSecond = Math.round(1000 / run.msPerStep);
    return tr('ch4.train.status', { step: run.step, loss: run.loss.toFixed(3), perSecond });
  }
  if (run.status === 'starting') return tr('ch4.train.starting');
  if (run.text.status !== 'ready') return textSentence(run, tr);
  return tr('ch4.train.ready');
}

function build(ctx) {
  const { tr, languageRun } = ctx;
  const { run } = languageRun;
  const picker = textPicker(languageRun, tr);
  const train = h('button', {
    type: 'button',
    class: 'train-button',
    dataset: { control: 'ch4-train' },
    onclick: () =>
      run.status === 'running' || run.status === 'starting'
        ? languageRun.pause()
        : languageRun.start(),
  });
  const reset = h('button', {
    type: 'button',
    dataset: { control: 'ch4-reset' },
    text: tr('ch4.train.reset'),
    onclick: () => languageRun.reset(),
  });
  const about = h('p', { class: 'ch4-about' });
  const status = h('p', { class: 'ch4-status', role: 'status', 'aria-live': 'polite' });
  const heldOut = h('p', { class: 'ch4-heldout' });
  const curve = languageLossCurve(tr);
  const samples = h('ol', { class: 'ch4-samples' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-train' },
    h(
      'div',
      { class: 'ch4-controls train-controls', 'data-export': 'skip' },
      h('div', { class: 'train-buttons' }, train, reset),
      picker.element,
      ownText(languageRun, tr),
    ),
    about,
    status,
    h('figure', { class: 'ch4-curve-figure' }, curve.element),
    heldOut,
    h('h3', {
      text: tr('ch4.train.samplesTitle', { every: SAMPLE_EVERY, temperature: SAMPLE_TEMPERATURE }),
    }),
    samples,
  );
  let drawnSamples = -1;
  let statusAt = -Infinity;

  function draw() {
    picker.update();
    const busy = run.status === 'running' || run.status === 'starting';
    setText(
      train,
      tr(busy ? 'ch4.train.pause' : run.step > 0 ? 'ch4.train.resume' : 'ch4.train.train'),
    );
    train.setAttribute('aria-pressed', String(busy));
    train.disabled = run.text.status !== 'ready' || run.step >= MAX_LANGUAGE_STEPS;
    setText(about, textSentence(run, tr));
    const now = performance.now();
    if (!busy || now - statusAt > 1000) {
      statusAt = now;
      setText(status, statusText(run, tr));
    }
    const last = run.heldOut.at(-1);
    const info = run.text.info;
    setText(
      heldOut,
      last && info
        ? tr('ch4.train.heldOut', {
            step: last.step,
            every: heldOutEvery(info.length),
            loss: last.loss.toFixed(3),
            bits: (last.loss / Math.LN2).toFixed(2),
            accuracy: Math.round(100 * last.accuracy),
            unigram: info.baselines.unigram.toFixed(2),
            bigram: info.baselines.bigram.toFixed(2),
          })
        : '',
    );
    curve.update(run, axisEnd(run.step));
    if (run.samples.length !== drawnSamples) {
      drawnSamples = run.samples.length;
      samples.replaceChildren(...sampleList(run, tr));
    }
    element.dataset.status = run.status;
    element.dataset.step = String(run.step);
    element.dataset.text = run.text.status;
  }
  const follow = followRun(languageRun, element, draw);
  const render = (t) => {
    follow();
    element.dataset.t = t >= 1 ? '1' : '0';
  };
  const explanation = {
    sentences: [
      tr('ch4.train.explain', {
        layers: LANGUAGE_MODEL.layers,
        heads: LANGUAGE_MODEL.heads,
        dModel: LANGUAGE_MODEL.dModel,
        context: LANGUAGE_MODEL.context,
        batch: TEXT_BATCH,
      }),
      tr('ch4.train.baselines'),
    ],
    formula: null,
  };
  return { element, render, explanation, narration: tr('ch4.narrate.train') };
}

const steps = () => [
  {
    id: 'lm-train',
    family: 'lm-train',
    params: {},
    duration: 2,
    title: (tr) => tr('ch4.title.train'),
    build,
  },
];

export default { titleKey: 'ch4.stage.train', steps };
