// Chapter 4's drawing parts, shared by its six stages: the text picker and the learner's
// sentence (both change the one run, app/language-run.mjs), a row of characters, the loss
// curve with its baselines, bars of next-character probabilities, and the scene's link to
// the run (it follows the run while on screen and lets go once taken off).
import { h, setText, svg } from '../dom.mjs';
import { oncePerFrame } from '../idle.mjs';
import { lossPoints, weightRgb } from './training-views.mjs';
import {
  MIN_OWN_TEXT,
  SAMPLE_SAMPLING,
  TEXT_CHOICES,
  characterCount,
  describeText,
  heldOutVerdict,
  parseSentence,
  showCharacter,
} from '../model/language.mjs';

/**
 * The character of vocabulary id `id` as chapter 4 shows it (showCharacter), but the id the
 * rarer characters share named as such ("⟨rare⟩", "⟨罕见字⟩"): its character, U+FFFD, was
 * drawn as "�", a broken glyph, among the likeliest next characters.
 */
export const showId = (tokenizer, id, tr) =>
  id === tokenizer.unknownId ? tr('ch4.text.rare') : showCharacter(tokenizer.characters[id]);

/**
 * Follows the run while `element` is on screen: `draw(run)` once per frame after each change,
 * the text read and the worker started ahead (the run's prepare()). Returns render(t)'s part
 * that does it (call it at every render).
 */
export function followRun(languageRun, element, draw) {
  let unsubscribe = null;
  const redraw = () => {
    languageRun.prepare();
    draw(languageRun.run);
  };
  const schedule = oncePerFrame(() => {
    if (element.isConnected) return redraw();
    unsubscribe?.();
    unsubscribe = null;
  });
  return () => {
    if (unsubscribe) return;
    unsubscribe = languageRun.subscribe(schedule);
    redraw();
  };
}

/**
 * Follows what `ask(request)` computes for the newest request ({ key, tokens, headMask } or
 * null): asked again only when the key or the model changed, one call at a time (a newer
 * request waits for the one under way): onResult(result, request) with what it resolved to
 * (nothing when it resolved to null); onError(error) when it or onResult failed (the scene
 * says why).
 */
export function latestFollower(languageRun, ask, onResult, onError) {
  let asked = '';
  let busy = false;
  let latest = null;
  return function follow(request = latest) {
    latest = request;
    if (!request || busy) return;
    const key = `${request.key}|${languageRun.run.model}|${request.headMask.join('')}`;
    if (key === asked) return;
    asked = key;
    busy = true;
    Promise.resolve()
      .then(() => ask(request))
      .then((result) => result && onResult(result, request), onError)
      .catch(onError)
      .finally(() => {
        busy = false;
        follow();
      });
  };
}

/** The model's forward pass (logits and attention) on the newest request: latestFollower. */
export function forwardFollower(languageRun, onResult, onError) {
  return latestFollower(
    languageRun,
    (request) => languageRun.forward(request.tokens, request.headMask),
    onResult,
    onError,
  );
}

/**
 * A number's colour, scaled by the largest |x| (`max`): the scores' blue above 0, the input's
 * green below (the rows of X, h).
 */
export function numberRgb(x, max) {
  if (x >= 0) return weightRgb(x / max);
  const w = Math.min(1, -x / max);
  return [255 + (0x2b - 255) * w, 255 + (0x8a - 255) * w, 255 + (0x3e - 255) * w];
}

/**
 * The text colour that reads on a cell of colour [r, g, b] (0-255): white on the dark end of
 * the scales (relative luminance under 0.2, where the page's ink falls under 3:1), else the
 * page's ink ('').
 */
export function inkOn([r, g, b]) {
  const linear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return luminance < 0.2 ? '#fff' : '';
}

/** The text the model learns: a <select> of the Tang poems, the English classic, their own. */
export function textPicker(languageRun, tr) {
  const { run } = languageRun;
  const select = h(
    'select',
    {
      dataset: { control: 'ch4-text' },
      onchange: () => {
        if (select.value === 'own' && !run.own) {
          select.value = run.choice;
          return;
        }
        languageRun.setText(select.value);
      },
    },
    TEXT_CHOICES.map((choice) =>
      h('option', { value: choice, selected: choice === run.choice }, tr(`ch4.text.${choice}`)),
    ),
  );
  const update = () => {
    if (select.value !== run.choice) select.value = run.choice;
    select.querySelector('option[value="own"]').disabled = !run.own;
  };
  update();
  return {
    element: h('label', { class: 'ch4-field' }, h('span', { text: tr('ch4.text.label') }), select),
    update,
  };
}

