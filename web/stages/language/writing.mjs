// Chapter 4, "Writing" (#step=ch4-write): the model writes after the learner's prompt, one
// character at a time through the KV cache of chapter 2 (the worker's generate), sampling
// each from its probabilities with a temperature and top-k. The clock shows the characters
// one by one; each is drawn with the earlier characters it attended to, shaded by the weight
// the row that chose it gave them (the last layer's heads, averaged: the model's forward pass
// on the written text, whose causal rows are those of the generation).
import { h, setText } from '../../dom.mjs';
import { followRun, runStatus, samplingControls } from '../../draw/language-views.mjs';
import { activeItem, progressOf } from '../../draw/timing.mjs';
import {
  CONTEXT,
  LANGUAGE_MODEL,
  headOf,
  parseSentence,
  showCharacter,
  topChoices,
} from '../../model/language.mjs';
import { singleStep } from '../single-step.mjs';

const { layers: L, heads: H } = LANGUAGE_MODEL;

/** The prompt a sentence offers: up to and including its first punctuation mark, else its first 5. */
function promptOf(sentence) {
  const characters = [...sentence];
  const end = characters.findIndex((c) => /[\p{P}\n]/u.test(c));
  return characters.slice(0, end > 0 ? end + 1 : Math.min(5, characters.length)).join('');
}

/** Row `row` of the last layer's heads, averaged: what the character at row + 1 was chosen from. */
function lastLayerRow(attention, row) {
  const T = attention.dims[3];
  const mean = new Float64Array(T);
  for (let hd = 0; hd < H; hd++) {
    const weights = headOf(attention, L - 1, hd)[row];
    for (let j = 0; j < T; j++) mean[j] += weights[j] / H;
  }
  return mean;
}

/** The prompt box, temperature and top-k choices and the Write button. */
function writingControls(languageRun, tr) {
  const sampling = samplingControls(languageRun, tr);
  const promptBox = h('input', {
    type: 'text',
    spellcheck: 'false',
    'aria-label': tr('ch4.write.prompt'),
    dataset: { control: 'ch4-prompt' },
  });
  const write = h('button', {
    type: 'button',
    class: 'train-button',
    dataset: { control: 'ch4-write' },
    text: tr('ch4.write.write'),
  });
  const element = h(
    'div',
    { class: 'ch4-controls', 'data-export': 'skip' },
    h('label', { class: 'ch4-field' }, h('span', { text: tr('ch4.write.prompt') }), promptBox),
    sampling.elements,
    write,
  );
  return { element, promptBox, write, sampling };
}

/**
 * The model writes after `prompt` (ids) until its context is full, with the run's sampling
 * (temperature, top-k) from `seed` and the run's head mask, then reads what it wrote (the
 * forward pass: the attention of each row that chose a character). Returns { ids,
 * promptLength, made, attention } (made: the written ids), or null (no model).
 */
async function writeAfter(languageRun, prompt, seed) {
  const headMask = [...languageRun.run.headMask];
  const { temperature, topK } = languageRun.run.sampling;
  const count = CONTEXT - prompt.length;
  const made = await languageRun.generate({ prompt, count, temperature, topK, seed, headMask });
  if (!made) return null;
  const ids = Int32Array.from([...prompt, ...made]);
  const { attention } = await languageRun.forward(ids, headMask);
  return { ids, promptLength: prompt.length, made, attention };
}

/** The prompt's and the written characters; each written one a button that shows its row. */
function writtenCells({ ids, promptLength }, tokenizer, onPick) {
  return Array.from(ids, (id, j) => {
    const text = showCharacter(tokenizer.characters[id]);
    const written = j >= promptLength;
    return h(
      'li',
      { class: `char ${written ? 'is-written' : 'is-prompt'}`, dataset: { position: j } },
      written ? h('button', { type: 'button', text, onclick: () => onPick(j) }) : text,
    );
  });
}

