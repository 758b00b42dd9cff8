// Chapter 4, "Characters to rows of X" (#step=ch4-chars): the learner's sentence split into
// characters, each character's id in the vocabulary the text makes (its distinct characters,
// counted), and each id's row of the model's embedding matrix: the rows of X that attention
// starts from. The clock reveals the three rows in turn; the numbers are the model's own
// (its embedding as trained so far, read from the worker).
import { h, setText } from '../../dom.mjs';
import {
  charStrip,
  followRun,
  numberRgb,
  runStatus,
  sentenceField,
  sentenceIds,
  sentenceKey,
  textPicker,
  textSentence,
} from '../../draw/language-views.mjs';
import { progressOf, ramp, reveal } from '../../draw/timing.mjs';
import { formatExact } from '../../format.mjs';
import { LANGUAGE_MODEL, SAMPLE_SAMPLING, showCharacter } from '../../model/language.mjs';
import { articleExample, dimsOf } from '../../model/example.mjs';
import { singleStep } from '../single-step.mjs';

/** The article's X (chapter 1's example): its tokens n and their dimension dIn. */
const ARTICLE = dimsOf(articleExample());

/** Each character's row of colours is this tall, as its label beside it. */
const ROW_PX = 12;
/** Numbers of a character's row printed in full (the rest are drawn as colours). */
const SHOWN = 6;

/** The rows of X as colours: one line of D cells per character. */
function rowCanvas(rows) {
  const D = rows[0]?.length ?? 0;
  const canvas = h('canvas', {
    class: 'embed-rows',
    style: { height: `${rows.length * ROW_PX}px` },
    width: D,
    height: rows.length,
    'aria-hidden': 'true',
  });
  if (!D) return canvas;
  const max = Math.max(1e-9, ...rows.flat().map(Math.abs));
  const g = canvas.getContext('2d');
  const image = g.createImageData(D, rows.length);
  rows.forEach((row, i) =>
    row.forEach((x, j) => {
      const k = 4 * (i * D + j);
      image.data.set(numberRgb(x, max), k);
      image.data[k + 3] = 255;
    }),
  );
  g.putImageData(image, 0, 0);
  return canvas;
}

function build(ctx) {
  const { tr, languageRun } = ctx;
  const picker = textPicker(languageRun, tr);
  const field = sentenceField(languageRun, tr);
  const about = h('p', { class: 'ch4-about' });
  const chars = h('div', { class: 'ch4-row ch4-chars' });
  const ids = h('div', { class: 'ch4-row ch4-ids' });
  const rows = h('div', { class: 'ch4-row ch4-embed' });
  const rowsNote = h('p', { class: 'ch4-note' });
  const parts = [
    h('div', { class: 'ch4-stagepart' }, h('h3', { text: tr('ch4.chars.characters') }), chars),
    h('div', { class: 'ch4-stagepart' }, h('h3', { text: tr('ch4.chars.ids') }), ids),
    h('div', { class: 'ch4-stagepart' }, h('h3', { text: tr('ch4.chars.rows') }), rows, rowsNote),
  ];
  // The chapter opens with a model that writes: which one, and its newest sample.
  const model = h('p', { class: 'ch4-status', role: 'status' });
  const writes = h('pre', { class: 'ch4-sample-text ch4-writes' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-chars' },
    h('div', { class: 'ch4-controls', 'data-export': 'skip' }, picker.element),
    about,
    model,
    writes,
    field.element,
    parts,
  );
  let shown = '';
  let asked = -1; // the run's model whose embedding was asked for, at step askedStep
  let askedStep = 0;
  let embedding = null; // { step, data, dims } of embedding.tokens

  function drawRows(run, idList) {
    if (!embedding) return;
    const [, D] = embedding.dims;
    const rowOf = (id) => Array.from(embedding.data.subarray(id * D, (id + 1) * D));
    const table = idList.map(rowOf);
    const first = table[0] ?? [];
    const characters = [...run.sentence];
    rows.replaceChildren(
      h(
        'figure',
        { class: 'embed-figure' },
        h(
          'div',
          { class: 'embed-labels', 'aria-hidden': 'true' },
          characters.map((c, k) => h('span', { text: `${showCharacter(c)} ${idList[k]}` })),
        ),
        rowCanvas(table),
      ),
    );
    setText(
      rowsNote,
      tr('ch4.chars.firstRow', {
        character: showCharacter(characters[0]),
        id: idList[0],
        shown: SHOWN,
        numbers: first.slice(0, SHOWN).map(formatExact).join(', '),
        more: D - SHOWN,
        T: idList.length,
        D,
        V: embedding.dims[0],
        when: embedding.when,
      }),
    );
    element.dataset.embedStep = String(embedding.step);
  }

  function draw(run) {
    picker.update();
    field.update(run);
    setText(about, textSentence(run, tr));
    setText(model, runStatus(run, tr));
    const sample = run.samples.at(-1);
    setText(
      writes,
      sample ? tr('ch4.chars.writes', { ...SAMPLE_SAMPLING, text: sample.text }) : '',
    );
    writes.hidden = !sample;
    const idList = sentenceIds(run, 1);
    element.dataset.text = run.text.status;
    if (!idList) return;
    const key = sentenceKey(run);
    if (key !== shown) {
      shown = key;
      const characters = [...run.sentence];
      chars.replaceChildren(charStrip(characters));
      ids.replaceChildren(
        h(
          'ol',
          { class: 'char-strip id-strip' },
          Array.from(idList, (id) => h('li', { class: 'char' }, String(id))),
        ),
      );
      drawRows(run, Array.from(idList));
    }
    // The embedding as trained now: read again when the model changed (while it trains, at
    // most every 100 steps).
    const training = run.status === 'running' && run.step - askedStep < 100;
    if (asked !== run.model && !training) {
      [asked, askedStep] = [run.model, run.step];
      const { step, loadedStep } = run;
      const offline = loadedStep?.toLocaleString('en-US');
      const when =
        loadedStep === null
          ? tr('ch4.chars.whenStep', { step })
          : step === 0
            ? tr('ch4.chars.whenSnapshot', { steps: offline })
            : tr('ch4.chars.whenKept', { steps: offline, here: step });
      languageRun.parameters().then(
        (p) => {
          if (!p) return;
          embedding = { step: (loadedStep ?? 0) + step, when, ...p['embedding.tokens'] };
          drawRows(languageRun.run, Array.from(sentenceIds(languageRun.run, 1) ?? []));
        },
        () => {},
      );
    }
  }
  const follow = followRun(languageRun, element, draw);
  const render = (t) => {
    follow();
    const p = progressOf(t);
    parts.forEach((part, k) => reveal(part, ramp(p, k / 3, (k + 1) / 3)));
  };
  const explanation = {
    sentences: [
      tr('ch4.chars.explain', { D: LANGUAGE_MODEL.dModel, context: LANGUAGE_MODEL.context }),
      tr('ch4.chars.article', { n: ARTICLE.n, d: ARTICLE.dIn }),
    ],
    formula: null,
  };
  return { element, render, explanation, narration: tr('ch4.narrate.chars') };
}

const steps = () => [
  singleStep({ id: 'lm-chars', titleKey: 'ch4.title.chars', duration: 4, build }),
];

export default { titleKey: 'ch4.stage.chars', steps };
