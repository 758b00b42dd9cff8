// Chapter 4, "Training live" (#step=lm-train): the character model learns the chosen text in
// its worker (app/language-run.mjs). The loss curve is drawn against two models without
// attention (unigram: how often each character occurs; bigram: the character before decides),
// computed from the text here; the held-out loss at each sample is a dot; every SAMPLE_EVERY
// steps the model writes a sample. Train/Pause, Reset, the text (Tang poems, the English
// classic, or the learner's own, pasted); with a snapshot shown, Keep training (the snapshot
// learns on), Start from scratch and Back to the snapshot. Nothing moves with the clock: the
// run draws itself as it reports.
import { h, setText } from '../../dom.mjs';
import {
  followRun,
  heldOutSentence,
  languageLossCurve,
  ownText,
  runStatus,
  snapshotNote,
  textPicker,
  textSentence,
} from '../../draw/language-views.mjs';
import {
  LANGUAGE_MODEL,
  MAX_LANGUAGE_STEPS,
  SAMPLE_EVERY,
  SAMPLE_SAMPLING,
  heldOutEvery,
  verseShare,
} from '../../model/language.mjs';
import { trainedSteps } from '../../model/training.mjs';
import { TEXT_BATCH, trainEndOf } from 'attention-explained';
import { singleStep } from '../single-step.mjs';

/** When a sample was written: its step and seconds of training here, after the snapshot's offline steps if any. */
function sampleWhen(run, s, tr) {
  const seconds = s.seconds.toFixed(0);
  if (run.loadedStep === null) return tr('ch4.train.sampleAt', { step: s.step, seconds });
  const offline = run.loadedStep.toLocaleString('en-US');
  if (s.step === 0) return tr('ch4.train.sampleSnapshot', { steps: offline });
  const step = (run.loadedStep + s.step).toLocaleString('en-US');
  return tr('ch4.train.sampleKept', { step, offline, here: s.step, seconds });
}

/**
 * The samples, newest first: the step and the seconds of training (after the snapshot's
 * offline steps, for the snapshot), the text (and its verse).
 */
