// The scene on screen and the next one, built ahead. A step's scene is built from the step,
// the numbers and the language; it is rebuilt only when one of them changes, and the next
// step's scene is built in an idle moment so that moving on (playback, Next, →) only has to
// show it.
import { whenIdle } from '../idle.mjs';

/**
 * @param {{ host: HTMLElement, cue?: HTMLElement, onShow: (scene: object, step: object) =>
 *   void }} options  cue: shown while the scene is wider than the host (it scrolls
 *   sideways); onShow runs when a newly built scene is put on screen
 */
export function createSceneStage({ host, cue, onShow }) {
  let scene = null;
  // Measured after layout, when the host or the scene changes size (a new scene, an edit,
  // a turned phone): no layout read in the frames.
  const widths = cue
    ? new ResizeObserver(() => {
        cue.hidden = host.scrollWidth <= host.clientWidth + 1;
      })
    : null;
  widths?.observe(host);
  let shownKey = '';
  let next = null; // { key, scene }
  let scheduled = false;

  /** The data-focus-key of the focused control in the scene on screen, if any. */
  const focusedKey = () => {
    const focused = host.getRootNode().activeElement;
    return host.contains(focused) ? (focused.dataset?.focusKey ?? '') : '';
  };
  const keyOf = (step, ctx) => `${step.id}|${ctx.version}|${ctx.language}`;
  const build = (step, ctx) => step.build({ ...ctx, step });

  /**
   * Puts the step's scene on screen (built now unless built ahead) and draws it at t.
   * @returns {boolean} whether a new scene was put on screen
   */
  function show(step, ctx, t) {
    const key = keyOf(step, ctx);
    const fresh = key !== shownKey;
    if (fresh) {
      shownKey = key;
      const focusKey = focusedKey();
      scene = next?.key === key ? next.scene : build(step, ctx);
      next = null;
      if (host.firstElementChild) widths?.unobserve(host.firstElementChild);
      host.replaceChildren(scene.element);
      widths?.observe(scene.element);
      // A control the reader used rebuilt its own scene (the K/V sharing stage's switch): the focus stays
      // on the same control of the new scene.
      if (focusKey)
        scene.element
          .querySelector(`[data-focus-key="${focusKey}"]`)
          ?.focus({ preventScroll: true });
      host.dataset.scene = step.family;
      onShow(scene, step);
    }
    scene.render(t);
    return fresh;
  }

  /**
   * When the page is idle long enough (two seconds at most), builds the scene of the step
   * `upcoming()` names then: () => ({ step, ctx }) or null.
   */
  function prepare(upcoming, since = performance.now()) {
    if (scheduled) return;
    scheduled = true;
    whenIdle((deadline) => {
      scheduled = false;
      // Between two frames of playback: wait for a longer idle moment.
      if (deadline.timeRemaining() < 8 && performance.now() - since < 2000) {
        prepare(upcoming, since);
        return;
      }
      const { step, ctx } = upcoming() ?? {};
      if (!step) return;
      const key = keyOf(step, ctx);
      if (next?.key !== key) next = { key, scene: build(step, ctx) };
    });
  }

  return {
    show,
    prepare,
    get current() {
      return scene;
    },
  };
}
