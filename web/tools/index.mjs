// The learning tools of one explainer: "Predict" (exercises on the live numbers, with a
// practice mode), "Export" (PNG, SVG, an animated GIF of the stage, JSON and CSV of every
// matrix) and the share link. The app gives them getters for what it shows (numbers, step,
// language, the scene) so they always act on what is on screen.
import { h } from '../dom.mjs';
import { captureElement, figure } from './export/capture.mjs';
import { canvasToPng, drawOnCanvas } from './export/canvas.mjs';
import { saveBlob } from './export/download.mjs';
import { recordGif } from './export/gif.mjs';
import { matricesCsv, matricesJson } from './export/matrices.mjs';
import { toSvg } from './export/svg.mjs';
import { createExercisePanel } from './exercise-panel.mjs';
import { panelToggle } from './panel-toggle.mjs';

/** The export formats, in the order of their buttons. */
const FORMATS = ['png', 'svg', 'gif', 'json', 'csv'];

/**
 * The Export button and its panel: a button per format, the status line and the share link.
 * @param {{ run: (format: string) => void, copyLink: () => void }} on
 */
function exportElements(id, on) {
  const exportToggle = panelToggle('export', id('export'), () => {
    const open = exportPanel.hidden;
    exportPanel.hidden = !open;
    exportToggle.setAttribute('aria-expanded', String(open));
  });
  const exportButtons = Object.fromEntries(
    FORMATS.map((format) => [
      format,
      h('button', {
        type: 'button',
        class: 'tools-button',
        dataset: { export: format },
        onclick: () => on.run(format),
      }),
    ]),
  );
  const exportHeading = h('h3', { class: 'tools-heading', id: id('export-heading') });
  const exportStatus = h('p', { class: 'tools-status', role: 'status', 'aria-live': 'polite' });
  const linkLabel = h('span', { class: 'tools-label' });
  const linkField = h('input', { type: 'text', readonly: true, class: 'share-link', dir: 'ltr' });
  const copyButton = h('button', {
    type: 'button',
    class: 'tools-button',
    dataset: { tool: 'copy-link' },
    onclick: on.copyLink,
  });
  const linkNote = h('p', { class: 'tools-note', id: id('share-note') });
  linkField.setAttribute('aria-describedby', id('share-note'));
  const exportPanel = h(
    'section',
    {
      class: 'export-panel',
      id: id('export'),
      hidden: true,
      'aria-labelledby': id('export-heading'),
    },
    exportHeading,
    h(
      'div',
      { class: 'tools-row' },
      FORMATS.map((format) => exportButtons[format]),
    ),
    exportStatus,
    h('label', { class: 'share-field' }, linkLabel, linkField),
    h('div', { class: 'tools-row' }, copyButton),
    linkNote,
  );
  return {
    exportToggle,
    exportButtons,
    exportHeading,
    exportStatus,
    linkLabel,
    linkField,
    copyButton,
    linkNote,
    exportPanel,
  };
}

/**
 * @param {{ id: (name: string) => string, sceneHost: HTMLElement, embedded: boolean,
 *   scene: { hold: () => void, reveal: () => void },
 *   context: () => { numbers, step, steps, tr, language, exampleKey, link: string,
 *     sceneElement: HTMLElement | null, buildScene: (step) => object },
 *   onPractice: () => void }} options
 *   link: the share link (a URL; or, embedded, the element's markup)
 */
