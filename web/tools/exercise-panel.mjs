// The "Predict" panel: at a step that computes numbers, the reader types the next number
// before the scene shows it (the scene is held at the start of its step, before it computes
// anything, and the asked cell shows "?"), checks it against trace()'s value
// within the stated tolerance, gets the cell's arithmetic step by step with its source cells
// highlighted after a wrong answer, or reveals it. Progress is kept per example; a practice
// button draws a fresh example of small whole numbers.
import { explainCell } from '../model/arithmetic.mjs';
import { h } from '../dom.mjs';
import { formatExact } from '../format.mjs';
import {
  TOLERANCE,
  isRight,
  maskApplies,
  mistakeOf,
  parseAnswer,
  questionsOf,
} from './exercises.mjs';
import { panelToggle } from './panel-toggle.mjs';
import { createProgress, solvedAmong } from './progress.mjs';

const cellSelector = ({ matrix, row, col, query, head }) =>
  `td.cell[data-matrix="${matrix}"][data-row="${row}"][data-col="${col}"]` +
  (query === undefined ? '' : `[data-query="${query}"]`) +
  (head === undefined ? '' : `[data-head="${head}"]`);

/**
 * The panel's elements (words are filled in by render()): the Predict button, the question,
 * the answer form, feedback, the hint and the tally.
 * @param {object} on  the handlers: toggle, check, reveal, another, reset, practice
 */
function panelElements(id, on) {
  const toggle = panelToggle('predict', id('exercise'), on.toggle);
  const heading = h('h3', { class: 'exercise-heading', id: id('exercise-heading') });
  const prompt = h('p', { class: 'exercise-prompt', id: id('exercise-prompt') });
  const tolerance = h('p', { class: 'exercise-tolerance', id: id('exercise-tolerance') });
  const inputLabel = h('span', { class: 'exercise-label' });
  const input = h('input', {
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'exercise-input',
    'aria-describedby': `${id('exercise-prompt')} ${id('exercise-tolerance')}`,
  });
  const check = h('button', { type: 'submit', class: 'tools-button is-primary' });
  const reveal = h('button', { type: 'button', class: 'tools-button', onclick: on.reveal });
  const another = h('button', { type: 'button', class: 'tools-button', onclick: on.another });
  const form = h(
    'form',
    { class: 'exercise-form', onsubmit: on.check },
    h('label', { class: 'exercise-field' }, inputLabel, input),
    check,
    reveal,
    another,
  );
  const feedback = h('p', { class: 'exercise-feedback', role: 'status', 'aria-live': 'polite' });
  const hint = h('ol', { class: 'exercise-hint', dir: 'ltr', hidden: true });
  const tally = h('p', { class: 'exercise-tally' });
  const reset = h('button', { type: 'button', class: 'tools-link', onclick: on.reset });
  const practice = h('button', {
    type: 'button',
    class: 'tools-button',
    dataset: { tool: 'practice' },
    onclick: on.practice,
  });
  const element = h(
    'section',
    {
      class: 'exercise',
      id: id('exercise'),
      hidden: true,
      'aria-labelledby': id('exercise-heading'),
      dataset: { outcome: 'asking' },
    },
    heading,
    prompt,
    tolerance,
    form,
    feedback,
    hint,
    h('div', { class: 'exercise-footer' }, tally, reset, practice),
  );

  return {
    toggle,
    heading,
    prompt,
    tolerance,
    inputLabel,
    input,
    check,
    reveal,
    another,
    form,
    feedback,
    hint,
    tally,
    reset,
    practice,
    element,
  };
}

/**
 * @param {{ context: () => { numbers, step, tr, exampleKey }, sceneHost: HTMLElement,
 *   scene: { hold: () => void, reveal: () => void }, onPractice: () => void,
 *   id: (name: string) => string }} options
 *   scene.hold shows the step at its start (nothing computed yet); scene.reveal plays it
 */
