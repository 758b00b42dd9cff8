// Chapter 3, "Train a tiny model live" (#step=train): the induction task written in letters, a
// Train button that trains a 2-layer attention-only model in a Worker (createTrainer, through
// app/training.mjs, which keeps the run across language switches and Back), the loss curve
// growing as it trains, every head's attention on one held-out row, and the moment the loss
// drops marked with what the heads do then. Switches: positions (RoPE, learned, none), 1 or 2
// layers, 1-4 heads, the seed, the speed. The scene draws what the run holds; nothing here
// computes attention.
import { createInductionTask, INDUCTION_BATCH } from 'attention-explained';
import { h, setText } from '../../dom.mjs';
import { oncePerFrame, whenIdle } from '../../idle.mjs';
import { formatExact, formatLoss } from '../../format.mjs';
import { runHeadsView, runLossView } from '../../draw/training-tables.mjs';
import { formula, frac, mi, mn, mo, row as mrow, sub, sumOver } from '../../draw/mathml.mjs';
import {
  headHeatmap,
  lossCurve,
  readingShort,
  readingText,
  tokenStrip,
} from '../../draw/training-views.mjs';
import { trainingFileBase, trainingFiles } from '../../tools/export/training.mjs';
import { heatmapFiles } from '../../tools/export/heatmaps.mjs';
import { plateauVerdict } from '../../model/plateau.mjs';
import {
  HEAD_CHOICES,
  LAYER_CHOICES,
  MAX_SEED,
  MAX_TRAINING_STEPS,
  POSITIONS,
  SPEEDS,
  modelConfig,
  parameterCount,
  parameterCountKnown,
  readingOf,
  runReading,
  trainedSteps,
} from '../../model/training.mjs';
import { singleStep } from '../single-step.mjs';

/** How often the live region's text may change (a screen reader reads every change). */
const STATUS_EVERY_MS = 1000;

/** The example rows shown above the controls: the task, whatever the run. */
function exampleRows(seed, tr) {
  const { tokens, rows, length } = createInductionTask(seed).batch(3);
  return rows.map(({ p, n }, r) => {
    const first = 1 + p;
    const marks = new Map();
    for (let k = 0; k < n; k++) {
      marks.set(first + k, 'token-run');
      marks.set(first + n + k, 'token-repeat');
    }
    return h(
      'li',
      { class: 'task-row', 'aria-label': tr('ch3.train.rowLabel', { n, p }) },
      tokenStrip(tokens.subarray(r * length, (r + 1) * length), marks),
    );
  });
}

/** A <select> of the given choices, its label, and what a change does. */
function choice({ label, value, options, text, onChange, key }) {
  const select = h(
    'select',
    { dataset: { focusKey: key, control: key }, onchange: () => onChange(select.value) },
    options.map((option) =>
      h('option', { value: String(option), selected: option === value }, text(option)),
    ),
  );
  return h('label', { class: 'train-field' }, h('span', { text: label }), select);
}

/**
 * The buttons and switches; the switches change the state (actions), the run follows it. A
 * switch that makes a new model while one is trained says, under the switches, that the
 * trained one is gone (its link or file keeps it).
 */
