// The views of one explainer's state: the scene on screen, its explanation and titles, the
// stage list and transport, the panels, the window title, the spoken step and the URL. Each
// reads `app` (app.mjs: the state, the numbers and steps derived from it, the widgets) and
// writes only its own part of the page.
import { h } from '../dom.mjs';
import { whenIdle } from '../idle.mjs';
import { withGlossary } from '../draw/glossary.mjs';
import { htmlLang } from '../i18n/index.mjs';
import { STAGES, chapterOf, indexOfStep, stageTitle } from '../stages/index.mjs';
import { badges, narration, statusText, windowTitle } from './narration.mjs';
import { urlOf } from './url.mjs';

/** What a step's build(ctx) gets: the numbers, the language and what it may ask the app. */
export function sceneContext(app) {
  const { numbers, tr, language, version, actions, training, attn, languageRun } = app;
  const { modelSizes } = app.state.current;
  return { numbers, tr, language, version, modelSizes, actions, training, attn, languageRun };
}

export function drawScene(app) {
  const { steps, timeline, scenes } = app;
  const step = steps[timeline.index];
  if (!scenes.show(step, sceneContext(app), timeline.t)) return;
  // A new scene on screen: build the one after it in an idle moment, from the steps and the
  // numbers of that moment. An edit in between (a token removed) replaces both: a step taken
  // from the list of before would name a token the new numbers no longer have.
  scenes.prepare(() => {
    const upcoming = app.steps[app.timeline.index + 1];
    return upcoming ? { step: upcoming, ctx: sceneContext(app) } : null;
  });
}

/** A newly shown scene: its explanation, titles and badges. */
export function showExplanation(app, scene, step) {
  const { page, tr, id, numbers } = app;
  app.inspector?.hide();
  const { sentences, formula, notes = [], developer = [] } = scene.explanation;
  const glossarySeen = new Set();
  const glossary = (text) => withGlossary(text, tr, glossarySeen, id);
  const explanation = [
    h(
      'div',
      { class: 'explanation-text' },
      sentences.map((text) => h('p', {}, glossary(text))),
      // How the page computed it, in the module's own names: folded away from the prose.
      developer.length
        ? h(
            'details',
            { class: 'developer-note' },
            h('summary', { text: tr('explain.developers') }),
            developer.map((text) => h('p', { text })),
          )
        : null,
    ),
    // No formula (chapter 3's training and heads): no empty formula box beside the text.
    ...(formula ? [h('div', { class: 'formula' }, formula)] : []),
  ];
  // While playing, the new step's text goes on the page in the frame after its scene: the
  // frame that shows a new scene is playback's costliest (its first style and layout), and
  // the text's own (sentences and formula) then comes in a frame of its own, 16 ms later.
  showLatest(app, 'shownExplanation', explanation, app.timeline.playing, (parts) =>
    page.explanation.replaceChildren(...parts),
  );
  // Shown until Predict holds the new step (app/widgets.mjs).
  app.held = false;
  page.notes.hidden = false;
  page.notes.replaceChildren(
    ...notes.map(
      (note) => note.element ?? h('p', { class: `note note-${note.kind}` }, glossary(note.text)),
    ),
  );
  page.stageLabel.textContent = `${tr('stage.number', { stage: step.stage })} · ${stageTitle(step.stage, tr)}`;
  page.sceneTitle.textContent = step.title(tr, numbers.dims);
  page.badges.replaceChildren(
    // "Your own numbers" only where the stage shows the edited example.
    ...badges(
      numbers.settings,
      numbers.isArticleExample || !STAGES[step.stage - 1].usesExample,
      tr,
    ).map(({ kind, text }) => h('span', { class: `badge badge-${kind}`, text })),
  );
  app.marks.dataset.step = step.id;
  app.widgets.tools.sceneShown();
  // In chapter 2, "Your numbers" opens with the layer's editors; in chapter 4 it holds only
  // what the learner changes there (widgets/language-numbers.mjs), and "All numbers as
  // tables", whose tables are the article's example, is not shown: chapter 4's model never
  // reads them (its numbers are in its stages).
  const chapter = chapterOf(step.stage);
  const { workbench, languageNumbers, tables } = app.widgets;
  tables.element.hidden = chapter === 4;
  workbench.showChapter(chapter);
  languageNumbers.update({ tr, shown: chapter === 4 });
}

export function narrate(app) {
  const { steps, timeline, scenes, tr, numbers } = app;
  app.page.narration.textContent = narration({
    step: steps[timeline.index],
    index: timeline.index,
    total: steps.length,
    scene: scenes.current,
    tr,
    dims: numbers.dims,
    held: app.held,
  });
}

/**
 * The stage list, the transport and the window title. During playback (`playing`) the list
 * waits for the frame after the new scene's first, as the explanation does (showExplanation):
 * a new stage's row of step buttons (24 boxes laid out anew at `weights` → `keys-row-1`) is
 * style and layout that frame, the costliest of playback, need not carry as well; with both
 * in it, it took 21–29 ms of the page's CPU. The title waits until the frame is drawn.
 */