/** What the text is to the model, in one sentence (or that it is being read, or failed). */
export function textSentence(run, tr) {
  const { status, error, info } = run.text;
  if (status === 'failed') return tr('ch4.text.failed', { reason: error });
  if (!info) return tr('ch4.text.loading');
  // A short text keeps every character (textTaskFor): no unknown id to speak of.
  return tr(info.tokenizer.unknownId < 0 ? 'ch4.text.aboutAll' : 'ch4.text.about', {
    name: tr(run.choice === 'own' ? 'ch4.text.ownInSentence' : `ch4.text.${run.choice}`),
    characters: info.length.toLocaleString('en-US'),
    distinct: info.distinct.toLocaleString('en-US'),
    known: (info.tokenizer.vocabSize - 1).toLocaleString('en-US'),
    minCount: info.tokenizer.minCount,
    vocab: info.tokenizer.vocabSize.toLocaleString('en-US'),
    rare: tr('ch4.text.rare'),
  });
}

/**
 * The count under the learner's sentence box. While what is typed cannot be read (the box's
 * problem says why), the stages keep the last sentence that could: the count says so and names
 * it, so that the figures below are not taken for what is typed. { text, stale }
 */
export function sentenceCount(typed, run, tr, { least = 2 } = {}) {
  const n = characterCount(run.sentence);
  const info = run.text.info;
  const stale =
    typed !== run.sentence && !!info && !!parseSentence(typed, info.tokenizer, { least }).error;
  if (!stale) return { text: tr('ch4.sentence.count', { n }), stale };
  const sentence = [...run.sentence].map(showCharacter).join('');
  return { text: tr('ch4.sentence.stale', { n, sentence }), stale };
}

/**
 * The learner's sentence: a two-line box (a poem's line break counts), checked as typed
 * (model/language.mjs parseSentence); a sentence the model can read goes into the run.
 * update(run) writes the run's sentence back unless the box has the focus.
 */
export function sentenceField(languageRun, tr, { least = 2 } = {}) {
  const problem = h('p', { class: 'ch4-problem', role: 'status' });
  const count = h('span', { class: 'ch4-count' });
  const showCount = () => {
    const { text, stale } = sentenceCount(box.value, languageRun.run, tr, { least });
    setText(count, text); // rewritten at every report of the run: only when it changed
    count.classList.toggle('ch4-stale', stale);
  };
  const box = h('textarea', {
    rows: 3,
    maxlength: 64,
    spellcheck: 'false',
    dataset: { control: 'ch4-sentence' },
    'aria-label': tr('ch4.sentence.label'),
    oninput: () => {
      const info = languageRun.run.text.info;
      if (!info) return;
      const parsed = parseSentence(box.value, info.tokenizer, { least });
      problem.textContent = parsed.error ? tr(parsed.error.key, parsed.error.params) : '';
      if (!parsed.error) languageRun.setSentence(box.value);
      showCount();
    },
  });
  const update = (run) => {
    if (!box.matches(':focus') && box.value !== run.sentence) {
      box.value = run.sentence;
      problem.textContent = '';
    }
    showCount();
  };
  const element = h(
    'div',
    { class: 'ch4-sentence', 'data-export': 'skip' },
    h('label', { class: 'ch4-field' }, h('span', { text: tr('ch4.sentence.label') }), box),
    count,
    problem,
  );
  return { element, update };
}

/**
 * The top of a scene that reads the learner's sentence: its field and the model's status line,
 * which the scene places. update(run) draws both and returns the sentence as the model reads
 * it, { key (sentenceKey), tokens }, or null while it cannot (the text not read yet, or too
 * short); failed(error) says in the status line why the model refused.
 */
export function sentenceAndStatus(languageRun, tr) {
  const field = sentenceField(languageRun, tr);
  const status = h('p', { class: 'ch4-status', role: 'status' });
  const update = (run) => {
    field.update(run);
    setText(status, runStatus(run, tr));
    const tokens = sentenceIds(run);
    return tokens ? { key: sentenceKey(run), tokens } : null;
  };
  return { field, status, update, failed: sayFailure(status, tr) };
}