function controls(training, actions, tr) {
  const { settings } = training.run;
  const gone = h('p', { class: 'train-gone', role: 'status' });
  // Said once a run has taken its last step: Train is then greyed out, and this says why.
  const done = h('p', { class: 'train-done', role: 'status' });
  const setTraining = (patch) => {
    const had = trainedSteps(training.run);
    const changed = actions.setTraining(patch);
    const { run } = training;
    if (changed && had > 0 && trainedSteps(run) === 0)
      gone.textContent = tr('ch3.train.gone', { step: had });
    return changed;
  };
  const train = h('button', {
    type: 'button',
    class: 'train-button',
    dataset: { focusKey: 'train', control: 'train' },
    onclick: () => {
      gone.textContent = '';
      return training.run.status === 'running' || training.run.status === 'starting'
        ? training.pause()
        : training.start();
    },
  });
  const reset = h('button', {
    type: 'button',
    dataset: { focusKey: 'reset', control: 'reset' },
    text: tr('ch3.train.reset'),
    onclick: () => actions.resetTraining(),
  });
  const seed = h('input', {
    type: 'number',
    min: 0,
    max: MAX_SEED,
    step: 1,
    value: settings.seed,
    dataset: { focusKey: 'seed', control: 'seed' },
    onchange: () => {
      if (!setTraining({ seed: Number(seed.value) })) seed.value = training.run.settings.seed;
    },
  });
  const fields = [
    choice({
      key: 'positions',
      label: tr('ch3.train.positions'),
      value: settings.positions,
      options: POSITIONS,
      text: (p) => tr(`ch3.train.positions.${p}`),
      onChange: (positions) => setTraining({ positions }),
    }),
    choice({
      key: 'layers',
      label: tr('ch3.train.layers'),
      value: settings.layers,
      options: LAYER_CHOICES,
      text: String,
      onChange: (layers) => setTraining({ layers: Number(layers) }),
    }),
    choice({
      key: 'heads',
      label: tr('ch3.train.heads'),
      value: settings.heads,
      options: HEAD_CHOICES,
      text: String,
      onChange: (heads) => setTraining({ heads: Number(heads) }),
    }),
    h('label', { class: 'train-field' }, h('span', { text: tr('ch3.train.seed') }), seed),
    choice({
      key: 'speed',
      label: tr('ch3.train.speed'),
      value: settings.speed,
      options: SPEEDS,
      text: (s) => tr(`ch3.train.speed.${s}`),
      onChange: (speed) => setTraining({ speed }),
    }),
  ];
  const element = h(
    'div',
    { class: 'train-controls', 'data-export': 'skip' },
    h('div', { class: 'train-buttons' }, train, reset),
    h('div', { class: 'train-fields' }, fields),
    gone,
    done,
  );
  const update = (run) => {
    const busy = run.status === 'running' || run.status === 'starting';
    // Written only when it changes: this runs at every frame of a run, and a text written
    // has the frame lay the page out again.
    setText(train, tr(busy ? 'ch3.train.pause' : 'ch3.train.train'));
    train.setAttribute('aria-pressed', String(busy));
    train.disabled = run.step >= MAX_TRAINING_STEPS;
    setText(done, train.disabled ? tr('ch3.train.done', { steps: MAX_TRAINING_STEPS }) : '');
    // The switches as the run has them (a link or Back may change them under this scene),
    // except a number the reader is typing (the seed): it counts once committed (its change
    // event), and this runs at every frame of a run, which would undo each key pressed.
    for (const control of element.querySelectorAll('[data-control]')) {
      const value = run.settings[control.dataset.control];
      const typing = control.tagName === 'INPUT' && control.matches(':focus');
      if (value !== undefined && !typing && control.value !== String(value))
        control.value = String(value);
    }
  };
  return { element, update };
}

/** Why the switches matter, for the current ones (none, or 1 layer: it cannot learn it). */
function switchNote(settings, tr) {
  if (settings.layers === 1) return tr('ch3.train.why.oneLayer');
  if (settings.positions === 'none') return tr('ch3.train.why.none');
  return tr('ch3.train.why.two');
}

/**
 * What the heads did at the drop: the heads the reader names now (model/head-reading.mjs, on
 * the held-out row), and the induction head's share just before the drop, just after it and
 * now (the latest snapshot's, as the heads table says).
 */
function dropStory(run, tr) {
  if (run.dropStep === null || !run.probe) return '';
  const told = { step: run.dropStep, seconds: run.dropSeconds.toFixed(1) };
  const before = [...run.snapshots].reverse().find((s) => s.step < run.dropStep);
  const after = run.snapshots.find((s) => s.step >= run.dropStep);
  const reading = runReading(run);
  const induction = reading?.inductionHead;
  if (!after || !induction) return tr('ch3.train.dropped', told);
  const tokens = run.probe.tokens;
  const shareAt = (snapshot) => {
    const then = readingOf(snapshot.attention, tokens).heads.find(
      (x) => x.layer === induction.layer && x.head === induction.head,
    );
    return formatExact(then.scores.induction ?? 0);
  };
  const heads = {
    ...told,
    layer: induction.layer + 1,
    head: induction.head + 1,
    before: shareAt(before ?? { attention: run.probe.attention }),
    after: shareAt(after),
    // Now: the reading's own number, the one the heads table and stage 18 print.
    now: formatExact(induction.scores.induction ?? 0),
    nowStep: reading.step,
  };
  const previous = reading.previousHead;
  if (!previous) return tr('ch3.train.droppedInduction', heads);
  return tr('ch3.train.droppedHeads', {
    ...heads,
    prevLayer: previous.layer + 1,
    prevHead: previous.head + 1,
    prev: formatExact(previous.share),
  });
}

/**
 * Every head's heatmap from the run's latest snapshot (or the held-out row's attention at
 * step 0), each with its reading, and what the heatmaps' files save. A snapshot of an earlier
 * model (before a switch reset it) has other dims: not drawn, nothing to save.
 */