export function updateChrome(app, { playing = false } = {}) {
  const { steps, timeline, tr, numbers, widgets } = app;
  const step = steps[timeline.index];
  const listUpdate = { steps, index: timeline.index, tr, dims: numbers.dims };
  showLatest(app, 'pendingList', listUpdate, playing, (update) => widgets.stageList.update(update));
  widgets.transport.update({
    tr,
    steps,
    title: step.title(tr, numbers.dims),
    stageTitle: (number) => stageTitle(number, tr),
  });
  if (playing) afterFrame(app, () => updateTitle(app));
  else updateTitle(app);
}

function updateTitle(app) {
  if (app.embed) return; // the host page's title is the host page's
  const title = windowTitle(app.steps[app.timeline.index], app.tr, app.numbers.dims);
  if (document.title !== title) document.title = title;
}

/**
 * show(update) now, or while `playing` in the next animation frame: app[field] holds the latest
 * update, and a frame's show is skipped when a later update (shown then or in its own frame)
 * replaced it, so only the latest reaches the page.
 */
function showLatest(app, field, update, playing, show) {
  app[field] = update;
  if (!playing) show(update);
  else
    requestAnimationFrame(() => {
      if (app[field] === update) show(update);
    });
}

/** Runs `task` once, after the current frame is drawn (later calls in the frame share it). */
export function afterFrame(app, task) {
  const pending = app.pendingAfterFrame;
  if (pending.size === 0) {
    setTimeout(() => {
      const tasks = [...pending];
      pending.clear();
      for (const run of tasks) run();
    });
  }
  pending.add(task);
}

/**
 * The current step's stage's own panels (a chapter 3 stage's `panels`: what its numbers are
 * in the tables and "Your numbers"), or null.
 */
export function stagePanels(app) {
  const step = app.steps[indexOfStep(app.steps, app.state.current.step)];
  return (step && STAGES[step.stage - 1].panels) ?? null;
}

/**
 * The name of an editable matrix of the reader's example: chapters 2 and 3 name the weights
 * in their own words, chapter 1 in the article's (Chinese says 键, 值, 查询 in every chapter).
 */
function matrixNamer(app) {
  const step = app.steps[indexOfStep(app.steps, app.state.current.step)];
  const later = step && chapterOf(step.stage) > 1;
  return (name) => app.tr(later && name !== 'x' ? `matrix.later.${name}` : `matrix.${name}`);
}

/** The tables, "Your numbers" and the page's own words. */
export function refreshPanels(app) {
  const { page, tr, id, language, numbers, widgets } = app;
  const { example, layer, settings, status } = app.state.current;
  const panels = stagePanels(app);
  // A chapter 3 stage's views may follow the training run.
  widgets.tables.update({ numbers, tr, language, panels, training: app.training });
  widgets.workbench.update({
    numbers,
    panels,
    training: app.training,
    example,
    layer,
    settings,
    tr,
    matrixName: matrixNamer(app),
    statusText: statusText(status, tr),
    error: app.traceError,
    isArticleExample: numbers.isArticleExample,
    practising: app.practiceFrom !== null,
  });
  const seen = new Set();
  page.title.textContent = tr('app.title');
  page.subtitle.replaceChildren(...withGlossary(tr('app.subtitle'), tr, seen, id));
  page.source.textContent = tr('app.source');
  page.skip.textContent = tr('app.skip');
  page.keysHint.textContent = tr('app.keysHint');
  page.scrollCue.textContent = tr('app.scrollCue');
  page.footer.replaceChildren(...withGlossary(tr('app.footer'), tr, seen, id));
  widgets.languageSwitch.update(language, tr);
}

/**
 * How long playback's URL may wait for an idle moment after the new step's first frame. While
 * a step animates, headless Chromium often finds no idle moment at all, and the write then
 * comes at this timeout: at 100 ms the address bar lagged the step on screen by 150–167 ms.
 */
const URL_IDLE_TIMEOUT_MS = 40;

/** The URL: pushed when the reader moved to another step, replaced otherwise. */
export function writeUrl(app, reason) {
  const { url } = app;
  if (!url) return; // an embedded explainer keeps its state to itself
  // A new step, or practice's new example, is an entry of the history: Back returns.
  const push = reason === 'step' || reason === 'practice';
  const write = () => url.write(urlOf(app.state.current), push ? 'push' : 'replace');
  // During playback the URL (a message to the browser process, which then works for several
  // milliseconds on the core the page draws with) is written once the new step's first frame,
  // the costliest of playback, is drawn, in the idle moment after it: the address bar names
  // the step on screen a frame or two after it shows. The page's first URL waits for its
  // first frame. A later write replaces a pending one (app.pendingUrl is the one to run).
  const pending = { write };
  app.pendingUrl = null;
  if (reason === 'tick') {
    app.pendingUrl = pending;
    afterFrame(app, () =>
      whenIdle(() => app.pendingUrl === pending && flushUrl(app), URL_IDLE_TIMEOUT_MS),
    );
  } else if (reason === 'load') requestAnimationFrame(() => afterFrame(app, write));
  else write();
}

/** Writes now the URL that playback left waiting, if any (playback stopped: the URL says so). */
export function flushUrl(app) {
  const pending = app.pendingUrl;
  if (!pending) return;
  app.pendingUrl = null;
  pending.write();
}

/** <html lang> and the window title, or only the element's lang when embedded. */
export function setDocumentLanguage(app) {
  if (app.embed) {
    app.root.lang = htmlLang(app.language);
    return;
  }
  document.documentElement.lang = htmlLang(app.language);
  document.title = app.tr('app.title');
}