/** The learner's own text: a box to paste it in and a button that trains on it. */
export function ownText(languageRun, tr) {
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

/**
 * The temperatures and top-k choices the model writes with (0: every character); the
 * samples' own (SAMPLE_SAMPLING) among them, so that what the samples say they used can be
 * chosen.
 */
const withOwn = (choices, own) => [...new Set([...choices, own])].sort((a, b) => a - b);
export const TEMPERATURES = withOwn([0.2, 0.5, 1, 1.5], SAMPLE_SAMPLING.temperature);
export const TOP_KS = withOwn([0, 1, 5, 20], SAMPLE_SAMPLING.topK);

function choice(options, text, onChange, label, control) {
  const select = h(
    'select',
    { 'aria-label': label, dataset: { control }, onchange: () => onChange(Number(select.value)) },
    options.map((o) => h('option', { value: String(o) }, text(o))),
  );
  return {
    select,
    element: h('label', { class: 'ch4-field' }, h('span', { text: label }), select),
  };
}

/**
 * The temperature and top-k the model writes with (the run's sampling, one for the writing
 * stage and "Your numbers"): { elements, update(run) }.
 */
export function samplingControls(languageRun, tr) {
  const temperature = choice(
    TEMPERATURES,
    String,
    (value) => languageRun.setSampling({ temperature: value }),
    tr('ch4.write.temperature'),
    'ch4-temperature',
  );
  const topK = choice(
    TOP_KS,
    (k) => (k === 0 ? tr('ch4.write.topAll') : String(k)),
    (value) => languageRun.setSampling({ topK: value }),
    tr('ch4.write.topK'),
    'ch4-top-k',
  );
  const update = ({ sampling }) => {
    temperature.select.value = String(sampling.temperature);
    topK.select.value = String(sampling.topK);
  };
  update(languageRun.run);
  return { elements: [temperature.element, topK.element], update };
}

/** The sentence's ids if the model can read it now, else null. */
export function sentenceIds(run, least = 2) {
  const info = run.text.info;
  if (!info || !run.sentence) return null;
  return parseSentence(run.sentence, info.tokenizer, { least }).ids ?? null;
}

/**
 * What names the sentence a stage follows: the text chosen and the sentence typed. A forward
 * pass kept under this key is the one to redraw from until either changes.
 */
export const sentenceKey = (run) => `${run.choice}|${run.sentence}`;

/** A row of characters, each in its box ('↵' for a line break); `classOf(k)` adds a class. */
export function charStrip(characters, classOf = () => '') {
  return h(
    'ol',
    { class: 'char-strip' },
    characters.map((c, k) =>
      h('li', { class: `char ${classOf(k)}`.trim(), dataset: { position: k } }, showCharacter(c)),
    ),
  );
}

const CURVE = { width: 560, height: 220, left: 40, right: 100, top: 10, bottom: 28 };
// The baselines' labels, in the right margin: they start past the held-out dots (radius 3,
// the newest on the plot's right edge) and lie a line of their largest letters apart (13
// units on a phone, whose line in a Chinese font is about 1.45 em: 19 units).
const DOT_RADIUS = 3;
const LABEL = { past: DOT_RADIUS + 5, gap: 20, toBaseline: 4 };

/**
 * Where labels go along one axis: each as near its wanted place as it can be with none
 * closer than `gap` to the next, all within [low, high]. Labels that would crowd are moved
 * apart as a group, centred where they wanted to be. Returns the places in `wanted`'s order.
 */
export function spreadLabels(wanted, gap, [low, high]) {
  const order = wanted.map((_, k) => k).sort((a, b) => wanted[a] - wanted[b]);
  const groups = []; // { first: its first label's place, labels: [index into order] }
  order.forEach((k, i) => {
    let group = { first: wanted[k], labels: [i] };
    // Merge with the group above while they overlap: the merged group centred on its wishes.
    while (groups.length && groups.at(-1).first + groups.at(-1).labels.length * gap > group.first) {
      const above = groups.pop();
      const labels = [...above.labels, ...group.labels];
      const mean =
        labels.reduce((sum, j, n) => sum + wanted[order[j]] - n * gap, 0) / labels.length;
      group = { first: mean, labels };
    }
    groups.push(group);
  });
  const placed = [];
  for (const { first, labels } of groups) {
    const start = Math.min(Math.max(first, low), high - (labels.length - 1) * gap);
    labels.forEach((j, n) => (placed[order[j]] = start + n * gap));
  }
  return placed;
}

/**
 * The loss curve against the two baselines: { element, update(run, maxSteps) }. The y axis
 * runs from 0 to ln V (a uniform guess over the vocabulary); the training loss (mean of the
 * steps drawn at each point), the held-out loss at each sample (dots), and the unigram and
 * bigram baselines as labelled horizontal lines.
 */
export function languageLossCurve(tr) {
  const { width, height, left, right, top, bottom } = CURVE;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const line = svg('polyline', { class: 'loss-line', fill: 'none', points: '' });
  const dots = svg('g', { class: 'heldout-dots' });
  const base = (name) => {
    const rule = svg('line', { class: `baseline baseline-${name}`, x1: left, x2: left + plotW });
    const label = svg('text', {
      class: `baseline-label baseline-${name}`,
      x: left + plotW + LABEL.past,
    });
    return { rule, label };
  };
  const unigram = base('unigram');
  const bigram = base('bigram');
  const grid = svg('g');
  const xEnd = svg('text', {
    class: 'loss-tick',
    x: left + plotW,
    y: height - 8,
    'text-anchor': 'end',
  });
  const element = svg(
    'svg',
    {
      class: 'loss-curve ch4-curve',
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': tr('ch4.train.curveLabel'),
    },
    grid,
    svg('text', { class: 'loss-tick', x: left, y: height - 8 }, '0'),
    xEnd,
    svg(
      'text',
      { class: 'loss-axis', x: left + plotW / 2, y: height - 8, 'text-anchor': 'middle' },
      tr('ch4.train.axisSteps'),
    ),
    unigram.rule,
    bigram.rule,
    unigram.label,
    bigram.label,
    line,
    dots,
  );
  let topLoss = 0;
  const x = (step, maxSteps) => left + (plotW * step) / maxSteps;
  const y = (loss) => top + plotH * (1 - Math.min(loss, topLoss) / topLoss);

  function axis(vocab) {
    const next = Math.log(vocab);
    if (next === topLoss) return;
    topLoss = next;
    const ticks = [];
    for (let v = 0; v <= topLoss; v += topLoss > 5 ? 2 : 1) {
      ticks.push(
        svg('line', { class: 'loss-grid', x1: left, x2: left + plotW, y1: y(v), y2: y(v) }),
        svg(
          'text',
          { class: 'loss-tick', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' },
          String(v),
        ),
      );
    }
    grid.replaceChildren(...ticks);
  }

  /** `offline`: the steps the model had before the run's (a snapshot's), where x starts. */
  function update(run, maxSteps, offline = 0) {
    const info = run.text.info;
    if (!info) return;
    axis(info.tokenizer.vocabSize);
    const lines = [
      ['unigram', unigram],
      ['bigram', bigram],
    ];
    // Each label's letters centred on its line, unless the two lines are closer than a line
    // of text: then the labels part around them.
    const places = spreadLabels(
      lines.map(([name]) => y(info.baselines[name]) + LABEL.toBaseline),
      LABEL.gap,
      [top + LABEL.gap - LABEL.toBaseline, top + plotH + LABEL.toBaseline],
    );
    lines.forEach(([name, part], k) => {
      const value = info.baselines[name];
      part.rule.setAttribute('y1', y(value));
      part.rule.setAttribute('y2', y(value));
      part.label.setAttribute('y', places[k]);
      part.label.textContent = tr(`ch4.train.${name}`, { loss: value.toFixed(2) });
    });
    // A snapshot trained on: its steps here come after its offline ones, as its dots do.
    const points = lossPoints(run.losses, (step) => x(offline + step, maxSteps), y);
    line.setAttribute('points', points.join(' '));
    dots.replaceChildren(
      ...run.heldOut.map((e) =>
        svg('circle', {
          class: 'heldout-dot',
          cx: x(offline + e.step, maxSteps),
          cy: y(e.loss),
          r: DOT_RADIUS,
        }),
      ),
    );
    xEnd.textContent = String(maxSteps);
    element.dataset.points = String(points.length);
  }
  return { element, update };
}

/**
 * The most likely next characters as bars: [{ id, p }] with the true one marked; each bar's
 * length its probability, its number printed.
 */
export function probabilityBars(top, truth, tokenizer, tr) {
  return h(
    'ol',
    { class: 'prob-bars', 'aria-label': tr('ch4.next.barsLabel') },
    top.map(({ id, p }) =>
      h(
        'li',
        {
          class: `prob-bar ${id === truth ? 'is-true' : ''}`.trim(),
          dataset: { id, p: String(p) },
        },
        h('span', { class: 'prob-char', text: showId(tokenizer, id, tr) }),
        h(
          'span',
          { class: 'prob-track' },
          h('span', { class: 'prob-fill', style: { width: `${(100 * p).toFixed(1)}%` } }),
        ),
        h('span', { class: 'prob-value', text: p.toFixed(3) }),
      ),
    ),
  );
}

/** A head's reading in one line: "previous character: 0.81 of its weight on the one before". */
export function textReading(read, tr) {
  return tr(`ch4.read.${read.kind}`, {
    share: read.share.toFixed(2),
    keys: read.keys.toFixed(1),
    toward: read.toward ? tr(`ch4.read.toward.${read.toward}`) : '',
  });
}

/** The model's refusal, said in a scene's status line. */
export const sayFailure = (status, tr) => (error) =>
  (status.textContent = tr('ch4.model.failed', { reason: String(error?.message ?? error) }));

/**
 * Which model the stages show, in one line: the text's snapshot (its offline steps and its
 * held-out loss, scored in the worker once loaded; or its steps trained on here), or a model
 * trained here from scratch (its step), or why none runs. Stages other than "Training live" (`training` false) point to it
 * for what can be done there; that stage does not point to itself.
 */
export function runStatus(run, tr, { training = false } = {}) {
  if (run.status === 'failed') return tr('ch4.train.failed', { reason: run.error });
  if (run.text.status !== 'ready') return textSentence(run, tr);
  const pointing = (first, where) =>
    training ? first : tr('ch4.model.then', { first, then: tr(where) });
  if (run.source === 'snapshot') {
    if (run.loadedStep === null) return tr('ch4.model.snapshotLoading');
    if (run.step > 0) {
      const offline = run.loadedStep.toLocaleString('en-US');
      return tr('ch4.model.kept', { steps: offline, here: run.step.toLocaleString('en-US') });
    }
    const scored = run.heldOut.find((e) => e.step === run.step);
    const sentence = tr('ch4.model.snapshot', {
      steps: run.loadedStep.toLocaleString('en-US'),
      loss: scored ? scored.loss.toFixed(3) : '…',
    });
    return pointing(sentence, 'ch4.model.goScratch');
  }
  if (run.step === 0) {
    const back = run.snapshot.status === 'ready';
    return pointing(
      tr('ch4.model.untrained'),
      back ? 'ch4.model.goTrainOrBack' : 'ch4.model.goTrain',
    );
  }
  return tr('ch4.model.trained', { step: run.step });
}

/** Why the text has no snapshot to show ('' when it has one, or is the learner's own). */
export function snapshotNote(run, tr) {
  return run.snapshot.status === 'failed'
    ? tr('ch4.model.noSnapshot', { reason: run.snapshot.error })
    : '';
}

/**
 * The sentence for where the held-out loss stands against the two lines: below one by more
 * than BASELINE_MARGIN beats it; within it is "about the same as" it (no win claimed by a
 * hundredth of a nat).
 */
function verdictKey({ beatsUnigram, beatsBigram, nearUnigram, nearBigram }) {
  if (nearUnigram && nearBigram) return 'ch4.train.nearBoth';
  if (nearUnigram && !beatsBigram) return 'ch4.train.nearUnigram';
  if (nearBigram && beatsUnigram) return 'ch4.train.nearBigram';
  if (beatsUnigram) return beatsBigram ? 'ch4.train.beatsBoth' : 'ch4.train.beatsUnigram';
  return beatsBigram ? 'ch4.train.beatsBigram' : 'ch4.train.beatsNone';
}

/**
 * What the held-out losses show of the model shown, computed from them (model/language.mjs
 * heldOutVerdict): which of the two lines without attention it beats on held-out text, and,
 * when its held-out loss has risen from its best while the training loss kept falling, that
 * it is memorising the training text. '' before the first held-out score.
 */
export function heldOutSentence(run, tr) {
  const lines = run.text.info?.baselines;
  const verdict = lines && heldOutVerdict(run.heldOut, run.losses, lines);
  if (!verdict) return '';
  const { loss, best, overfitting } = verdict;
  const key = verdictKey(verdict);
  // Worse than it was: not "not yet" (as if it were still getting there).
  const where = tr(overfitting && key !== 'ch4.train.beatsBoth' ? `${key}.risen` : key, {
    loss: loss.toFixed(3),
    unigram: lines.unigram.toFixed(2),
    bigram: lines.bigram.toFixed(2),
  });
  if (!overfitting) return where;
  const offline = run.loadedStep ?? 0;
  const memorising = tr('ch4.train.overfitting', {
    best: best.loss.toFixed(3),
    step: (offline + best.step).toLocaleString('en-US'),
  });
  return tr('ch4.model.then', { first: where, then: memorising });
}