function drawHeads(run, maps, heatFiles, tr) {
  const reading = runReading(run);
  if (!reading) return heatFiles.update(null);
  const shown = maps.map(({ layer, head, map }) => {
    const read = reading.heads.find((x) => x.layer === layer && x.head === head);
    const text = readingText(read, tr);
    map.update(read.weights);
    map.read(text, read.kind);
    const name = tr('ch3.train.headName', { layer: layer + 1, head: head + 1 });
    return { ...read, name, reading: readingShort(read, tr) };
  });
  // An untrained model's heads are drawn, but there is nothing trained to save yet.
  if (trainedSteps(run) === 0) return heatFiles.update(null);
  heatFiles.update({
    title: tr('ch3.train.headsTitle'),
    caption: `${tr('ch3.files.heatmaps.after', { step: reading.step })} · ${tr('app.title')}`,
    tokens: run.probe.tokens,
    heads: shown,
  });
}

/**
 * A failing model told as failing (model/plateau.mjs), written only when the verdict changes;
 * true when it did.
 */
function tellVerdict(run, element, verdict, tr) {
  const failed = plateauVerdict(run);
  const text = failed ? tr(failed.key, failed.params) : '';
  if (text === verdict.textContent) return false;
  element.dataset.verdict = failed?.key ?? '';
  verdict.textContent = text;
  return true;
}

/** What the tiny model is: its layers, heads, d_model and parameters (counted by the module). */
function modelSentence({ tr, attn }, settings) {
  const config = modelConfig(settings);
  return tr('ch3.train.model', {
    layers: config.layers,
    heads: config.heads,
    dModel: config.dModel,
    dHead: config.dModel / config.heads,
    parameters: parameterCount(attn, settings).toLocaleString('en-US'),
    vocab: config.vocabSize,
    positions: tr(`ch3.train.model.${settings.positions}`, { context: config.context }),
  });
}

/** The loss training lowers: the cross-entropy of the next token, over the N places that count. */
const crossEntropyFormula = (tr) =>
  formula(
    tr('ch3.formula.crossEntropy'),
    mi('L'),
    mo('='),
    mo('−'),
    frac(mn('1'), mi('N')),
    sumOver(mi('t')),
    mi('log'),
    sub(mi('p'), mi('θ')),
    mo('('),
    sub(mi('x'), mrow(mi('t'), mo('+'), mn('1'))),
    mo('|'),
    sub(mi('x'), mrow(mn('1'), mo('…'), mi('t'))),
    mo(')'),
  );

