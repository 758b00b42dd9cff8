// Chapter 4, "Heads on your sentence" (#step=ch4-heads): every head's attention on the
// sentence the learner types, as a heatmap with the characters along its edges, and a
// one-line reading computed from the weights (model/head-reading.mjs readTextHead: previous
// character, same place in the line before, punctuation, start of the line, itself, diffuse).
// The weights are the model's forward pass in the worker; the clock reveals the heads in turn.
import { h, setText } from '../../dom.mjs';
import {
  followRun,
  forwardFollower,
  sentenceAndStatus,
  textReading,
} from '../../draw/language-views.mjs';
import { headHeatmap, tokenLines } from '../../draw/training-views.mjs';
import { itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import {
  LANGUAGE_MODEL,
  allHeadsOn,
  readSentenceHeads,
  showCharacter,
} from '../../model/language.mjs';
import { LEAN_OVER_EVEN, TEXT_LEAN_SHARE } from '../../model/head-reading.mjs';
import { singleStep } from '../single-step.mjs';

/**
 * Each heatmap's cells at least 13 px, so that a Chinese character can be read on its axes
 * (11 px), and at most 312 px wide (a phone's scene holds it with its letters).
 */
const HEATMAP_SIZE = { cell: 13, most: 312 };

function build(ctx) {
  const { tr, languageRun } = ctx;
  const sentence = sentenceAndStatus(languageRun, tr);
  const grid = h('div', { class: 'train-heads ch4-heads' });
  // One head's weights as lines from each character to those it attends to: the head the
  // learner picked (a click on its heatmap), else the one read most clearly.
  const linesTitle = h('h3');
  const lines = h('figure', { class: 'ch4-lines' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-heads' },
    sentence.field.element,
    sentence.status,
    grid,
    h('div', { class: 'ch4-stagepart' }, linesTitle, lines),
  );
  let picked = -1;
  let shown = null; // { reads, labels }
  function drawLines() {
    if (!shown) return;
    const { reads, labels, tokens } = shown;
    const k =
      picked >= 0 ? picked : reads.reduce((b, x, j) => (x.share > reads[b].share ? j : b), 0);
    const read = reads[k];
    const name = tr('ch4.headName', { layer: read.layer + 1, head: read.head + 1 });
    setText(linesTitle, tr('ch4.heads.linesTitle', { name, reading: textReading(read, tr) }));
    lines.replaceChildren(
      tokenLines(tokens, read.weights, { label: name, headClass: `head-${read.head + 1}`, labels }),
    );
  }
  let maps = [];
  let labelsKey = '';
  let progress = 1;

  function show({ attention }, { tokens }) {
    const { tokenizer } = languageRun.run.text.info;
    const characters = Array.from(tokens, (id) => tokenizer.characters[id]);
    const labels = characters.map(showCharacter);
    const key = labels.join('');
    if (key !== labelsKey) {
      labelsKey = key;
      maps = [];
      const layers = Array.from({ length: LANGUAGE_MODEL.layers }, (_, l) =>
        h(
          'div',
          { class: 'train-layer' },
          Array.from({ length: LANGUAGE_MODEL.heads }, (_, hd) => {
            const name = tr('ch4.headName', { layer: l + 1, head: hd + 1 });
            const map = headHeatmap(name, `head-${(hd % 4) + 1}`, { labels, ...HEATMAP_SIZE });
            const k = maps.length;
            const pick = () => {
              picked = k;
              drawLines();
            };
            map.element.tabIndex = 0;
            map.element.addEventListener('click', pick);
            map.element.addEventListener('keydown', (event) => event.key === 'Enter' && pick());
            maps.push(map);
            return map.element;
          }),
        ),
      );
      grid.replaceChildren(...layers);
    }
    const reads = readSentenceHeads(attention, characters);
    reads.forEach((read, k) => {
      maps[k].update(read.weights);
      maps[k].read(textReading(read, tr), read.kind);
    });
    shown = { reads, labels, tokens };
    drawLines();
    element.dataset.ready = 'true';
    revealMaps();
  }
  const revealMaps = () =>
    maps.forEach((m, k) => reveal(m.element, itemAmount(progress, maps.length, k)));

  const follow = forwardFollower(languageRun, show, sentence.failed);
  function draw(run) {
    const read = sentence.update(run);
    // The model whole: the heads switched off in the next stage are read here too.
    const headMask = allHeadsOn(LANGUAGE_MODEL.layers, LANGUAGE_MODEL.heads);
    if (read) follow({ ...read, headMask });
  }
  const followed = followRun(languageRun, element, draw);
  const render = (t) => {
    followed();
    progress = progressOf(t);
    revealMaps();
  };
  const explanation = {
    sentences: [
      tr('ch4.heads.explain'),
      tr('ch4.heads.kinds', { lean: TEXT_LEAN_SHARE, over: LEAN_OVER_EVEN }),
    ],
    formula: null,
  };
  return { element, render, explanation, narration: tr('ch4.narrate.heads') };
}

const steps = () => [
  singleStep({ id: 'lm-heads', titleKey: 'ch4.title.heads', duration: 4, build }),
];

export default { titleKey: 'ch4.stage.heads', steps };
