// An animated GIF of a stage, the way the article's figures are: every step of the stage
// drawn at a few moments of its animation, from the reader's numbers, in the chosen language.
// The scenes are built off-screen with the page's own styles, captured (capture.mjs), painted
// on a canvas and sent frame by frame to a Worker that encodes them with gifenc.
//
// The worker's code is bundled into the page by web/build.mjs (GIF_WORKER_SOURCE) and
// started from a blob: URL, so it works from the single offline file; the page's policy
// allows exactly that (worker-src blob:).
import { captureElement, figure } from './capture.mjs';
import { drawOnCanvas } from './canvas.mjs';

/* global GIF_WORKER_SOURCE */
const workerSource = () => (typeof GIF_WORKER_SOURCE === 'string' ? GIF_WORKER_SOURCE : null);

/** The moments of one step's animation that become frames, and how long each is shown (ms). */
/** The most pixels a GIF frame has (about 900 × 650). */
const MAX_PIXELS = 600_000;

const MOMENTS = [
  { t: 0, delay: 300 },
  { t: 0.25, delay: 200 },
  { t: 0.5, delay: 200 },
  { t: 0.75, delay: 200 },
  { t: 1, delay: 1200 },
];

/** After the next frame's layout; a hidden tab draws no frames, so at most 100 ms. */
const nextFrame = () =>
  new Promise((resolve) => {
    requestAnimationFrame(() => resolve());
    setTimeout(resolve, 100);
  });

/**
 * @param {{ steps: object[], buildScene: (step) => object, host: HTMLElement,
 *   title: (step) => string, caption: string, font: string,
 *   onProgress?: (done: number, total: number) => void }} options
 *   host: an element laid out like the scene host (off-screen), for the scenes to be built in
 * @returns {Promise<Blob>} image/gif
 */
export async function recordGif({ steps, buildScene, host, title, caption, font, onProgress }) {
  const source = workerSource();
  if (!source) throw new Error('the GIF encoder is not bundled into this build');
  // First every frame as a drawing (small), so that all frames get the largest frame's size.
  const drawings = [];
  for (const step of steps) {
    const scene = buildScene(step);
    host.replaceChildren(scene.element);
    for (const { t, delay } of MOMENTS) {
      scene.render(t);
      // Twice: layout, then whatever a ResizeObserver measured and the next render uses.
      await nextFrame();
      scene.render(t);
      const drawing = figure(captureElement(scene.element), { title: title(step), caption, font });
      drawings.push({ drawing, delay });
    }
  }
  host.replaceChildren();
  const fullWidth = Math.max(...drawings.map(({ drawing }) => drawing.width));
  const fullHeight = Math.max(...drawings.map(({ drawing }) => drawing.height));
  // A large scene (the decoding stage's four heads) is drawn smaller, so that the GIF stays small
  // enough to share (under 500 KB): at most MAX_PIXELS a frame.
  const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (fullWidth * fullHeight)));
  const width = Math.ceil(fullWidth * scale);
  const height = Math.ceil(fullHeight * scale);

  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  URL.revokeObjectURL(url);
  try {
    return await new Promise((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(event.message || 'the GIF worker failed'));
      worker.onmessage = ({ data }) => {
        if (data.type === 'frame') onProgress?.(data.count, drawings.length);
        else if (data.type === 'done') resolve(new Blob([data.bytes], { type: 'image/gif' }));
      };
      const canvas = document.createElement('canvas');
      for (const { drawing, delay } of drawings) {
        drawOnCanvas({ ...drawing, width: fullWidth, height: fullHeight }, scale, canvas);
        const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data.buffer;
        worker.postMessage({ type: 'frame', pixels, width, height, delay }, [pixels]);
      }
      worker.postMessage({ type: 'finish' });
    });
  } finally {
    worker.terminate();
  }
}
