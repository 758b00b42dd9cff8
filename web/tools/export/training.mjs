// Chapter 3's training files, from the train stage: the loss curve as PNG, SVG and CSV, and
// the trained parameters as JSON (which "Load parameters" reads back, and which the package's
// loadParameters() takes as its `parameters` field). The curve's files are made from the
// curve on screen: its SVG with the page's colours written into it.
import { h, svg } from '../../dom.mjs';
import { lossCsv, parametersJson, readParametersJson } from '../../model/training-export.mjs';
import { trainedSteps } from '../../model/training.mjs';
import { saveBlob } from './download.mjs';

/** The curve's SVG as a file: the page's CSS classes become presentation attributes. */
function curveSvgText(curve) {
  const copy = curve.cloneNode(true);
  const styleOf = (selector) => getComputedStyle(curve.querySelector(selector) ?? curve);
  const paint = (selector, properties) => {
    const style = styleOf(selector);
    copy.querySelectorAll(selector).forEach((node) => {
      for (const property of properties)
        node.setAttribute(property, style.getPropertyValue(property));
    });
  };
  paint('.loss-line', ['stroke', 'stroke-width']);
  paint('.loss-grid', ['stroke']);
  paint('.loss-drop', ['stroke', 'stroke-dasharray']);
  paint('.loss-drop-label', ['fill', 'font-size']);
  paint('.loss-tick', ['fill', 'font-size']);
  paint('.loss-axis', ['fill', 'font-size']);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('font-family', getComputedStyle(curve).fontFamily);
  const [, , width, height] = curve.getAttribute('viewBox').split(' ').map(Number);
  copy.setAttribute('width', width);
  copy.setAttribute('height', height);
  copy.prepend(svg('rect', { width: '100%', height: '100%', fill: '#fff' }));
  return { text: new XMLSerializer().serializeToString(copy), width, height };
}

/** The curve as a PNG, twice its size, through an <img> of its SVG as a data: URL. */
async function curvePng({ text, width, height }) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

/** The start of every file name of a run: "tiny-transformer-rope-seed1". */
export const trainingFileBase = ({ positions, seed }) =>
  `tiny-transformer-${positions}-seed${seed}`;

/**
 * "Copy link to this trained model": the link (made by `modelLink`) into a field, and to the
 * clipboard when the page may write it.
 */
function modelLinkEntry(modelLink, tr, say) {
  const field = h('input', {
    type: 'text',
    readonly: true,
    class: 'share-link',
    dir: 'ltr',
    'aria-label': tr('ch3.files.link'),
  });
  // In a share field, laid out as the Export panel's share link; shown once there is a link.
  const element = h('label', { class: 'share-field' }, field);
  element.hidden = true;
  const button = h('button', {
    type: 'button',
    class: 'tools-button',
    dataset: { trainExport: 'link' },
    text: tr('ch3.files.link'),
    onclick: async () => {
      try {
        field.value = await modelLink();
        element.hidden = false;
        try {
          await navigator.clipboard.writeText(field.value);
          say('ch3.files.linkCopied', { length: field.value.length });
        } catch {
          field.select(); // no clipboard access (permissions, file://): selected for Ctrl+C
          say('ch3.files.linkSelect', { length: field.value.length });
        }
      } catch (error) {
        say('tools.export.failed', { format: 'URL', reason: error.message });
      }
    },
  });
  return { button, element };
}

/**
 * The row of buttons: { element, update(run) }.
 * @param training app/training.mjs's controller; curve the loss curve's <svg>; modelLink
 *   makes the address that opens the page with the trained model
 */
export function trainingFiles(training, tr, curve, modelLink) {
  const status = h('p', { class: 'train-files-status', role: 'status' });
  const say = (key, params) => (status.textContent = tr(key, params));
  const base = () => trainingFileBase(training.run.settings);
  const save = async (format) => {
    try {
      const { run } = training;
      if (format === 'csv') {
        saveBlob(new Blob([lossCsv(run.losses)], { type: 'text/csv' }), `${base()}-loss.csv`);
      } else if (format === 'svg' || format === 'png') {
        const drawing = curveSvgText(curve);
        const blob =
          format === 'svg'
            ? new Blob([drawing.text], { type: 'image/svg+xml' })
            : await curvePng(drawing);
        saveBlob(blob, `${base()}-loss.${format}`);
      } else {
        const parameters = await training.parameters();
        const step = trainedSteps(run);
        const text = parametersJson({ settings: run.settings, step, parameters });
        saveBlob(new Blob([text], { type: 'application/json' }), `${base()}-step${step}.json`);
      }
      say('tools.export.saved', { format: format.toUpperCase() });
    } catch (error) {
      say('tools.export.failed', { format: format.toUpperCase(), reason: error.message });
    }
  };
  const buttons = ['png', 'svg', 'csv', 'json'].map((format) =>
    h('button', {
      type: 'button',
      class: 'tools-button',
      dataset: { trainExport: format },
      text: tr(`ch3.files.${format}`),
      onclick: () => save(format),
    }),
  );
  const link = modelLinkEntry(modelLink, tr, say);
  buttons.push(link.button);
  const file = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    class: 'train-load-input',
    dataset: { trainLoad: '' },
    onchange: async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      try {
        const read = readParametersJson(await chosen.text());
        await training.load(read);
        say(training.run.status === 'failed' ? 'ch3.files.refused' : 'ch3.files.loaded', {
          step: read.step,
          reason: training.run.error,
        });
      } catch (error) {
        say('ch3.files.refused', { reason: error.message });
      }
      file.value = '';
    },
  });
  const element = h(
    'div',
    { class: 'train-files', 'data-export': 'skip' },
    h('div', { class: 'tools-row' }, buttons),
    link.element,
    h('label', { class: 'train-field' }, h('span', { text: tr('ch3.files.load') }), file),
    status,
  );
  const update = (run) => {
    const trained = run.step > 0 || run.loadedStep !== null;
    buttons.forEach((button) => {
      button.disabled = !trained;
    });
  };
  return { element, update };
}