function build(ctx) {
  const { tr, training, actions } = ctx;
  const { run } = training;
  const panel = controls(training, actions, tr);
  const curve = lossCurve(tr);
  const files = trainingFiles(training, tr, curve.element, actions.trainedModelLink);
  const fileBase = () => trainingFileBase(run.settings);
  const heatFiles = heatmapFiles({ tr, language: ctx.language, fileBase });
  const status = h('p', { class: 'train-status', role: 'status', 'aria-live': 'polite' });
  const story = h('p', { class: 'train-drop', 'aria-live': 'polite' });
  const note = h('p', { class: 'train-why', text: switchNote(run.settings, tr) });
  // What the model is, under the switches that make it.
  const about = h('p', { class: 'train-model' });
  // A failing model (1 layer, no positions) told as failing once it is long past the drop.
  const verdict = h('p', { class: 'train-verdict', 'aria-live': 'polite' });
  const probe = h('div', { class: 'train-probe' });
  const rows = h('ol', { class: 'task-rows' });
  const mapGrid = h('div', { class: 'train-heads' });
  let maps = [];
  let shape = '';
  /**
   * The example rows (by seed) and one heatmap per head of each layer, for the switches, the
   * held-out row's letters along their edges once the worker has given it.
   */
  function reshape({ seed, layers, heads, positions }, probeTokens) {
    const next = `${seed}|${layers}|${heads}|${positions}|${probeTokens ? 'probe' : ''}`;
    if (shape === next) return false;
    shape = next;
    rows.replaceChildren(...exampleRows(seed, tr));
    maps = [];
    const layerRows = Array.from({ length: layers }, (_, l) => {
      const row = Array.from({ length: heads }, (_, hd) => {
        const name = tr('ch3.train.headName', { layer: l + 1, head: hd + 1 });
        const map = headHeatmap(name, `head-${hd + 1}`, { tokens: probeTokens });
        maps.push({ layer: l, head: hd, map });
        return map.element;
      });
      return h('div', { class: 'train-layer' }, row);
    });
    mapGrid.replaceChildren(...layerRows);
    note.textContent = switchNote(run.settings, tr);
    // The sentence counts the model's parameters by making one: the first count of a shape
    // cost 30–40 ms of a page opened on this stage before it was ready, so a shape not
    // counted yet is told in the first idle moment (until then, the sentence of before).
    const tell = () => (about.textContent = modelSentence(ctx, run.settings));
    if (parameterCountKnown(ctx.attn, run.settings)) tell();
    else whenIdle(() => shape === next && tell());
    return true;
  }
  const element = h(
    'div',
    { class: 'scene scene-train' },
    h('p', { class: 'train-task', text: tr('ch3.train.task') }),
    rows,
    panel.element,
    about,
    status,
    verdict,
    note,
    curve.element,
    story,
    files.element,
    h('h3', { class: 'train-heads-title', text: tr('ch3.train.headsTitle') }),
    probe,
    mapGrid,
    heatFiles.element,
  );

  let drawnSnapshots = 0;
  let drawnProbe = null;
  let statusAt = -Infinity;
  let wasCounting = false;
  let toldKey = '';
  let unsubscribe = null;
  const statusText = () => {
    if (run.status === 'failed') return tr('ch3.train.failed', { reason: run.error });
    // Paused (by Pause, or by leaving chapter 3), the status says so: back from another
    // chapter, a reader finds the run where it stopped.
    const key = run.status === 'paused' ? 'ch3.train.paused' : 'ch3.train.status';
    if (run.step > 0) return tr(key, { step: run.step, loss: formatLoss(run.loss) });
    if (run.status === 'starting') return tr('ch3.train.starting');
    if (run.loadedStep !== null) return tr('ch3.train.loaded', { step: run.loadedStep });
    return tr('ch3.train.ready');
  };

  function draw() {
    if (!element.isConnected) {
      unsubscribe?.();
      unsubscribe = null;
      return;
    }
    panel.update(run);
    files.update(run);
    // What the heads did at the drop changes only with a new snapshot or drop.
    const storyKey = `${run.dropStep}|${run.snapshots.length}`;
    const cites = storyKey !== toldKey;
    if (cites) {
      toldKey = storyKey;
      story.textContent = dropStory(run, tr);
    }
    element.dataset.dropStep = run.dropStep ?? '';
    const verdictChanged = tellVerdict(run, element, verdict, tr);
    // The verdict says why, at length: the short "why" under it would say it twice.
    note.hidden = Boolean(element.dataset.verdict);
    const now = performance.now();
    // While steps are counting, the text changes at most once a second; anything else at once,
    // and so does a text citing a step (the drop, the verdict): the status is never behind it.
    const counting = run.status === 'running' && run.step > 0;
    if (!counting || !wasCounting || cites || verdictChanged || now - statusAt >= STATUS_EVERY_MS) {
      setText(status, statusText());
      statusAt = now;
    }
    wasCounting = counting;
    element.dataset.status = run.status;
    element.dataset.worker = run.probe ? 'ready' : '';
    element.dataset.step = String(run.step);
    curve.update(run, MAX_TRAINING_STEPS);
    if (run.probe !== drawnProbe) {
      drawnProbe = run.probe;
      probe.replaceChildren(run.probe ? tokenStrip(run.probe.tokens) : '');
    }
    if (reshape(run.settings, run.probe?.tokens) || run.snapshots.length !== drawnSnapshots) {
      drawnSnapshots = run.snapshots.length;
      // While it trains, the heads get the frame after the snapshot's, where the panels'
      // tables follow the run: the two in one frame took 21–34 ms of the page's CPU.
      if (run.status === 'running') drawHeadsNext();
      else drawHeads(run, maps, heatFiles, tr);
    }
  }
  const schedule = oncePerFrame(draw);
  const drawHeadsNext = oncePerFrame(
    () => element.isConnected && drawHeads(run, maps, heatFiles, tr),
  );

  // Nothing moves with the clock: the run draws itself as it reports (reduced motion too).
  const render = () => {
    if (unsubscribe) return;
    unsubscribe = training.subscribe(schedule);
    draw();
    whenIdle(() => element.isConnected && training.prepare());
  };
  const explanation = {
    sentences: [
      tr('ch3.train.explain', { steps: MAX_TRAINING_STEPS, batch: INDUCTION_BATCH }),
      tr('ch3.train.loss'),
    ],
    formula: crossEntropyFormula(tr),
  };
  return { element, render, explanation, narration: tr('ch3.narrate.train') };
}

const steps = () => [singleStep({ id: 'train', titleKey: 'ch3.title.train', duration: 2, build })];

/** The tables and "Your numbers" on this stage: the run's loss and heads, as it trains. */
const panels = {
  note: 'ch3.panels.train',
  tables: (ctx) => [() => runLossView(ctx), () => runHeadsView(ctx)],
  sidebar: (ctx) => [() => runHeadsView(ctx)],
};

export default { titleKey: 'stage.train', steps, panels };