function sampleList(run, tr) {
  return [...run.samples].reverse().map((s) => {
    const share = run.choice === 'tang' ? verseShare(s.text) : null;
    const when = sampleWhen(run, s, tr);
    return h(
      'li',
      { class: 'ch4-sample', dataset: { step: s.step } },
      h('span', { class: 'ch4-sample-when', text: when }),
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
  // A snapshot trained on counts its offline steps first, as the curve does.
  const step = trainedSteps(run);
  if (run.scoring) {
    // Seconds for a long text, and training waits: said, so the steps do not seem stuck.
    const { length } = run.text.info;
    const characters = (length - trainEndOf(length)).toLocaleString('en-US');
    return tr('ch4.train.scoring', { step: step.toLocaleString('en-US'), characters });
  }
  if (run.source === 'snapshot' && run.step === 0) return runStatus(run, tr, { training: true });
  if (run.step > 0) {
    const loss = run.loss.toFixed(3);
    if (run.status !== 'running') return tr('ch4.train.paused', { step, loss });
    const perSecond = Math.round(1000 / run.msPerStep);
    return tr('ch4.train.status', { step, loss, perSecond });
  }
  // Running, before its first progress: still starting, not "ready".
  if (run.status === 'starting' || run.status === 'running') return tr('ch4.train.starting');
  if (run.text.status !== 'ready') return textSentence(run, tr);
  return tr('ch4.train.ready');
}

/** What the curve's line and dots are, and their unit: a line under the curve. */
function curveLegend(tr) {
  const item = (swatch, key) =>
    h('span', { class: 'ch4-legend-item' }, h('span', { class: swatch }), tr(key));
  return h(
    'figcaption',
    { class: 'ch4-legend' },
    item('legend-line', 'ch4.train.legendTraining'),
    item('legend-dot', 'ch4.train.legendHeldOut'),
    h('span', { class: 'ch4-legend-item', text: tr('ch4.train.legendUnit') }),
  );
}

/** The Train button's words: from scratch (the snapshot is shown), pause, resume or train. */
function trainLabel(run, busy) {
  if (run.source === 'snapshot') return 'ch4.train.fromScratch';
  if (busy) return 'ch4.train.pause';
  return run.step > 0 ? 'ch4.train.resume' : 'ch4.train.train';
}

/** The Keep training button's words (the snapshot is shown): keep training, or pause. */
const keepLabel = (busy) => (busy ? 'ch4.train.pause' : 'ch4.train.keep');

function build(ctx) {
  const { tr, languageRun } = ctx;
  const { run } = languageRun;
  const picker = textPicker(languageRun, tr);
  // The snapshot is shown: Train starts a new model from scratch (and trains it).
  const train = h('button', {
    type: 'button',
    class: 'train-button',
    dataset: { control: 'ch4-train' },
    onclick: () => {
      if (run.source === 'snapshot') return languageRun.fromScratch();
      return run.status === 'running' || run.status === 'starting'
        ? languageRun.pause()
        : languageRun.start();
    },
  });
  // The snapshot is shown: Keep training trains it on here (and pauses, and goes on).
  const keep = h('button', {
    type: 'button',
    dataset: { control: 'ch4-keep' },
    onclick: () =>
      run.status === 'running' || run.status === 'starting'
        ? languageRun.pause()
        : languageRun.keepTraining(),
  });
  const back = h('button', {
    type: 'button',
    dataset: { control: 'ch4-snapshot' },
    text: tr('ch4.train.toSnapshot'),
    onclick: () => languageRun.toSnapshot(),
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
  const verdict = h('p', { class: 'ch4-heldout ch4-beats' });
  // Only a text with a snapshot says what the snapshot is (the learner's own text has none).
  const snapshotAbout = h('p', { class: 'ch4-note', text: tr('ch4.train.snapshotExplain') });
  const curve = languageLossCurve(tr);
  const samples = h('ol', { class: 'ch4-samples' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-train' },
    h(
      'div',
      { class: 'ch4-controls train-controls', 'data-export': 'skip' },
      h('div', { class: 'train-buttons' }, train, keep, reset, back),
      picker.element,
      ownText(languageRun, tr),
    ),
    about,
    snapshotAbout,
    status,
    h('figure', { class: 'ch4-curve-figure' }, curve.element, curveLegend(tr)),
    heldOut,
    verdict,
    h('h3', {
      text: tr('ch4.train.samplesTitle', { every: SAMPLE_EVERY, ...SAMPLE_SAMPLING }),
    }),
    samples,
  );
  let drawnSamples = -1;
  let statusAt = -Infinity;
  let statusScoring = false;

  function draw() {
    picker.update();
    const busy = run.status === 'running' || run.status === 'starting';
    const snapshot = run.source === 'snapshot';
    setText(train, tr(trainLabel(run, busy)));
    train.setAttribute('aria-pressed', String(busy && !snapshot));
    const unread = run.text.status !== 'ready';
    const done = run.step >= MAX_LANGUAGE_STEPS;
    // From scratch starts a new model: the steps of the snapshot trained on do not stop it.
    train.disabled = unread || (done && !snapshot);
    setText(keep, tr(keepLabel(busy)));
    keep.setAttribute('aria-pressed', String(busy && snapshot));
    keep.hidden = !snapshot;
    keep.disabled = unread || done || run.snapshot.status !== 'ready';
    reset.hidden = snapshot;
    // Back to the snapshot as stored: from a new model, or from the snapshot trained on here.
    back.hidden = (snapshot && run.step === 0 && !busy) || run.snapshot.status !== 'ready';
    setText(about, [textSentence(run, tr), snapshotNote(run, tr)].filter(Boolean).join(' '));
    snapshotAbout.hidden = run.snapshot.status !== 'ready';
    const now = performance.now();
    // While busy, the status is rewritten once a second, and at once when scoring starts or ends.
    if (!busy || now - statusAt > 1000 || run.scoring !== statusScoring) {
      statusAt = now;
      statusScoring = run.scoring;
      setText(status, statusText(run, tr));
    }
    const last = run.heldOut.at(-1);
    const info = run.text.info;
    setText(
      heldOut,
      last && info
        ? tr('ch4.train.heldOut', {
            step: (run.loadedStep ?? 0) + last.step,
            every: heldOutEvery(info.length),
            loss: last.loss.toFixed(3),
            bits: (last.loss / Math.LN2).toFixed(2),
            accuracy: Math.round(100 * last.accuracy),
            unigram: info.baselines.unigram.toFixed(2),
            bigram: info.baselines.bigram.toFixed(2),
          })
        : '',
    );
    setText(verdict, heldOutSentence(run, tr));
    verdict.hidden = !verdict.textContent;
    const offline = run.loadedStep ?? 0; // the curve's steps count the snapshot's offline ones
    curve.update(run, axisEnd(trainedSteps(run)), offline);
    if (run.samples.length !== drawnSamples) {
      drawnSamples = run.samples.length;
      samples.replaceChildren(...sampleList(run, tr));
    }
    element.dataset.source = run.source;
    element.dataset.status = run.status;
    element.dataset.step = String(run.step);
    element.dataset.text = run.text.status;
  }
  const follow = followRun(languageRun, element, draw);
  // The curve and the samples follow the run as it trains, not the clock.
  const render = follow;
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
  singleStep({ id: 'lm-train', titleKey: 'ch4.title.train', duration: 2, build }),
];

export default { titleKey: 'ch4.stage.train', steps };
