// One explainer's widgets, built while the module downloads, each wired to the state through
// app.change() (app.mjs): the language switch, notices, stage list, transport, "Your numbers",
// the tables and the learning tools (Predict, Export, Practice).
import { h } from '../dom.mjs';
import { articleExample, dimsOf, sameExample, withDims, withEntry } from '../model/example.mjs';
import { LANGUAGES } from '../i18n/index.mjs';
import { layerDimsOf, layerExample, withLayerEntry } from '../model/layer.mjs';
import { LEARNING_DEFAULTS } from '../model/learning.mjs';
import { randomExample } from '../model/random.mjs';
import { CHAPTERS, STAGES, buildSteps } from '../stages/index.mjs';
import { createLearningTools } from '../tools/index.mjs';
import { freshSeed, practiceExample } from '../tools/practice.mjs';
import { createLanguageSwitch } from '../widgets/language-switch.mjs';
import { createNotices } from '../widgets/notices.mjs';
import { createStageList } from '../widgets/stage-list.mjs';
import { createTablesPanel } from '../widgets/tables-panel.mjs';
import { createTransport } from '../widgets/transport.mjs';
import { createWorkbench } from '../widgets/workbench.mjs';
import { createLanguageNumbers } from '../widgets/language-numbers.mjs';
import { setLanguage, setLayerDims } from './flow.mjs';
import { elementMarkup } from './markup.mjs';
import { DEFAULT_SETTINGS } from './state.mjs';
import { urlOf } from './url.mjs';
import { narrate, sceneContext } from './views.mjs';

export function createWidgets(app) {
  const { timeline } = app;
  const sceneHost = h('div', { class: 'scene-host', dataset: { inspectRoot: '' } });
  const widgets = {
    languageSwitch: createLanguageSwitch({
      languages: LANGUAGES,
      onChange: (next) => setLanguage(app, next),
    }),
    notices: createNotices(app.tr),
    stageList: createStageList({
      onJump: (index) => timeline.goTo(index),
      chapters: CHAPTERS,
      stages: STAGES,
    }),
    transport: createTransport({ timeline, onStages: () => widgets.stageList.open() }),
    workbench: createWorkbench(workbenchHandlers(app)),
    // Chapter 4's part of "Your numbers": its text, sentence and sampling (views.mjs shows it).
    languageNumbers: createLanguageNumbers(app.languageRun),
    tables: createTablesPanel(),
    sceneHost,
    tools: createLearningTools({
      id: app.id,
      sceneHost,
      embedded: Boolean(app.embed),
      // Predict holds the step at its start (nothing computed yet) until the answer is in;
      // the notes under the explanation (the article's rounding prints the weights) and the
      // spoken step's numbers wait too.
      scene: {
        hold: () => {
          showHeld(app, true);
          if (timeline.t > 0 || timeline.animating)
            queueMicrotask(() => timeline.scrubTo(timeline.index));
        },
        // A held step plays on; a step already drawn stays as it is.
        reveal: () => {
          showHeld(app, false);
          if (timeline.t < 1 && !timeline.animating) timeline.goTo(timeline.index);
        },
      },
      context: () => toolsContext(app),
      onPractice: () => practise(app),
    }),
  };
  // Under the title of "Your numbers", where a chapter 4 step shows it alone.
  widgets.workbench.element.querySelector('.panel-title').after(widgets.languageNumbers.element);
  return widgets;
}

/** Predict holding the step (or not): its notes and the spoken step's numbers wait. */
function showHeld(app, held) {
  if (app.held === held) return;
  app.held = held;
  app.page.notes.hidden = held;
  if (app.scenes?.current) narrate(app);
}

/** "Your numbers": each edit is one change of the state. */
function workbenchHandlers(app) {
  const current = () => app.state.current;
  const clearMessages = () => app.widgets.workbench.clearEditorMessages();
  return {
    onSettings: (changes) =>
      app.change({ settings: { ...current().settings, ...changes } }, 'settings'),
    onDims: (changes) =>
      app.change({ example: withDims(current().example, changes), status: null }, 'edit'),
    onEntry: (name, row, col, value) =>
      app.change(
        { example: withEntry(current().example, name, row, col, value), status: null },
        'edit',
      ),
    onRandomise: (scheme, seed) => {
      clearMessages();
      app.change(
        {
          example: randomExample(dimsOf(current().example), scheme, seed),
          status: { key: 'workbench.randomised', params: { scheme, seed } },
        },
        'edit',
      );
    },
    onLayerDims: (changes) => setLayerDims(app, changes),
    onLayerEntry: (name, row, col, value) =>
      app.change(
        { layer: withLayerEntry(current().layer, name, row, col, value), status: null },
        'edit',
      ),
    onReset: () => {
      clearMessages();
      app.change(
        {
          example: articleExample(),
          layer: layerExample(),
          settings: DEFAULT_SETTINGS,
          status: { key: 'workbench.wasResetTo', params: {} },
        },
        'edit',
      );
    },
  };
}

/** What the learning tools read: the numbers, the step, the link, the scene to export. */
function toolsContext(app) {
  const current = app.state.current;
  const hash = urlOf(current);
  const { numbers, tr, language, steps, embed } = app;
  return {
    numbers,
    tr,
    language,
    steps,
    step: steps[app.timeline.index],
    hash,
    // Progress is kept per example: its numbers and settings, whatever the step (and whatever
    // chapter 3's shuffle, target and steps taken, which the link also carries).
    exampleKey: urlOf({ ...current, step: 'any', learning: LEARNING_DEFAULTS }),
    link: embed ? elementMarkup(current, language) : `${location.href.split('#')[0]}${hash}`,
    sceneElement: app.scenes.current?.element ?? null,
    buildScene: (step) => step.build({ ...sceneContext(app), step }),
  };
}

/**
 * Practice: a new example of small whole numbers, at the first step that asks questions. The
 * reader's own numbers and step are kept (app.practiceFrom, the first press's; more presses
 * draw other examples) and a notice offers them back; Back in the browser returns too (the
 * practice example is a new entry of the history).
 */
function practise(app) {
  app.widgets.workbench.clearEditorMessages();
  const { current } = app.state;
  app.practiceFrom ??= { example: current.example, step: current.step };
  const kept = app.practiceFrom;
  const example = practiceExample(freshSeed());
  const steps = buildSteps(dimsOf(example), layerDimsOf(current.layer));
  const first = steps.find((step) => step.questions);
  app.change(
    { example, step: first.id, status: { key: 'tools.practice.status', params: {} } },
    'practice',
  );
  const article = sameExample(kept.example, articleExample());
  app.widgets.notices.show({
    id: 'practice',
    kind: 'info',
    text: (t) => t(article ? 'tools.practice.keptArticle' : 'tools.practice.kept'),
    action: {
      label: (t) => t(article ? 'tools.practice.backArticle' : 'tools.practice.back'),
      run: () => leavePractice(app),
    },
  });
}

/** Back from practice to the numbers and the step the reader had before it. */
function leavePractice(app) {
  const kept = app.practiceFrom;
  if (!kept) return;
  app.practiceFrom = null;
  app.widgets.workbench.clearEditorMessages();
  app.change(
    { example: kept.example, step: kept.step, status: { key: 'tools.practice.left', params: {} } },
    'practice',
  );
}
