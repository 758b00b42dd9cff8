// Chapter 4, "From attention to the next character" (#step=ch4-next): on the learner's
// sentence, the last row's output h (its D numbers, shown) times the unembedding W_U gives
// one logit per character of the vocabulary; softmax turns them into the probability of each
// next character; the true next character's probability p gives the loss −ln p. Every number
// is the model's: its parameters, copied from the worker once per step shown, give the logits
// and h in this thread (model/last-row.mjs), so that every number shown is of one step of a
// run, even while it trains; softmax and −ln computed here. The clock reveals h, then the
// logits, the probabilities and the loss.
import { h, setText } from '../../dom.mjs';
import {
  charStrip,
  followRun,
  inkOn,
  latestFollower,
  numberRgb,
  probabilityBars,
  sentenceAndStatus,
  sentenceKey,
  showId,
} from '../../draw/language-views.mjs';
import { formula, frac, mi, mo, row as mrow, sub, sumOver, sup } from '../../draw/mathml.mjs';
import { progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { LANGUAGE_MODEL, sentencePlace, sentenceScores } from '../../model/language.mjs';
import { lastRowOutput } from '../../model/last-row.mjs';
import { formatExact, formatProbability } from '../../format.mjs';
import { singleStep } from '../single-step.mjs';

/** Products of the true character's logit printed in full (the rest are counted). */
const SHOWN_PRODUCTS = 3;

/** Two decimals with a true minus sign ("−1.98"; never "−0.00"). */
function twoDecimals(x) {
  const text = x.toFixed(2);
  return text === '-0.00' ? '0.00' : text.replace('-', '\u2212');
}

/** h's D numbers as a grid of cells, each printed and shaded by its sign and size. */
function hGrid(values) {
  const max = Math.max(1e-9, ...Array.from(values, Math.abs));
  return h(
    'ol',
    { class: 'h-grid', 'aria-label': 'h' },
    Array.from(values, (x) => {
      const rgb = numberRgb(x, max);
      const style = { background: `rgb(${rgb.join(' ')})`, color: inkOn(rgb) };
      return h('li', { style, text: twoDecimals(x) });
    }),
  );
}

/** A factor of a product as printed: a negative one in brackets ("(−0.304)"). */
const factor = (x) => (x < 0 ? `(${formatExact(x)})` : formatExact(x));

/**
 * The true character's logit written out: z = h₁·W_U[1, c] + … (the first few products,
 * then how many more) = its value.
 */
function dotProduct(hRow, unembedding, truth, zTrue) {
  const V = unembedding.dims[1];
  const products = Array.from(hRow.slice(0, SHOWN_PRODUCTS), (x, d) => {
    const w = unembedding.data[d * V + truth];
    return `${factor(x)} × ${factor(w)}`;
  });
  return {
    products: products.join(' + '),
    more: hRow.length - SHOWN_PRODUCTS,
    z: zTrue.toFixed(2),
  };
}

/** A loss's colour share for the strip: 0 at 0 nats, 1 at 6 nats and above. */
const lossShare = (loss) => Math.min(1, loss / 6);

/** The logits of the top characters and the true one: a small table, "character, z, p". */
function logitTable(scores, logits, tokenizer, tr) {
  const V = logits.dims[2];
  const { t, p, truth, top } = scores.last;
  const z = (id) => logits.data[t * V + id];
  const listed = top.some((x) => x.id === truth) ? top : [...top, { id: truth, p: p[truth] }];
  return h(
    'table',
    { class: 'logit-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['ch4.next.colChar', 'ch4.next.colLogit', 'ch4.next.colP'].map((k) =>
          h('th', { text: tr(k) }),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      listed.map(({ id }) =>
        h(
          'tr',
          { class: id === truth ? 'is-true' : '' },
          h('td', { text: showId(tokenizer, id, tr) }),
          h('td', { text: z(id).toFixed(2) }),
          h('td', { text: p[id].toFixed(3) }),
        ),
      ),
    ),
  );
}

/**
 * What "⟨rare⟩" is, under the table, when the table or the bars show it (the id the text's
 * rarer characters share); else nothing.
 */
function rareNote(tokenizer, shownIds, tr) {
  if (tokenizer.unknownId < 0 || !shownIds.includes(tokenizer.unknownId)) return '';
  return h('p', {
    class: 'ch4-note ch4-rare-note',
    text: tr('ch4.next.rare', { rare: tr('ch4.text.rare'), minCount: tokenizer.minCount }),
  });
}

/**
 * Follows the model at the sentence shown: its parameters, fetched once per model and request
 * (one at a time; a newer request waits for the one under way), give the logits of every
 * place, h at the last one and h · W_U, all in this thread from that one copy: the table, the
 * dot product and the loss are of one step of a run, even while it trains.
 * onResult({ logits, h, z }, request) for the newest; onError when it failed.
 */
function modelFollower(languageRun, attn, onResult, onError) {
  return latestFollower(
    languageRun,
    async ({ tokens, headMask }) => {
      const parameters = await languageRun.parameters();
      if (!parameters) return null;
      const at = tokens.length - 2; // the last place that has a next character
      const outputs = lastRowOutput(attn, LANGUAGE_MODEL, parameters, tokens, at, headMask);
      return { ...outputs, unembedding: parameters.unembedding };
    },
    onResult,
    onError,
  );
}

/**
 * h (its D numbers) into hPart and the true character's logit as h times W_U's column into
 * dot, its value the table's (the same logits); both logits (h · W_U in float64, the model's)
 * on the scene for whoever checks them.
 */
function showH(
  { element, hPart, dot, tr },
  run,
  { h: hRow, z, logits, unembedding },
  { truth, t },
) {
  const V = logits.dims[2];
  const logit = logits.data[t * V + truth];
  hPart.replaceChildren(
    h('h3', { text: tr('ch4.next.hTitle', { D: hRow.length }) }),
    h('figure', { class: 'h-figure' }, hGrid(hRow)),
  );
  setText(
    dot,
    tr('ch4.next.dot', {
      truth: showId(run.text.info.tokenizer, truth, tr),
      D: hRow.length,
      ...dotProduct(hRow, unembedding, truth, logit),
    }),
  );
  element.dataset.zTrue = String(z[truth]);
  element.dataset.logitTrue = String(logit);
  element.dataset.hSize = String(hRow.length);
}

function build(ctx) {
  const { tr, languageRun, attn } = ctx;
  const sentence = sentenceAndStatus(languageRun, tr);
  const reads = h('p', { class: 'ch4-reads' });
  const hPart = h('div', { class: 'ch4-stagepart ch4-h' });
  const logitsPart = h('div', { class: 'ch4-stagepart ch4-logits' });
  const probsPart = h('div', { class: 'ch4-stagepart ch4-probs' });
  const lossPart = h('div', { class: 'ch4-stagepart ch4-loss' });
  const parts = [hPart, logitsPart, probsPart, lossPart];
  const dot = h('p', { class: 'ch4-note ch4-dot' });

  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-next' },
    sentence.field.element,
    sentence.status,
    reads,
    parts,
  );

  function show(outputs, { tokens }) {
    const { logits } = outputs;
    const { tokenizer } = languageRun.run.text.info;
    const ids = Array.from(tokens);
    const scores = sentenceScores(logits, ids);
    const { last } = scores;
    const characters = ids.map((id) => showId(tokenizer, id, tr));
    const truth = characters[last.t + 1];
    setText(
      reads,
      tr('ch4.next.reads', {
        before: characters.slice(0, last.t + 1).join(''),
        truth,
        V: tokenizer.vocabSize,
      }),
    );
    logitsPart.replaceChildren(
      h('h3', {
        text: tr('ch4.next.logitsTitle', { D: LANGUAGE_MODEL.dModel, V: tokenizer.vocabSize }),
      }),
      dot,
      logitTable(scores, logits, tokenizer, tr),
      rareNote(tokenizer, [...last.top.map((x) => x.id), last.truth], tr),
    );
    showH({ element, hPart, dot, tr }, languageRun.run, outputs, last);
    const pTrue = last.p[last.truth];
    const loss = -Math.log(pTrue);
    probsPart.replaceChildren(
      h('h3', { text: tr('ch4.next.probsTitle') }),
      h('figure', { class: 'prob-figure' }, probabilityBars(last.top, last.truth, tokenizer, tr)),
      h('p', {
        class: 'ch4-note',
        text: tr('ch4.next.rank', { truth, rank: last.rank, V: tokenizer.vocabSize }),
      }),
    );
    lossPart.replaceChildren(
      h('h3', { text: tr('ch4.next.lossTitle') }),
      h('p', {
        class: 'ch4-loss-line',
        dataset: { p: String(pTrue), loss: String(loss) },
        text: tr('ch4.next.loss', { truth, p: formatProbability(pTrue), loss: loss.toFixed(3) }),
      }),
      h(
        'figure',
        { class: 'loss-strip-figure' },
        charStrip(ids.map((id) => tokenizer.characters[id])),
      ),
      h('p', {
        class: 'ch4-note ch4-sentence-loss',
        dataset: { loss: String(scores.loss) },
        text: tr('ch4.next.sentenceLoss', {
          n: scores.places.length,
          loss: scores.loss.toFixed(3),
          uniform: Math.log(tokenizer.vocabSize).toFixed(2),
        }),
      }),
      h('p', { class: 'ch4-note ch4-sentence-place', text: placeNote() }),
    );
    // Each character after the first shaded by the loss the model had on it.
    lossPart.querySelectorAll('.char-strip .char').forEach((li, k) => {
      if (k === 0) return;
      const place = scores.places[k - 1];
      li.style.setProperty('--loss-share', lossShare(place.loss).toFixed(3));
      li.classList.add('has-loss');
      li.title = tr('ch4.next.placeLoss', { p: place.p.toFixed(3), loss: place.loss.toFixed(2) });
    });
    element.dataset.ready = 'true';
  }

  // Whether the model has trained on the sentence: a loss on text it may know by heart is not
  // its loss on text it has never seen (the training stage's held-out loss).
  let placeFor = null;
  let place = null;
  function placeNote() {
    const { run } = languageRun;
    if (placeFor !== sentenceKey(run)) {
      placeFor = sentenceKey(run);
      const { text, length } = run.text.info;
      place = sentencePlace(text, run.sentence, length);
    }
    return place ? tr(`ch4.next.seen.${place}`) : '';
  }

  const follow = modelFollower(languageRun, attn, show, sentence.failed);
  function draw(run) {
    const read = sentence.update(run);
    if (read) follow({ ...read, headMask: run.headMask });
  }
  const followed = followRun(languageRun, element, draw);
  const render = (t) => {
    followed();
    const p = progressOf(t);
    parts.forEach((part, k) => reveal(part, ramp(p, k / 4, (k + 1) / 4)));
  };
  const explanation = {
    sentences: [tr('ch4.next.explain'), tr('ch4.next.why')],
    formula: formula(
      tr('ch4.formula.loss'),
      mi('L'),
      mo('='),
      mo('−'),
      mi('ln'),
      sub(mi('p'), mi('true')),
      mo(','),
      sub(mi('p'), mi('v')),
      mo('='),
      frac(
        sup(mi('e'), sub(mi('z'), mi('v'))),
        mrow(sumOver(mi('u')), sup(mi('e'), sub(mi('z'), mi('u')))),
      ),
      mo(','),
      mi('z'),
      mo('='),
      mi('h'),
      sub(mi('W'), mi('U')),
    ),
  };
  return { element, render, explanation, narration: tr('ch4.narrate.next') };
}

const steps = () => [singleStep({ id: 'lm-next', titleKey: 'ch4.title.next', duration: 4, build })];

export default { titleKey: 'ch4.stage.next', steps };