export function createLearningTools({ id, sceneHost, embedded, scene, context, onPractice }) {
  const exercise = createExercisePanel({ context, sceneHost, scene, onPractice, id });

  // --- export ---------------------------------------------------------------------------
  const parts = exportElements(id, { run: (format) => run(format), copyLink: () => copyLink() });
  const { exportToggle, exportButtons, exportHeading, exportStatus, exportPanel } = parts;
  const { linkLabel, linkField, copyButton, linkNote } = parts;
  // Off-screen, laid out like the scene host, for the GIF's scenes.
  const recordingHost = h('div', { class: 'scene-host export-host', 'aria-hidden': 'true' });

  const bar = h('div', { class: 'tools-bar' }, exercise.toggle, exportToggle);

  function update() {
    const { tr, link } = context();
    exportToggle.textContent = tr('tools.export');
    exportHeading.textContent = tr('tools.export.heading');
    for (const format of FORMATS) exportButtons[format].textContent = tr(`tools.export.${format}`);
    linkLabel.textContent = tr(embedded ? 'tools.share.markup' : 'tools.share.link');
    copyButton.textContent = tr('tools.share.copy');
    linkNote.textContent = tr(embedded ? 'tools.share.markupNote' : 'tools.share.note');
    linkField.value = link;
    exercise.update();
  }

  function fileBase() {
    const { step, language } = context();
    return `self-attention-${step.id}-${language}`;
  }

  /** The scene on screen as a drawing, with the step's title above it. */
  function sceneDrawing() {
    const { sceneElement, step, tr, numbers } = context();
    return figure(captureElement(sceneElement), {
      title: step.title(tr, numbers.dims),
      caption: `${tr('stage.number', { stage: step.stage })} · ${tr('app.title')}`,
      font: getComputedStyle(sceneHost).fontFamily,
    });
  }

  async function run(format) {
    const { tr, numbers, step, steps, language, hash, buildScene } = context();
    const say = (key, params) => (exportStatus.textContent = tr(key, params));
    for (const button of Object.values(exportButtons)) button.disabled = true;
    try {
      if (format === 'png') {
        const canvas = drawOnCanvas(sceneDrawing(), 2);
        saveBlob(await canvasToPng(canvas), `${fileBase()}.png`);
      } else if (format === 'svg') {
        const svg = toSvg(sceneDrawing(), { title: step.title(tr, numbers.dims), lang: language });
        saveBlob(new Blob([svg], { type: 'image/svg+xml' }), `${fileBase()}.svg`);
      } else if (format === 'json') {
        const json = matricesJson(numbers, { step: step.id, link: hash });
        saveBlob(
          new Blob([`${JSON.stringify(json, null, 2)}\n`], { type: 'application/json' }),
          `${fileBase()}.json`,
        );
      } else if (format === 'csv') {
        saveBlob(new Blob([matricesCsv(numbers)], { type: 'text/csv' }), `${fileBase()}.csv`);
      } else {
        const stageSteps = stageRun(steps, step);
        sceneHost.after(recordingHost);
        recordingHost.style.width = `${sceneHost.clientWidth}px`;
        say('tools.export.recording', { done: 0, total: stageSteps.length * 5 });
        const gif = await recordGif({
          steps: stageSteps,
          buildScene,
          host: recordingHost,
          title: (s) => s.title(tr, numbers.dims),
          caption: `${tr('stage.number', { stage: step.stage })} · ${tr('app.title')}`,
          font: getComputedStyle(sceneHost).fontFamily,
          onProgress: (done, total) => say('tools.export.recording', { done, total }),
        });
        recordingHost.remove();
        saveBlob(gif, `self-attention-stage-${step.stage}-${language}.gif`);
      }
      say('tools.export.saved', { format: format.toUpperCase() });
    } catch (error) {
      recordingHost.remove();
      say('tools.export.failed', { format: format.toUpperCase(), reason: error.message });
    } finally {
      for (const button of Object.values(exportButtons)) button.disabled = false;
    }
  }

  async function copyLink() {
    const { tr, link } = context();
    try {
      await navigator.clipboard.writeText(link);
      exportStatus.textContent = tr('tools.share.copied');
    } catch {
      // No clipboard access (permissions, file://): the link is selected for Ctrl+C instead.
      linkField.focus();
      linkField.select();
      exportStatus.textContent = tr('tools.share.select');
    }
  }

  return {
    bar,
    exportPanel,
    exercise: exercise.element,
    update,
    sceneShown: exercise.sceneShown,
  };
}

/** The steps of the stage the current step belongs to (consecutive, as the timeline has them). */
function stageRun(steps, step) {
  const at = steps.indexOf(step);
  let first = at;
  let last = at;
  while (first > 0 && steps[first - 1].stage === step.stage) first -= 1;
  while (last < steps.length - 1 && steps[last + 1].stage === step.stage) last += 1;
  return steps.slice(first, last + 1);
}