function build(ctx) {
  const { tr, languageRun } = ctx;
  const { element: controlsElement, promptBox, write, sampling } = writingControls(languageRun, tr);
  let seed = 1;
  const problem = h('p', { class: 'ch4-problem', role: 'status' });
  const status = h('p', { class: 'ch4-status', role: 'status' });
  const written = h('ol', { class: 'char-strip ch4-written', 'aria-live': 'polite' });
  const focus = h('p', { class: 'ch4-focus' });
  const filled = h('p', { class: 'ch4-note' }); // writing stops where the context is full
  const masked = h('p', { class: 'ch4-note' });
  const element = h(
    'div',
    { class: 'scene scene-ch4 scene-ch4-write' },
    controlsElement,
    problem,
    status,
    masked,
    h('figure', { class: 'ch4-written-figure' }, written),
    filled,
    focus,
  );
  let result = null; // writeAfter's { ids, promptLength, made, attention }: made, what was written
  let chosen = -1; // the written character the learner clicked (-1: follow the clock)
  let shownCount = 0;

  function showFocus(k) {
    if (!result) return;
    const { ids, promptLength, attention } = result;
    const { tokenizer } = languageRun.run.text.info;
    const cells = [...written.children];
    const row = lastLayerRow(attention, k - 1);
    cells.forEach((cell, j) => {
      cell.classList.toggle('is-focus', j === k);
      cell.style.setProperty('--attended', j < k ? row[j].toFixed(3) : '0');
    });
    const top = topChoices(row.subarray(0, k), 3)
      .map(({ id, p }) => `“${showCharacter(tokenizer.characters[ids[id]])}” ${p.toFixed(2)}`)
      .join(' · ');
    setText(
      focus,
      tr('ch4.write.focus', {
        character: showCharacter(tokenizer.characters[ids[k]]),
        place: k - promptLength + 1,
        top,
        layer: L,
      }),
    );
    element.dataset.focus = String(k);
  }

  function showWritten(count) {
    if (!result) return;
    const { promptLength } = result;
    const visible = promptLength + count;
    shownCount = count;
    [...written.children].forEach((cell, j) => (cell.hidden = j >= visible));
    // The count of what was written shows once it is all on screen, in room kept for it.
    filled.style.visibility = count < result.made.length ? 'hidden' : '';
    const k = chosen >= promptLength && chosen < visible ? chosen : visible - 1;
    // Nothing written yet (a new Write replays from its prompt): the line about a written
    // character waits, unseen in the room it keeps, for the first of this writing's.
    focus.style.visibility = count > 0 ? '' : 'hidden';
    if (count > 0) showFocus(k);
    element.dataset.shown = String(count);
  }

  async function run() {
    const info = languageRun.run.text.info;
    if (!info) return;
    const parsed = parseSentence(promptBox.value, info.tokenizer, { least: 1 });
    const full = parsed.ids && parsed.ids.length >= CONTEXT;
    problem.textContent = parsed.error
      ? tr(parsed.error.key, parsed.error.params)
      : full
        ? tr('ch4.sentence.long', { most: CONTEXT - 1 })
        : '';
    if (parsed.error || full) return;
    write.disabled = true;
    try {
      seed += 1; // each Write draws anew
      const made = await writeAfter(languageRun, parsed.ids, seed);
      if (!made) return;
      result = made;
      chosen = -1;
      written.replaceChildren(
        ...writtenCells(made, info.tokenizer, (j) => {
          chosen = j;
          showFocus(j);
        }),
      );
      element.dataset.written = info.tokenizer.decode(made.made);
      setText(filled, tr('ch4.write.full', { n: made.made.length, context: CONTEXT }));
      ctx.actions.replayStep?.();
      showWritten(made.made.length);
    } catch (error) {
      problem.textContent = String(error?.message ?? error);
    } finally {
      write.disabled = false;
    }
  }
  write.addEventListener('click', run);

  let promptFor = '';
  let wroteOnce = false; // the stage opens writing: the first time it can, it writes once
  function draw(state) {
    setText(status, runStatus(state, tr));
    sampling.update(state);
    const off = state.headMask.filter((on) => !on).length;
    setText(masked, off ? tr('ch4.write.masked', { n: off }) : '');
    const key = `${state.choice}|${state.sentence}`;
    if (state.sentence && promptFor !== key && !promptBox.matches(':focus')) {
      promptFor = key;
      promptBox.value = promptOf(state.sentence);
    }
    write.disabled = state.text.status !== 'ready';
    if (!wroteOnce && !write.disabled && promptBox.value) {
      wroteOnce = true;
      run();
    }
  }
  const followed = followRun(languageRun, element, draw);
  const render = (t) => {
    followed();
    if (result) {
      const n = result.made.length;
      const count = t >= 1 ? n : activeItem(progressOf(t), n + 1);
      if (count !== shownCount) showWritten(count);
    }
  };
  const explanation = {
    sentences: [tr('ch4.write.explain', { context: CONTEXT }), tr('ch4.write.knobs')],
    formula: null,
  };
  return { element, render, explanation, narration: tr('ch4.narrate.write', { context: CONTEXT }) };
}

const steps = () => [
  singleStep({ id: 'lm-write', titleKey: 'ch4.title.write', duration: 6, build }),
];

export default { titleKey: 'ch4.stage.write', steps };