export function createExercisePanel({ context, sceneHost, scene, onPractice, id }) {
  const progress = createProgress();
  let open = false;
  let questions = [];
  let index = 0;
  let outcome = 'asking'; // asking | wrong | right | revealed
  let mistake = null; // after a wrong answer: the slip it matches (exercises.mjs), if any
  let marked = []; // scene cells this panel changed (hidden answer, sources)

  const parts = panelElements(id, {
    toggle: () => setOpen(!open),
    check: onCheck,
    reveal: onReveal,
    another: onAnother,
    reset: onReset,
    practice: () => onPractice(),
  });
  const { toggle, prompt, tolerance, input, another, form, feedback, tally, element } = parts;

  function setOpen(value) {
    open = value;
    toggle.setAttribute('aria-expanded', String(open));
    element.hidden = !open;
    update({ keepQuestion: true });
    if (!open) scene.reveal();
    if (open && !form.hidden) focusAnswer(sceneHost, element, input);
  }

  // A scene that learns later whether its question can be asked (a trained model arriving).
  sceneHost.addEventListener('scene-ready', () => update({ keepQuestion: true }));

  const current = () => questions[index];
  /** What the current question waits for (a trained model), as a text; null when askable. */
  const waitingFor = () => current()?.wait?.(context().sceneElement) ?? null;

  /** New step, numbers or language: picks the first question not yet answered. */
  function update({ keepQuestion = false } = {}) {
    const { numbers, step, tr, exampleKey } = context();
    const previousId = current()?.id;
    questions = numbers ? questionsOf(step, numbers, context().sceneElement) : [];
    const done = progress.get(exampleKey);
    const kept = keepQuestion ? questions.findIndex((q) => q.id === previousId) : -1;
    if (kept !== -1) index = kept;
    else {
      const unanswered = questions.findIndex((q) => !done[q.id]);
      index = unanswered === -1 ? 0 : unanswered;
      outcome = 'asking';
      input.value = '';
    }
    render(tr);
  }

  function render(tr) {
    const { steps, numbers, step, exampleKey } = context();
    writeLabels(parts, tr);
    const waiting = waitingFor();
    const question = waiting ? null : current();
    form.hidden = !question;
    tolerance.hidden = !question;
    tolerance.textContent = question ? toleranceText(question, numbers, tr) : '';
    // Without a question the prompt names the chapter's steps that ask, which reads their
    // numbers: only when the panel is open, as the tally.
    const noQuestion = () => (open ? noQuestionText(step, steps, numbers, tr) : '');
    prompt.textContent = waiting?.(tr) ?? (question ? question.prompt(tr) : noQuestion());
    another.hidden = questions.length < 2 || Boolean(waiting);
    // A new example of small whole numbers is chapter 1's; chapter 3's questions are others.
    parts.practice.hidden = Boolean(step) && step.chapter === 3;
    // The tally is inside the panel: counted when it can be seen (every step's questions, so
    // every chapter's numbers: chapter 3's are otherwise computed only when asked for).
    if (open) {
      const done = progress.get(exampleKey);
      tally.textContent = tallyText(tr, { steps, numbers, questions, done });
    }
    element.dataset.outcome = outcome;
    renderFeedback(parts, question, { outcome, mistake }, tr);
    markScene();
    if (open && question?.hold && (outcome === 'asking' || outcome === 'wrong')) scene.hold();
  }

  /** The scene marked for the question asked (markStep), what was marked before unmarked. */
  function markScene() {
    for (const cell of marked) {
      cell.classList.remove('is-predicting', 'is-source', 'is-solved');
      cell.removeAttribute('aria-hidden');
    }
    const question = waitingFor() ? null : current();
    const done = progress.get(context().exampleKey);
    marked = markStep(sceneHost, { open, question, outcome, questions, done, ctx: context() });
  }

  function onCheck(event) {
    event.preventDefault();
    const { tr, exampleKey } = context();
    const question = waitingFor() ? null : current();
    if (!question) return;
    const given = parseAnswer(input.value);
    if (given === null) {
      feedback.textContent = tr('tools.exercise.notNumber');
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.removeAttribute('aria-invalid');
    outcome = isRight(given, question.answer) ? 'right' : 'wrong';
    mistake = outcome === 'wrong' ? mistakeOf(question, given) : null;
    render(tr);
    // The verdict may be below the fold on a small screen: bring it into view.
    feedback.scrollIntoView?.({ block: 'nearest' });
    if (outcome === 'right') {
      progress.mark(exampleKey, question.id, 'solved');
      render(tr);
      scene.reveal();
    }
  }

  function onReveal() {
    const { tr, exampleKey } = context();
    const question = current();
    if (!question) return;
    outcome = 'revealed';
    if (progress.get(exampleKey)[question.id] !== 'solved')
      progress.mark(exampleKey, question.id, 'revealed');
    render(tr);
    scene.reveal();
  }

  function onAnother() {
    index = (index + 1) % Math.max(1, questions.length);
    outcome = 'asking';
    input.value = '';
    render(context().tr);
    input.focus();
  }

  function onReset() {
    const { tr, exampleKey } = context();
    progress.reset(exampleKey);
    update();
    feedback.textContent = tr('tools.exercise.wasReset');
  }

  return {
    toggle,
    element,
    update,
    /** A new scene is on screen: mark its cells again. */
    sceneShown: markScene,
    open: () => setOpen(true),
  };
}

/**
 * Into the answer field, with the scene above it on screen as well when both fit (the
 * question is about the scene's numbers: a focus that scrolls only the field into view cut
 * off the scene's top, its first matrices, on a 1366×768 laptop).
 */
function focusAnswer(sceneHost, panel, input) {
  const top = sceneHost.getBoundingClientRect().top;
  const bottom = panel.getBoundingClientRect().bottom;
  const fits = bottom - top <= window.innerHeight;
  if (fits && (top < 0 || bottom > window.innerHeight)) {
    window.scrollBy({ top: top - 8, behavior: 'instant' });
  }
  input.focus({ preventScroll: fits });
}

/**
 * The asked cell shows "?" until answered; after a wrong answer its sources (the cells the
 * cell inspector would highlight) light up. Returns the cells it marked.
 */
function markCells(sceneHost, question, outcome, { numbers, tr }) {
  const marked = [];
  const mark = (selector, className) => {
    for (const cell of sceneHost.querySelectorAll(selector)) {
      cell.classList.add(className);
      marked.push(cell);
    }
  };
  if (outcome === 'asking' || outcome === 'wrong') {
    mark(cellSelector(question.cell), 'is-predicting');
    // Its number is still in the cell (drawn transparent): not read out either.
    for (const cell of marked) cell.setAttribute('aria-hidden', 'true');
  }
  if (outcome === 'wrong') {
    const sources = explainCell(numbers, question.cell, tr)?.sources ?? [];
    for (const source of sources) mark(cellSelector(source), 'is-source');
  }
  return marked;
}

/**
 * The asked cell shows "?" until answered; after a wrong answer its sources light up; the
 * cells of this step already answered (and the one just answered right) show their numbers. While a cell is asked, the scene's
 * own highlight of the moment it is held at (a column of its sweep) is put away: only the
 * hint's outlines point anywhere. Returns the cells it marked.
 */
function markStep(sceneHost, { open, question, outcome, questions, done, ctx }) {
  const asking = open && Boolean(question?.cell);
  sceneHost.classList.toggle('is-asking', asking && (outcome === 'asking' || outcome === 'wrong'));
  if (!open) return [];
  // The cell just answered right shows its number as the reader typed it, whole, while the
  // step plays on (not landing small and faint as the scene's clock brings it in).
  const answered = questions.filter(
    (q) => q.cell && done[q.id] && (q !== question || outcome === 'right'),
  );
  return [
    ...(asking ? markCells(sceneHost, question, outcome, ctx) : []),
    ...answered.flatMap((q) => markAnswered(sceneHost, q)),
  ];
}

/** A cell of the step already solved (or revealed): its number shows while the step is held. */
function markAnswered(sceneHost, question) {
  const cells = [...sceneHost.querySelectorAll(cellSelector(question.cell))];
  for (const cell of cells) cell.classList.add('is-solved');
  return cells;
}

/** The panel's fixed words in the current language. */
function writeLabels(parts, tr) {
  parts.toggle.textContent = tr('tools.predict');
  parts.heading.textContent = tr('tools.exercise.heading');
  parts.inputLabel.textContent = tr('tools.exercise.yourAnswer');
  parts.check.textContent = tr('tools.exercise.check');
  parts.reveal.textContent = tr('tools.exercise.reveal');
  parts.another.textContent = tr('tools.exercise.another');
  parts.reset.textContent = tr('tools.exercise.reset');
  parts.practice.textContent = tr('tools.exercise.practice');
}

/**
 * How an answer is checked, as far as it applies: the tolerance (or "a whole number", for a
 * sign or a position), and how to type −∞ only for a score the causal mask can hide.
 */
function toleranceText(question, numbers, tr) {
  if (question.whole) return tr('tools.exercise.whole');
  const text = tr('tools.exercise.tolerance', {
    absolute: TOLERANCE.absolute,
    relative: TOLERANCE.relative * 100,
  });
  return maskApplies(numbers, question.cell)
    ? tr('sentences.two', { first: text, second: tr('tools.exercise.toleranceMasked') })
    : text;
}

/** "Solved here: 1 of 3. Solved in this example: 5.": this step's questions, then every step's. */
function tallyText(tr, { steps, numbers, questions, done }) {
  // Only the page's own questions for this example count (stored progress can be edited).
  const asked = numbers ? steps.flatMap((step) => questionsOf(step, numbers)) : [];
  const solved = solvedAmong(
    done,
    asked.map((q) => q.id),
  );
  const here = questions.filter((q) => done[q.id] === 'solved').length;
  return tr('tools.exercise.tally', { here, total: questions.length, solved });
}

/**
 * A step without a question: chapter 1's are given numbers; elsewhere the page names the
 * steps of the chapter where Predict asks (a step there may compute numbers it cannot ask).
 */
function noQuestionText(step, steps, numbers, tr) {
  if (!step || !numbers || step.chapter === 1) return tr('tools.exercise.none');
  const chapter = step.chapter;
  const asking = steps.filter((s) => s.chapter === chapter && questionsOf(s, numbers).length > 0);
  if (asking.length === 0) return tr('tools.exercise.none');
  const titles = asking.map((s) => `“${s.title(tr, numbers.dims)}”`);
  return tr('tools.exercise.noneHere', { steps: titles.join(tr('tools.exercise.listSeparator')) });
}

/** What the reader's answer earned: right, revealed, or wrong with the cell's arithmetic. */
function renderFeedback({ feedback, hint }, question, { outcome, mistake }, tr) {
  hint.hidden = outcome !== 'wrong';
  if (!question || outcome === 'asking') {
    feedback.textContent = '';
    hint.replaceChildren();
    return;
  }
  const answer = formatExact(question.answer);
  if (outcome === 'right') feedback.textContent = tr('tools.exercise.right', { answer });
  else if (outcome === 'revealed') feedback.textContent = tr('tools.exercise.revealed', { answer });
  else {
    // A recognised slip is named first, then the whole calculation.
    const slip = mistake ? `${tr(`tools.mistake.${mistake}`)} ` : '';
    // "The arithmetic of that cell" only for a cell; another question has its own hint.
    feedback.textContent = `${slip}${tr(question.cell ? 'tools.exercise.wrong' : 'tools.exercise.wrongHint')}`;
    hint.replaceChildren(...question.hint(tr).map((line) => h('li', { text: line })));
  }
}
